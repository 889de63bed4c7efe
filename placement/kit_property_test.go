package placement_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// world is the kit's configuration of the package's properties: up to 6
// nodes, 10 bound pods bound anywhere (Overcommit: answers on overfull
// nodes are checked too), one pending pod, pods with constraints of
// several families at once, best-effort requests and NoExecute taints
// (Mixed).
var world = placementtest.Config{MaxNodes: 6, MaxPods: 10, MaxPending: 1, Overcommit: true, Mixed: true}

func snapshotOfKit(t *rapid.T, c *placementtest.Cluster, nodes []*corev1.Node, bound []*corev1.Pod) *placement.Snapshot {
	in := c.SnapshotInput()
	in.Nodes, in.Pods = nodes, bound
	snap, _, err := placement.NewSnapshot(in)
	require.NoError(t, err)
	return snap
}

func compileKit(t *rapid.T, c *placementtest.Cluster) *placement.Compiled {
	comp, err := placement.Compile(snapshotOfKit(t, c, c.Nodes, c.Pods), c.Pending[0], placement.Options{})
	require.NoError(t, err)
	return comp
}

func evaluateKit(t *rapid.T, c *placementtest.Cluster, nodes []*corev1.Node, bound []*corev1.Pod) *placement.Result {
	r, err := placement.Evaluate(snapshotOfKit(t, c, nodes, bound), c.Pending[0], placement.Options{})
	require.NoError(t, err)
	return r
}

