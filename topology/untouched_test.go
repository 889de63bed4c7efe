package topology_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/topology"
)

// Issue 21, inputs untouched.
func TestInputsUntouched(t *testing.T) {
	t.Run("no entry point of topology modifies its objects, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			family := rapid.SampledFrom([]placementtest.Family{placementtest.Spread, placementtest.InterPod}).Draw(t, "family")
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 4, MaxPods: 10, MaxPending: 2, Family: family}).Draw(t, "cluster")
			frozen := hostile.FreezeCluster(c)
			in := c.SnapshotInput()
			snap, _, err := placement.NewSnapshot(in)
			require.NoError(t, err)
			for _, pod := range c.Pending {
				frozen.Scramble(topology.DefaultSelector(pod, &in))
				pi := pod
				spread, err := topology.NewSpread(pod, snap, topology.SpreadOptions{})
				require.NoError(t, err)
				aff, err := topology.NewInterPodAffinity(pod, snap, topology.AffinityOptions{})
				require.NoError(t, err)
				nodes := snap.Nodes()
				for _, n := range nodes {
					st := spread.Filter(n)
					frozen.Scramble(&st)
					st = aff.Filter(n)
					frozen.Scramble(&st)
				}
				raw, norm, _ := spread.Score(nodes)
				frozen.Scramble(raw)
				frozen.Scramble(norm)
				raw, norm, _ = aff.Score(nodes)
				frozen.Scramble(raw)
				frozen.Scramble(norm)
				frozen.Scramble(nodes)
				frozen.Scramble(pi)
			}
			require.Empty(t, frozen.Changed())
		})
	})
}
