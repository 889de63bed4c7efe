package placement

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// referenceNodes is Evaluate's per-node report built the obvious way, one
// node at a time from FilterEach with a fresh Filters list per node: what
// Evaluate gave before its verdict table shared rows between nodes.
func referenceNodes(c *Compiled) []NodeResult {
	var out []NodeResult
	for _, n := range cluster.NodesOf(c.snap) {
		nr := NodeResult{Node: n.Name}
		each := c.filterEach(n)
		first := sched.Status{}
		for p := range numFilters {
			if !c.includesFilter(p) {
				continue
			}
			nr.Filters = append(nr.Filters, toPluginStatus(each[p]))
			if first.Code.Passes() && !each[p].Code.Passes() {
				first = each[p]
			}
		}
		if !c.InPreFilterResult(n.Name) {
			nr.ExcludedByPreFilter = true
			first = c.absent
		}
		nr.Status = toPluginStatus(first)
		nr.Feasible = first.Code.Passes()
		out = append(out, nr)
	}
	return out
}

// verdictsOnly drops the scores, which the verdict table does not touch.
func verdictsOnly(in []NodeResult) []NodeResult {
	out := make([]NodeResult, len(in))
	for i, nr := range in {
		nr.Scores, nr.TotalScore = nil, nil
		out[i] = nr
	}
	return out
}

// checkAgainstReference asserts that the shared-row report (with the given
// bound on distinct statuses per plugin) equals the reference, node by node.
func checkAgainstReference(t require.TestingT, c *Compiled, limit int) {
	r := c.evaluate(limit)
	if r.Gated != nil || !c.PreFilterStatus().Code.Passes() {
		return
	}
	want := referenceNodes(c)
	require.Equal(t, want, verdictsOnly(r.Nodes))
	var feasible []string
	for _, nr := range want {
		if nr.Feasible {
			feasible = append(feasible, nr.Node)
		}
	}
	require.Equal(t, append([]string{}, feasible...), r.FeasibleNodes)
}

// TestVerdictTableMatchesReferenceOnConformanceData: on every upstream
// scenario of testdata/conformance, each pending pod's per-node verdicts,
// Filters lists and recorded statuses are those FilterEach gives node by
// node, whether rows are shared (the default bound) or a plugin's table
// overflows at once (bound 1: every node with a second distinct status
// takes the unshared path).
func TestVerdictTableMatchesReferenceOnConformanceData(t *testing.T) {
	for _, name := range filterScoreCases(t) {
		t.Run(name, func(t *testing.T) {
			snap, pending := loadScenario(t, filepath.Join("testdata/conformance", name+".json"))
			for _, p := range pending {
				c, err := Compile(snap, p, Options{})
				require.NoError(t, err)
				for _, limit := range []int{maxIDs, 2, 1} {
					checkAgainstReference(t, c, limit)
				}
			}
		})
	}
}

// TestVerdictTableProperties: random small clusters (shared pools so that
// nodes collide on verdicts) give the reference report under any bound.
func TestVerdictTableProperties(t *testing.T) {
	t.Run("shared rows give the node-by-node report", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := genWorld(t)
			c := compileWorld(t, w)
			checkAgainstReference(t, c, rapid.IntRange(1, maxIDs).Draw(t, "limit"))
		})
	})
	t.Run("scalar shortfalls in many combinations give the node-by-node report", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			// Extended resources make NodeResourcesFit's reasons dynamic
			// (built per node): the table must compare them by content.
			names := []corev1.ResourceName{"example.com/a", "example.com/b", "example.com/c"}
			var nodes []*corev1.Node
			for i := range rapid.IntRange(1, 12).Draw(t, "nodes") {
				n := mkNode(fmt.Sprintf("n%d", i), "2", "4Gi")
				for _, r := range names {
					if q := rapid.IntRange(0, 2).Draw(t, "cap"); q > 0 {
						n.Status.Allocatable[r] = *resource.NewQuantity(int64(q), resource.DecimalSI)
					}
				}
				nodes = append(nodes, n)
			}
			pod := mkPod("p", requests("cpu", rapid.SampledFrom(cpus).Draw(t, "cpu")))
			for _, r := range names {
				if q := rapid.IntRange(0, 2).Draw(t, "want"); q > 0 {
					pod.Spec.Containers[0].Resources.Requests[r] = *resource.NewQuantity(int64(q), resource.DecimalSI)
				}
			}
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes})
			require.NoError(t, err)
			c, err := Compile(snap, pod, Options{})
			require.NoError(t, err)
			checkAgainstReference(t, c, rapid.IntRange(1, 4).Draw(t, "limit"))
		})
	})
}

// withTopology gives a generated pod a zone spread constraint or a
// hostname pod (anti-)affinity over app labels from a small pool, so that
// the topology plugins' PreFilter and Score run.
func withTopology(t *rapid.T, p *corev1.Pod) {
	app := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "app")
	p.Labels = map[string]string{"app": app}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "selApp")}}
	term := corev1.PodAffinityTerm{LabelSelector: sel, TopologyKey: corev1.LabelHostname}
	switch rapid.IntRange(0, 4).Draw(t, "topology") {
	case 1:
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"),
			LabelSelector:     sel}}
	case 2:
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}
	case 3:
		p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 5, PodAffinityTerm: term}}}}
	}
}

