package placement

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

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
