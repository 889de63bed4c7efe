package cluster

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
)

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
	out.Order = swapRemove(append([]*PodInfo(nil), ni.Order...), p.Key)
	gone := map[string]bool{p.Key: true}
	if hasPodAffinity(p.Pod) {
		out.PodsWithAffinity = filterOut(ni.PodsWithAffinity, gone)
	}
	if hasRequiredAntiAffinity(p.Pod) {
		out.PodsWithRequiredAntiAffinity = filterOut(ni.PodsWithRequiredAntiAffinity, gone)
	}
	out.Requested = ni.Requested.add(p.Requests(), -1)
	out.NonZeroRequested.MilliCPU -= p.nonZeroCPU
	out.NonZeroRequested.Memory -= p.nonZeroMemory
	out.UsedPorts = removePorts(ni.UsedPorts, p.HostPorts())
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
	out.Order = appendOrder(ni.Order, pi)
	if hasPodAffinity(pi.Pod) {
		out.PodsWithAffinity = insertSorted(ni.PodsWithAffinity, pi)
	}
	if hasRequiredAntiAffinity(pi.Pod) {
		out.PodsWithRequiredAntiAffinity = insertSorted(ni.PodsWithRequiredAntiAffinity, pi)
	}
	out.Requested = ni.Requested.add(pi.Requests(), 1)
	out.NonZeroRequested.MilliCPU += pi.nonZeroCPU
	out.NonZeroRequested.Memory += pi.nonZeroMemory
	out.UsedPorts = addPorts(ni.UsedPorts, pi.HostPorts())
	return &out
}

// CopyInto makes dst a private copy of the node for in-place what-if
// changes with RemovePodInPlace and AddPodInPlace: dst gets its own pod list
// (stored in buf's backing array, which is returned for reuse) and its own
// scalar request map; every other slice stays shared and is only ever
// replaced, never written. ni is unchanged. dst must be a zero NodeInfo or
// one an earlier CopyInto filled: the scalar map of that copy is its own,
// and is reused (a preemption dry run copies node after node into one).
func (ni *NodeInfo) CopyInto(dst *NodeInfo, buf []*PodInfo) []*PodInfo {
	own := dst.Requested.Scalar
	*dst = *ni
	dst.Pods = append(buf[:0], ni.Pods...)
	if ni.Requested.Scalar != nil {
		if own == nil {
			own = make(map[corev1.ResourceName]int64, len(ni.Requested.Scalar))
		} else {
			clear(own)
		}
		for k, v := range ni.Requested.Scalar {
			own[k] = v
		}
		dst.Requested.Scalar = own
	}
	return dst.Pods
}

// RemovePodInPlace takes the pod of pi's key off a node made by CopyInto,
// as framework.NodeInfo.RemovePod does. It reports whether the pod was there.
// It must not be called on a node of a snapshot.
func (ni *NodeInfo) RemovePodInPlace(pi *PodInfo) bool {
	j, ok := findPod(ni.Pods, pi.Key)
	if !ok {
		return false
	}
	p := ni.Pods[j]
	ni.Pods = append(ni.Pods[:j], ni.Pods[j+1:]...)
	if withAffinity, withRequiredAnti := p.affinityKinds(); withAffinity || withRequiredAnti { // recorded bits: no read of the pod spec
		ni.PodsWithAffinity = withoutKey(ni.PodsWithAffinity, p.Key)
		ni.PodsWithRequiredAntiAffinity = withoutKey(ni.PodsWithRequiredAntiAffinity, p.Key)
	}
	ni.addRequestsInPlace(p, -1)
	if len(p.HostPorts()) > 0 {
		ni.UsedPorts = removePorts(ni.UsedPorts, p.HostPorts())
	}
	return true
}

