package placement_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

func evaluateAll(t *rapid.T, c *placementtest.Cluster) []*placement.Result {
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	require.NoError(t, err)
	var out []*placement.Result
	for _, pod := range c.Pending {
		r, err := placement.Evaluate(snap, pod, placement.Options{})
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

// Issue 21, determinism under permutation (doc.go: nodes are reported in
// name order, ties go to the lowest name).
func TestPermutationChangesNothing(t *testing.T) {
	t.Run("permuting nodes, bound pods, budgets and namespaces and adding unrelated labels change no Evaluate result", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			cfg := placementtest.Config{MaxNodes: 5, MaxPods: 10, MaxPending: 3,
				Crowded: rapid.Bool().Draw(t, "crowded"), Preemption: rapid.Bool().Draw(t, "preemption")}
			c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
			want := evaluateAll(t, c)
			p := hostile.Permuted(t, hostile.Relabeled(t, c), hostile.Permute{Nodes: true, Pods: true, PDBs: true, PriorityClasses: true, Namespaces: true})
			require.Equal(t, want, evaluateAll(t, p))
		})
	})
}
