package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// ChangedFrom names the nodes a view made directly from a snapshot changed
// (sorted), and nothing for any other pair.
func TestChangedFrom(t *testing.T) {
	s, _, err := New(prewarmWorld())
	require.NoError(t, err)
	nodes := NodesOf(s)
	a, b := nodes[3].Pods[0].Key, nodes[1].Pods[0].Key
	without := s.WithoutPods(a, b, "no/such-pod")
	got, ok := without.ChangedFrom(s)
	require.True(t, ok)
	require.Equal(t, []int32{1, 3}, got)

	p := pod("ns-0", "new", nodes[5].Name, rl("cpu", "1m"))
	with, err := without.WithPod(p)
	require.NoError(t, err)
	got, ok = with.ChangedFrom(without)
	require.True(t, ok)
	require.Equal(t, []int32{5}, got)

	_, ok = with.ChangedFrom(s) // a grandchild: not direct
	require.False(t, ok)
	_, ok = s.ChangedFrom(s)
	require.False(t, ok)
	_, ok = without.ChangedFrom(&Snapshot{})
	require.False(t, ok)
	other, _, err := New(prewarmWorld())
	require.NoError(t, err)
	_, ok = other.WithoutPods(a).ChangedFrom(s) // same content, another New
	require.False(t, ok)
}

// A label view patched with a direct view's changed nodes is the view's
// own label view, node by node.
func TestLabelViewPatchedProperty(t *testing.T) {
	s, _, err := New(prewarmWorld())
	require.NoError(t, err)
	var keys []string
	for _, n := range NodesOf(s) {
		for _, p := range n.Pods {
			keys = append(keys, p.Key)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		base := s
		if rapid.Bool().Draw(t, "start from a view") {
			base = s.WithoutPods(rapid.SampledFrom(keys).Draw(t, "first"))
		}
		lv := base.Labels()
		var view *Snapshot
		if rapid.Bool().Draw(t, "add") {
			n := NodesOf(base)[rapid.IntRange(0, len(NodesOf(base))-1).Draw(t, "node")]
			p := pod("ns-1", "added", n.Name, rl("cpu", "1m"))
			p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"a1", "new"}).Draw(t, "app")}
			var err error
			view, err = base.WithPod(p)
			require.NoError(t, err)
		} else {
			view = base.WithoutPods(rapid.SliceOfN(rapid.SampledFrom(keys), 1, 6).Draw(t, "victims")...)
		}
		changed, ok := view.ChangedFrom(base)
		if !ok {
			require.Same(t, base, view, "no pod removed: the same snapshot")
			return
		}
		patched, ok := lv.Patched(view, changed)
		require.True(t, ok)
		want := view.Labels()
		require.Equal(t, want.NumNodes(), patched.NumNodes())
		for i := range want.NumNodes() {
			require.Equal(t, want.Node(i), patched.Node(i), "node %d", i)
		}
		require.Equal(t, len(want.Sets), len(patched.Sets))
		require.Equal(t, len(want.Terms), len(patched.Terms))
	})
}

// A view made with a retired view's node list is the view WithPodInfo
// makes; the retired view can no longer be read, and the views and
// indexes made before it do not depend on its list.
func TestRetireReusesNodeList(t *testing.T) {
	s, _, err := New(prewarmWorld())
	require.NoError(t, err)
	nodes := NodesOf(s)
	first, err := s.WithPod(pod("ns-0", "first", nodes[2].Name, rl("cpu", "1m")))
	require.NoError(t, err)
	_ = first.Labels() // the label index may take first as its base
	_ = first.Occurrences()
	p := pod("ns-0", "second", nodes[4].Name, rl("cpu", "1m"))
	want, err := first.WithPod(p)
	require.NoError(t, err)

	spare := Retire(first)
	require.Len(t, spare, len(nodes))
	require.Nil(t, Retire(first), "a view retires once")
	require.Panics(t, func() { NodesOf(first) })
	require.Panics(t, func() { SlotsOf(first) })

	pi, err := newPodInfo(StoredPod(p), false)
	require.NoError(t, err)
	// The parent of the new view is want's parent's parent: any view of s
	// may take the list.
	got, err := want.WithoutPods("ns-0/second").WithPodInfoReusing(pi, spare)
	require.NoError(t, err)
	require.Equal(t, NodesOf(want), NodesOf(got), "same nodes, in the spare list")
	require.Same(t, &spare[0], &NodesOf(got)[0], "the spare list was reused")
	require.Equal(t, want.Labels().Sets, got.Labels().Sets)
	require.Equal(t, NodesOf(s), nodes, "the snapshot itself is untouched")
}
