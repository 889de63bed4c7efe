package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// TestSpreadOnCountsDeletedPods mirrors PodTopologySpread's updateWithPod
// (podtopologyspread/filtering.go, v1.36), which the framework calls from
// AddPod/RemovePod during preemption's dry run: unlike PreFilter
// (countPodsMatchSelector) it has no deletionTimestamp check, so taking a
// matching pod that is being deleted off a node lowers its domain's count
// although PreFilter never counted it, and putting it back raises it again.
func TestSpreadOnCountsDeletedPods(t *testing.T) {
	nodes := []*corev1.Node{zoned("a", "z1"), zoned("b", "z2"), zoned("c", "z2")}
	pods := []*corev1.Pod{
		mkPod("a1", "a", lbl("app", "db")),
		mkPod("c1", "c", lbl("app", "db")),
		mkPod("c2", "c", lbl("app", "db")),
		mkPod("b-gone", "b", lbl("app", "db"), terminating()),
		mkPod("b-other", "b", lbl("app", "web"), terminating()),
	}
	snap, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	incoming := mkPod("in", "", lbl("app", "db"), spreadOn(1, corev1.LabelTopologyZone, corev1.DoNotSchedule, selector("app", "db")))
	pi, err := cluster.NewPodInfo(incoming)
	require.NoError(t, err)
	s, err := NewSpread(pi, snap, SpreadOptions{})
	require.NoError(t, err)
	b, _ := cluster.NodeOf(snap, "b")
	unsched := sched.Status{Code: sched.Unschedulable, Plugin: sched.PodTopologySpread, Reasons: reasonsSpreadNotMatch}
	// z2 holds c1, c2 (b-gone is not counted), z1 holds a1: 2+1-1 > 1.
	assert.Equal(t, unsched, s.Filter(b))

	tests := []struct {
		name   string
		remove []string
		want   sched.Status
	}{
		{name: "removing the deleted matching pod lowers z2 to 1", remove: []string{"default/b-gone"}, want: sched.Status{}},
		{name: "a deleted pod the selector does not match changes nothing", remove: []string{"default/b-other"}, want: unsched},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view := snap.WithoutPods(tt.remove...)
			on, err := s.On(view)
			require.NoError(t, err)
			vb, _ := cluster.NodeOf(view, "b")
			assert.Equal(t, tt.want, on.Filter(vb))

			// Putting it back restores the count.
			back := view
			for _, k := range tt.remove {
				p, _, _ := cluster.PodOf(snap, k)
				back, err = back.WithPodInfo(p)
				require.NoError(t, err)
			}
			on2, err := s.On(back)
			require.NoError(t, err)
			bb, _ := cluster.NodeOf(back, "b")
			assert.Equal(t, unsched, on2.Filter(bb))

			// A fresh PreFilter on the view still ignores the deleted pod.
			fresh, err := NewSpread(pi, view, SpreadOptions{})
			require.NoError(t, err)
			assert.Equal(t, unsched, fresh.Filter(vb))
		})
	}
}

// TestOnKeepsNamespaceRules mirrors InterPodAffinity's AddPod during
// preemption's dry run (interpodaffinity/filtering.go updateWithPod, v1.36):
// a pod added to a view counts for the incoming pod's required terms only
// when its namespace is one the term selects (the pod's own by default),
// exactly as a fresh PreFilter on the view counts it.
func TestOnKeepsNamespaceRules(t *testing.T) {
	nodes := []*corev1.Node{zoned("a", "z1"), zoned("b", "z2")}
	base := []*corev1.Pod{mkPod("b1", "b", lbl("app", "db"))}
	tests := []struct {
		name     string
		incoming *corev1.Pod
		added    *corev1.Pod
	}{
		{"anti-affinity ignores a matching pod of another namespace",
			mkPod("in", "", lbl("app", "web"), requiredAntiAffinity(term(corev1.LabelTopologyZone, selector("app", "db")))),
			mkPod("x", "a", lbl("app", "db"), inNamespace("other"))},
		{"anti-affinity counts a matching pod of its namespace",
			mkPod("in", "", lbl("app", "web"), requiredAntiAffinity(term(corev1.LabelTopologyZone, selector("app", "db")))),
			mkPod("x", "a", lbl("app", "db"))},
		{"affinity ignores a matching pod of another namespace",
			mkPod("in", "", lbl("app", "web"), requiredAffinity(term(corev1.LabelTopologyZone, selector("app", "db")))),
			mkPod("x", "a", lbl("app", "db"), inNamespace("other"))},
		{"affinity counts a matching pod of its namespace",
			mkPod("in", "", lbl("app", "web"), requiredAffinity(term(corev1.LabelTopologyZone, selector("app", "db")))),
			mkPod("x", "a", lbl("app", "db"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: base})
			require.NoError(t, err)
			pi, err := cluster.NewPodInfo(tt.incoming)
			require.NoError(t, err)
			a, err := NewInterPodAffinity(pi, snap, AffinityOptions{})
			require.NoError(t, err)
			view, err := snap.WithPod(tt.added)
			require.NoError(t, err)
			on, err := a.On(view)
			require.NoError(t, err)
			fresh, err := NewInterPodAffinity(pi, view, AffinityOptions{})
			require.NoError(t, err)
			for _, n := range cluster.NodesOf(view) {
				assert.Equal(t, fresh.Filter(n), on.Filter(n), "node %s", n.Name)
			}
		})
	}
}