func permute[T any](t *rapid.T, in []T, label string) []T {
	out := append([]T(nil), in...)
	for i := len(out) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, label)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func TestProperties(t *testing.T) {
	t.Run("input order of nodes and pods does not change the result", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			a := evaluateKit(t, c, c.Nodes, c.Pods)
			b := evaluateKit(t, c, permute(t, c.Nodes, "pn"), permute(t, c.Pods, "pp"))
			require.Equal(t, a, b)
		})
	})
	t.Run("inputs are never modified", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			pending := c.Pending[0]
			var nodes0 []*corev1.Node
			for _, n := range c.Nodes {
				nodes0 = append(nodes0, n.DeepCopy())
			}
			var bound0 []*corev1.Pod
			for _, p := range c.Pods {
				bound0 = append(bound0, p.DeepCopy())
			}
			pod0 := pending.DeepCopy()
			comp := compileKit(t, c)
			snap := comp.Snapshot()
			_ = comp.Evaluate()
			_ = comp.Schedule()
			bind := pending.DeepCopy()
			bind.Spec.NodeName = c.Nodes[0].Name
			v, err := snap.WithPod(bind)
			require.NoError(t, err)
			_, err = v.WithoutPods(pending.Namespace + "/" + pending.Name)
			require.NoError(t, err)
			require.Equal(t, nodes0, c.Nodes)
			require.Equal(t, bound0, c.Pods)
			require.Equal(t, pod0, pending)
		})
	})
	t.Run("labels no selector mentions change nothing", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			a := evaluateKit(t, c, c.Nodes, c.Pods)
			var relabeled []*corev1.Node
			for _, n := range c.Nodes {
				n = n.DeepCopy()
				n.Labels["unrelated.example.com/"+rapid.SampledFrom([]string{"a", "b"}).Draw(t, "k")] = rapid.SampledFrom([]string{"x", "y"}).Draw(t, "v")
				relabeled = append(relabeled, n)
			}
			b := evaluateKit(t, c, relabeled, c.Pods)
			require.Equal(t, a, b)
		})
	})
	t.Run("the chosen node passes every filter and has the top score", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := compileKit(t, placementtest.ClusterOf(world).Draw(t, "cluster"))
			snap := c.Snapshot()
			d := c.Schedule()
			r := c.Evaluate()
			if d.Node == "" {
				require.Empty(t, r.FeasibleNodes)
				require.NotEmpty(t, d.Message)
				return
			}
			n, ok := snap.Node(d.Node)
			require.True(t, ok)
			require.True(t, c.Fits(n))
			for _, st := range c.FilterEach(n) {
				require.True(t, st.Code.Passes(), st.String())
			}
			require.Equal(t, r.BestNodes[0], d.Node)
			for _, nr := range r.Nodes {
				if nr.Feasible {
					require.LessOrEqual(t, nr.Total(), d.TotalScore)
					// A chosen node means every score was in range
					// (RunScorePlugins fails the cycle otherwise).
					require.NotNil(t, nr.TotalScore, nr.Node)
					for _, ps := range nr.Scores {
						require.True(t, ps.Normalized >= 0 && ps.Normalized <= framework.MaxNodeScore, "%s %s %d", nr.Node, ps.Plugin, ps.Normalized)
					}
				}
			}
		})
	})
	t.Run("the recorded status is the first failing filter", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			r := evaluateKit(t, c, c.Nodes, c.Pods)
			for _, nr := range r.Nodes {
				want := framework.Status{}
				for _, f := range nr.Filters {
					if !f.Code.Passes() {
						want = f
						break
					}
				}
				// Outside the PreFilter's node restriction no filter runs:
				// upstream records the restricting plugins instead.
				require.Equal(t, len(r.PreFilter.NodeNames) > 0 && !slices.Contains(r.PreFilter.NodeNames, nr.Node), nr.ExcludedByPreFilter)
				if nr.ExcludedByPreFilter {
					want = framework.Status{Code: framework.UnschedulableAndUnresolvable,
						Reasons: []string{fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", r.PreFilter.RestrictedBy)}}
				}
				require.Equal(t, want, nr.Status)
				require.Equal(t, nr.Feasible, want.Code == framework.Success)
			}
		})
	})
	t.Run("binding then removing a pod restores the node", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
			p := c.Pending[0].DeepCopy()
			p.Spec.NodeName = c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "target")].Name
			v, err := snap.WithPod(p)
			require.NoError(t, err)
			back, err := v.WithoutPods(p.Namespace + "/" + p.Name)
			require.NoError(t, err)
			before, _ := snap.Node(p.Spec.NodeName)
			after, _ := back.Node(p.Spec.NodeName)
			require.Equal(t, before.Requested(), after.Requested())
			require.Equal(t, before.NonZeroRequested(), after.NonZeroRequested())
			require.Equal(t, len(before.Pods()), len(after.Pods()))
			// Ports: set semantics may drop a port another pod shared; never add one.
			for _, hp := range after.UsedPorts() {
				require.Contains(t, before.UsedPorts(), hp)
			}
		})
	})
	t.Run("Filter on a view agrees with a fresh snapshot", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(world).Draw(t, "cluster")
			if len(c.Pods) == 0 {
				return
			}
			snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
			drop := c.Pods[rapid.IntRange(0, len(c.Pods)-1).Draw(t, "drop")]
			// HostPortInfo's set semantics: removing a pod drops its ports even
			// when another pod of the node declared them (upstream does the
			// same); a fresh snapshot would keep them, so skip that case.
			dropped := cluster.PodHostPorts(drop)
			for _, p := range c.Pods {
				if p == drop || p.Spec.NodeName != drop.Spec.NodeName {
					continue
				}
				for _, hp := range cluster.PodHostPorts(p) {
					for _, d := range dropped {
						if hp == d {
							return
						}
					}
				}
			}
			var rest []*corev1.Pod
			for _, p := range c.Pods {
				if p != drop {
					rest = append(rest, p)
				}
			}
			fresh := snapshotOfKit(t, c, c.Nodes, rest)
			comp, err := placement.Compile(snap, c.Pending[0], placement.Options{})
			require.NoError(t, err)
			without, err := snap.WithoutPods(drop.Namespace + "/" + drop.Name)
			require.NoError(t, err)
			v, err := comp.On(without)
			require.NoError(t, err)
			f, err := placement.Compile(fresh, c.Pending[0], placement.Options{})
			require.NoError(t, err)
			for i, n := range v.Snapshot().Nodes() {
				require.Equal(t, f.Filter(fresh.Nodes()[i]), v.Filter(n))
			}
		})
	})
}

