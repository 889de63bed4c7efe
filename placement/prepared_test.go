package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement/framework"
)

// TestPreparedCompileEqualsCompile: a pod prepared once and compiled
// against two snapshots (the world, and a view of it with one more pod
// bound) decides exactly as Compile on each; the prepared pod is not
// changed by its compilations.
func TestPreparedCompileEqualsCompile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound})
		require.NoError(t, err)
		extra := genPod(t, "later")
		extra.Spec.NodeName = w.nodes[rapid.IntRange(0, len(w.nodes)-1).Draw(t, "laterOn")].Name
		view, err := snap.WithPod(extra)
		require.NoError(t, err)
		p := Prepare(w.pending, Options{})
		require.NoError(t, p.Err())
		for _, s := range []*Snapshot{snap, view, snap} {
			want, err := Compile(s, w.pending, Options{})
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

// TestPreparedErrors: an invalid pod is reported by Prepare and by each
// Compile of it with Compile's text, and a nil snapshot as Compile does.
func TestPreparedErrors(t *testing.T) {
	bad := &corev1.Pod{}
	bad.Name, bad.Namespace = "bad", "ns"
	bad.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Bogus", Values: []string{"a"}}},
		}}},
	}}
	snap, _, err := newTestSnapshot(cluster.Input{})
	require.NoError(t, err)
	_, want := Compile(snap, bad, Options{})
	require.Error(t, want)
	p := Prepare(bad, Options{})
	require.EqualError(t, p.Err(), want.Error())
	_, got := p.Compile(snap)
	require.EqualError(t, got, want.Error())

	_, want = Compile(nil, bad, Options{})
	_, got = Prepare(bad, Options{}).Compile(nil)
	require.EqualError(t, got, want.Error())
	_, want = Compile(snap, nil, Options{})
	_, got = Prepare(nil, Options{}).Compile(snap)
	require.EqualError(t, got, want.Error())
}

// TestDecideIsScheduleWithoutSingleScore: Decide decides as Schedule does;
// only with exactly one feasible node is its TotalScore left at 0.
func TestDecideIsScheduleWithoutSingleScore(t *testing.T) {
	single := 0
	rapid.Check(t, func(t *rapid.T) {
		c := compileWorld(t, genWorld(t))
		want, got := c.Schedule(), c.Decide()
		if want.Feasible == 1 {
			single++
			want.TotalScore = 0
		}
		require.Equal(t, want, got)
	})
	require.Positive(t, single, "no world with a single feasible node")
}

// TestNilNodeIsAnError: the per-node questions answer a nil node (or a nil
// removed pod) with an Error status instead of a panic.
func TestNilNodeIsAnError(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{})
	require.NoError(t, err)
	pod := &corev1.Pod{}
	pod.Name, pod.Namespace = "p", "ns"
	c, err := Compile(snap, pod, Options{})
	require.NoError(t, err)
	require.Equal(t, framework.Error, c.Filter(nil).Code)
	require.False(t, c.Fits(nil))
	for _, st := range c.FilterEach(nil) {
		require.Equal(t, framework.Error, st.Code)
	}
	require.Equal(t, framework.Error, c.NewTrial().Filter(nil, nil).Code)
	n := &cluster.NodeInfo{Name: "n", Node: &corev1.Node{}}
	require.Equal(t, framework.Error, c.NewTrial().filter(n, []*cluster.PodInfo{nil}).Code)
}
