package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement/framework"
)

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
