package cluster

// Added by the preemption work: per-node copy-on-write changes for the dry
// run of DefaultPreemption, which takes pods off one node and puts them back
// one at a time (SelectVictimsOnNode's nodeInfo.RemovePod / AddPodInfo).

// WithoutPod returns a copy of the node without the pod of pi's key, with
// the requested sums, the port set and the affinity lists updated as
// framework.NodeInfo.RemovePod does (a removed pod's host ports leave the
// set even if another pod declared them). The receiver is unchanged; a pod
// not on the node gives the receiver back.
func (ni *NodeInfo) WithoutPod(pi *PodInfo) *NodeInfo {
	j, ok := findPod(ni.Pods, pi.Key)
	if !ok {
		return ni
	}
	p := ni.Pods[j]
	out := *ni
	out.Pods = make([]*PodInfo, 0, len(ni.Pods)-1)
	out.Pods = append(out.Pods, ni.Pods[:j]...)
	out.Pods = append(out.Pods, ni.Pods[j+1:]...)
	gone := map[string]bool{p.Key: true}
	if hasPodAffinity(p.Pod) {
		out.PodsWithAffinity = filterOut(ni.PodsWithAffinity, gone)
	}
	if hasRequiredAntiAffinity(p.Pod) {
		out.PodsWithRequiredAntiAffinity = filterOut(ni.PodsWithRequiredAntiAffinity, gone)
	}
	out.Requested = ni.Requested.add(p.Requests, -1)
	out.NonZeroRequested.MilliCPU -= p.NonZeroRequests.MilliCPU
	out.NonZeroRequested.Memory -= p.NonZeroRequests.Memory
	out.UsedPorts = removePorts(ni.UsedPorts, p.HostPorts)
	return &out
}

// WithPodInfo returns a copy of the node with pi added (kept in key order),
// as framework.NodeInfo.AddPodInfo does. The receiver is unchanged; a pod
// already on the node gives the receiver back.
func (ni *NodeInfo) WithPodInfo(pi *PodInfo) *NodeInfo {
	j, ok := findPod(ni.Pods, pi.Key)
	if ok {
		return ni
	}
	out := *ni
	out.Pods = make([]*PodInfo, 0, len(ni.Pods)+1)
	out.Pods = append(out.Pods, ni.Pods[:j]...)
	out.Pods = append(out.Pods, pi)
	out.Pods = append(out.Pods, ni.Pods[j:]...)
	if hasPodAffinity(pi.Pod) {
		out.PodsWithAffinity = insertSorted(ni.PodsWithAffinity, pi)
	}
	if hasRequiredAntiAffinity(pi.Pod) {
		out.PodsWithRequiredAntiAffinity = insertSorted(ni.PodsWithRequiredAntiAffinity, pi)
	}
	out.Requested = ni.Requested.add(pi.Requests, 1)
	out.NonZeroRequested.MilliCPU += pi.NonZeroRequests.MilliCPU
	out.NonZeroRequested.Memory += pi.NonZeroRequests.Memory
	out.UsedPorts = addPorts(ni.UsedPorts, pi.HostPorts)
	return &out
}
