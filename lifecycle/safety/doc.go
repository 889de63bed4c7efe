// Package safety is a deterministic, steppable model of the pod-safety
// guarantee of Kubernetes (design proposal "Pod Safety, Consistency
// Guarantees, and Storage Implications", kubernetes/design-proposals
// pod-safety.md, with the v1.36 controllers): for a StatefulSet-like
// controller, at most one instance of each pod identity runs at any time,
// unless someone declares a pod or node gone without confirmation.
//
// # Model
//
// A Cluster holds the API objects (pods, nodes, volume attachments), the
// machines (partitioned or not, kubelet up or crashed, powered on or
// fenced) and the ground truth: the Instances actually running. Apply takes
// one Event (Partition, Heal, CrashKubelet, RestartKubelet, GracefulDelete,
// ForceDelete, DeleteNode, Fence, MarkOutOfService, Advance) and then lets
// every actor settle, in a fixed order, until a whole round leaves the
// model's state (objects, machines, instances, volumes) unchanged; New and
// Apply return an error wrapping ErrNotSettled if that takes more than 64
// rounds, which only a defect of the model can cause:
//
//  1. taint eviction: pods on a node not Ready for 300 s (or carrying the
//     out-of-service taint) are deleted gracefully;
//  2. the pod garbage collector (lifecycle.CollectGarbage): pods of a node
//     deleted for 40 s, and terminating pods of a not-ready out-of-service
//     node, are force-deleted;
//  3. the attach-detach controller: an RWO volume is attached to at most one
//     node; it leaves a node once no pod object wants it there and the node
//     reports it unmounted, or at once under the out-of-service taint, or
//     after 6 minutes on an unhealthy node (force detach);
//  4. the StatefulSet controller creates a pod (new UID, same name) for an
//     identity without pod object, and the scheduler binds it to the Ready
//     node with the fewest pods (lowest name first);
//  5. each reachable kubelet, in node-name order: kills instances whose
//     pod object is gone, runs the kill sequence of pods marked for deletion
//     (lifecycle.EffectiveGracePeriod and PlanKill: the grace period, at
//     least 2 s, begun again after a kubelet restart) and then confirms the deletion (DELETE with grace
//     0), and starts pods bound to it once their volume is attached.
//
// Events can also be written as text, one per line or separated by
// semicolons ("Partition(node-a); ForceDelete(web-0); Advance(6m)"), and
// read with ParseEvents; Event.String writes the same form.
//
// Deletions go through lifecycle.Delete, so a second DELETE only shortens a
// deadline and grace 0 removes the object.
//
// # Guarantee and verdicts
//
// Check reports, for the current state, every identity with two instances
// that may be running (nobody confirmed the older dead) and the event that
// allowed it: the event that removed the older instance's pod object while
// it still ran. Only unconfirmed removals do that: a force deletion (or a
// graceful one with grace 0, including a taint eviction of a pod whose
// terminationGracePeriodSeconds is 0), a node deletion of a machine that was
// in fact alive (the model takes node deletion as the administrator's
// confirmation of a permanent partition), or the out-of-service taint on a
// machine that was not fenced. Partitions, kubelet crashes and graceful
// deletions alone never produce two instances: a pod being deleted stays in
// the API until its own kubelet confirms, so the controller waits. Progress:
// once the old instance is confirmed gone (its kubelet confirmed, or the
// node was fenced and marked out of service, or deleted), a replacement
// starts on a Ready node.
//
// Incidents keeps every violation that ever began, since a state may heal
// (the partitioned kubelet comes back and kills its orphan).
//
// As formulas, over the applied history h and each identity i:
//
//	#{running instances of i} <= 1   unless an unconfirmed removal happened during h
//	#{running instances of i} >= 2   ⇒ Violation.AllowedBy = index in h of the unconfirmed removal
//
// where the unconfirmed removals are those listed above; a taint eviction
// with grace 0, which no event asks for directly, is charged to the event
// whose settling performed it.
//
// # Simplifications
//
// The model is the smallest one that shows the guarantee, not a cluster
// simulator: the node lifecycle controller's 40 s node-monitor grace period
// is folded into UnreachableEvictionDelay; the scheduler is a fixed rule
// (fewest pods, lowest name) rather than placement's filters and scores;
// each pod has one container, no probes and no preStop hook; a kubelet
// that comes back starts the kill sequence again, as the real one does,
// but loses nothing else. The lifecycle rules it reuses (deletion, grace
// periods, kill plans, pod garbage collection) are those of the lifecycle
// package, as of v1.36.
//
// # Determinism and concurrency
//
// The model is a pure function of its Config and event sequence: no clock,
// no randomness, no map iteration. A Cluster is not safe for concurrent use;
// Clone it to explore alternatives.
package safety
