package placement

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
)

// TestNodeViewsEqualRebuild: a node what-if (replace, add, remove) answers
// as a snapshot built from scratch with the changed objects does.
func TestNodeViewsEqualRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound})
		require.NoError(t, err)
		nodes := append([]*corev1.Node(nil), w.nodes...)
		pods := append([]*corev1.Pod(nil), w.bound...)
		i := rapid.IntRange(0, len(nodes)-1).Draw(t, "node")
		var view *Snapshot
		switch kind := rapid.SampledFrom([]string{"cordon", "taint", "relabel", "resize", "add", "remove"}).Draw(t, "change"); kind {
		case "cordon", "taint", "relabel", "resize":
			n := nodes[i].DeepCopy()
			switch kind {
			case "cordon":
				n.Spec.Unschedulable = !n.Spec.Unschedulable
			case "taint":
				n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: rapid.SampledFrom(taintK).Draw(t, "taint"), Effect: corev1.TaintEffectNoSchedule})
			case "relabel":
				n.Labels["disk"] = rapid.SampledFrom(disks).Draw(t, "disk")
			case "resize":
				n.Status.Allocatable = testbuild.Resources("cpu", rapid.SampledFrom([]string{"1", "2", "16"}).Draw(t, "cpu"), "memory", "8Gi", "pods", "110")
			}
			nodes[i] = n
			view, err = snap.WithNode(n)
		case "add":
			n := genNode(t, len(nodes)+10)
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
		rebuilt, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods})
		require.NoError(t, err)
		got, err := Evaluate(view, w.pending, Options{})
		require.NoError(t, err)
		want, err := Evaluate(rebuilt, w.pending, Options{})
		require.NoError(t, err)
		require.Equal(t, want, got)
		// The original snapshot still answers as before.
		again, err := Evaluate(snap, w.pending, Options{})
		require.NoError(t, err)
		orig, _, _ := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound})
		before, err := Evaluate(orig, w.pending, Options{})
		require.NoError(t, err)
		require.Equal(t, before, again)
	})
}

func TestNodeViewErrors(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{mkNode("a", "1", "1Gi")}})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		do   func() error
		is   error
		text string
	}{
		{"replace unknown", func() error { _, err := snap.WithNode(mkNode("b", "1", "1Gi")); return err }, ErrUnknownNode, `placement: unknown node "b"`},
		{"remove unknown", func() error { _, err := snap.WithoutNodes("a", "zz"); return err }, ErrUnknownNode, `placement: unknown node "zz"`},
		{"add existing", func() error { _, err := snap.WithNodes(mkNode("a", "1", "1Gi")); return err }, ErrDuplicateNode, `placement: duplicate node "a"`},
		{"add twice", func() error { _, err := snap.WithNodes(mkNode("c", "1", "1Gi"), mkNode("c", "2", "1Gi")); return err }, ErrDuplicateNode, `placement: duplicate node "c"`},
		{"add nil", func() error { _, err := snap.WithNodes(nil); return err }, ErrInvalidView, "placement: invalid view change: node 0 to add is nil"},
		{"replace nil", func() error { _, err := snap.WithNode(nil); return err }, ErrInvalidView, "placement: invalid view change: nil node"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do()
			require.EqualError(t, err, tc.text)
			if tc.is != nil {
				require.True(t, errors.Is(err, tc.is), fmt.Sprint(err))
			}
		})
	}
}

// TestOnRefusesAnotherSnapshot: a compiled pod re-targeted to a snapshot
// that is not a view of its own (another node set) is refused, not
// indexed out of range.
func TestOnRefusesAnotherSnapshot(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{mkNode("a", "1", "1Gi")}})
	require.NoError(t, err)
	c, err := Compile(snap, mkPod("p", requests("cpu", "1"), withNodeSelector("disk", "ssd")), Options{})
	require.NoError(t, err)
	bigger, err := snap.WithNodes(mkNode("b", "1", "1Gi"), mkNode("c", "1", "1Gi"))
	require.NoError(t, err)
	_, err = c.On(bigger)
	require.ErrorIs(t, err, ErrNotAView)
	cordoned := mkNode("a", "1", "1Gi")
	cordoned.Spec.Unschedulable = true
	view, err := snap.WithNode(cordoned)
	require.NoError(t, err)
	_, err = c.On(view)
	require.NoError(t, err, "a node view is a view")
}
