// Package whatif answers the capacity questions autoscalers and operators
// ask of a cluster, by running kube-scheduler v1.36's scheduling loop
// (preemption.Queue) on what-if views of a placement snapshot:
//
//   - Replicas: how many copies of a pod template fit, and where, placed one
//     after another as kube-scheduler would place them (filters, scores,
//     lowest-name tie-break, each bound before the next, so spreading and
//     anti-affinity between the copies count).
//   - Drain: where the pods of cordoned nodes go when their controllers
//     re-create them, and whether every one of them finds a node.
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
// # Determinism and cost
//
// Answers are deterministic (upstream's random host choice among equal
// scores becomes the lowest node name) and do not depend on
// Options.Placement.Parallelism. Neither the snapshot nor any input object
// is modified; every answer carries the resulting snapshot, a view of the
// one given. Each replica is compiled once and bound into a view whose cost
// grows with the change, not with the cluster; cordoning a node is such a
// view too (placement.Snapshot.WithNode).
package whatif
