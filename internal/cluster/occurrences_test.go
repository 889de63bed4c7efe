package cluster

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// TestOccurrences checks the inversion of a snapshot's label view: each
// set's pods by node index (a pod being deleted as -1-index), each term's
// uses with weights, and that a view shares its base, listing the nodes it
// changed, until too many changed and it becomes a base itself.
func TestOccurrences(t *testing.T) {
	nodes := []*corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "n0", Labels: map[string]string{"zone": "z"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
	}
	pref := &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
		{Weight: 7, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}},
	}}}
	deleting := labelledPod("default", "p2", "n1", map[string]string{"app": "a"})
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	withPref := labelledPod("default", "p1", "n1", map[string]string{"app": "b"})
	withPref.Spec.Affinity = pref
	snap, _, err := New(Input{Nodes: nodes, Pods: []*corev1.Pod{
		labelledPod("default", "p0", "n0", map[string]string{"app": "a"}), withPref, deleting,
	}})
	require.NoError(t, err)
	v := snap.Labels()
	occ := snap.Occurrences()
	a, b := v.Node(0).Sets[0], v.Node(1).Sets[0]
	assert.Equal(t, []int32{0, -1 - 1}, occ.BasePods(a), "n0's pod, then n1's pod being deleted")
	assert.Equal(t, []int32{1}, occ.BasePods(b))
	assert.Nil(t, occ.BasePods(99))
	assert.Empty(t, occ.Changed())
	assert.False(t, occ.Stale(1))
	assert.True(t, occ.Labelled(0))
	assert.False(t, occ.Labelled(1))
	uses := occ.Terms(PreferredAffinityTerms)
	require.Equal(t, 1, uses.NumTerms())
	un, uw := uses.Uses(0)
	assert.Equal(t, []int32{1}, un)
	assert.Equal(t, []int32{7}, uw)
	assert.Equal(t, 0, occ.Terms(RequiredAntiAffinityTerms).NumTerms())
	assert.Same(t, occ, snap.Occurrences(), "cached per snapshot")

	view, err := snap.WithPod(labelledPod("default", "p3", "n1", map[string]string{"app": "c"}))
	require.NoError(t, err)
	vocc := view.Occurrences()
	assert.Same(t, occ.base, vocc.base, "a view shares its base")
	assert.Equal(t, []int32{1}, vocc.Changed())
	assert.True(t, vocc.Stale(1))
	assert.False(t, vocc.Stale(0))
	vv := view.Labels()
	assert.Len(t, vv.Node(1).Sets, 3, "the changed node is read from the view's labels")

	t.Run("a view far from its base becomes the base", func(t *testing.T) {
		var ns []*corev1.Node
		for i := range 20 {
			ns = append(ns, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%02d", i)}})
		}
		s, _, err := New(Input{Nodes: ns})
		require.NoError(t, err)
		base := s.Occurrences().base
		near, far := s, s
		for i := range 12 {
			far, err = far.WithPod(labelledPod("default", fmt.Sprintf("p%d", i), fmt.Sprintf("n%02d", i), map[string]string{"app": "a"}))
			require.NoError(t, err)
			if i == 3 {
				near = far
			}
		}
		assert.Same(t, base, near.Occurrences().base)
		assert.Len(t, near.Occurrences().Changed(), 4)
		fo := far.Occurrences()
		assert.NotSame(t, base, fo.base, "12 changed nodes of 20 exceed 20/16+8")
		assert.Empty(t, fo.Changed())
		fv := far.Labels()
		assert.Len(t, fo.BasePods(fv.Node(0).Sets[0]), 12)
	})
}

// BenchmarkOccurrences measures inverting the label view of a snapshot of
// 1,000 nodes and 10,000 pods (the first query of a snapshot; its views
// reuse it).
func BenchmarkOccurrences(b *testing.B) {
	in := benchInput()
	snap, _, err := New(in)
	require.NoError(b, err)
	v := snap.Labels()
	b.ReportAllocs()
	for b.Loop() {
		buildOccBase(snap, &v)
	}
}

// BenchmarkInternSets measures interning the label sets of 10,000 bound
// pods (1,000 distinct), the label index's part of New.
func BenchmarkInternSets(b *testing.B) {
	in := benchInput()
	b.ReportAllocs()
	for b.Loop() {
		x := newLabelIndex()
		for _, p := range in.Pods {
			x.internSet(p.Namespace, p.Labels)
		}
	}
}

