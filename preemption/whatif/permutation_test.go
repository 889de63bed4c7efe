package whatif_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/preemption/whatif"
)

func template(c *placementtest.Cluster) *corev1.Node {
	n := c.Nodes[0].DeepCopy()
	n.Name = "pool"
	delete(n.Labels, hostile.UnrelatedLabelKeys[0])
	delete(n.Labels, hostile.UnrelatedLabelKeys[1])
	return n
}

// capacityAnswers are Replicas' and Estimate's answers (both modes), without
// snapshots.
func capacityAnswers(t *rapid.T, c *placementtest.Cluster, tmpl *corev1.Node) []any {
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	require.NoError(t, err)
	rr, err := whatif.Replicas(snap, c.Pending[0], 3, whatif.Options{Preemption: &preemption.Options{}})
	require.NoError(t, err)
	rr.Final = nil
	out := []any{rr}
	for _, mode := range []whatif.EstimateMode{whatif.FirstFit, whatif.Scheduler} {
		er, err := whatif.Estimate(snap, c.Pending, whatif.NodeTemplate{Node: tmpl}, whatif.EstimateOptions{Mode: mode, MaxNodes: 4})
		require.NoError(t, err)
		er.Final = nil
		out = append(out, er)
	}
	return hostile.Unlabeled(out)
}

// removalAnswers are Drain's and ScaleDown's answers, without snapshots.
func removalAnswers(t *rapid.T, c *placementtest.Cluster, candidates []string) []any {
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	require.NoError(t, err)
	dr, err := whatif.Drain(snap, candidates[:1], whatif.Options{Preemption: &preemption.Options{}})
	require.NoError(t, err)
	dr.Final = nil
	sd, err := whatif.ScaleDown(snap, candidates, whatif.ScaleDownOptions{})
	require.NoError(t, err)
	sd.Final = nil
	return hostile.Unlabeled([]any{dr, sd})
}

// Issue 21, determinism under permutation (doc.go). Drain and ScaleDown
// visit a node's pods in the bound pods' input order (the first blocking
// pod, queue ties among the moved pods), so those questions keep that
// order; the others permute it too.
func TestPermutationChangesNothing(t *testing.T) {
	cfg := placementtest.Config{MaxNodes: 4, MaxPods: 8, MaxPending: 3, Preemption: true}
	t.Run("permuting nodes, bound pods, budgets and classes and adding unrelated labels change no Replicas or Estimate answer", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
			want := capacityAnswers(t, c, template(c))
			p := hostile.Permuted(t, hostile.Relabeled(t, c), hostile.Permute{Nodes: true, Pods: true, PDBs: true, PriorityClasses: true, Namespaces: true})
			require.Equal(t, want, capacityAnswers(t, p, template(c)))
		})
	})
	t.Run("permuting nodes, budgets and classes and adding unrelated labels change no Drain or ScaleDown answer", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
			var candidates []string
			for _, n := range c.Nodes {
				candidates = append(candidates, n.Name)
			}
			candidates = rapid.Permutation(candidates).Draw(t, "candidates")
			want := removalAnswers(t, c, candidates)
			p := hostile.Permuted(t, hostile.Relabeled(t, c), hostile.Permute{Nodes: true, PDBs: true, PriorityClasses: true, Namespaces: true})
			require.Equal(t, want, removalAnswers(t, p, candidates))
		})
	})
}
