package preemption

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
)

// newTestSnapshot is cluster.New presented as a public Snapshot: the input
// is taken as given (no StoredPod), as the tests build it.
func newTestSnapshot(in cluster.Input) (*placement.Snapshot, []cluster.Warning, error) {
	s, w, err := cluster.New(in)
	return publicSnapshot(s), w, err
}

// The scheduling API's constants are written twice, here for callers and
// in internal/sched for the packages below preemption: they must agree.
func TestPriorityConstantsAgree(t *testing.T) {
	require.Equal(t, sched.HighestUserDefinablePriority, HighestUserDefinablePriority)
	require.Equal(t, sched.SystemCriticalPriority, SystemCriticalPriority)
	require.Equal(t, sched.SystemPriorityClassPrefix, SystemPriorityClassPrefix)
	require.Equal(t, sched.SystemClusterCritical, SystemClusterCritical)
	require.Equal(t, sched.SystemNodeCritical, SystemNodeCritical)
}

// The public types share their layout with the internal ones they present.
func TestWrapLayouts(t *testing.T) {
	require.True(t, wrap.SameLayout[placement.Snapshot, cluster.Snapshot]())
	require.True(t, wrap.SameLayout[placement.NodeInfo, cluster.NodeInfo]())
	require.True(t, wrap.SameLayout[placement.PodInfo, cluster.PodInfo]())
}