// BenchmarkViewLabels measures the label view of a fresh view (one bound
// pod more) of a 1,000-node snapshot, as preemption's dry runs and
// schedule mode ask for it.
func BenchmarkViewLabels(b *testing.B) {
	in := benchInput()
	snap, _, err := New(in)
	require.NoError(b, err)
	snap.Labels()
	views := make([]*Snapshot, 16)
	for i := range views {
		views[i], err = snap.WithPod(labelledPod("default", fmt.Sprintf("extra-%d", i), fmt.Sprintf("node-%d", i*37), map[string]string{"app": "x"}))
		require.NoError(b, err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		views[i%len(views)].Labels()
		snap.Labels()
		i++
	}
}

// TestViewNodes checks that a view's label view patches the base
// snapshot's node list where the view's NodeInfos differ, that every node
// reads as an index built for the view alone would (through Node,
// EachNode and bySlot), and that a view far
// from the base (more than len/16+8 changed nodes) becomes the base.
func TestViewNodes(t *testing.T) {
	var ns []*corev1.Node
	for i := range 20 {
		ns = append(ns, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%02d", i)}})
	}
	var pods []*corev1.Pod
	for i := range 20 {
		pods = append(pods, labelledPod("default", fmt.Sprintf("p%d", i), fmt.Sprintf("n%02d", i), map[string]string{"app": fmt.Sprint(i % 3)}))
	}
	s, _, err := New(Input{Nodes: ns, Pods: pods})
	require.NoError(t, err)
	base := s.Labels()
	assert.Empty(t, base.patched)
	view := s
	for i := range 12 {
		view, err = view.WithPod(labelledPod("default", fmt.Sprintf("x%d", i), fmt.Sprintf("n%02d", i), map[string]string{"app": "new"}))
		require.NoError(t, err)
		v := view.Labels()
		switch {
		case i < 9:
			assert.Len(t, v.patched, i+1, "patched at the changed nodes")
			assert.Same(t, &base.nodes[0], &v.nodes[0], "sharing the base list")
		case i == 9:
			assert.Empty(t, v.patched, "10 changed nodes of 20: a full list, the new base")
		default:
			assert.Len(t, v.patched, i-9, "patched against the new base")
		}
		// EachNode along ascending slots (every other one, and all) and
		// bySlot read each node as Node does.
		all := v.bySlot()
		for _, step := range []int{1, 2, 3} {
			var slots []int32
			for n := 0; n < v.NumNodes(); n += step {
				slots = append(slots, int32(n))
			}
			var seen []int32
			v.EachNode(slots, func(n int32, nl *NodeLabels) {
				seen = append(seen, n)
				assert.Same(t, v.Node(int(n)), nl, "EachNode slot %d", n)
				assert.Same(t, v.Node(int(n)), all[n], "bySlot slot %d", n)
			})
			assert.Equal(t, slots, seen)
		}
		fresh, _, err := New(Input{Nodes: ns, Pods: podsOf(view)})
		require.NoError(t, err)
		fv := fresh.Labels()
		require.Equal(t, fv.NumNodes(), v.NumNodes())
		for n := range v.NumNodes() {
			var got, want []LabelSet
			for _, id := range v.Node(n).Sets {
				got = append(got, v.Sets[id])
			}
			for _, id := range fv.Node(n).Sets {
				want = append(want, fv.Sets[id])
			}
			assert.Equal(t, want, got, "node %d after %d binds", n, i+1)
		}
	}
	// The parent, asked again, is far from the new base and becomes the
	// base again, reading its own nodes.
	pv := s.Labels()
	assert.Len(t, pv.Node(0).Sets, 1)
	assert.Empty(t, pv.patched)
}

func podsOf(s *Snapshot) []*corev1.Pod {
	var out []*corev1.Pod
	for _, n := range NodesOf(s) {
		for _, pi := range n.Pods {
			out = append(out, pi.Pod)
		}
	}
	return out
}

// TestOccurrencesStaleIsChanged: on a chain of views binding pods to random
// nodes of a 300-node snapshot, Stale(i) holds exactly for the node slots
// Changed lists, in every word of the set.
func TestOccurrencesStaleIsChanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		const numNodes = 300
		nodes := make([]*corev1.Node, numNodes)
		for i := range nodes {
			nodes[i] = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%03d", i), Labels: map[string]string{"zone": "z"}}}
		}
		snap, _, err := New(Input{Nodes: nodes})
		if err != nil {
			t.Fatal(err)
		}
		snap.Occurrences() // the base
		cur := snap
		binds := rapid.IntRange(1, 20).Draw(t, "binds")
		for b := range binds {
			node := rapid.IntRange(0, numNodes-1).Draw(t, "node")
			next, err := cur.WithPod(labelledPod("default", fmt.Sprintf("p%d", b), nodes[node].Name, map[string]string{"app": "a"}))
			if err != nil {
				t.Fatal(err)
			}
			cur = next
		}
		occ := cur.Occurrences()
		changed := map[int32]bool{}
		for _, i := range occ.Changed() {
			changed[i] = true
		}
		for i := range int32(numNodes) {
			if occ.Stale(i) != changed[i] {
				t.Fatalf("slot %d: Stale %v, in Changed %v", i, occ.Stale(i), changed[i])
			}
		}
	})
}

// TestOccurrencesChangedAlongChains: along random chains of bindings and
// removals, some views never asked, a view's changed slots (taken from its
// parent's when the parent's Occurrences are at hand) are every slot whose
// node differs from the base's, ascending.
func TestOccurrencesChangedAlongChains(t *testing.T) {
	checkChains(t, 6, 40, func(t *rapid.T, cur *Snapshot, step int) {
		occ := cur.Occurrences()
		var want []int32
		for i, ni := range SlotsOf(cur) {
			if ni != occ.base.nodes[i] {
				want = append(want, int32(i))
			}
		}
		require.Equal(t, want, occ.Changed(), "step %d", step)
		for i := range SlotsOf(cur) {
			require.Equal(t, slices.Contains(want, int32(i)), occ.Stale(int32(i)), "step %d slot %d", step, i)
		}
	})
}

// mergeChanged drops a slot a view changed back to the base's node, keeps
// the parent's other slots and adds the view's own, ascending.
func TestMergeChanged(t *testing.T) {
	a, b, c, d := &NodeInfo{}, &NodeInfo{}, &NodeInfo{}, &NodeInfo{}
	base := []*NodeInfo{a, b, c, d}
	slots := []*NodeInfo{a, &NodeInfo{}, c, &NodeInfo{}} // slot 2 is the base's again
	require.Equal(t, []int32{1, 3}, mergeChanged([]int32{1, 2}, []int32{2, 3}, slots, base))
	require.Equal(t, []int32{1}, mergeChanged(nil, []int32{1}, slots, base))
	require.Equal(t, []int32{1, 2}, mergeChanged([]int32{1, 2}, nil, slots, base))
}
