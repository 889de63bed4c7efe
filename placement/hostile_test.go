package placement_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/placement"
)

// Issue 21: what Snapshot.Nodes, Node and Pod hand out is the caller's to
// change. Swapping the returned nodes, appending a taint, emptying a node's
// pods or changing its sums must not change any later answer about the
// snapshot.
func TestSnapshotAccessorsReturnCopies(t *testing.T) {
	taint := corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2"), exampleNode("b", "4"), exampleNode("c", "8", taint)},
		Pods:  []*corev1.Pod{examplePod("busy", "a", "1500m"), examplePod("other", "b", "1")},
	})
	require.NoError(t, err)
	pod := examplePod("web", "", "1")
	before, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)

	mutations := []struct {
		name   string
		mutate func()
	}{
		{"swap two nodes of Nodes()", func() {
			nodes := snap.Nodes()
			nodes[0], nodes[2] = nodes[2], nodes[0]
		}},
		{"append to a node's Taints()", func() {
			n := snap.Nodes()[1]
			_ = append(n.Taints()[:0], taint)
		}},
		{"change a taint in place", func() {
			n, ok := snap.Node("c")
			require.True(t, ok)
			n.Taints()[0].Effect = corev1.TaintEffectPreferNoSchedule
		}},
		{"change sums and pods of Node()", func() {
			n, ok := snap.Node("a")
			require.True(t, ok)
			r := n.Requested()
			r.MilliCPU = 0
			if r.Scalar != nil {
				r.Scalar["x"] = 1
			}
			pods := n.Pods()
			pods[0] = nil
			n.UsedPorts()
		}},
		{"change the pod's requests of Pod()", func() {
			p, _, ok := snap.Pod("default/other")
			require.True(t, ok)
			r := p.Requests()
			r.MilliCPU = 1 << 40
		}},
		{"change a namespace's labels", func() {
			if l := snap.NamespaceLabels("default"); l != nil {
				l["x"] = "y"
			}
		}},
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			m.mutate()
			after, err := placement.Evaluate(snap, pod, placement.Options{})
			require.NoError(t, err)
			assert.Equal(t, before, after)
			names := []string{}
			for _, n := range snap.Nodes() {
				names = append(names, n.Name())
			}
			assert.Equal(t, []string{"a", "b", "c"}, names)
			n, _ := snap.Node("c")
			assert.Equal(t, []corev1.Taint{taint}, n.Taints())
			p, _, ok := snap.Pod("default/other")
			require.True(t, ok)
			assert.Equal(t, int64(1000), p.Requests().MilliCPU)
		})
	}
}

// A node handed out is a copy with the snapshot's values: the filters
// answer it as they answer the snapshot's own.
func TestSnapshotNodeCopiesFilterAlike(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2")},
		Pods:  []*corev1.Pod{examplePod("busy", "a", "1500m")},
	})
	require.NoError(t, err)
	c, err := placement.Compile(snap, examplePod("web", "", "1"), placement.Options{})
	require.NoError(t, err)
	n, _ := snap.Node("a")
	assert.Equal(t, []string{"Insufficient cpu"}, c.Filter(n).Reasons)
	assert.Equal(t, c.Filter(n), c.Filter(snap.Nodes()[0]))
}

// Input hands out new slices: changing them changes no later answer.
func TestSnapshotInputIsACopy(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2")},
		Pods:  []*corev1.Pod{examplePod("busy", "a", "1500m")},
	})
	require.NoError(t, err)
	in := snap.Input()
	in.Nodes[0] = exampleNode("z", "64")
	in.Pods = nil
	in.WithoutPodLevelResize = true
	assert.Equal(t, "a", snap.Input().Nodes[0].Name)
	assert.Len(t, snap.Input().Pods, 1)
	_, err = placement.Compile(snap, examplePod("web", "", "1"), placement.Options{})
	require.NoError(t, err, "the snapshot still holds its version rule")
}

// What a Compiled hands out (its PodInfo, its gate, a Decision's gate) is
// the caller's: changing it changes no later answer.
func TestCompiledHandsOutCopies(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "2")}})
	require.NoError(t, err)
	pod := examplePod("web", "", "1")
	c, err := placement.Compile(snap, pod, placement.Options{})
	require.NoError(t, err)
	before := c.Schedule()
	r := c.PodInfo().Requests()
	r.MilliCPU = 1 << 40
	assert.Equal(t, before, c.Schedule())
	assert.Equal(t, int64(1000), c.PodInfo().Requests().MilliCPU)

	gated := examplePod("gated", "", "1")
	gated.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "g"}}
	g, err := placement.Compile(snap, gated, placement.Options{})
	require.NoError(t, err)
	want := *g.Gated()
	want.Reasons = append([]string(nil), want.Reasons...)
	g.Gated().Reasons[0] = "changed"
	g.Schedule().Gated.Reasons[0] = "changed"
	assert.Equal(t, &want, g.Gated())
	assert.Equal(t, &want, g.Schedule().Gated)
}