// manyNodes draws, inside a property, enough of the kit's nodes for the
// node range to be split (forChunks: 2*MinChunk and more from lo), and up
// to maxBound of its pods bound anywhere.
func manyNodes(t *rapid.T, lo, hi, maxBound int) ([]*corev1.Node, []*corev1.Pod) {
	var nodes []*corev1.Node
	for i := range rapid.IntRange(lo, hi).Draw(t, "nodes") {
		nodes = append(nodes, placementtest.NodeOf(world, fmt.Sprintf("node-%d", i)).Draw(t, "node"))
	}
	var bound []*corev1.Pod
	for i := range rapid.IntRange(0, maxBound).Draw(t, "bound") {
		p := placementtest.PodOf(world, fmt.Sprintf("bound-%d", i)).Draw(t, "bound pod")
		p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
		bound = append(bound, p)
	}
	return nodes, bound
}

// TestParallelismDoesNotChangeResults: Schedule and Score give the same
// answer on any number of goroutines (each writes only its own node range).
func TestParallelismDoesNotChangeResults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, bound := manyNodes(t, 2*placement.MinChunk, 2*placement.MinChunk+64, 40)
		par := rapid.IntRange(2, 8).Draw(t, "par")
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound})
		require.NoError(t, err)
		psnap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound, Parallelism: par})
		require.NoError(t, err)
		pod := placementtest.PodOf(world, "pending").Draw(t, "pending")
		seq, err := placement.Compile(snap, pod, placement.Options{})
		require.NoError(t, err)
		parallel, err := placement.Compile(psnap, pod, placement.Options{Parallelism: par})
		require.NoError(t, err)
		w := placement.NewWorkers()
		defer w.Close()
		lent, err := placement.Compile(snap, pod, placement.Options{Parallelism: par, Workers: w})
		require.NoError(t, err)
		want := seq.Schedule()
		require.Equal(t, want, parallel.Schedule())
		require.Equal(t, want, lent.Schedule())
		require.Equal(t, seq.Score(snap.Nodes()), parallel.Score(psnap.Nodes()))
		require.Equal(t, seq.Evaluate(), lent.Evaluate())
	})
}

// TestParallelTopologyDoesNotChangeResults: with topology constraints on the
// incoming and bound pods, Compile (the two topology PreFilters side by
// side), Schedule, Score (the topology scores beside the node-local ones)
// and Evaluate give the same answers for any Parallelism.
func TestParallelTopologyDoesNotChangeResults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Spread or inter-pod constraints on every pod, both on some
		// (Mixed draws a pod's families independently).
		cfg := world
		cfg.Family = rapid.SampledFrom([]placementtest.Family{placementtest.AnyFamily, placementtest.Spread, placementtest.InterPod}).Draw(t, "family")
		var nodes []*corev1.Node
		for i := range rapid.IntRange(1, 2*placement.MinChunk+8).Draw(t, "nodes") {
			nodes = append(nodes, placementtest.NodeOf(cfg, fmt.Sprintf("node-%d", i)).Draw(t, "node"))
		}
		var bound []*corev1.Pod
		for i := range rapid.IntRange(0, 30).Draw(t, "bound") {
			p := placementtest.PodOf(cfg, fmt.Sprintf("bound-%d", i)).Draw(t, "bound pod")
			p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
			bound = append(bound, p)
		}
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound})
		require.NoError(t, err)
		pod := placementtest.PodOf(cfg, "pending").Draw(t, "pending")
		seq, err := placement.Compile(snap, pod, placement.Options{})
		require.NoError(t, err)
		par, err := placement.Compile(snap, pod, placement.Options{Parallelism: rapid.IntRange(2, 4).Draw(t, "par")})
		require.NoError(t, err)
		require.Equal(t, seq.Schedule(), par.Schedule())
		require.Equal(t, seq.Score(snap.Nodes()), par.Score(snap.Nodes()))
		require.Equal(t, seq.Evaluate(), par.Evaluate())
	})
}

