package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// TestIndexNodeAfterEqualsIndexNode: along random chains of bindings
// (WithPod and WithPodInfoReusing, of pods with and without affinity terms,
// some being deleted) and removals, every node a view changed is indexed
// from the slot's previous node (indexNodeAfter) exactly as a walk of its
// pods (indexNode) indexes it, when the previous node is its parent and
// when it is an older view's (some views are never indexed).
func TestIndexNodeAfterEqualsIndexNode(t *testing.T) {
	// Two nodes, so that a node sees several changes in a chain.
	checkChains(t, 2, 12, func(t *rapid.T, cur *Snapshot, step int) {
		v := cur.Labels()
		x := cur.labels
		for i, ni := range SlotsOf(cur) {
			x.mu.Lock()
			want := x.indexNode(ni)
			x.mu.Unlock()
			require.Equal(t, want, v.Node(i), "step %d, node %s", step, ni.Name)
		}
	})
}

// checkChains runs check on prewarmWorld's snapshot, then along a random
// chain of up to maxSteps views (chainStep on its first nodes) on about
// two views in three: the others are never asked about, so that a view's
// parent is not always the last snapshot asked about.
func checkChains(t *testing.T, nodes, maxSteps int, check func(t *rapid.T, cur *Snapshot, step int)) {
	rapid.Check(t, func(t *rapid.T) {
		s, _, err := New(prewarmWorld())
		require.NoError(t, err)
		cur := s
		check(t, cur, -1)
		var bound []string
		for step := range rapid.IntRange(1, maxSteps).Draw(t, "steps") {
			cur = chainStep(t, cur, NodesOf(s)[:nodes], step, &bound)
			if rapid.IntRange(0, 2).Draw(t, "skip") > 0 {
				check(t, cur, step)
			}
		}
	})
}

// chainStep returns a view of cur that removes one of the pods bound so
// far (bound, keys) or binds a new one to one of nodes, with or without
// affinity terms, sometimes being deleted, through WithPod or
// WithPodInfoReusing.
func chainStep(t *rapid.T, cur *Snapshot, nodes []*NodeInfo, step int, bound *[]string) *Snapshot {
	if len(*bound) > 0 && rapid.IntRange(0, 3).Draw(t, "remove") == 0 {
		return cur.WithoutPods(rapid.SampledFrom(*bound).Draw(t, "victim"))
	}
	n := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
	p := labelledPod(rapid.SampledFrom([]string{"default", "ns-1"}).Draw(t, "ns"), fmt.Sprintf("bound-%d", step), n.Name,
		map[string]string{"app": fmt.Sprintf("app-%d", step)})
	if rapid.Bool().Draw(t, "affinity") {
		p.Spec.Affinity = genAffinity(t)
	}
	if rapid.IntRange(0, 4).Draw(t, "deleting") == 0 {
		now := metav1.Now()
		p.DeletionTimestamp = &now
	}
	var next *Snapshot
	var err error
	if rapid.Bool().Draw(t, "reusing") {
		pi, err := NewPodInfo(p)
		require.NoError(t, err)
		next, err = cur.WithPodInfoReusing(pi, nil)
		require.NoError(t, err)
	} else {
		next, err = cur.WithPod(p)
		require.NoError(t, err)
	}
	*bound = append(*bound, p.Namespace+"/"+p.Name)
	return next
}
