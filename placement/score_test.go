package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// scoresOf evaluates pod and returns, per node, plugin -> [raw, normalized].
func scoresOf(t *testing.T, nodes []*corev1.Node, bound []*corev1.Pod, pod *corev1.Pod, opts Options) (map[string]map[string][2]int64, *Result) {
	t.Helper()
	snap, _, err := NewSnapshot(SnapshotInput{Nodes: nodes, Pods: bound, WithoutPodLevelResize: !opts.Version.UsesPodLevelResizeStatus()})
	require.NoError(t, err)
	r, err := Evaluate(snap, pod, opts)
	require.NoError(t, err)
	out := map[string]map[string][2]int64{}
	for _, n := range r.Nodes {
		if !n.Feasible {
			continue
		}
		out[n.Node] = map[string][2]int64{}
		for _, s := range n.Scores {
			out[n.Node][s.Plugin] = [2]int64{s.Raw, s.Normalized}
		}
	}
	return out, r
}

// TestTaintTolerationScore mirrors TaintToleration Score and its reversed
// DefaultNormalizeScore.
func TestTaintTolerationScore(t *testing.T) {
	nodes := []*corev1.Node{
		mkNode("a", "4", "8Gi"),
		mkNode("b", "4", "8Gi", withTaint("x", "", corev1.TaintEffectPreferNoSchedule)),
		mkNode("c", "4", "8Gi", withTaint("x", "", corev1.TaintEffectPreferNoSchedule), withTaint("y", "", corev1.TaintEffectPreferNoSchedule)),
	}
	got, _ := scoresOf(t, nodes, nil, mkPod("p"), Options{})
	assert.Equal(t, [2]int64{0, 100}, got["a"][sched.TaintToleration])
	assert.Equal(t, [2]int64{1, 50}, got["b"][sched.TaintToleration])
	assert.Equal(t, [2]int64{2, 0}, got["c"][sched.TaintToleration])
	// Only tolerations with an empty or PreferNoSchedule effect count.
	got, _ = scoresOf(t, nodes, nil, mkPod("p", tolerate("x", "", corev1.TolerationOpExists, corev1.TaintEffectPreferNoSchedule),
		tolerate("y", "", corev1.TolerationOpExists, corev1.TaintEffectNoSchedule)), Options{})
	assert.Equal(t, [2]int64{1, 0}, got["c"][sched.TaintToleration])
	assert.Equal(t, [2]int64{0, 100}, got["b"][sched.TaintToleration])
}

// TestNodeAffinityScore mirrors NodeAffinity PreScore/Score/NormalizeScore.
func TestNodeAffinityScore(t *testing.T) {
	nodes := []*corev1.Node{mkNode("a", "4", "8Gi", withLabels("zone", "1")), mkNode("b", "4", "8Gi", withLabels("zone", "2", "disk", "ssd"))}
	pref := func(w int32, e corev1.NodeSelectorRequirement) corev1.PreferredSchedulingTerm {
		return corev1.PreferredSchedulingTerm{Weight: w, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{e}}}
	}
	pod := mkPod("p", nodeAffinity(&corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{
		pref(10, expr("zone", corev1.NodeSelectorOpIn, "1")), pref(30, expr("disk", corev1.NodeSelectorOpExists)),
		pref(0, expr("zone", corev1.NodeSelectorOpIn, "2")), // weight 0 is dropped
	}}))
	got, r := scoresOf(t, nodes, nil, pod, Options{})
	assert.Equal(t, [2]int64{10, 33}, got["a"][sched.NodeAffinity])
	assert.Equal(t, [2]int64{30, 100}, got["b"][sched.NodeAffinity])
	assert.NotContains(t, r.PreScoreSkippedPlugins, sched.NodeAffinity)

	_, r = scoresOf(t, nodes, nil, mkPod("p"), Options{})
	assert.Contains(t, r.PreScoreSkippedPlugins, sched.NodeAffinity, "no preferred terms: PreScore Skip")

	added := &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{pref(5, expr("zone", corev1.NodeSelectorOpIn, "2"))}}
	got, _ = scoresOf(t, nodes, nil, mkPod("p"), Options{AddedAffinity: added})
	assert.Equal(t, [2]int64{5, 100}, got["b"][sched.NodeAffinity])
	assert.Equal(t, [2]int64{0, 0}, got["a"][sched.NodeAffinity])
}

