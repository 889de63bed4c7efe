package preemption

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

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
	snap, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: bound})
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
	assert.Equal(t, []Placement{{"default/big", "n2"}, {"default/never", ""}, {"default/gate", ""}, {"default/small", "n1"}, {"default/small2", "n1"}}, qr.Placements)

	// Synthetic start times: one minute apart, after the latest input start (t0+30m).
	pi, _, ok := qr.Final.Pod("default/big")
	require.True(t, ok)
	assert.Equal(t, t0.Add(31*time.Minute), pi.Pod.Status.StartTime.Time)
	pi, _, ok = qr.Final.Pod("default/small")
	require.True(t, ok)
	assert.Equal(t, t0.Add(32*time.Minute), pi.Pod.Status.StartTime.Time)
	assert.Equal(t, corev1.PodRunning, pi.Pod.Status.Phase)
	_, _, ok = qr.Final.Pod("default/low-b")
	assert.False(t, ok, "victims are gone from the final snapshot")
	assert.Empty(t, pending[2].Spec.NodeName, "inputs untouched")
	assert.Nil(t, pending[2].Status.StartTime, "inputs untouched")
}

func TestScheduleQueueBadInput(t *testing.T) {
	snap, _, err := cluster.New(cluster.Input{Nodes: []*corev1.Node{mkNode("n1", 2000)},
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
	assert.Equal(t, []Placement{{"default/taken", ""}, {"default/next", "n1"}}, qr.Placements)
}
