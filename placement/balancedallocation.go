package placement

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