// TestResourceScores mirrors LeastAllocated, MostAllocated,
// RequestedToCapacityRatio and BalancedAllocation with the non-zero request
// defaults (resource_allocation.go, v1.36).
func TestResourceScores(t *testing.T) {
	nodes := []*corev1.Node{mkNode("a", "4", "8Gi")}
	bound := []*corev1.Pod{mkPod("b", onNode("a"), requests("cpu", "1", "memory", "2Gi"))}
	pod := mkPod("p", requests("cpu", "1", "memory", "2Gi"))

	got, _ := scoresOf(t, nodes, bound, pod, Options{})
	// requested cpu 2000/4000 -> 50, memory 4Gi/8Gi -> 50.
	assert.Equal(t, [2]int64{50, 50}, got["a"][sched.NodeResourcesFit])
	// Fractions 0.5 and 0.5 with and without... without: 0.25/0.25 -> 100;
	// with: 0.5/0.5 -> 100; 50 + (50 + 100 - 100)/2 = 75.
	assert.Equal(t, [2]int64{75, 75}, got["a"][sched.NodeResourcesBalancedAllocation])

	got, _ = scoresOf(t, nodes, bound, pod, Options{ScoringStrategy: ScoringStrategy{Type: MostAllocated}})
	assert.Equal(t, [2]int64{50, 50}, got["a"][sched.NodeResourcesFit])

	got, _ = scoresOf(t, nodes, bound, pod, Options{ScoringStrategy: ScoringStrategy{Type: RequestedToCapacityRatio,
		Shape: []UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}})
	assert.Equal(t, [2]int64{50, 50}, got["a"][sched.NodeResourcesFit])

	got, _ = scoresOf(t, nodes, bound, pod, Options{ScoringStrategy: ScoringStrategy{
		Resources: []ResourceSpec{{Name: corev1.ResourceCPU, Weight: 3}, {Name: corev1.ResourceMemory, Weight: 1}}}})
	assert.Equal(t, [2]int64{50, 50}, got["a"][sched.NodeResourcesFit])

	// A best-effort pod: Fit counts 100m / 200Mi per container; Balanced skips.
	got, r := scoresOf(t, nodes, bound, mkPod("p"), Options{})
	// cpu (1000+100+100... bound has cpu so no default) = (4000-1100)*100/4000 = 72;
	// memory (8Gi - 2Gi - 200Mi)*100/8Gi = 72.
	assert.Equal(t, [2]int64{72, 72}, got["a"][sched.NodeResourcesFit])
	assert.Contains(t, r.PreScoreSkippedPlugins, sched.NodeResourcesBalancedAllocation)
}

