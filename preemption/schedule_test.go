package preemption

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

func gated(p *corev1.Pod) { p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "wait"}} }

// TestScheduleQueue mirrors the scheduling loop as the conformance README
// describes it: queue order, binding with synthetic start times, gated pods
// keeping their place, preemption binding to the nominated node.
func TestScheduleQueue(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n1", 2000), mkNode("n2", 2000)}
	bound := []*corev1.Pod{
		mkPod("low-a", onNode("n1"), prio(1), cpu(1500), started(0)),
		mkPod("low-b", onNode("n2"), prio(1), cpu(1500), started(30)),
	}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: bound})
	require.NoError(t, err)
	pending := []*corev1.Pod{
		mkPod("small", prio(5), cpu(500), created(1)),
		mkPod("gate", prio(50), cpu(100), created(0), gated),
		mkPod("big", prio(100), cpu(2000), created(2)),
		mkPod("never", prio(100), cpu(2000), created(3), policy(corev1.PreemptNever)),
		mkPod("small2", prio(5), cpu(500), created(1)),
	}
	qr, err := ScheduleQueue(snap, pending, QueueOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"default/big", "default/never", "default/gate", "default/small", "default/small2"}, qr.QueueOrder)

	outcomes := map[string]PodOutcome{}
	for _, r := range qr.Results {
		outcomes[r.Pod] = r
	}
	big := outcomes["default/big"]
	assert.Equal(t, PreemptionNominated, big.Outcome)
	// Both nodes need one victim of priority 1: low-b started later wins (LatestStartTime).
	assert.Equal(t, "n2", big.Node)
	assert.Equal(t, "0/2 nodes are available: 2 Insufficient cpu.", big.Message)
	require.NotNil(t, big.Preemption)
	assert.Equal(t, LatestStartTime, big.Preemption.Candidates[0].LostAt)

	never := outcomes["default/never"]
	assert.Equal(t, Unschedulable, never.Outcome)
	assert.Equal(t, "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.", never.Message)

	assert.Equal(t, Gated, outcomes["default/gate"].Outcome)
	assert.Equal(t, 0, outcomes["default/gate"].FeasibleNodes)
	assert.Equal(t, Scheduled, outcomes["default/small"].Outcome)
	assert.Equal(t, "n1", outcomes["default/small"].Node)
	// n1 is full and n2 holds big: small2 preempts low-a, the only lower pod.
	assert.Equal(t, PreemptionNominated, outcomes["default/small2"].Outcome)
	assert.Equal(t, "n1", outcomes["default/small2"].Node)

	assert.Equal(t, []string{"default/low-b", "default/low-a"}, qr.Evicted)
	assert.Equal(t, []PodPlacement{{"default/big", "n2"}, {"default/never", ""}, {"default/gate", ""}, {"default/small", "n1"}, {"default/small2", "n1"}}, qr.Placements)

	// Synthetic start times: one minute apart, after the latest input start (t0+30m).
	pi, _, ok := qr.Final.Pod("default/big")
	require.True(t, ok)
	assert.Equal(t, t0.Add(31*time.Minute), pi.Pod().Status.StartTime.Time)
	pi, _, ok = qr.Final.Pod("default/small")
	require.True(t, ok)
	assert.Equal(t, t0.Add(32*time.Minute), pi.Pod().Status.StartTime.Time)
	assert.Equal(t, corev1.PodRunning, pi.Pod().Status.Phase)
	_, _, ok = qr.Final.Pod("default/low-b")
	assert.False(t, ok, "victims are gone from the final snapshot")
	assert.Empty(t, pending[2].Spec.NodeName, "inputs untouched")
	assert.Nil(t, pending[2].Status.StartTime, "inputs untouched")
}

func TestScheduleQueueBadInput(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{mkNode("n1", 2000)},
		Pods: []*corev1.Pod{mkPod("taken", onNode("n1"), cpu(100), started(0))}})
	require.NoError(t, err)
	_, err = ScheduleQueue(snap, []*corev1.Pod{nil}, QueueOptions{})
	assert.ErrorContains(t, err, "pending[0] is nil")
	_, err = ScheduleQueue(nil, nil, QueueOptions{})
	assert.Error(t, err)
	_, err = Preempt(nil, nil, Options{})
	assert.Error(t, err)
	// A v1.35 profile on a snapshot built by v1.36's pod-level request
	// rule: refused once, for the run.
	_, err = ScheduleQueue(snap, []*corev1.Pod{mkPod("next", cpu(100))}, QueueOptions{Placement: placement.Options{Version: placement.V1_35}})
	assert.ErrorIs(t, err, placement.ErrVersionMismatch)

	// A pending pod whose key is already bound cannot be bound again: its
	// outcome is Error and the queue goes on.
	qr, err := ScheduleQueue(snap, []*corev1.Pod{mkPod("taken", cpu(100), created(0)), mkPod("next", cpu(100), created(1))}, QueueOptions{})
	require.NoError(t, err)
	assert.Equal(t, Failed, qr.Results[0].Outcome)
	assert.Contains(t, qr.Results[0].Error, "already bound")
	assert.Equal(t, Scheduled, qr.Results[1].Outcome)
	assert.Equal(t, []PodPlacement{{"default/taken", ""}, {"default/next", "n1"}}, qr.Placements)
}