// TestParallelTopologyDoesNotChangeResults: with topology constraints on the
// incoming and bound pods, Compile (the two topology PreFilters side by
// side), Schedule, Score (the topology scores beside the node-local ones)
// and Evaluate give the same answers for any Parallelism.
func TestParallelTopologyDoesNotChangeResults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*corev1.Node
		for i := range rapid.IntRange(1, 2*minChunk+8).Draw(t, "nodes") {
			nodes = append(nodes, genNode(t, i))
		}
		var bound []*corev1.Pod
		for i := range rapid.IntRange(0, 30).Draw(t, "bound") {
			p := genPod(t, fmt.Sprintf("b%d", i))
			withTopology(t, p)
			p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
			bound = append(bound, p)
		}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: bound})
		require.NoError(t, err)
		pod := genPod(t, "pending")
		withTopology(t, pod)
		seq, err := Compile(snap, pod, Options{})
		require.NoError(t, err)
		par, err := Compile(snap, pod, Options{Parallelism: rapid.IntRange(2, 4).Draw(t, "par")})
		require.NoError(t, err)
		require.Equal(t, seq.Schedule(), par.Schedule())
		require.Equal(t, seq.Score(snap.Nodes()), par.Score(snap.Nodes()))
		require.Equal(t, seq.Evaluate(), par.Evaluate())
	})
}

// TestNodeAffinityIndexAgreesWithMaps: for the snapshot's own nodes the
// NodeAffinity filter and score go through the label-column index; a copy
// of the node object (not the snapshot's) goes through the label maps. Both
// give the same statuses and scores, for the pod's nodeSelector, required
// and preferred terms and the profile's added affinity.
func TestNodeAffinityIndexAgreesWithMaps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound})
		require.NoError(t, err)
		opts := Options{}
		if rapid.Bool().Draw(t, "added") {
			opts.AddedAffinity = &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchExpressions: []corev1.NodeSelectorRequirement{expr("disk", rapid.SampledFrom([]corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}).Draw(t, "op"), "hdd")}}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 3,
					Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "z2")}}}},
			}
		}
		c, err := Compile(snap, w.pending, opts)
		require.NoError(t, err)
		for _, n := range cluster.NodesOf(internalOf(snap)) {
			require.True(t, c.naIndex == nil || c.indexes(n))
			other := *n
			other.Node = n.Node.DeepCopy()
			require.False(t, c.indexes(&other))
			require.Equal(t, c.filterEach(&other), c.filterEach(n), n.Name)
			require.Equal(t, c.preferredScore(&other), c.preferredScore(n), n.Name)
		}
	})
}

// TestParallelHelpers: forChunks covers [0, n) once in non-empty ranges
// and runAll runs every task once, for any parallelism.
func TestParallelHelpers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 4*minChunk).Draw(t, "n")
		par := rapid.IntRange(0, 5).Draw(t, "par")
		r := runner{n: par}
		if rapid.Bool().Draw(t, "workers") {
			r.w = NewWorkers()
			defer r.w.Close()
		}
		seen := make([]int32, n)
		var mu sync.Mutex
		var ranges [][2]int
		forChunks(n, r, func(lo, hi int) {
			mu.Lock()
			ranges = append(ranges, [2]int{lo, hi})
			mu.Unlock()
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i := range seen {
			require.Equal(t, int32(1), seen[i], "index %d", i)
		}
		// Up to four ranges per goroutine (so that a helper joining late
		// still takes a share), none empty unless n is 0.
		require.LessOrEqual(t, len(ranges), max(4*par, 1))
		for _, r := range ranges {
			require.True(t, r[0] < r[1] || n == 0, "range %v", r)
		}
		ran := make([]int32, rapid.IntRange(0, 6).Draw(t, "tasks"))
		var tasks []func()
		for i := range ran {
			tasks = append(tasks, func() { ran[i]++ })
		}
		runAll(r, tasks)
		for i := range ran {
			require.Equal(t, int32(1), ran[i], "task %d", i)
		}
	})
}

// checkFilterCode asserts that Schedule's code-only pass agrees with Filter
// on every node, and each node-local code with its status.
func checkFilterCode(t require.TestingT, c *Compiled) {
	for _, n := range cluster.NodesOf(c.snap) {
		require.Equal(t, c.filter(n).Code, c.filterCode(n), n.Name)
		for p := range numFilters {
			if !isLocal(p) {
				continue
			}
			if code, ok := c.localCode(p, n); ok && code != 0 {
				require.Equal(t, localStatus(p, code).Code, localStatusCode(p, code), "%s plugin %d", n.Name, p)
			}
		}
	}
}

// TestFilterCodeMatchesFilter: on the upstream scenarios and on random
// worlds (extended resources included), filterCode gives Filter's code.
func TestFilterCodeMatchesFilter(t *testing.T) {
	for _, name := range filterScoreCases(t) {
		snap, pending := loadScenario(t, filepath.Join("testdata/conformance", name+".json"))
		for _, p := range pending {
			c, err := Compile(snap, p, Options{})
			require.NoError(t, err)
			checkFilterCode(t, c)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		for _, n := range w.nodes {
			if rapid.Bool().Draw(t, "gpu") {
				n.Status.Allocatable["example.com/gpu"] = *resource.NewQuantity(int64(rapid.IntRange(0, 2).Draw(t, "gpus")), resource.DecimalSI)
			}
		}
		if rapid.Bool().Draw(t, "wantGPU") {
			w.pending.Spec.Containers[0].Resources.Requests["example.com/gpu"] = *resource.NewQuantity(1, resource.DecimalSI)
		}
		// Bound pods holding GPUs make a shortfall that preemption could
		// resolve (Unschedulable) beside the outright ones.
		for _, b := range w.bound {
			if rapid.Bool().Draw(t, "boundGPU") {
				b.Spec.Containers[0].Resources.Requests["example.com/gpu"] = *resource.NewQuantity(1, resource.DecimalSI)
			}
		}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound})
		require.NoError(t, err)
		c, err := Compile(snap, w.pending, Options{})
		require.NoError(t, err)
		checkFilterCode(t, c)
	})
}