// RemoveBelowInPlace takes every pod of priority below p off a node made by
// CopyInto, leaving the node as RemovePodInPlace of each of them would, in
// one pass over its lists (preemption's dry run takes them all off before
// its first filter). It must not be called on a node of a snapshot.
func (ni *NodeInfo) RemoveBelowInPlace(p int32) {
	kept := ni.Pods[:0] // the copy's own array (CopyInto)
	for _, q := range ni.Pods {
		if q.Priority >= p {
			kept = append(kept, q)
			continue
		}
		ni.addRequestsInPlace(q, -1)
		if len(q.HostPorts()) > 0 {
			ni.UsedPorts = removePorts(ni.UsedPorts, q.HostPorts())
		}
	}
	clear(ni.Pods[len(kept):])
	ni.Pods = kept
	ni.PodsWithAffinity = keepFrom(ni.PodsWithAffinity, p)
	ni.PodsWithRequiredAntiAffinity = keepFrom(ni.PodsWithRequiredAntiAffinity, p)
}

// keepFrom is list without the pods of priority below p: the list itself
// when it keeps them all, nil when none, else a new slice (the list may be
// shared with a snapshot's node), as withoutKey of each would leave it.
func keepFrom(list []*PodInfo, p int32) []*PodInfo {
	n := 0
	for _, q := range list {
		if q.Priority >= p {
			n++
		}
	}
	switch n {
	case len(list):
		return list
	case 0:
		return nil
	}
	out := make([]*PodInfo, 0, n)
	for _, q := range list {
		if q.Priority >= p {
			out = append(out, q)
		}
	}
	return out
}

// AddPodInPlace puts pi on a node made by CopyInto (kept in key order), as
// framework.NodeInfo.AddPodInfo does. It reports whether the pod was added
// (false when already there). It must not be called on a node of a snapshot.
func (ni *NodeInfo) AddPodInPlace(pi *PodInfo) bool {
	j, ok := findPod(ni.Pods, pi.Key)
	if ok {
		return false
	}
	ni.Pods = append(ni.Pods, nil)
	copy(ni.Pods[j+1:], ni.Pods[j:])
	ni.Pods[j] = pi
	withAffinity, withRequiredAnti := pi.affinityKinds() // recorded bits: no read of the pod spec
	if withAffinity {
		ni.PodsWithAffinity = insertSorted(ni.PodsWithAffinity, pi)
	}
	if withRequiredAnti {
		ni.PodsWithRequiredAntiAffinity = insertSorted(ni.PodsWithRequiredAntiAffinity, pi)
	}
	ni.addRequestsInPlace(pi, 1)
	if len(pi.HostPorts()) > 0 {
		ni.UsedPorts = addPorts(ni.UsedPorts, pi.HostPorts())
	}
	return true
}

func (ni *NodeInfo) addRequestsInPlace(p *PodInfo, sign int64) {
	r := &ni.Requested
	r.MilliCPU += sign * p.reqCPU
	r.Memory += sign * p.reqMemory
	r.EphemeralStorage += sign * p.reqEphemeral
	if len(p.reqScalar) > 0 {
		if r.Scalar == nil {
			r.Scalar = make(map[corev1.ResourceName]int64, len(p.reqScalar))
		}
		for k, v := range p.reqScalar {
			r.Scalar[k] += sign * v
		}
	}
	ni.NonZeroRequested.MilliCPU += sign * p.nonZeroCPU
	ni.NonZeroRequested.Memory += sign * p.nonZeroMemory
}

// withoutKey is filterOut for one key without building a set: a new slice
// without the pod of key (the list may be shared with a snapshot's node),
// or the list itself when the pod is not in it; nil when nothing is left,
// as filterOut.
func withoutKey(list []*PodInfo, key string) []*PodInfo {
	i := slices.IndexFunc(list, func(p *PodInfo) bool { return p.Key == key })
	if i < 0 {
		if len(list) == 0 {
			return nil
		}
		return list
	}
	if len(list) == 1 {
		return nil
	}
	out := make([]*PodInfo, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}