// A Spread keeps, per node of the snapshot it was compiled on, whether the
// node passes the pod's inclusion policies (inclusionCache). A view that
// taints a node, or takes its taint off, gives that slot another Node
// object: the Spread moved onto the view decides that node afresh, and
// agrees with a Spread compiled on the view, in Filter and Score.
func TestOnDecidesRetaintedNodesAfresh(t *testing.T) {
	honor := func(c *corev1.TopologySpreadConstraint) {
		h := corev1.NodeInclusionPolicyHonor
		c.NodeTaintsPolicy = &h
	}
	nodes := []*corev1.Node{zoned("a", "z1"), tainted(zoned("b", "z2"), "gpu"), zoned("c", "z2"), zoned("d", "z3")}
	pods := []*corev1.Pod{mkPod("b1", "b", lbl("app", "db")), mkPod("b2", "b", lbl("app", "db")), mkPod("c1", "c", lbl("app", "db"))}
	snap := snapshotOf(t, cluster.Input{Nodes: nodes, Pods: pods})
	incoming := mkPod("in", "", lbl("app", "db"),
		spreadOn(1, corev1.LabelTopologyZone, corev1.DoNotSchedule, selector("app", "db"), honor),
		spreadOn(1, corev1.LabelTopologyZone, corev1.ScheduleAnyway, selector("app", "db"), honor))
	pi := podInfo(t, incoming)
	s, err := NewSpread(pi, snap, SpreadOptions{})
	require.NoError(t, err)

	untaintB := zoned("b", "z2")
	taintC := tainted(zoned("c", "z2"), "gpu")
	for _, change := range []*corev1.Node{untaintB, taintC} {
		view, err := snap.WithNode(change)
		require.NoError(t, err)
		on, err := s.On(view)
		require.NoError(t, err)
		fresh, err := NewSpread(pi, view, SpreadOptions{})
		require.NoError(t, err)
		all := cluster.NodesOf(view)
		for _, n := range all {
			assert.Equal(t, fresh.Filter(n), on.Filter(n), "%s after %s changes", n.Name, change.Name)
		}
		wantRaw, wantNorm, _ := fresh.Score(all)
		gotRaw, gotNorm, _ := on.Score(all)
		assert.Equal(t, wantRaw, gotRaw, "after %s changes", change.Name)
		assert.Equal(t, wantNorm, gotNorm, "after %s changes", change.Name)
	}
	// Scoring twice on the compiled snapshot (the cache's second reading)
	// gives the first answer.
	raw1, _, _ := s.Score(cluster.NodesOf(snap))
	raw2, _, _ := s.Score(cluster.NodesOf(snap))
	assert.Equal(t, raw1, raw2)
}

// TestAffinityWithoutTermsAnywhere: a pod without pod affinity terms on a
// snapshot where no bound pod has any gets a skipped state that reads no
// index; once a view binds a pod whose required anti-affinity rejects it,
// the state moved onto that view (On) and a fresh one both reject the
// node, and preferred terms of a bound pod make the score count.
func TestAffinityWithoutTermsAnywhere(t *testing.T) {
	nodes := []*corev1.Node{zoned("a", "z1"), zoned("b", "z2")}
	snap := snapshotOf(t, cluster.Input{Nodes: nodes, Pods: []*corev1.Pod{mkPod("a1", "a", lbl("app", "web"))}})
	require.False(t, cluster.MayHavePodAffinity(snap))
	pi := podInfo(t, mkPod("in", "", lbl("app", "db")))
	a, err := NewInterPodAffinity(pi, snap, AffinityOptions{})
	require.NoError(t, err)
	assert.True(t, a.FilterSkipped())
	assert.True(t, a.bare)
	_, _, skipped := a.Score(cluster.NodesOf(snap))
	assert.True(t, skipped)

	guard := mkPod("guard", "b", lbl("app", "cache"), requiredAntiAffinity(term(corev1.LabelTopologyZone, selector("app", "db"))))
	view, err := snap.WithPod(guard)
	require.NoError(t, err)
	require.True(t, cluster.MayHavePodAffinity(view))
	on, err := a.On(view)
	require.NoError(t, err)
	fresh, err := NewInterPodAffinity(pi, view, AffinityOptions{})
	require.NoError(t, err)
	for _, st := range []*InterPodAffinity{on, fresh} {
		assert.False(t, st.bare)
		assert.False(t, st.FilterSkipped())
		vnodes := cluster.NodesOf(view)
		assert.True(t, st.Filter(vnodes[0]).Code.Passes(), "zone z1 has no guard")
		assert.Equal(t, sched.Unschedulable, st.Filter(vnodes[1]).Code, "zone z2 has the guard")
	}
	// A view that removes the guard again keeps the flag (it only errs
	// toward walking) and still answers as a fresh state does.
	back := view.WithoutPods(guard.Namespace + "/" + guard.Name)
	assert.True(t, cluster.MayHavePodAffinity(back))
	st, err := on.On(back)
	require.NoError(t, err)
	for _, n := range cluster.NodesOf(back) {
		assert.True(t, st.Filter(n).Code.Passes())
	}
}