// TestResourceKinds: where nodeAllocatableRequest reads each resource,
// decided once per pass from the name and the pod's request (a scalar the
// pod does not request is left at zero, calculateNodeAllocatableRequest's
// skip; a non-scalar unrequested resource is still read).
func TestResourceKinds(t *testing.T) {
	res := []ResourceSpec{{Name: corev1.ResourceCPU}, {Name: corev1.ResourceMemory}, {Name: corev1.ResourceEphemeralStorage},
		{Name: "example.com/gpu"}, {Name: "example.com/fpga"}, {Name: "hugepages-2Mi"}}
	got := resourceKinds(res, []int64{0, 0, 0, 1, 0, 0})
	assert.Equal(t, []resourceKind{kindCPU, kindMemory, kindEphemeralStorage, kindScalar, kindUnrequestedScalar, kindUnrequestedScalar}, got)

	n := &cluster.NodeInfo{}
	n.Allocatable = cluster.Resource{MilliCPU: 4000, Memory: 8 << 30, EphemeralStorage: 100,
		Scalar: map[corev1.ResourceName]int64{"example.com/gpu": 4, "example.com/fpga": 2}}
	n.Requested = cluster.Resource{MilliCPU: 1000, Memory: 1 << 30, EphemeralStorage: 10,
		Scalar: map[corev1.ResourceName]int64{"example.com/gpu": 1, "example.com/fpga": 1}}
	n.NonZeroRequested = cluster.Resource{MilliCPU: 1100, Memory: 1<<30 + 200<<20}
	podReqs := []int64{500, 1 << 20, 5, 1, 0, 0}
	m := len(res)
	requested, allocated, allocatable := make([]int64, m), make([]int64, m), make([]int64, m)
	for _, useRequested := range []bool{false, true} {
		cpuUsed, memUsed := int64(1100), int64(1<<30+200<<20)
		if useRequested {
			cpuUsed, memUsed = 1000, 1<<30
		}
		nodeAllocatableRequest(n, res, resourceKinds(res, podReqs), podReqs, useRequested, requested, allocated, allocatable)
		assert.Equal(t, []int64{4000, 8 << 30, 100, 4, 0, 0}, allocatable, "useRequested %v", useRequested)
		assert.Equal(t, []int64{cpuUsed, memUsed, 10, 1, 0, 0}, allocated, "useRequested %v", useRequested)
		assert.Equal(t, []int64{cpuUsed + 500, memUsed + 1<<20, 15, 2, 0, 0}, requested, "useRequested %v", useRequested)
	}
}

// TestImageLocalityScore mirrors imagelocality Score: normalized names,
// spread over nodes, thresholds, image volumes (v1.36).
func TestImageLocalityScore(t *testing.T) {
	const mb = 1024 * 1024
	nodes := []*corev1.Node{
		mkNode("a", "4", "8Gi", withImage(500*mb, "registry/app:1.0"), withImage(300*mb, "registry/data:latest")),
		mkNode("b", "4", "8Gi", withImage(500*mb, "registry/app:1.0")),
	}
	pod := mkPod("p")
	pod.Spec.Containers[0].Image = "registry/app:1.0"
	got, _ := scoresOf(t, nodes, nil, pod, Options{})
	// 500MB on both nodes (spread 1): (500-23)*100/(1000-23) = 48.
	assert.Equal(t, [2]int64{48, 48}, got["a"][sched.ImageLocality])

	pod.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry/data"}}}}
	got, _ = scoresOf(t, nodes, nil, pod, Options{})
	// + 300MB * 1/2 on a: (650-23)*100/977 = 64.
	assert.Equal(t, [2]int64{64, 64}, got["a"][sched.ImageLocality])
	assert.Equal(t, [2]int64{48, 48}, got["b"][sched.ImageLocality])
	got, _ = scoresOf(t, nodes, nil, pod, Options{Version: V1_35})
	assert.Equal(t, [2]int64{48, 48}, got["a"][sched.ImageLocality], "v1.35 ignores image volumes")
}

// TestScoreWeights: weights are applied and a zero weight disables a plugin.
func TestScoreWeights(t *testing.T) {
	nodes := []*corev1.Node{mkNode("a", "4", "8Gi"), mkNode("b", "8", "16Gi")}
	_, r := scoresOf(t, nodes, nil, mkPod("p", requests("cpu", "1")), Options{ScoreWeights: map[string]int64{
		sched.TaintToleration: 0, sched.NodeResourcesFit: 5}})
	for _, n := range r.Nodes {
		var total int64
		for _, s := range n.Scores {
			assert.NotEqual(t, sched.TaintToleration, s.Plugin)
			if s.Plugin == sched.NodeResourcesFit {
				assert.Equal(t, int64(5), s.Weight)
				assert.Equal(t, s.Normalized*5, s.Weighted)
			}
			total += s.Weighted
		}
		assert.Equal(t, total, n.Total())
	}
	assert.Equal(t, []string{"b"}, r.BestNodes)
}

