package preemption_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
)

// queueAnswers is ScheduleQueue's answer for c and every pending pod's
// priority resolution against c's classes.
func queueAnswers(t *rapid.T, c *placementtest.Cluster) (preemption.QueueResult, []preemption.Resolution) {
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	require.NoError(t, err)
	qr, err := preemption.ScheduleQueue(snap, c.Pending, preemption.QueueOptions{KeepNodeStatuses: true})
	require.NoError(t, err)
	pcs, err := preemption.NewPriorityClasses(c.PriorityClasses)
	require.NoError(t, err)
	var res []preemption.Resolution
	for _, pod := range c.Pending {
		fresh := pod.DeepCopy()
		fresh.Spec.Priority = nil
		r, err := pcs.Resolve(fresh)
		require.NoError(t, err)
		res = append(res, r)
	}
	return queueAnswer(qr), res
}

// Issue 21, determinism under permutation. doc.go's tie-breaks: queue ties
// by the pending pods' input order (kept), equal victims by the bound pods'
// input order, which never matters here: the kit's bound pods all start at
// different times.
func TestPermutationChangesNothing(t *testing.T) {
	t.Run("permuting nodes, bound pods, budgets and priority classes and adding unrelated labels change no queue answer", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 4, MaxPods: 10, MaxPending: 3, Crowded: true, Preemption: true}).Draw(t, "cluster")
			wantQ, wantR := queueAnswers(t, c)
			p := hostile.Permuted(t, hostile.Relabeled(t, c), hostile.Permute{Nodes: true, Pods: true, PDBs: true, PriorityClasses: true, Namespaces: true})
			gotQ, gotR := queueAnswers(t, p)
			require.Equal(t, wantQ, hostile.Unlabeled(gotQ))
			require.Equal(t, wantR, gotR)
		})
	})
}
