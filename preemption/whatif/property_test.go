package whatif

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// kit is the clusters of the properties: placementtest's, small, with
// DaemonSet pods (drains and scale-down leave them) and pending replicas
// of ReplicaSets (Estimate's equivalence groups).
var kit = placementtest.Config{MaxNodes: 6, MaxPods: 12, MaxPending: 10, Owners: true}

type world struct {
	nodes []*corev1.Node
	pods  []*corev1.Pod
}

func worldOf(c *placementtest.Cluster) world { return world{nodes: c.Nodes, pods: c.Pods} }

func (w world) snapshot(t *rapid.T) *placement.Snapshot {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: w.nodes, Pods: w.pods})
	require.NoError(t, err)
	return snap
}

func TestProperties(t *testing.T) {
	t.Run("placing K replicas then asking for the rest gives the same nodes", rapid.MakeCheck(func(t *rapid.T) {
		w := worldOf(placementtest.ClusterOf(kit).Draw(t, "cluster"))
		snap := w.snapshot(t)
		tmpl := placementtest.PodOf(kit, "tmpl").Draw(t, "tmpl")
		n := rapid.IntRange(0, 12).Draw(t, "n")
		all, err := Replicas(snap, tmpl, n, Options{})
		require.NoError(t, err)
		k := rapid.IntRange(0, all.Placed()).Draw(t, "k")
		first, err := Replicas(snap, tmpl, k, Options{})
		require.NoError(t, err)
		require.Equal(t, all.Nodes[:k], first.Nodes)
		rest := tmpl.DeepCopy()
		rest.Name = "rest" // replicas tmpl-0.. are bound in first.Final
		second, err := Replicas(first.Final, rest, n-k, Options{})
		require.NoError(t, err)
		require.Equal(t, all.Nodes, append(slices.Clone(first.Nodes), second.Nodes...))
		require.Equal(t, all.Message, second.Message)
	}))

	t.Run("every placed replica passes every filter on the cluster it was placed in", rapid.MakeCheck(func(t *rapid.T) {
		w := worldOf(placementtest.ClusterOf(kit).Draw(t, "cluster"))
		snap := w.snapshot(t)
		tmpl := placementtest.PodOf(kit, "tmpl").Draw(t, "tmpl")
		r, err := Replicas(snap, tmpl, rapid.IntRange(1, 8).Draw(t, "n"), Options{})
		require.NoError(t, err)
		for i, node := range r.Nodes {
			before, err := Replicas(snap, tmpl, i, Options{})
			require.NoError(t, err)
			ev, err := placement.Evaluate(before.Final, Replica(tmpl, i), placement.Options{})
			require.NoError(t, err)
			feasible := false
			for _, nr := range ev.Nodes {
				if nr.Node == node {
					feasible = nr.Feasible
				}
			}
			require.True(t, feasible, "replica %d placed on %s, which it does not fit", i, node)
		}
		if r.Placed() < r.Requested && r.Outcome == "Unschedulable" {
			ev, err := placement.Evaluate(r.Final, Replica(tmpl, r.Placed()), placement.Options{})
			require.NoError(t, err)
			require.Empty(t, ev.FeasibleNodes, "the first unplaced replica fits somewhere")
		}
	}))

	t.Run("a drain leaves no moved pod on a drained node it does not tolerate, and keeps every other pod", rapid.MakeCheck(func(t *rapid.T) {
		w := worldOf(placementtest.ClusterOf(kit).Draw(t, "cluster"))
		snap := w.snapshot(t)
		var drain []string
		for _, n := range w.nodes {
			if rapid.IntRange(0, 2).Draw(t, "drain") == 0 {
				drain = append(drain, n.Name)
			}
		}
		before := snap.NumPods()
		r, err := Drain(snap, drain, Options{})
		require.NoError(t, err)
		placedPods := 0
		for _, m := range r.Moved {
			require.Contains(t, drain, m.From)
			if m.Node != "" {
				placedPods++
				require.NotContains(t, drain, m.Node, "%s went back to a cordoned node", m.Pod)
			}
		}
		require.Equal(t, before-len(r.Moved)+placedPods, r.Final.NumPods())
		drainable := true
		for _, m := range r.Moved {
			drainable = drainable && m.Node != ""
		}
		require.Equal(t, drainable, r.Drainable)
		for _, name := range drain {
			ni, ok := r.Final.Node(name)
			require.True(t, ok)
			require.True(t, ni.Unschedulable())
			for _, pi := range ni.Pods() {
				require.Contains(t, r.Stayed, pi.Key())
			}
		}
		require.Equal(t, snap.NumPods(), before, "the snapshot given changed")
	}))
}