// TestFirstScoreOutOfRange: the reported score is the first node's (in
// feasible order) and, on that node, the first plugin's in score order;
// skipped plugins are not read, and scores at the bounds are in range.
func TestFirstScoreOutOfRange(t *testing.T) {
	feasible := []*cluster.NodeInfo{{Name: "n0"}, {Name: "n1"}, {Name: "n2"}}
	var s Scores
	for p := range numScores {
		s.Normalized[p] = []int64{0, 100, 50}
	}
	require.Nil(t, firstScoreOutOfRange(&s, feasible))
	s.Normalized[sImageLocality][2] = -1
	s.Normalized[sTaintToleration][1] = 101
	s.Normalized[sNodeResourcesFit][1] = -5
	got := firstScoreOutOfRange(&s, feasible)
	require.NotNil(t, got)
	assert.Equal(t, ScoreRangeError{Plugin: scoreNames[sTaintToleration], Node: "n1", Index: 1, Score: 101}, *got)
	s.Skipped[sTaintToleration] = true
	got = firstScoreOutOfRange(&s, feasible)
	require.NotNil(t, got)
	assert.Equal(t, ScoreRangeError{Plugin: scoreNames[sNodeResourcesFit], Node: "n1", Index: 1, Score: -5}, *got)
}

// TestScoreOutOfRange: RunScorePlugins (framework.go) rejects a normalized
// score outside [0, MaxNodeScore], which NodeResourcesFit's int64
// arithmetic gives on a node whose allocatable overflows it: the cycle
// fails with the first such score in node order, no node is chosen, and
// the report lists the scores of the nodes before it only (evl oracle).
// Upstream does not score a lone feasible node, so Decide does not fail
// on one.
func TestScoreOutOfRange(t *testing.T) {
	huge := func(name string) *corev1.Node { return mkNode(name, "93233720368547858m", "93233720578262958") }
	const want = `applying score defaultWeights on Score plugins: plugin "NodeResourcesFit" returns an invalid score -97, it should in the range of [0, 100] after normalizing`
	t.Run("first node", func(t *testing.T) {
		got, r := scoresOf(t, []*corev1.Node{huge("a-huge"), mkNode("b", "4", "8Gi")}, nil, mkPod("p"), Options{})
		assert.Equal(t, want, r.Error)
		assert.Empty(t, r.BestNodes)
		assert.Equal(t, []string{"a-huge", "b"}, r.FeasibleNodes)
		assert.Empty(t, got["a-huge"])
		assert.Empty(t, got["b"], "after the invalid node nothing is listed")
		for _, n := range r.Nodes {
			assert.Nil(t, n.TotalScore, n.Node)
		}
	})
	t.Run("second node", func(t *testing.T) {
		got, r := scoresOf(t, []*corev1.Node{mkNode("a", "4", "8Gi"), huge("b-huge"), mkNode("c", "4", "8Gi")}, nil, mkPod("p"), Options{})
		assert.Equal(t, want, r.Error)
		assert.Empty(t, r.BestNodes)
		assert.Equal(t, [2]int64{97, 97}, got["a"][sched.NodeResourcesFit], "checked before the invalid one")
		require.NotNil(t, r.Nodes[0].TotalScore)
		assert.Empty(t, got["b-huge"])
		assert.Empty(t, got["c"])
	})
	t.Run("Decide", func(t *testing.T) {
		snap, _, err := NewSnapshot(SnapshotInput{Nodes: []*corev1.Node{mkNode("a", "4", "8Gi"), huge("b-huge")}})
		require.NoError(t, err)
		c, err := Compile(snap, mkPod("p"), Options{})
		require.NoError(t, err)
		d := c.Decide()
		require.NotNil(t, d.Err)
		assert.Equal(t, want, d.Err.Error())
		var rangeErr *ScoreRangeError
		require.ErrorAs(t, d.Err, &rangeErr)
		assert.Equal(t, "b-huge", rangeErr.Node)
		assert.Equal(t, 1, rangeErr.Index)
		assert.Empty(t, d.Node)
		assert.Equal(t, 2, d.Feasible)

		snap, _, err = NewSnapshot(SnapshotInput{Nodes: []*corev1.Node{huge("b-huge")}})
		require.NoError(t, err)
		c, err = Compile(snap, mkPod("p"), Options{})
		require.NoError(t, err)
		d = c.Decide()
		assert.Nil(t, d.Err, "a lone feasible node is not scored")
		assert.Equal(t, "b-huge", d.Node)
	})
}
