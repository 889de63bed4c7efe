// Package preemption reproduces kube-scheduler v1.36's priority and
// preemption rules and schedules a queue of pods with them, as pure
// functions over a placement snapshot.
//
// # Priority
//
// [NewPriorityClasses] validates priority classes as the API server does
// (pkg/apis/scheduling/validation ValidatePriorityClass: user values at most
// 1,000,000,000, the system- prefix reserved for the built-in
// system-node-critical = 2000001000 and system-cluster-critical =
// 2000000000, which always exist). [PriorityClasses.Resolve] then gives a
// pod its priority as the Priority admission plugin does on create
// (plugin/pkg/admission/priority): the named class, else the globalDefault
// class with the lowest value, else 0; preemptionPolicy from the class,
// PreemptLowerPriority by default. It fails with the plugin's Forbidden
// errors (an unknown class, a spec.priority or spec.preemptionPolicy that
// contradicts the class). [PriorityClasses.ResolveLenient] never fails, for
// tools that must go on with imperfect input.
//
// # Queue
//
// [SortQueue] orders pods as the PrioritySort plugin pops them (priority,
// then creationTimestamp as the queue timestamp, then input order where
// upstream's heap leaves it to chance); [QueueBackoff] is the back-off queue's
// 1 s doubling to 10 s.
//
// # Preemption
//
// [Preempt] mirrors DefaultPreemption's PostFilter (Evaluator.Preempt,
// pkg/scheduler/framework/preemption and plugins/defaultpreemption):
//
//  1. Eligibility ([Eligible]): preemptionPolicy Never never preempts; nor
//     does a pod whose nominated node still has a lower-priority pod
//     terminating because of preemption.
//  2. Potential nodes: those whose filter status was Unschedulable (not
//     UnschedulableAndUnresolvable). All are dry-run, in node-name order,
//     unless Options.Sampling asks for upstream's sampling
//     (minCandidateNodesPercentage 10, minCandidateNodesAbsolute 100) from a
//     given offset.
//  3. Victims per node (SelectVictimsOnNode): every pod with lower priority
//     than the preemptor is taken off; if the preemptor still fails a filter
//     the node is no candidate (its status explains why; a node without such
//     pods gets "No preemption victims found for incoming pod"). Otherwise
//     the pods are put back most important first (higher priority, then
//     earlier start), PDB-violating ones before the others, and each pod
//     with which the preemptor still passes every filter stays. A pod is
//     PDB-violating when, walking the potential victims in importance order
//     and taking one allowed disruption from each matching budget that does
//     not already list it in status.disruptedPods, one of its budgets drops
//     below zero.
//  4. Node choice (pickOneNodeForPreemption): fewest PDB violations, then
//     lowest highest-victim priority, then smallest sum of (priority +
//     2^31), then fewest victims, then the latest earliest-start-time among
//     the highest-priority victims, then (schedkit's rule, upstream iterates a
//     map) the lowest node name. Every losing [Candidate] records the
//     [Criterion] it lost on and the values compared.
//  5. When no node can help, the status carries upstream's FitError text:
//     "preemption: 0/N nodes are available: ..." with the dry-run reasons and
//     "Preemption is not helpful for scheduling" for every node not dry-run.
//
// Options.NominatedPods accounts pods waiting for the node they were
// nominated to, as RunFilterPluginsWithNominatedPods does in both the
// scheduling cycle and the dry run: on a node, the filters first run with the
// nominated pods of priority at least the incoming pod's added (their
// topology counts included), and the node fails if that pass fails; then
// without them. ScheduleQueue stops counting a nominated pod once it binds.
//
// PDB selectors follow the scheduler's rule by default (an empty selector
// matches no pod, unlabelled pods match no budget); [PDBSelectorEviction]
// selects the Eviction API's rule (an empty selector matches the whole
// namespace), the rule the eviction package uses: both are one copy of the
// matching.
//
// # Scheduling a queue
//
// [ScheduleQueue] pops pending pods in queue order and tries each once: a
// gated pod is reported Gated; otherwise the scheduling cycle runs
// (placement.Compile, then Compiled.Schedule), and the pod is bound to the best node (highest score,
// then lowest name) or, when no node is feasible, preempts: the victims are
// removed and the pod is bound to the nominated node (PreemptionNominated),
// so that the next pod sees the new cluster. Bound pods get phase Running
// and a synthetic start time one minute after the previous binding.
// [PrepareQueue] does the part that reads the pods alone (queue order,
// each pod's placement.Prepare) once: the [Queue] can then be scheduled
// against several what-if snapshots, or prepared while a snapshot is built.
//
// A queue's pods mostly come from a few templates (a Deployment's
// replicas), and between two of them only the nodes a binding or an
// eviction touched change. PrepareQueue classes the pods by their inputs
// (names aside), and a run reuses, per class, what the previous pods of
// the class computed on the nodes that did not change since: the node-local
// plugins' verdicts and raw scores, each node's preemption dry run (when
// it reads nothing but the node: no topology filter, no nominated pods),
// and the topology plugins' PreFilter state, moved onto the new snapshot
// from the changed nodes alone. Normalization, host selection and the
// candidate choice run over every node as before, so a run decides exactly
// what computing every pod from scratch decides (a property test compares
// the two); the idea is kube-scheduler's former equivalence cache and
// v1.35's batching of pods with one signature.
//
// # Determinism and concurrency
//
// Results do not depend on input order beyond the documented tie-breaks:
// queue ties by input order, nodes and candidates by name, and potential
// victims of equal priority and start time, which are ranked as upstream
// ranks them (its unstable sort over the node's pod order: input order,
// then binding order). Nothing here
// modifies its arguments: bindings and evictions produce new copy-on-write
// snapshot views. All functions are safe for concurrent use; a
// [PriorityClasses] is immutable.
//
// Options.Parallelism (in ScheduleQueue, Placement.Parallelism when it is
// 0) lets the dry run try potential nodes on several goroutines: each has
// its own private node copy, preemptor scratch and PDB-match cache, and the
// candidate loop takes the outcomes in visiting order, so the candidates,
// the rejected nodes, the chosen node and the first dry-run error are those
// of the one-goroutine run (a property test checks it). With sampling, nodes
// are tried in rounds of the wanted candidate count, so an early stop
// discards at most one round.
//
// ScheduleQueue and Queue.Schedule keep helper goroutines for their run
// (a placement.Workers, unless Placement.Workers lends one), so that each
// pod's short fork-joins find them awake; they exit before the call
// returns. On snapshots of up to about 2000 nodes, a pod of a memoized class
// (several pods with equal specs) is compiled on the calling goroutine:
// that work is shorter than a fork-join's hand-over. It is decided there
// too on fewer than 256 nodes, or when the class's last pod fit nowhere (a
// preemption dry run follows, during which helpers would only spin); on
// more nodes its decision shares the nodes with the helpers. Any other
// pod (of the default profile, on 256 nodes or more) is compiled and
// decided in one step whose first fork-join runs the two topology
// PreFilters, with their PreScore counts (which read every node, not the
// feasible ones), beside the node-local filters of every node; a helper
// that runs out of nodes to filter while a PreFilter still runs scores the
// nodes it passed with the node-local Score plugins ahead. The topology
// Filters and scoring follow. Run one after the other, the PreFilters
// would leave the other cores idle; the decision is the same (a property
// test compares the two). Meanwhile the helpers, once they have nothing
// else to do, work out the next such pod's node-local filter verdicts and
// scores on the snapshot at hand (a lookahead): binding the current pod
// changes one node (preempting, the victims' nodes too), so the next
// decision takes the answers of every other node and works out only
// those. What the helpers have not reached is dropped, never waited for;
// another property test compares the decisions with and without it.
// Preempt starts its helpers per call, or uses Options.Workers.
//
// # Deliberate differences from upstream
//
//   - Upstream's random choices (candidate sampling offset, the final
//     candidate tie) and map orders become the rules above.
//   - The dry run keeps one private copy of the node being tried and takes
//     pods off and puts them back in place (no copy of the cluster per
//     node). Instead of updating PodTopologySpread's and InterPodAffinity's
//     PreFilter state with their AddPod/RemovePod extensions, it asks the
//     topology filters about the node with the removed pods' contributions
//     subtracted at that node's domains (placement.Trial), and only while a
//     removed pod can move that state (same namespace and matching a
//     DoNotSchedule selector; matching one of the preemptor's required
//     terms; or carrying required anti-affinity that selects the
//     preemptor). The counts are the same: on one node the dry run only
//     moves that node's domain down and back towards its original count,
//     which upstream's two-path minimum tracks exactly. Upstream's quirk is
//     kept: PodTopologySpread's PreFilter skips terminating pods
//     (deletionTimestamp set) but its RemovePod extension does not, so a
//     terminating victim that matches the preemptor's DoNotSchedule
//     selector lowers its domain's count while it is off its node.
//   - When none of the pods below the preemptor can move that state and no
//     nominated pod joins the node, a node that fails PodTopologySpread or
//     InterPodAffinity as it is gets that failure as its dry-run status
//     without the copy: taking pods off only gives NodePorts and
//     NodeResourcesFit room, so the first failing filter and its status
//     are the ones the full dry run would find.
//   - Pods without status.startTime count as started at Options.Now
//     (upstream: the wall clock), or after every pod with a start time when
//     Now is zero.
//   - No API calls, no asynchronous preemption, no graceful termination:
//     the caller acts on the returned victims.
package preemption