// TestQueueReuse: a prepared queue scheduled against several snapshots,
// also at once from several goroutines, gives what ScheduleQueue gives on
// each, and neither the queue nor the snapshots change (each run's
// bindings and evictions stay in its own result).
func TestQueueReuse(t *testing.T) {
	pending := []*corev1.Pod{
		mkPod("big", prio(100), cpu(2000), created(2)),
		mkPod("small", prio(5), cpu(500), created(1), labelled("app", "web")),
		mkPod("never", prio(100), cpu(2000), created(3), policy(corev1.PreemptNever)),
		mkPod("bad", prio(5), cpu(100), created(4), func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}}}}}
		}),
	}
	var snaps []*placement.Snapshot
	for _, nodes := range [][]*corev1.Node{
		{mkNode("n1", 2000), mkNode("n2", 2000)},
		{mkNode("n1", 2000)},
		{mkNode("n1", 4000), mkNode("n2", 500), mkNode("n3", 2500)},
	} {
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: []*corev1.Pod{
			mkPod("low-a", onNode("n1"), prio(1), cpu(1500), started(0)),
		}})
		require.NoError(t, err)
		snaps = append(snaps, snap)
	}
	q, err := PrepareQueue(pending, QueueOptions{})
	require.NoError(t, err)
	assert.Equal(t, len(pending), q.Len())
	want := make([]*QueueResult, len(snaps))
	for i, snap := range snaps {
		want[i], err = ScheduleQueue(snap, pending, QueueOptions{})
		require.NoError(t, err)
	}
	// The runs differ (else the test could not tell a stale queue).
	assert.NotEqual(t, want[0].Placements, want[1].Placements)
	assert.NotEqual(t, want[0].Placements, want[2].Placements)
	got := make([][]*QueueResult, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, snap := range snaps {
				r, err := q.Schedule(snap)
				assert.NoError(t, err)
				got[g] = append(got[g], r)
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i := range snaps {
			assert.Equal(t, want[i].QueueOrder, got[g][i].QueueOrder)
			assert.Equal(t, want[i].Results, got[g][i].Results)
			assert.Equal(t, want[i].Placements, got[g][i].Placements)
			assert.Equal(t, want[i].Evicted, got[g][i].Evicted)
		}
	}
	for _, snap := range snaps {
		assert.Len(t, snap.Nodes()[0].Pods(), 1, "the snapshot keeps its pods")
	}

	_, err = PrepareQueue([]*corev1.Pod{mkPod("a"), nil}, QueueOptions{})
	assert.ErrorContains(t, err, "pending[1] is nil")
	_, err = q.Schedule(nil)
	assert.ErrorContains(t, err, "nil snapshot")
}

// TestScheduleQueueInvalidScore: a score outside [0, 100] (here
// NodeResourcesFit's int64 overflow on an absurd allocatable) fails the
// pod's cycle, as RunScorePlugins does: no binding, no preemption, and the
// next pod is scheduled on the unchanged cluster.
func TestScheduleQueueInvalidScore(t *testing.T) {
	huge := mkNode("huge", 93233720368547858)
	huge.Status.Allocatable[corev1.ResourceMemory] = *resource.NewQuantity(93233720578262958, resource.DecimalSI)
	nodes := []*corev1.Node{huge, mkNode("small", 2000)}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes})
	require.NoError(t, err)
	qr, err := ScheduleQueue(snap, []*corev1.Pod{mkPod("p", created(0)), mkPod("q", cpu(3000), created(1))}, QueueOptions{})
	require.NoError(t, err)
	require.Len(t, qr.Results, 2)
	p := qr.Results[0]
	assert.Equal(t, Failed, p.Outcome)
	assert.Equal(t, 2, p.FeasibleNodes)
	assert.Contains(t, p.Error, `plugin "NodeResourcesFit" returns an invalid score`)
	assert.Nil(t, p.Preemption)
	assert.Equal(t, []PodPlacement{{"default/p", ""}, {"default/q", "huge"}}, qr.Placements, "one feasible node is not scored")
}
