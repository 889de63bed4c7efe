// Package placement decides where kube-scheduler v1.36 would put a pod, and
// explains why every other node was refused: the default profile's PreEnqueue,
// PreFilter, Filter, PreScore, Score and NormalizeScore phases, weighted and
// summed exactly like upstream (pkg/scheduler/schedule_one.go
// findNodesThatFitPod and prioritizeNodes, with the in-tree plugins), without
// the volume and DRA plugins.
//
// # Usage
//
//	snap, warnings, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound})
//	res, err := placement.Evaluate(snap, pod, placement.Options{})
//	// res.BestNodes[0] is the node host selection takes; res.Nodes[i] says why not.
//
// For many questions about one pod, compile it once:
//
//	c, err := placement.Compile(snap, pod, placement.Options{})
//	d := c.Schedule()                       // host selection without the report
//	st := c.Filter(node)                    // every Filter on one node, first failure
//	each := c.FilterEach(node)              // every Filter on its own, for a "why" report
//	v, err := c.On(snap.WithoutPods(keys...)) // the same pod against a view
//	st = c.NewTrial().Filter(copyOfNode, removed) // the same answer, without the view
//
// Preemption asks the last question for every candidate node: with the
// lower-priority pods taken off a private copy of the node, does the
// preemptor fit? On answers it through a snapshot view (recomputing the
// PreFilter state of PodTopologySpread and InterPodAffinity, as upstream's
// AddPod/RemovePod extensions update it); a Trial answers it from the
// removed pods alone, which is what the dry run uses. FilterNode does the
// same in one call for a one-off question.
//
// A scheduling loop prepares each pending pod once (Prepare: everything
// read from the pod alone) and compiles it against the snapshot of its turn
// (Prepared.Compile); Decide is Schedule as kube-scheduler's cycle runs it,
// without scoring a single feasible node.
//
// The vocabulary is shared with topology and preemption: a verdict is a
// framework.Status (package placement/framework, with its Code constants
// and the plugin names); Snapshot, NodeInfo and PodInfo are declared here
// and are the types topology, preemption and eviction take. A NodeInfo or
// PodInfo is a read-only view of the snapshot's index: its methods return
// values and copies, so nothing a caller does with them changes a later
// answer. FilterPlugins gives FilterEach's order.
//
// # Rules followed (v1.36.3)
//
//   - SchedulingGates rejects a gated pod before anything else
//     ("waiting for scheduling gates: [a b]", UnschedulableAndUnresolvable).
//   - PreFilter runs NodeAffinity, NodePorts, NodeResourcesFit,
//     PodTopologySpread, InterPodAffinity, NodeDeclaredFeatures in order; a
//     plugin that returns Skip does not run its Filter (Result.PreFilter.SkippedFilterPlugins).
//     NodeAffinity's matchFields metadata.name In values restrict the nodes;
//     the others get UnschedulableAndUnresolvable "node(s) didn't satisfy
//     plugin(s) [NodeAffinity]" without a plugin, while Result.Nodes[i].Filters
//     still lists every plugin run on its own.
//   - Filter order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
//     NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity,
//     NodeDeclaredFeatures. A node's Status is the first rejection; Filters are
//     all of them. NodeResourcesFit reports UnschedulableAndUnresolvable when a
//     request exceeds the node's allocatable outright (fitsRequest), so
//     preemption does not look there.
//   - Scores: TaintToleration 3 (untolerated PreferNoSchedule taints,
//     reverse-normalized), NodeAffinity 2 (preferred terms, normalized),
//     NodeResourcesFit 1 (LeastAllocated over cpu and memory with the
//     100m / 200Mi per-container defaults), PodTopologySpread 2 and
//     InterPodAffinity 2 (package topology), NodeResourcesBalancedAllocation 1
//     (the balance improvement, 50 + (50 + withPod − withoutPod)/2,
//     kubernetes/kubernetes#135573; Skip for a best-effort pod), ImageLocality 1
//     (container images and image volumes). PreScore Skip is reported in
//     Result.PreScoreSkippedPlugins; a skipped plugin contributes nothing.
//   - A normalized score outside [0, 100] (int64 overflow on absurd
//     quantities) fails the cycle as RunScorePlugins does: Decision.Err and
//     Result.Error carry a ScoreRangeError, and no node is chosen. So does
//     a Score plugin that fails (ScorePluginError: a profile scoring with
//     TaintToleration, PodTopologySpread or InterPodAffinity without their
//     PreScore, see Options.Plugins).
//   - When no node is feasible, Result.Message is FitError's text:
//     "0/N nodes are available: " and the sorted histogram of the nodes'
//     reasons, or the PreFilter message.
//   - AdmitToNode is the kubelet's admission of a pod that names its node
//     (pkg/kubelet/lifecycle/predicate.go): resources, node affinity, node
//     name, host ports and NoExecute taints, but not NoSchedule taints or
//     spec.unschedulable.
//
// Options' zero value is the default profile. A custom profile sets the
// plugin args (ScoringStrategy, BalancedResources, IgnoredResources,
// AddedAffinity, HardPodAffinityWeight, DefaultSpreadConstraints, ...),
// the score weights (ScoreWeights; 0 leaves a plugin out of Score) and the
// plugins of the other extension points (Plugins: filter order, a plugin
// disabled at one extension point only, no PreFilter state, no SchedulingGates,
// no DefaultPreemption); package placement/schedconfig reads all of it from
// a KubeSchedulerConfiguration file as kube-scheduler does. Options.Version selects the
// v1.35 or v1.34 rules (see Version). Those releases count a bound pod's
// pod-level requests by another rule, which the snapshot applies when it is
// built: build it with SnapshotInput.WithoutPodLevelResize =
// !Version.UsesPodLevelResizeStatus() (Compile refuses a mismatch with
// ErrVersionMismatch).
//
// # Determinism and deliberate differences
//
// Nodes are always reported in name order. Host selection takes the highest
// total and breaks ties by the lowest node name (upstream picks at random
// among the tied nodes); Result.BestNodes lists them all. Scores are
// reported for every feasible node even when only one is feasible (upstream
// skips scoring then; Schedule does not need them but computes them too).
// Unparsable selectors in the pod's node affinity, pod (anti-)affinity terms
// or spread constraints are an error (wrapping ErrInvalidPod, with every
// field path) rather than a node selector term that silently never matches,
// InterPodAffinity's PreFilter rejection "parsing pod: ..." or a PreFilter
// Error: the API server rejects such pods, so no stored pod differs.
// Insufficient-scalar reasons are in resource-name order (upstream: map order).
//
// Other objects the API server refuses at validation are refused too, with
// its texts and paths, because upstream's framework, handed them anyway,
// gives no meaningful answer: a negative request, limit or overhead of the
// incoming pod (Compile, Evaluate, Prepare and the preemption queue) or of
// a bound pod (NewSnapshot, Snapshot.WithPod), e.g.
// `spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be
// greater than or equal to 0` (upstream would fail scoring with "invalid
// score 111"); and spread constraints repeating a {topologyKey,
// whenUnsatisfiable} pair (a Duplicate at
// spec.topologySpreadConstraints[i].{topologyKey, whenUnsatisfiable}). A
// request above its limit is not refused: the scheduler reads requests
// alone, and upstream's answer for such a pod is recorded in the conformance
// cases. Not a difference: a request too large for MilliValue's int64 (cpu
// 1e18) overflows to 0 millicores and the pod is placed, as upstream's
// computePodResourceRequest reads the same value and places it too.
//
// Result.Why (and NodeResult.Why) render the report as text, one line per
// node: the rejecting plugin and reasons plus every other plugin that would
// also reject, or the total score and its weighted parts.
//
// # Concurrency and cost
//
// Compiled values and snapshots are immutable: any number of goroutines may
// share them. Options.Parallelism lets Schedule split the node range over
// goroutines (each writing only its own range), Compile build the
// PodTopologySpread and InterPodAffinity PreFilter states side by side, and
// Score run those two plugins beside the node-local ones; results are
// identical for any value (property tests check it).
// SnapshotInput.Parallelism does the same for NewSnapshot's per-pod work.
// No goroutine outlives the call that started it: a call's helpers exit
// before it returns (or just after, having found nothing left to do), and
// nothing runs between calls. A caller making a chain of short calls (a
// scheduling loop) may lend them a Workers instead (Options.Workers), whose
// helpers stay parked between calls until Close; preemption.ScheduleQueue
// keeps one for its own run. A test counts goroutines before and after
// every entry point. AdmitToNode compiles
// without the topology plugins, which the kubelet does not run. Compile
// does the per-pod work once (request vectors, compiled node selector terms, tolerations, host ports, image names, the topology
// plugins' per-domain counts); Filter then costs a few loads and compares per
// node and allocates nothing for the built-in plugins (reason slices are
// shared package-level values that callers must not modify). Measured on the
// issue's shapes (BenchmarkPodFilterScore: 5000 nodes, 50,000 bound pods, 3
// zones, one 2-core machine shared with other work), Compile plus Schedule
// takes about 0.75 ms for a pod with requests only, 0.8 ms with a zone spread
// constraint, 1.05 ms with a required hostname anti-affinity and 1.0 ms with
// a required zone pod affinity (150-210 ns per node), with 48-70
// allocations per pod, none per node. The full Evaluate report takes about
// 3 ms for the requests-only pod, most of it the per-node records and
// scores. Evaluate numbers each plugin's distinct statuses per pod and
// packs a node's verdicts into one integer key, so nodes whose filters all
// gave the same verdicts share one Filters list and recorded status, found
// by comparing keys (treat a Result as read-only). NodeAffinity reads the
// snapshot's node label columns (each requirement settled once per distinct
// label value) for the snapshot's own nodes, the label maps for any other.
package placement
