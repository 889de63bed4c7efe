package safety_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

var start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func newCluster(t *testing.T, volumes bool) *safety.Cluster {
	t.Helper()
	c, err := safety.New(safety.Config{Nodes: []string{"node-b", "node-a"}, Identities: []string{"web-0"}, Volumes: volumes, Start: start})
	require.NoError(t, err)
	running := c.Running("web-0")
	require.Len(t, running, 1)
	require.Equal(t, "node-a", running[0].Node)
	return c
}

// TestDesignScenarios drives the event sequences discussed in the pod-safety
// design proposal and checks the verdict: whether two instances may run,
// which event allowed it, and whether a replacement started (progress).
func TestDesignScenarios(t *testing.T) {
	tests := []struct {
		name    string
		volumes bool
		events  []safety.Event
		// wantAllowedBy is the history index of the event named by the
		// violation of the final state (-1: at most one instance).
		wantAllowedBy int
		// wantIncidents counts violations that ever began.
		wantIncidents int
		// wantReplacement: a new instance of web-0 (not the first, web-0-1) runs.
		wantReplacement bool
	}{
		{"graceful delete on a healthy node waits for the kubelet, then replaces", false,
			[]safety.Event{safety.DeletePod("web-0"), safety.AdvanceBy(30 * time.Second)}, -1, 0, true},
		{"graceful delete on a partitioned node never completes: safe, no progress", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.DeletePod("web-0"), safety.AdvanceBy(time.Hour)}, -1, 0, false},
		{"unreachable-node eviction alone is safe", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.AdvanceBy(10 * time.Minute), safety.AdvanceBy(time.Hour)}, -1, 0, false},
		{"force delete of a partitioned pod runs two instances", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.ForceDeletePod("web-0")}, 1, 1, true},
		{"grace 0 is a force deletion", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.DeletePodWithGrace("web-0", 0)}, 1, 1, true},
		{"graceful then force delete: the force delete is named", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.DeletePod("web-0"), safety.AdvanceBy(time.Minute), safety.ForceDeletePod("web-0")}, 3, 1, true},
		{"the RWO volume holds the replacement until the force detach", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.ForceDeletePod("web-0"), safety.AdvanceBy(5 * time.Minute), safety.AdvanceBy(time.Minute)}, 1, 1, true},
		{"deleting the node of a live partitioned machine runs two instances", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.DeleteNodeObject("node-a"), safety.AdvanceBy(time.Minute)}, 1, 1, true},
		{"deleting the node of a fenced machine is safe and makes progress", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.FenceNode("node-a"), safety.DeleteNodeObject("node-a"), safety.AdvanceBy(time.Minute), safety.AdvanceBy(6 * time.Minute)}, -1, 0, true},
		{"fencing plus out-of-service taint resolves the partition safely", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.FenceNode("node-a"), safety.MarkNodeOutOfService("node-a")}, -1, 0, true},
		{"fencing alone deletes nothing", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.FenceNode("node-a"), safety.AdvanceBy(10 * time.Minute)}, -1, 0, false},
		{"out-of-service taint without fencing runs two instances", true,
			[]safety.Event{safety.PartitionNode("node-a"), safety.MarkNodeOutOfService("node-a")}, 1, 1, true},
		{"kubelet crash then graceful delete: the restarted kubelet confirms", false,
			[]safety.Event{safety.CrashKubeletOn("node-a"), safety.DeletePod("web-0"), safety.AdvanceBy(time.Hour), safety.RestartKubeletOn("node-a"), safety.AdvanceBy(30 * time.Second)}, -1, 0, true},
		{"healing the partition kills the orphan, the incident remains", false,
			[]safety.Event{safety.PartitionNode("node-a"), safety.ForceDeletePod("web-0"), safety.HealNode("node-a")}, -1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, tt.volumes)
			for _, e := range tt.events {
				_, err := c.Apply(e)
				require.NoError(t, err)
			}
			v := c.Check()
			if tt.wantAllowedBy < 0 {
				assert.True(t, v.AtMostOne, "violations: %v\nlog: %v", v.Violations, c.Log())
			} else {
				require.False(t, v.AtMostOne, "log: %v", c.Log())
				require.Len(t, v.Violations, 1)
				assert.Equal(t, tt.wantAllowedBy, v.Violations[0].AllowedBy, c.Explain(v.Violations[0]))
			}
			assert.Len(t, c.Incidents(), tt.wantIncidents)
			replaced := false
			for _, i := range c.Running("web-0") {
				if i.UID != "web-0-1" {
					replaced = true
				}
			}
			assert.Equal(t, tt.wantReplacement, replaced, "log: %v", c.Log())
		})
	}
}

// TestKubeletRestartBeginsKillAgain: after a restart the kubelet grants the
// whole grace period again (pod-safety: grace periods are not deadlines).
func TestKubeletRestartBeginsKillAgain(t *testing.T) {
	c := newCluster(t, false)
	for _, e := range []safety.Event{safety.DeletePod("web-0"), safety.AdvanceBy(20 * time.Second), safety.CrashKubeletOn("node-a"), safety.RestartKubeletOn("node-a"), safety.AdvanceBy(20 * time.Second)} {
		_, err := c.Apply(e)
		require.NoError(t, err)
	}
	running := c.Running("web-0")
	require.Len(t, running, 1)
	assert.Equal(t, "web-0-1", string(running[0].UID), "old instance still inside its restarted grace period")
	_, err := c.Apply(safety.AdvanceBy(10 * time.Second))
	require.NoError(t, err)
	running = c.Running("web-0")
	require.Len(t, running, 1)
	assert.Equal(t, "web-0-2", string(running[0].UID))
	assert.True(t, c.Check().AtMostOne)
}

// TestExplain names the event in words.
func TestExplain(t *testing.T) {
	c := newCluster(t, false)
	for _, e := range []safety.Event{safety.PartitionNode("node-a"), safety.ForceDeletePod("web-0")} {
		_, err := c.Apply(e)
		require.NoError(t, err)
	}
	v := c.Check()
	require.Len(t, v.Violations, 1)
	assert.Equal(t, "2 instances of web-0 may be running: web-0-1 on node-a; web-0-2 on node-b; allowed by event #1 ForceDelete(web-0)", c.Explain(v.Violations[0]))
}

// TestInvalid: bad configs and events are errors, the cluster unchanged.
func TestInvalid(t *testing.T) {
	_, err := safety.New(safety.Config{})
	assert.ErrorIs(t, err, safety.ErrInvalidConfig)
	_, err = safety.New(safety.Config{Nodes: []string{"a", "a"}})
	assert.ErrorIs(t, err, safety.ErrInvalidConfig)
	c := newCluster(t, false)
	before := c.Log()
	for _, e := range []safety.Event{{Kind: "Explode"}, safety.PartitionNode("nope"), safety.ForceDeletePod("db-0"), safety.AdvanceBy(-time.Second)} {
		_, err := c.Apply(e)
		assert.ErrorIs(t, err, safety.ErrInvalidEvent, e.String())
	}
	assert.Equal(t, before, c.Log())
	assert.Empty(t, c.History())
}
