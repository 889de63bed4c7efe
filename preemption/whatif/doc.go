// Package whatif answers the capacity questions autoscalers and operators
// ask of a cluster, by running kube-scheduler v1.36's scheduling loop
// (preemption.Queue) on what-if views of a placement snapshot:
//
//   - Replicas: how many copies of a pod template fit, and where, placed one
//     after another as kube-scheduler would place them (filters, scores,
//     lowest-name tie-break, each bound before the next, so spreading and
//     anti-affinity between the copies count).
//   - Drain: where the pods of cordoned nodes go when their controllers
//     re-create them, and whether every one of them finds a node
//     (Cordon and Reschedule are its two steps).
//   - ScaleDown: which nodes can go, greedily, with cluster-autoscaler's
//     drainability rules, each removal applied before the next is tried.
//   - Estimate: how many nodes of a template a backlog needs, as
//     cluster-autoscaler's binpacking estimator counts them (FirstFit) or
//     as kube-scheduler itself would then place the pods (Scheduler).
//   - Gang and GangReplicas: whether the pods of a gang (a PodGroup with
//     a Gang policy) fit all together, as the GangScheduling plugin and
//     the pod group cycle of v1.36 decide.
//
// # The questions' rules
//
// They are those of the conformance oracle's what-if questions
// (shared/oracle cmd/whatif), which turn the question into a schedule-mode
// scenario for upstream's framework:
//
//   - Replica i (from 0) of a template is a deep copy named NAME-i with uid
//     uid-NS-NAME-i (Replica). It keeps the template's creationTimestamp,
//     so the queue pops the replicas in index order. The replicas are
//     scheduled until one is not placed or the requested number are.
//   - A drained node gets spec.unschedulable and the taint
//     node.kubernetes.io/unschedulable:NoSchedule (unless it has it), as
//     kubectl cordon and the node lifecycle controller do. Every pod bound
//     to it is then, as `kubectl drain --ignore-daemonsets
//     --delete-emptydir-data --force` treats it: a pod owned by a DaemonSet
//     or a mirror pod (annotation kubernetes.io/config.mirror) stays;
//     every other pod is evicted and re-created by its controller as the
//     same object, pending (spec.nodeName cleared, status {phase:
//     Pending}). The moved pods are scheduled in queue order (priority,
//     creationTimestamp, then their order in the snapshot's input pods).
//     Budgets play no part here (eviction.PlanDrain adds them).
//   - Unless Options.Preemption is set, every pod a question schedules gets
//     preemptionPolicy Never: a capacity question evicts nobody, and an
//     unplaced pod's message ends with upstream's "preemption: not
//     eligible due to preemptionPolicy=Never.".
//
// # Deliberate differences from the autoscalers
//
//   - ScaleDown places moved pods where the scheduler would (scores, queue
//     order); cluster-autoscaler uses the filters alone and the first node
//     that passes them. The verdict "can this node go" is the same when
//     the filters are; where the pods land is the real answer.
//   - Estimate has no time limit (cluster-autoscaler's would make answers
//     depend on the machine), only MaxNodes; upstream's unstable sort of
//     equivalence groups becomes input order among equal scores.
//
// # Determinism and cost
//
// Answers are deterministic (upstream's random host choice among equal
// scores becomes the lowest node name) and do not depend on
// Options.Placement.Parallelism. Beyond the pending pods' order (queue
// ties), one input order matters, as upstream's NodeInfo order does:
// Drain, ScaleDown and Reschedule visit a drained node's pods in the bound
// pods' input order, so the Blocker ScaleDown names (the first blocking
// pod) and the queue ties among moved pods follow it; permuting nodes,
// budgets or priority classes changes nothing (a property test checks
// it). Neither the snapshot nor any input object
// is modified; every answer carries the resulting snapshot, a view of the
// one given. Each replica is compiled once and bound into a view whose cost
// grows with the change, not with the cluster; cordoning a node is such a
// view too (placement.Snapshot.WithNode). Adding and removing nodes make
// node views (Snapshot.WithNodes, WithoutNodes), which share the nodes'
// pods and the interned labels but renumber the nodes: each costs a copy
// of the node list, and the first placement question on it builds the
// per-snapshot indexes (node label columns, occurrences) again.
package whatif
