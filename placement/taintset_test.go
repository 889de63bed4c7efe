package placement

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// TaintToleration reads a node's answer from the snapshot's distinct taint
// lists when they are few next to the nodes; a node a view changes is read
// from its own taints, and the answers are the same either way.
func TestTaintVerdictsThroughTaintSets(t *testing.T) {
	var nodes []*corev1.Node
	for i := range 12 {
		var opts []nodeOpt
		switch {
		case i < 3:
			opts = append(opts, withTaint("dedicated", "db", corev1.TaintEffectNoSchedule))
		case i == 3:
			opts = append(opts, withTaint("spot", "", corev1.TaintEffectPreferNoSchedule), withTaint("spot2", "", corev1.TaintEffectPreferNoSchedule))
		}
		nodes = append(nodes, mkNode(string(rune('a'+i)), "4", "8Gi", opts...))
	}
	snap := snapshotOf(t, nodes)
	sets := cluster.TaintSetsOf(internalOf(snap))
	require.Len(t, sets, 3, "two distinct lists, and the unused entry 0")

	tests := []struct {
		name        string
		pod         *corev1.Pod
		untolerated []bool  // nodes a, b, c, d
		prefer      []int64 // nodes a, b, c, d
	}{
		{"no tolerations", mkPod("p"), []bool{true, true, true, false}, []int64{0, 0, 0, 2}},
		{"tolerates dedicated=db", mkPod("p", tolerate("dedicated", "db", corev1.TolerationOpEqual, corev1.TaintEffectNoSchedule)),
			[]bool{false, false, false, false}, []int64{0, 0, 0, 2}},
		{"tolerates another value", mkPod("p", tolerate("dedicated", "web", corev1.TolerationOpEqual, "")),
			[]bool{true, true, true, false}, []int64{0, 0, 0, 2}},
		{"tolerates spot", mkPod("p", tolerate("spot", "", corev1.TolerationOpExists, corev1.TaintEffectPreferNoSchedule)),
			[]bool{true, true, true, false}, []int64{0, 0, 0, 1}},
		{"tolerates everything", mkPod("p", tolerate("", "", corev1.TolerationOpExists, "")),
			[]bool{false, false, false, false}, []int64{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compile(snap, tt.pod, Options{})
			require.NoError(t, err)
			require.NotNil(t, c.taintVerdicts, "2 lists on 12 nodes are indexed")
			ns := cluster.NodesOf(c.snap)
			for i := range 4 {
				require.Positive(t, ns[i].TaintSet)
				require.Equal(t, tt.untolerated[i], c.untoleratedOn(ns[i]), ns[i].Name)
				require.Equal(t, tt.prefer[i], c.preferTaintsOn(ns[i]), ns[i].Name)
			}
			for _, n := range ns[4:] {
				require.Zero(t, n.TaintSet)
				require.False(t, c.untoleratedOn(n))
			}

			// Node a loses its taint in a view: the pod compiled for the
			// view reads a's own (empty) list, b keeps the shared answer.
			view, err := snap.WithNode(mkNode("a", "4", "8Gi"))
			require.NoError(t, err)
			v, err := c.On(view)
			require.NoError(t, err)
			vs := cluster.NodesOf(v.snap)
			require.Zero(t, vs[0].TaintSet)
			require.False(t, v.untoleratedOn(vs[0]))
			require.Equal(t, tt.untolerated[1], v.untoleratedOn(vs[1]))
		})
	}
}

// indexTaints leaves the nodes to their own taints when the lists are not
// many fewer than the nodes, or a PreFilter result restricts the pass.
func TestIndexTaintsOnlyWhenItPays(t *testing.T) {
	few := []*corev1.Node{
		mkNode("a", "4", "8Gi", withTaint("k", "1", corev1.TaintEffectNoSchedule)),
		mkNode("b", "4", "8Gi", withTaint("k", "2", corev1.TaintEffectNoSchedule)),
		mkNode("c", "4", "8Gi"), mkNode("d", "4", "8Gi"), mkNode("e", "4", "8Gi"),
	}
	c, err := Compile(snapshotOf(t, few), mkPod("p"), Options{})
	require.NoError(t, err)
	require.Nil(t, c.taintVerdicts, "2 lists on 5 nodes")
	require.True(t, c.untoleratedOn(cluster.NodesOf(c.snap)[0]))

	many := append(few, mkNode("f", "4", "8Gi"), mkNode("g", "4", "8Gi"), mkNode("h", "4", "8Gi"))
	c, err = Compile(snapshotOf(t, many), mkPod("p"), Options{})
	require.NoError(t, err)
	require.NotNil(t, c.taintVerdicts, "2 lists on 8 nodes")

	c, err = Compile(snapshotOf(t, many), mkPod("p", nodeAffinity(requiredTerms(corev1.NodeSelectorTerm{
		MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, "a")}}))), Options{})
	require.NoError(t, err)
	require.Nil(t, c.taintVerdicts, "a pod restricted to its node")
}

