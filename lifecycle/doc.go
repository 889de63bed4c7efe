// Package lifecycle models the life of a pod as Kubernetes v1.36 (default
// feature gates) decides it: the phase and conditions the kubelet writes, the
// container state transitions its status manager accepts, the restart
// back-off, the grace period of a DELETE and the kubelet's kill sequence,
// and which pods the pod garbage collector removes. Every function is pure:
// it reads its arguments, never modifies them, and takes time as a
// parameter. The pod-safety state machine (at most one running instance per
// pod identity) lives in the sub-package lifecycle/safety.
//
// # Phase and conditions
//
// Phase mirrors the kubelet's getPhase (pkg/kubelet/kubelet_pods.go). It
// counts regular init containers (pending, failed for good), sidecars
// (restartable init containers: only their start matters) and regular
// containers (running, waiting, stopped, unknown), and with
// ContainerRestartRules on decides "will this stopped container run again"
// per container with ShouldRestart: the container's restartPolicyRules (only
// read when the container has its own restartPolicy), then its
// restartPolicy, then the pod's. A container stopped with reason
// RestartingAllContainers is always going to run again. Invariants:
//
//	Succeeded ⇒ every regular container is known and stopped, and all exited 0
//	Failed    ⇒ an init container failed for good, or some container stopped for good
//	            (or, for a terminal pod, with a non-zero exit)
//
// GenerateStatus adds the Initialized, Ready and ContainersReady conditions
// in the order and with the reasons and messages of
// pkg/kubelet/status/generate.go, so that
//
//	Ready=True ⇒ ContainersReady=True ⇒ Initialized=True
//
// for statuses as the kubelet writes them (ready only while running): Ready
// copies ContainersReady unless that is True, and every container ready
// means a regular container has started. GenerateConditions returns the
// kubelet's whole list (kept foreign conditions, PodReadyToStartContainers,
// Initialized, Ready, ContainersReady, PodScheduled); ScheduledCondition,
// ReadyToStartContainersCondition and DisruptionTargetCondition give the
// other conditions a pod carries.
//
// CheckTransition mirrors the status manager's checkContainerStateTransition:
// a terminated container may only become non-terminated if it can restart.
// A refusal is a verdict with upstream's text, not an error.
//
// MergePhase adds the kubelet's three-way merge with its cached and the
// API's phase, so that a written phase never leaves Succeeded or Failed.
//
// # Restart back-off
//
// Backoff mirrors the kubelet's crash-loop back-off (client-go's
// flowcontrol.Backoff as kuberuntime's doBackOff drives it, no jitter):
// 10 s, doubling, capped at maxContainerRestartPeriod (default 300 s; a cap
// below 10 s is also the first delay). An entry is forgotten when the
// container exits more than 600 s after the entry was last raised (the
// kubelet's own expiry, whatever the cap). BackoffState is a value the
// caller keeps per container; every method takes the times it needs:
//
//	Initial <= Delay <= Max;  Delay never decreases until a reset
//
// # Deletion
//
// GracePeriod mirrors the pod strategy's CheckGracefulDelete and Delete the
// API server's rest.BeforeDelete plus the generic store's finalizer rule:
// the request's gracePeriodSeconds, else terminationGracePeriodSeconds
// (unset = 30, the value defaulting would have stored: the one difference
// from eviction.Decide, which runs the same rules on stored objects and
// reads unset as 0), 0 for unbound or terminal pods; once a deletion has started
// a later DELETE can only shorten the grace period, and the deadline never
// moves later, except that upstream moves an already passed deadline to now:
//
//	deadline' <= max(deadline, now);  deletionGracePeriodSeconds' <= deletionGracePeriodSeconds
//
// Grace 0 removes the object unless finalizers keep it.
//
// EffectiveGracePeriod mirrors the pod worker's grace period (it only
// shrinks, at least 1 s) and PlanKill kuberuntime's killContainer: the
// preStop hook within the grace period, the termination signal with what is
// left, the kill at least 2 s later; a kubelet restart begins the sequence
// again (call both anew at the restart time).
//
// CollectGarbage mirrors the pod garbage collector's cycle: terminated pods
// over the threshold (evicted first, then oldest), terminating pods on
// not-ready out-of-service nodes, pods of nodes missing for 40 s (with
// DisruptionTarget DeletionByPodGC), unscheduled terminating pods; each
// marked Failed when not terminal, then deleted with grace 0.
//
// # Deliberate differences
//
// Where upstream's order depends on informer (map) order, the orphaned and
// unscheduled GC passes take pods in namespace/name order, and equal
// creation times and names are ordered by namespace. A pod eligible in
// several GC passes is listed once, under the first (upstream deletes it in
// the first and its later attempts fail as not found). The controller's
// queue of missing nodes is caller state (GCInput.MissingSince), and a node
// absent from GCInput.Nodes is taken as absent from the API server, which
// upstream confirms with a GET before collecting. The status generation
// covers the kubelet's phase and its Initialized, Ready and ContainersReady
// conditions; probes, resize conditions and pod sync handlers' evictions are
// the caller's. Kill plans assume no termination ordering between sidecars.
//
// # Input handling
//
// Objects are read as the API server stores them after v1 defaulting; the
// defaults the rules depend on are applied implicitly (an unset
// restartPolicy is Always, an unset terminationGracePeriodSeconds is 30).
// Invalid input (a nil pod, an unknown restart policy, rule action or
// operator, a restart rule without exit codes) is an error wrapping
// ErrInvalidInput and holding a *ValidationError whose field.ErrorList
// carries API paths (errors.As, or FieldErrors); functions never panic
// on caller input. Where upstream answers a malformed status with a verdict
// (an init container status out of spec order), so does this package.
//
// # Determinism and concurrency
//
// The same arguments always give the same result: no clock, randomness or
// map iteration reaches an output, and every list comes in upstream's order
// with the pod's namespace and name as the last tie-break. All functions
// are safe for concurrent use; they share no state. Backoff is a small
// value that may be copied and shared freely.
package lifecycle
