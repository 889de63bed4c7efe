package placement

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// TestCPUMemoryScoresMatchArrays: the cpu-and-memory forms of the two
// resource Score plugins (leastAllocatedCPUMemory, balancedCPUMemory) give
// what nodeAllocatableRequest followed by the LeastAllocated scorer and
// balancedAllocationScore give, at every version, for any sums (a zero
// allocatable, requests above allocatable) and weights.
func TestCPUMemoryScoresMatchArrays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := func(name string) int64 {
			return rapid.OneOf(rapid.Just[int64](0), rapid.Int64Range(0, 64_000), rapid.Int64Range(0, 1<<40)).Draw(t, name)
		}
		n := &cluster.NodeInfo{}
		n.Allocatable.MilliCPU, n.Allocatable.Memory = q("allocatable cpu"), q("allocatable memory")
		n.Requested.MilliCPU, n.Requested.Memory = q("requested cpu"), q("requested memory")
		n.NonZeroRequested.MilliCPU, n.NonZeroRequested.Memory = q("non-zero cpu"), q("non-zero memory")
		reqs := []int64{q("pod cpu"), q("pod memory")}
		res := []ResourceSpec{
			{Name: corev1.ResourceCPU, Weight: rapid.Int64Range(1, 100).Draw(t, "cpu weight")},
			{Name: corev1.ResourceMemory, Weight: rapid.Int64Range(1, 100).Draw(t, "memory weight")},
		}
		kinds := resourceKinds(res, reqs)
		require.True(t, cpuMemory(kinds))
		requested, allocated, allocatable := make([]int64, 2), make([]int64, 2), make([]int64, 2)

		nodeAllocatableRequest(n, res, kinds, reqs, false, requested, allocated, allocatable)
		c := &Compiled{}
		require.Equal(t, c.fitScorer(res)(requested, allocatable), leastAllocatedCPUMemory(n, reqs, res), "LeastAllocated")

		nodeAllocatableRequest(n, res, kinds, reqs, true, requested, allocated, allocatable)
		for _, v := range Versions() {
			require.Equal(t, balancedAllocationScore(v, requested, allocated, allocatable), balancedCPUMemory(v, n, reqs), "BalancedAllocation at %s", v)
		}
	})
}

// TestCPUMemoryOnlyForDefaultResources: a pod's scorer reads the sums
// directly only where the plugins' resources are cpu then memory, and for
// NodeResourcesFit only under LeastAllocated (the default strategy).
func TestCPUMemoryOnlyForDefaultResources(t *testing.T) {
	snap, _, err := NewSnapshot(SnapshotInput{Nodes: []*corev1.Node{mkNode("a", "4", "8Gi")}})
	require.NoError(t, err)
	cpuMem := []ResourceSpec{{Name: corev1.ResourceCPU, Weight: 1}, {Name: corev1.ResourceMemory, Weight: 1}}
	memCPU := []ResourceSpec{{Name: corev1.ResourceMemory, Weight: 1}, {Name: corev1.ResourceCPU, Weight: 1}}
	withStorage := append(slices.Clone(cpuMem), ResourceSpec{Name: corev1.ResourceEphemeralStorage, Weight: 1})
	shape := []UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}
	for _, tc := range []struct {
		name     string
		strategy ScoringStrategy
		fit, bal bool
	}{
		{"default", ScoringStrategy{}, true, true},
		{"LeastAllocated cpu then memory", ScoringStrategy{Type: LeastAllocated, Resources: cpuMem}, true, true},
		{"LeastAllocated memory then cpu", ScoringStrategy{Type: LeastAllocated, Resources: memCPU}, false, true},
		{"LeastAllocated with ephemeral storage", ScoringStrategy{Type: LeastAllocated, Resources: withStorage}, false, true},
		{"MostAllocated", ScoringStrategy{Type: MostAllocated, Resources: cpuMem}, false, true},
		{"RequestedToCapacityRatio", ScoringStrategy{Type: RequestedToCapacityRatio, Resources: cpuMem, Shape: shape}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(snap, mkPod("p"), Options{ScoringStrategy: tc.strategy})
			require.NoError(t, err)
			lc := c.newLocalScorer()
			assert.Equal(t, tc.fit, lc.fitCPUMemory, "NodeResourcesFit")
			assert.Equal(t, tc.bal, lc.balCPUMemory, "BalancedAllocation")
		})
	}
}