// TestNodeViewsEqualRebuild: a node what-if (replace, add, remove) answers
// as a snapshot built from scratch with the changed objects does.
func TestNodeViewsEqualRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(world).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		nodes := append([]*corev1.Node(nil), c.Nodes...)
		pods := append([]*corev1.Pod(nil), c.Pods...)
		i := rapid.IntRange(0, len(nodes)-1).Draw(t, "node")
		var view *placement.Snapshot
		var err error
		switch kind := rapid.SampledFrom([]string{"cordon", "taint", "relabel", "resize", "add", "remove"}).Draw(t, "change"); kind {
		case "cordon", "taint", "relabel", "resize":
			n := nodes[i].DeepCopy()
			switch kind {
			case "cordon":
				n.Spec.Unschedulable = !n.Spec.Unschedulable
			case "taint":
				n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: rapid.SampledFrom(placementtest.TaintKeys).Draw(t, "taint"), Effect: corev1.TaintEffectNoSchedule})
			case "relabel":
				n.Labels["disk"] = rapid.SampledFrom(placementtest.DiskTypes).Draw(t, "disk")
			case "resize":
				n.Status.Allocatable = testbuild.Resources("cpu", rapid.SampledFrom([]string{"1", "2", "16"}).Draw(t, "cpu"), "memory", "8Gi", "pods", "110")
			}
			nodes[i] = n
			view, err = snap.WithNode(n)
		case "add":
			n := placementtest.NodeOf(world, fmt.Sprintf("node-%d", len(nodes)+10)).Draw(t, "added")
			nodes = append(nodes, n)
			view, err = snap.WithNodes(n)
		case "remove":
			name := nodes[i].Name
			nodes = append(nodes[:i:i], nodes[i+1:]...)
			kept := pods[:0:0]
			for _, p := range pods {
				if p.Spec.NodeName != name {
					kept = append(kept, p)
				}
			}
			pods = kept
			view, err = snap.WithoutNodes(name)
		}
		require.NoError(t, err)
		if len(nodes) == 0 {
			require.Empty(t, view.Nodes())
			return
		}
		rebuilt := snapshotOfKit(t, c, nodes, pods)
		got, err := placement.Evaluate(view, c.Pending[0], placement.Options{})
		require.NoError(t, err)
		want, err := placement.Evaluate(rebuilt, c.Pending[0], placement.Options{})
		require.NoError(t, err)
		require.Equal(t, want, got)
		// The original snapshot still answers as before.
		again, err := placement.Evaluate(snap, c.Pending[0], placement.Options{})
		require.NoError(t, err)
		before := evaluateKit(t, c, c.Nodes, c.Pods)
		require.Equal(t, before, again)
	})
}

// TestPreparedCompileEqualsCompile: a pod prepared once and compiled
// against two snapshots (the world, and a view of it with one more pod
// bound) decides exactly as Compile on each; the prepared pod is not
// changed by its compilations.
func TestPreparedCompileEqualsCompile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(world).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		extra := placementtest.PodOf(world, "later").Draw(t, "later")
		extra.Spec.NodeName = c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "laterOn")].Name
		view, err := snap.WithPod(extra)
		require.NoError(t, err)
		pending := c.Pending[0]
		p := placement.Prepare(pending, placement.Options{})
		require.NoError(t, p.Err())
		for _, s := range []*placement.Snapshot{snap, view, snap} {
			want, err := placement.Compile(s, pending, placement.Options{})
			require.NoError(t, err)
			got, err := p.Compile(s)
			require.NoError(t, err)
			require.Equal(t, want.Schedule(), got.Schedule())
			require.Equal(t, want.Score(s.Nodes()), got.Score(s.Nodes()))
			for _, n := range s.Nodes() {
				require.Equal(t, want.FilterEach(n), got.FilterEach(n))
			}
		}
	})
}

// TestDecideIsScheduleWithoutSingleScore: Decide decides as Schedule does;
// only with exactly one feasible node is its TotalScore left at 0.
func TestDecideIsScheduleWithoutSingleScore(t *testing.T) {
	single := 0
	rapid.Check(t, func(t *rapid.T) {
		c := compileKit(t, placementtest.ClusterOf(world).Draw(t, "cluster"))
		want, got := c.Schedule(), c.Decide()
		if want.Feasible == 1 {
			single++
			want.TotalScore = 0
		}
		require.Equal(t, want, got)
	})
	require.Positive(t, single, "no world with a single feasible node")
}