// A queue's taint memo hands a pod the verdicts of an earlier pod with the
// same tolerations: they must be the pod's own, whatever the tolerations
// (keys, operators, values and effects drawn so that pods differ in one of
// them only), and a memo moved to a snapshot with other taint lists starts
// afresh.
func TestTaintMemoAnswersAsIndexTaints(t *testing.T) {
	taintLists := [][]corev1.Taint{
		{{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}},
		{{Key: "dedicated", Value: "web", Effect: corev1.TaintEffectNoExecute}},
		{{Key: "spot", Value: "true", Effect: corev1.TaintEffectPreferNoSchedule}, {Key: "dedicated", Value: "db", Effect: corev1.TaintEffectPreferNoSchedule}},
		{{Key: "spot", Value: "true", Effect: corev1.TaintEffectNoSchedule}, {Key: "gpu", Effect: corev1.TaintEffectPreferNoSchedule}},
	}
	snapWith := func(lists [][]corev1.Taint) *Snapshot {
		var nodes []*corev1.Node
		for i := range 24 {
			n := mkNode(fmt.Sprintf("n%02d", i), "4", "8Gi")
			if i < 2*len(lists) {
				n.Spec.Taints = lists[i%len(lists)]
			}
			nodes = append(nodes, n)
		}
		return snapshotOf(t, nodes)
	}
	snaps := []*Snapshot{snapWith(taintLists), snapWith(taintLists[1:])}
	verdictsOf := func(m *taintMemo, snap *Snapshot, ts ...corev1.Toleration) (memo, own []taintVerdict) {
		pod := mkPod("p")
		pod.Spec.Tolerations = ts
		c, err := Compile(snap, pod, Options{})
		require.NoError(t, err)
		sets := cluster.TaintSetsOf(c.snap)
		require.True(t, c.indexesTaints(sets))
		return m.indexTaints(c), c.taintVerdictsOf(sets)
	}
	// Pairs that differ in one field (or whose fields, run together, are
	// the same bytes), and in their verdicts, asked in turn.
	tol := func(key string, op corev1.TolerationOperator, value string, effect corev1.TaintEffect) corev1.Toleration {
		return corev1.Toleration{Key: key, Operator: op, Value: value, Effect: effect}
	}
	eq, ex, ns := corev1.TolerationOpEqual, corev1.TolerationOpExists, corev1.TaintEffectNoSchedule
	for _, pair := range [][2]corev1.Toleration{
		{tol("dedicated", ex, "", ns), tol("spot", ex, "", ns)},                                   // key
		{tol("dedicated", eq, "", ns), tol("dedicated", ex, "", ns)},                              // operator
		{tol("dedicated", eq, "db", ns), tol("dedicated", eq, "web", ns)},                         // value
		{tol("dedicated", eq, "db", ns), tol("dedicated", eq, "db", corev1.TaintEffectNoExecute)}, // effect
		{tol("dedicated", eq, "db", ns), tol("dedicatedEqual", "", "db", ns)},                     // the same bytes run together
	} {
		var m taintMemo
		a, b := pair[0], pair[1]
		for _, ts := range [][]corev1.Toleration{{a}, {b}, {a, b}, {b, a}, nil, {b}} {
			memo, own := verdictsOf(&m, snaps[0], ts...)
			require.Equal(t, own, memo, "tolerations %v after others", ts)
		}
		va, _ := verdictsOf(&m, snaps[0], a)
		vb, _ := verdictsOf(&m, snaps[0], b)
		require.NotEqual(t, va, vb, "%v and %v differ on some list", a, b)
		// The other snapshot's lists are other verdicts.
		memo, own := verdictsOf(&m, snaps[1], a)
		require.Equal(t, own, memo)
	}
	rapid.Check(t, func(t *rapid.T) {
		var m taintMemo
		toleration := rapid.Custom(func(t *rapid.T) corev1.Toleration {
			return corev1.Toleration{
				Key:      rapid.SampledFrom([]string{"", "dedicated", "spot", "gpu"}).Draw(t, "key"),
				Operator: rapid.SampledFrom([]corev1.TolerationOperator{"", corev1.TolerationOpEqual, corev1.TolerationOpExists}).Draw(t, "op"),
				Value:    rapid.SampledFrom([]string{"", "db", "web", "true"}).Draw(t, "value"),
				Effect:   rapid.SampledFrom([]corev1.TaintEffect{"", corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute}).Draw(t, "effect"),
			}
		})
		pool := rapid.SliceOfN(rapid.SliceOfN(toleration, 0, 2), 1, 4).Draw(t, "tolerations")
		for i := range rapid.IntRange(1, 20).Draw(t, "pods") {
			snap := snaps[rapid.IntRange(0, 1).Draw(t, "snapshot")]
			pod := mkPod(fmt.Sprintf("p%d", i))
			pod.Spec.Tolerations = pool[rapid.IntRange(0, len(pool)-1).Draw(t, "pick")]
			c, err := Compile(snap, pod, Options{})
			require.NoError(t, err)
			sets := cluster.TaintSetsOf(c.snap)
			require.True(t, c.indexesTaints(sets))
			require.Equal(t, c.taintVerdictsOf(sets), m.indexTaints(c), "tolerations %v", pod.Spec.Tolerations)
		}
	})
}
