package eviction_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

func planDrain(t *rapid.T, c *placementtest.Cluster, nodes []string, force bool) *eviction.DrainPlan {
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	require.NoError(t, err)
	plan, err := eviction.PlanDrain(snap, nodes, c.PDBs, eviction.PlanOptions{DaemonSets: []*appsv1.DaemonSet{},
		Drain: eviction.DrainOptions{Force: force, Now: now}})
	require.NoError(t, err)
	return hostile.Unlabeled(plan)
}

// Issue 21, determinism under permutation (doc.go: pods in namespace/name
// order, budgets in namespace/name order, nodes in name order).
func TestPermutationChangesNothing(t *testing.T) {
	t.Run("permuting nodes, bound pods, budgets and the nodes to drain and adding unrelated labels change no drain plan", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := drainCluster(t)
			var names []string
			for _, n := range c.Nodes {
				names = append(names, n.Name)
			}
			names = names[:rapid.IntRange(1, len(names)).Draw(t, "drained")]
			force := rapid.Bool().Draw(t, "force")
			want := planDrain(t, c, names, force)
			p := hostile.Permuted(t, hostile.Relabeled(t, c), hostile.Permute{Nodes: true, Pods: true, PDBs: true, PriorityClasses: true, Namespaces: true})
			require.Equal(t, want, planDrain(t, p, rapid.Permutation(names).Draw(t, "drain order"), force))
		})
	})
}