// TestVerdictTableOnKitClusters: random small clusters (shared pools so
// that nodes collide on verdicts) give the reference report under any
// bound.
func TestVerdictTableOnKitClusters(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := compileKit(t, placementtest.ClusterOf(world).Draw(t, "cluster"))
		placement.CheckAgainstReference(t, c, rapid.IntRange(1, placement.MaxVerdictIDs).Draw(t, "limit"))
	})
}

// TestVerdictTableScalarShortfalls: extended resources in many
// combinations (the kit's Extended) make NodeResourcesFit's reasons dynamic
// (built per node): the table must compare them by content and give the
// node-by-node report.
func TestVerdictTableScalarShortfalls(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 12, MaxPods: 8, MaxPending: 1,
			Extended: true, Family: placementtest.Resources}).Draw(t, "cluster")
		placement.CheckAgainstReference(t, compileKit(t, c), rapid.IntRange(1, 4).Draw(t, "limit"))
	})
}

// TestNodeAffinityIndexAgreesWithMaps: for the snapshot's own nodes the
// NodeAffinity filter and score go through the label-column index; a copy
// of the node object (not the snapshot's) goes through the label maps. Both
// give the same statuses and scores, for the pod's nodeSelector, required
// and preferred terms and the profile's added affinity.
func TestNodeAffinityIndexAgreesWithMaps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(world).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		opts := placement.Options{}
		if rapid.Bool().Draw(t, "added") {
			opts.AddedAffinity = &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk",
						Operator: rapid.SampledFrom([]corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}).Draw(t, "op"),
						Values:   []string{"hdd"}}}}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 3,
					Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelTopologyZone,
						Operator: corev1.NodeSelectorOpIn, Values: []string{placementtest.Zones[1]}}}}}},
			}
		}
		placement.CheckNodeAffinityIndex(t, snap, c.Pending[0], opts)
	})
}

// TaintToleration's answers through the snapshot's distinct taint lists
// are each node's own, on random clusters (placementtest's taints repeat
// across nodes) and pods with and without tolerations.
func TestTaintIndexAgreesWithTaints(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(world).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		for _, p := range c.Pending {
			placement.CheckTaintIndex(t, snap, p, placement.Options{})
		}
	})
}

// TestFilterCodeMatchesFilterOnKitClusters: on random clusters (extended
// resources included), filterCode gives Filter's code.
func TestFilterCodeMatchesFilterOnKitClusters(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(world).Draw(t, "cluster")
		gpu := func(q int64) resource.Quantity { return *resource.NewQuantity(q, resource.DecimalSI) }
		for _, n := range c.Nodes {
			if rapid.Bool().Draw(t, "gpu") {
				n.Status.Allocatable["example.com/gpu"] = gpu(int64(rapid.IntRange(0, 2).Draw(t, "gpus")))
			}
		}
		withGPU := func(p *corev1.Pod) {
			if p.Spec.Containers[0].Resources.Requests == nil {
				p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{}
			}
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = gpu(1)
		}
		if rapid.Bool().Draw(t, "wantGPU") {
			withGPU(c.Pending[0])
		}
		// Bound pods holding GPUs make a shortfall that preemption could
		// resolve (Unschedulable) beside the outright ones.
		for _, b := range c.Pods {
			if rapid.Bool().Draw(t, "boundGPU") {
				withGPU(b)
			}
		}
		placement.CheckFilterCode(t, compileKit(t, c))
	})
}

