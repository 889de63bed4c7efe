// Package eviction answers, as pure functions, the questions Kubernetes
// v1.36 answers when pods are disrupted on purpose or under pressure:
//
//   - Decide: what POST pods/NAME/eviction answers and changes, following
//     kube-apiserver's eviction subresource
//     (pkg/registry/core/pod/storage/eviction.go) over a one-pod storage with
//     the pod registry's delete rules (rest.BeforeDelete, the pod strategy's
//     CheckGracefulDelete): status code, reason, message, causes,
//     retryAfterSeconds, the DisruptionTarget condition, the delete call and
//     the budget's new status.
//   - PDBStatus: a PodDisruptionBudget's status after one sync of the
//     disruption controller (pkg/controller/disruption/disruption.go):
//     expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed,
//     disruptedPods, the DisruptionAllowed condition and the SyncFailed
//     fail-safe, and whether a status write happens.
//   - SelectDrainPods: which pods `kubectl drain` evicts, skips or refuses
//     (k8s.io/kubectl/pkg/drain/filters.go), with kubectl's texts; PlanDrain:
//     an order of evictions for a set of nodes that never breaks a budget,
//     and where the evicted pods fit on the remaining nodes.
//   - RankMemory, RankPID, RankDisk, Rank: the kubelet's node-pressure
//     eviction order (pkg/kubelet/eviction/helpers.go); ParseThresholds,
//     DefaultHardThresholds, Observe, ThresholdsMet, GracePeriodMet,
//     NodeConditions, ReclaimThreshold:
//     signals, the Linux default hard thresholds, soft thresholds with grace
//     periods, which are met; SelectVictim: one eviction cycle (the first
//     non-critical pod of the ranking, its grace period and its new status,
//     EvictedStatus); AdmitUnderPressure: admission under pressure.
//   - TaintEvictionTime: when the taint-eviction controller evicts a pod
//     from a node with NoExecute taints (pkg/controller/tainteviction).
//
// # Model
//
// Budget arithmetic, with minAvailable and maxUnavailable as integers or
// percentages (percentages of expectedPods rounded up, as
// intstr.GetScaledValueFromIntOrPercent with roundUp), following the
// disruption controller's getExpectedPodCount and updatePdbStatus:
//
//	desiredHealthy     = minAvailable                          (integer minAvailable; expectedPods = #selected pods)
//	desiredHealthy     = ceil(minAvailable% * expectedPods)     (expectedPods = sum of controllers' replicas)
//	desiredHealthy     = max(0, expectedPods - maxUnavailable)  (integer maxUnavailable; same expectedPods)
//	desiredHealthy     = max(0, expectedPods - ceil(maxUnavailable% * expectedPods))
//	currentHealthy     = #{selected p : p Ready, not terminating, not in disruptedPods younger than DeletionTimeout}
//	disruptionsAllowed = max(0, currentHealthy - desiredHealthy), 0 when expectedPods = 0
//
// An accepted eviction (Decide's 201) of a pod the budget protects writes
// the budget as checkAndDecrement does; a refusal or a dry run writes
// nothing:
//
//	disruptionsAllowed' = disruptionsAllowed - 1 >= 0
//	disruptedPods'      = disruptedPods ∪ {pod name ↦ Now}
//
// A selector {} selects every pod of the budget's namespace and a nil
// selector none, for the eviction handler and the controller alike.
// An accepted eviction of a healthy pod decrements disruptionsAllowed and
// records the pod in disruptedPods; the controller keeps subtracting it from
// currentHealthy for DeletionTimeout (2 minutes; an entry exactly that old is
// kept in the map but counted healthy again).
//
// # Determinism
//
// Where upstream depends on map or informer order, schedkit fixes an order:
// pods are taken in namespace/name order (the pod named by "found no
// controllers for pod" is the first failing one in that order), Decision.PDBs
// come in namespace/name order, drain warnings and errors are sorted,
// ParseThresholds returns thresholds in signal order, and pressure rankings
// are stable sorts, so
// pods the comparators cannot order keep their input order (upstream's
// sort.Sort leaves them in an unspecified order). Time is always a parameter.
//
// # Usage
//
//	d, err := eviction.Decide(eviction.Request{Pod: pod, PDBs: pdbs, Now: now})
//	if d.Allowed() { ... d.PDBs[i].PDB is the budget to write back ... }
//	st, err := eviction.PDBStatus(pdb, pods, workloads, now) // the controller's view
//	plan, err := eviction.PlanDrain(snap, []string{"node-a"}, pdbs, eviction.PlanOptions{})
//
// A caller simulating a cluster keeps budgets current the way the cluster
// does: it writes back the budget Decide returns, and re-runs PDBStatus when
// pods change (an evicted pod stays counted out for DeletionTimeout).
//
// # Drain plans
//
// PlanDrain issues evictions node by node (name order) and pod by pod
// (namespace/name order); each is checked with Decide's rules against the
// budgets as the earlier planned evictions left them, so the plan never
// takes a budget below zero. Evicted pods are then placed, in the same
// order, on the first node in name order that is not being drained and
// passes every placement Filter with the earlier pods already placed:
// cluster-autoscaler's "does it fit elsewhere" question, answered with the
// scheduler's filters. Pods of one controller with identical specs are
// compiled once, and their scan resumes where the previous one fitted,
// which is exact because, for pods whose filters read no other pods'
// placements, nodes only become less feasible as pods are added.
//
// # Concurrency and inputs
//
// Every function is safe for concurrent use and never modifies its
// arguments: results that carry API objects carry new ones (deep copies).
// Invalid input (a budget with both minAvailable and maxUnavailable, a bad
// percentage, a malformed selector) gives an error wrapping ErrInvalidPDB or
// ErrInvalidRequest with field paths; upstream verdicts, refusals included,
// are values, never errors.
//
// # Deliberate differences
//
//   - Decide takes the API server's stored objects: v1 defaulting (for
//     example terminationGracePeriodSeconds 30) is the caller's job, as it is
//     the API server's: an unset terminationGracePeriodSeconds reads as 0,
//     as CheckGracefulDelete reads it. lifecycle.Delete runs the same
//     delete rules (one copy) but reads it as the default 30. Admission, authorization, finalizers and concurrent
//     writers are not modelled, so the 504 "couldn't update
//     PodDisruptionBudget due to conflicts" never happens.
//   - A pod without metadata.resourceVersion (any pod built in Go rather
//     than read from the API server) is taken as stored with
//     resourceVersion "1", the first version a storage gives a created
//     object; each write Decide models then adds one (etcd's revisions
//     grow by at least one). The API server never holds a pod without a
//     version, so upstream has no answer of its own here; without this
//     rule the DisruptionTarget write would fail as upstream's storage does
//     on a version it cannot parse. A version that is set but not a decimal
//     number keeps upstream's answer for such a stored object, the evl
//     oracle's too: 500 "resourceVersion \"abc\" is not a number".
//   - PDBStatus knows the REST mappings of the built-in kinds that commonly own
//     pods (core, apps, extensions, batch, and a few others); other
//     controllers are described by a Scale. Discovery is modelled as serving
//     v1, apps/v1 and batch/v1, as the reference oracle's does.
//   - PlanDrain treats the drained nodes as cordoned: they are never
//     targets, but their remaining pods (DaemonSet, mirror, blocked) still
//     count for other pods' topology constraints; cluster-autoscaler removes
//     the node from its snapshot instead. Placement is first fit in node
//     name order (cluster-autoscaler's check) unless PlanOptions.Scheduler
//     asks for the scheduler's choice: the drained nodes cordoned and the
//     evicted pods scheduled in queue order without preemption, as
//     whatif.Reschedule does, so the placements are whatif.Drain's
//     wherever no budget blocks an eviction (ties to the lowest name,
//     where upstream picks at random). Either way an eviction placed
//     nowhere carries upstream's FitError text (PlannedEviction.Message).
//   - Rankings are stable sorts; upstream's sort.Sort leaves ties in an
//     unspecified order.
//   - A budget that fails validation is an error, wherever it is: the API
//     server never stores one, so it signals a caller's mistake. Upstream
//     code handed one anyway (as the evl oracle does, which defaults but
//     does not validate) takes an unparsable selector to match no pod in
//     the Eviction API (EvictionREST.getPodDisruptionBudgets, and only for
//     budgets in the pod's namespace) and reports SyncFailed with the
//     parser's message in the disruption controller.
package eviction
