package placement

import "github.com/schedkit/schedkit/internal/cluster"

// NodeResourcesBalancedAllocation
// (pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go):
// the Score favours nodes whose resources would be used evenly with the pod
// (one minus the standard deviation of the requested shares). score.go
// gathers the shares (nodeAllocatableRequest) and runs it.

// balancedAllocationScore returns NodeResourcesBalancedAllocation's score of
// one node at version v. allocated is what the node's bound pods request,
// withPod the same plus the incoming pod's request, allocatable the node's
// allocatable, all indexed by the plugin's resources (cpu, memory by
// default); an entry whose allocatable is 0 is left out, as upstream leaves
// out a resource the node does not have. The slices are not modified.
//
// v1.36 scores the improvement of the balance, 50 + (50 + withPod -
// withoutPod) / 2 (kubernetes/kubernetes#135573); v1.34 and v1.35 score the
// balance with the pod, (1 - std) * 100.
func balancedAllocationScore(v Version, withPod, allocated, allocatable []int64) int64 {
	with := balanceOf(withPod, allocatable)
	if !v.ScoresBalanceImprovement() {
		return with
	}
	without := balanceOf(allocated, allocatable)
	// Both lie in [50, 100] for two resources (and within [0, 100] for
	// more), so the sum is non-negative and Go's truncating division equals
	// upstream's.
	return maxNodeScore/2 + (maxNodeScore/2+with-without)/2
}

// balancedCPUMemory is nodeAllocatableRequest followed by
// balancedAllocationScore for the resources cpu and memory, with the pod's
// requests podReqs (cpu, memory), read from the node's sums into arrays on
// the stack instead of the per-resource buffers.
func balancedCPUMemory(v Version, n *cluster.NodeInfo, podReqs []int64) int64 {
	allocatable := [2]int64{n.Allocatable.MilliCPU, n.Allocatable.Memory}
	without := [2]int64{n.Requested.MilliCPU, n.Requested.Memory}
	with := [2]int64{without[0] + podReqs[0], without[1] + podReqs[1]}
	return balancedAllocationScore(v, with[:], without[:], allocatable[:])
}
