package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// TestViewChainLocations: a long chain of WithPod views (past the recent
// list's folding and the overlay's compaction), with branches, finds every
// pod on its node in every view, and a parent never sees its children's
// pods.
func TestViewChainLocations(t *testing.T) {
	nodes := []*corev1.Node{node("a", nil, nil), node("b", nil, nil), node("c", nil, nil)}
	snap, _, err := New(Input{Nodes: nodes})
	require.NoError(t, err)
	views := []*Snapshot{snap}
	where := map[string]string{}
	for i := range 2*compactThreshold + 3*recentLimit + 7 {
		n := nodes[i%3].Name
		p := pod("default", fmt.Sprintf("p%d", i), n, nil)
		next, err := views[len(views)-1].WithPod(p)
		require.NoError(t, err)
		views = append(views, next)
		where["default/"+p.Name] = n
		if i%recentLimit == 5 {
			// A branch off the same parent: only its own pod is added.
			side, err := views[len(views)-2].WithPod(pod("default", "side", "a", nil))
			require.NoError(t, err)
			_, ni, ok := PodOf(side, "default/side")
			require.True(t, ok)
			require.Equal(t, "a", ni.Name)
			_, _, ok = PodOf(next, "default/side")
			require.False(t, ok, "a sibling's pod is not in the view")
		}
	}
	last := views[len(views)-1]
	for key, n := range where {
		_, ni, ok := PodOf(last, key)
		require.True(t, ok, key)
		require.Equal(t, n, ni.Name, key)
	}
	require.Equal(t, len(where), last.NumPods())
	for k, v := range views {
		require.Equal(t, k, v.NumPods())
		if k > 0 {
			_, _, ok := PodOf(v, fmt.Sprintf("default/p%d", k-1))
			require.True(t, ok)
		}
		if k < len(views)-1 {
			_, _, ok := PodOf(v, fmt.Sprintf("default/p%d", k))
			require.False(t, ok, "view %d sees a later pod", k)
		}
	}
	_, err = last.WithPod(pod("default", "p0", "b", nil))
	require.ErrorIs(t, err, ErrInvalidView, "a pod already bound")
}

// BenchmarkWithPodChain: 1000 single-pod views in a row on 1000 nodes.
func BenchmarkWithPodChain(b *testing.B) {
	var nodes []*corev1.Node
	for i := range 1000 {
		nodes = append(nodes, node(fmt.Sprintf("n%04d", i), nil, nil))
	}
	snap, _, err := New(Input{Nodes: nodes})
	require.NoError(b, err)
	pods := make([]*corev1.Pod, 1000)
	for i := range pods {
		pods[i] = pod("default", fmt.Sprintf("p%d", i), nodes[i%1000].Name, nil)
	}
	for b.Loop() {
		cur := snap
		for _, p := range pods {
			if cur, err = cur.WithPod(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// A pod removed and bound again elsewhere is found on its new node
// whatever layers of the overlay hold its two bindings: the newest wins.
func TestViewChainRebinding(t *testing.T) {
	nodes := []*corev1.Node{node("a", nil, nil), node("b", nil, nil)}
	snap, _, err := New(Input{Nodes: nodes})
	require.NoError(t, err)
	bind := func(s *Snapshot, name, node string) *Snapshot {
		next, err := s.WithPod(pod("default", name, node, nil))
		require.NoError(t, err)
		return next
	}
	cur := bind(snap, "moving", "a")
	filler := 0
	for round := range 6 {
		// Enough bindings between moves that each move lands in another
		// layer of the overlay (layers merge as they grow).
		for range recentLimit * (round + 1) {
			cur = bind(cur, fmt.Sprintf("f%d", filler), "a")
			filler++
		}
		to := []string{"b", "a"}[round%2]
		cur = bind(cur.WithoutPods("default/moving"), "moving", to)
		// Then enough to fold the move into the overlay's layers.
		for range 2 * recentLimit {
			cur = bind(cur, fmt.Sprintf("f%d", filler), "a")
			filler++
		}
		_, ni, ok := PodOf(cur, "default/moving")
		require.True(t, ok, "round %d", round)
		require.Equal(t, to, ni.Name, "round %d", round)
	}
	for i := range filler {
		_, ni, ok := PodOf(cur, fmt.Sprintf("default/f%d", i))
		require.True(t, ok)
		require.Equal(t, "a", ni.Name)
	}
}