// TestCompileDecideMatchesSerial: a scheduling loop's pipelined step (the
// topology PreFilters and PreScore counts beside the node-local filters,
// compileDecide) decides every pod as compiling it and then
// deciding does, on a snapshot and, with the topology states carried, on
// a view of it; under any weights (a zero weight skips a plugin) and
// parallelism.
func TestCompileDecideMatchesSerial(t *testing.T) {
	families := []placementtest.Family{placementtest.AnyFamily, placementtest.Resources, placementtest.NodeSelection,
		placementtest.Spread, placementtest.InterPod, placementtest.HostPorts}
	rapid.Check(t, func(t *rapid.T) {
		cfg := world
		cfg.MaxNodes = 12
		cfg.MaxPods = 24
		cfg.Owners = rapid.Bool().Draw(t, "owners")
		cfg.Family = rapid.SampledFrom(families).Draw(t, "family")
		restricted := rapid.Bool().Draw(t, "restricted")
		if restricted {
			cfg.MinNodes = 4 // nodes on both sides of the restriction
		}
		c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		opts := placement.Options{Parallelism: rapid.IntRange(2, 4).Draw(t, "par")}
		if rapid.Bool().Draw(t, "weights") {
			opts.ScoreWeights = map[string]int64{}
			for _, p := range []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
				"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"} {
				opts.ScoreWeights[p] = rapid.Int64Range(0, 3).Draw(t, "weight "+p)
			}
		}
		pod := c.Pending[0]
		if restricted {
			// NodeAffinity's PreFilter then restricts the nodes by name
			// (the pass reads the restriction by slot, resultSlots), to
			// some of the cluster's nodes and a name it does not have.
			names := []string{"absent-node"}
			for _, n := range c.Nodes {
				if rapid.Bool().Draw(t, "in "+n.Name) {
					names = append(names, n.Name)
				}
			}
			pod = restrictedTo(pod, names)
		}
		// Scoring ahead depends on timing: a stride makes it happen, on
		// some of the nodes.
		stride := rapid.IntRange(0, 3).Draw(t, "aheadStride")
		placement.CheckCompileDecide(t, snap, pod, opts, nil, stride)
		prev, err := placement.Compile(snap, pod, opts)
		if err != nil {
			return
		}
		extra := placementtest.PodOf(cfg, "later").Draw(t, "later")
		extra.Spec.NodeName = c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "laterOn")].Name
		view, err := snap.WithPod(extra)
		require.NoError(t, err)
		placement.CheckCompileDecide(t, view, pod, opts, prev, stride)
		// A scheduling queue's lookahead: the pod's node-local work done
		// on the snapshot before the last binding, some of its ranges
		// missing; the decision on the view is the same.
		done := rapid.SliceOfN(rapid.Bool(), 16, 16).Draw(t, "lookahead ranges done")
		keep := func(j int) bool { return done[j%len(done)] }
		placement.CheckCompileDecideAhead(t, view, snap, pod, opts, prev, stride, keep)
		placement.CheckCompileDecideAhead(t, snap, snap, pod, opts, nil, stride, keep)
	})
}

// TestResultSlotsMatchNames: the NodeAffinity PreFilter's node restriction,
// read by node slot on the passes over every node, is the restriction by
// name on a snapshot and on views that remove nodes (emptying slots) and
// add some (new slots), whichever names it lists.
func TestResultSlotsMatchNames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := world
		cfg.MaxNodes = 8
		c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
		snap := snapshotOfKit(t, c, c.Nodes, c.Pods)
		if rapid.Bool().Draw(t, "remove") {
			var err error
			snap, err = snap.WithoutNodes(c.Nodes[rapid.IntRange(0, len(c.Nodes)-1).Draw(t, "removed")].Name)
			require.NoError(t, err)
		}
		added := []string{"added-0", "added-1"}
		if rapid.Bool().Draw(t, "add") {
			var err error
			snap, err = snap.WithNodes(placementtest.NodeOf(cfg, added[0]).Draw(t, "node"), placementtest.NodeOf(cfg, added[1]).Draw(t, "node"))
			require.NoError(t, err)
		}
		candidates := append(added, "absent-node")
		for _, n := range c.Nodes {
			candidates = append(candidates, n.Name)
		}
		var names []string
		for _, n := range candidates {
			if rapid.Bool().Draw(t, "in "+n) {
				names = append(names, n)
			}
		}
		pod := c.Pending[0]
		if len(names) > 0 {
			pod = restrictedTo(pod, names)
		}
		compiled, err := placement.Compile(snap, pod, placement.Options{})
		if err != nil {
			return
		}
		placement.CheckResultSlots(t, compiled)
	})
}

// restrictedTo returns a copy of pod whose node affinity selects the named
// nodes only (placementtest.NodeNameAffinity).
func restrictedTo(pod *corev1.Pod, names []string) *corev1.Pod {
	p := pod.DeepCopy()
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	p.Spec.Affinity.NodeAffinity = placementtest.NodeNameAffinity(names...)
	return p
}
