package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

func TestNodeStatuses(t *testing.T) {
	fit := sched.Status{Code: sched.Unschedulable, Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}
	taint := sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint"}}
	s := NodeStatuses{nodes: []string{"a", "b", "c"}, statuses: []sched.Status{fit, taint, fit}}

	assert.Equal(t, 3, s.Len())
	assert.Equal(t, NodeStatus{Node: "b", Status: taint}, s.At(1))
	for _, tc := range []struct {
		node string
		want sched.Status
		ok   bool
	}{
		{"a", fit, true}, {"b", taint, true}, {"c", fit, true},
		{"", sched.Status{}, false}, {"bb", sched.Status{}, false}, {"d", sched.Status{}, false},
	} {
		got, ok := s.Get(tc.node)
		assert.Equal(t, tc.ok, ok, tc.node)
		assert.Equal(t, tc.want, got, tc.node)
	}

	var seen []string
	for node, st := range s.All() {
		seen = append(seen, node+"="+st.Plugin)
		if node == "b" {
			break // All stops when the loop does
		}
	}
	assert.Equal(t, []string{"a=NodeResourcesFit", "b=TaintToleration"}, seen)

	var zero NodeStatuses
	assert.Zero(t, zero.Len())
	_, ok := zero.Get("a")
	assert.False(t, ok)
	for range zero.All() {
		t.Fatal("the zero value holds no node")
	}
}

// A queue's kept node statuses own their reasons: its decisions lend the
// filters' shared reason texts, and writing into one pod's kept reasons
// changes neither another pod's nor a later run's (a pod's nodes with the
// same reasons may share them).
func TestKeptNodeStatusesOwnTheirReasons(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n1", 1000), mkNode("n2", 1000)}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes})
	require.NoError(t, err)
	pending := []*corev1.Pod{mkPod("a", cpu(2000), created(1)), mkPod("b", cpu(3000), created(2))}
	run := func() *QueueResult {
		res, err := ScheduleQueue(snap, pending, QueueOptions{KeepNodeStatuses: true})
		require.NoError(t, err)
		return res
	}
	res := run()
	require.Len(t, res.Results, 2)
	for _, r := range res.Results {
		require.Equal(t, Unschedulable, r.Outcome)
		require.Equal(t, []string{"Insufficient cpu"}, r.NodeStatuses.At(0).Status.Reasons)
	}
	res.Results[0].NodeStatuses.statuses[0].Reasons[0] = "changed"
	assert.Equal(t, []string{"Insufficient cpu"}, res.Results[1].NodeStatuses.At(0).Status.Reasons)
	assert.Equal(t, []string{"Insufficient cpu"}, run().Results[0].NodeStatuses.At(0).Status.Reasons)
}
