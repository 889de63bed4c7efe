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

// queueAnswer is a QueueResult without its snapshot, for comparing.
func queueAnswer(r *preemption.QueueResult) preemption.QueueResult {
	a := *r
	a.Final = nil
	return a
}

// Issue 21, inputs untouched.
func TestInputsUntouched(t *testing.T) {
	t.Run("no entry point of preemption modifies its objects, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 4, MaxPods: 10, MaxPending: 3, Crowded: true, Preemption: true}).Draw(t, "cluster")
			frozen := hostile.FreezeCluster(c)
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)

			want, err := preemption.ScheduleQueue(snap, c.Pending, preemption.QueueOptions{KeepNodeStatuses: true})
			require.NoError(t, err)
			qr, err := preemption.ScheduleQueue(snap, c.Pending, preemption.QueueOptions{KeepNodeStatuses: true})
			require.NoError(t, err)
			frozen.Scramble(qr)
			frozen.Scramble(qr.Final.Nodes())
			q, err := preemption.PrepareQueue(c.Pending, preemption.QueueOptions{})
			require.NoError(t, err)
			qr, err = q.Schedule(snap)
			require.NoError(t, err)
			frozen.Scramble(qr)

			for _, pod := range c.Pending {
				compiled, err := placement.Compile(snap, pod, placement.Options{})
				require.NoError(t, err)
				if d := compiled.Schedule(); d.Node == "" {
					r, err := preemption.Preempt(compiled, d.Statuses, preemption.Options{})
					require.NoError(t, err)
					frozen.Scramble(r)
				}
			}

			pcs, err := preemption.NewPriorityClasses(c.PriorityClasses)
			require.NoError(t, err)
			for _, pod := range c.Pending {
				fresh := pod.DeepCopy()
				fresh.Spec.Priority = nil
				frozen.Add(fresh)
				admitted, err := pcs.WithPriority(fresh)
				require.NoError(t, err)
				if admitted != fresh {
					frozen.Scramble(admitted)
				}
				res, err := pcs.Resolve(fresh)
				require.NoError(t, err)
				frozen.Scramble(&res)
			}

			again, err := preemption.ScheduleQueue(snap, c.Pending, preemption.QueueOptions{KeepNodeStatuses: true})
			require.NoError(t, err)
			require.Equal(t, queueAnswer(want), queueAnswer(again), "a scrambled answer changed a later answer")
			require.Empty(t, frozen.Changed())
		})
	})
}
