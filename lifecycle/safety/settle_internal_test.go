package safety

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var settleStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// TestSettleReachesFixpoint applies event scripts and checks after each
// step that settle returned at a fixpoint: one more round changes neither
// the state nor the log.
func TestSettleReachesFixpoint(t *testing.T) {
	tests := []struct {
		name    string
		volumes bool
		grace   *int64
		events  string
	}{
		{"new cluster", false, nil, ""},
		{"new cluster with volumes", true, nil, ""},
		{"graceful delete and replacement", false, nil, "GracefulDelete(web-0); Advance(30s)"},
		{"partition, eviction, force detach", true, nil, "Partition(node-a); Advance(10m); Advance(6m)"},
		{"force delete of a partitioned pod", true, nil, "Partition(node-a); ForceDelete(web-0); Advance(6m); Heal(node-a)"},
		{"fence and out-of-service", true, nil, "Partition(node-a); Fence(node-a); MarkOutOfService(node-a); Advance(1m)"},
		{"node deleted, pods collected", false, nil, "Partition(node-b); DeleteNode(node-b); Advance(1m)"},
		{"kubelet crash during delete", false, nil, "CrashKubelet(node-a); GracefulDelete(web-0); Advance(1h); RestartKubelet(node-a); Advance(30s)"},
		{"grace 0 taint eviction", true, new(int64), "Partition(node-a); Advance(10m); Advance(10m)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(Config{Nodes: []string{"node-a", "node-b", "node-c"}, Identities: []string{"web-0", "web-1", "web-2"},
				Volumes: tt.volumes, TerminationGracePeriodSeconds: tt.grace, Start: settleStart})
			require.NoError(t, err)
			assertFixpoint(t, c)
			events, err := ParseEvents(tt.events)
			require.NoError(t, err)
			for _, e := range events {
				_, err := c.Apply(e)
				require.NoError(t, err, "%s", e)
				assertFixpoint(t, c)
			}
		})
	}
}

func assertFixpoint(t *testing.T, c *Cluster) {
	t.Helper()
	before, logged := c.snapshot(), len(c.log)
	require.NoError(t, c.settle(len(c.history)-1))
	assert.True(t, c.snapshot().equal(before), "another round changed the state")
	assert.Equal(t, logged, len(c.log), "another round wrote %q", c.log[logged:])
}

// TestSettleFailureIsReported lowers the round limit below what a step
// needs: New and Apply report ErrNotSettled instead of returning a model
// that is still moving.
func TestSettleFailureIsReported(t *testing.T) {
	cfg := Config{Nodes: []string{"node-a", "node-b"}, Identities: []string{"web-0"}, Volumes: true, Start: settleStart}
	c, err := New(cfg)
	require.NoError(t, err)

	defer func(n int) { maxSettleRounds = n }(maxSettleRounds)
	// One round creates, binds and attaches but cannot also observe that the
	// next round changes nothing.
	maxSettleRounds = 1
	_, err = New(cfg)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNotSettled), "%v", err)
	assert.False(t, errors.Is(err, ErrInvalidConfig))

	// A force delete needs a new pod, its binding, the volume's detach and
	// attach and the start: more than one round.
	lines, err := c.Apply(ForceDeletePod("web-0"))
	assert.True(t, errors.Is(err, ErrNotSettled), "%v", err)
	assert.NotEmpty(t, lines, "the lines written so far are returned")
	assert.Len(t, c.History(), 1, "the event was applied")

	// An event that changes nothing settles within one round.
	maxSettleRounds = 1
	d, err := New(Config{Nodes: []string{"node-a"}, Start: settleStart})
	require.NoError(t, err, "no identities: nothing to do")
	_, err = d.Apply(AdvanceBy(time.Second))
	assert.NoError(t, err)
}

// TestSnapshotCoversEveryField fails when a field is added to a type settle
// compares, so that modelState.equal is updated with it.
func TestSnapshotCoversEveryField(t *testing.T) {
	assert.Equal(t, 12, reflect.TypeFor[Node]().NumField(), "Node: update nodeEqual")
	assert.Equal(t, 7, reflect.TypeFor[Instance]().NumField(), "Instance: update instanceEqual")
	assert.Equal(t, 3, reflect.TypeFor[volume]().NumField(), "volume: update modelState.equal")
	assert.Equal(t, 2, reflect.TypeFor[podObject]().NumField(), "podObject: update podState")
	assert.Equal(t, 10, reflect.TypeFor[Cluster]().NumField(), "Cluster: update snapshot")
}
