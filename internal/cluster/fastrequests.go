package cluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// A fast path for podResources: most pods name only cpu, memory,
// ephemeral-storage and a few extended resources, with quantities that are
// exact in millicores (cpu) or units (the rest), no pod-level requests and
// no in-place resize status. Their requests are then computed with int64
// arithmetic, which gives the same numbers as the exact Quantity arithmetic
// of PodRequests (a sum of exact values is exact). Any other pod takes the
// general path.

const (
	vCPU = iota
	vMem
	vEph
	vLen
)

// vec holds one container's (or a sum's) cpu in millicores, memory and
// ephemeral storage; has marks the resources named. sc holds the other
// resources the scheduler tracks (Resource.Scalar: extended resources,
// hugepages, ...) that are named, in order of appearance; it is shared by
// copies of a vec, so add and max replace it instead of changing it.
type vec struct {
	v   [vLen]int64
	has [vLen]bool
	sc  []scalarRequest
}

type scalarRequest struct {
	name corev1.ResourceName
	v    int64
}

// exactVec converts a request list, or reports false when it names another
// resource or a quantity that is not exact in its unit or is negative.
//
// It looks the three names up instead of ranging over the list: a lookup in
// a small map compares short keys directly, while starting an iteration
// costs more than the three lookups together (New calls this for every
// container of every bound pod).
func exactVec(rl corev1.ResourceList) (vec, bool) {
	var out vec
	n := len(rl)
	if n == 0 {
		return out, true
	}
	found := 0
	if q, ok := rl[corev1.ResourceCPU]; ok {
		x := q.MilliValue()
		if x < 0 || q.Cmp(*resource.NewMilliQuantity(x, resource.DecimalSI)) != 0 {
			return out, false
		}
		out.v[vCPU], out.has[vCPU] = x, true
		found++
	}
	if q, ok := rl[corev1.ResourceMemory]; ok {
		x := q.Value()
		if x < 0 || q.Cmp(*resource.NewQuantity(x, resource.DecimalSI)) != 0 {
			return out, false
		}
		out.v[vMem], out.has[vMem] = x, true
		found++
	}
	if found == n {
		return out, true
	}
	if q, ok := rl[corev1.ResourceEphemeralStorage]; ok {
		x := q.Value()
		if x < 0 || q.Cmp(*resource.NewQuantity(x, resource.DecimalSI)) != 0 {
			return out, false
		}
		out.v[vEph], out.has[vEph] = x, true
		found++
	}
	if found == n {
		return out, true
	}
	// Other names (rare): the ones ResourceFromList keeps in Scalar must be
	// exact; the rest (pods, untracked names) are dropped there, so they
	// only need to be non-negative (a negative one is a validation error,
	// which the general path reports).
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
			continue
		}
		if q.Sign() < 0 {
			return out, false
		}
		if name == corev1.ResourcePods || !IsScalarResourceName(name) {
			continue
		}
		x := q.Value()
		if q.Cmp(*resource.NewQuantity(x, resource.DecimalSI)) != 0 {
			return out, false
		}
		out.sc = append(out.sc, scalarRequest{name, x})
	}
	return out, true
}

func (a *vec) add(b vec) {
	for i := range a.v {
		a.v[i] += b.v[i]
		a.has[i] = a.has[i] || b.has[i]
	}
	if len(b.sc) > 0 {
		a.sc = mergeScalars(a.sc, b.sc, func(x, y int64) int64 { return x + y })
	}
}

func (a *vec) max(b vec) {
	for i := range a.v {
		if b.has[i] && (!a.has[i] || b.v[i] > a.v[i]) {
			a.v[i], a.has[i] = b.v[i], true
		}
	}
	if len(b.sc) > 0 {
		a.sc = mergeScalars(a.sc, b.sc, func(x, y int64) int64 { return max(x, y) })
	}
}

// mergeScalars returns a new list: a's entries combined with b's of the same
// name, then b's other entries (a resource named on one side only keeps its
// value, as AddResources and MaxResources copy a quantity dst lacks).
func mergeScalars(a, b []scalarRequest, combine func(x, y int64) int64) []scalarRequest {
	out := make([]scalarRequest, len(a), len(a)+len(b))
	copy(out, a)
next:
	for _, e := range b {
		for i := range out {
			if out[i].name == e.name {
				out[i].v = combine(out[i].v, e.v)
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

// withDefaults adds the scoring defaults for cpu and memory when unnamed,
// and drops the scalars (the non-zero request is cpu and memory only).
func (a vec) withDefaults() vec {
	a.sc = nil
	if !a.has[vCPU] {
		a.v[vCPU], a.has[vCPU] = DefaultMilliCPURequest, true
	}
	if !a.has[vMem] {
		a.v[vMem], a.has[vMem] = DefaultMemoryRequest, true
	}
	return a
}

// FastRequests is the fast path for a pod of the common shape (see above):
// its requests (PodRequests without options: containers, restartable and
// plain init containers, overhead) and its non-zero requests (cpu and
// memory with the scoring defaults for a container naming neither, as
// ScoringRequests with defaults gives them). ok is false when the pod is
// not of that shape: pod-level requests, resize status, or a quantity not
// exact in its unit; the general functions must then be used.
func FastRequests(pod *corev1.Pod) (req, nonZero Resource, ok bool) { return fastPodResources(pod) }

// fastPodResources is podResources for the common pod shape (see above);
// ok is false when the general path must be taken.
func fastPodResources(pod *corev1.Pod) (req, nonZero Resource, ok bool) {
	if pod.Spec.Resources != nil && len(pod.Spec.Resources.Requests) > 0 {
		return req, nonZero, false
	}
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Resources != nil {
			return req, nonZero, false
		}
	}
	for i := range pod.Status.InitContainerStatuses {
		if pod.Status.InitContainerStatuses[i].Resources != nil {
			return req, nonZero, false
		}
	}
	var sum, sum0 vec
	for i := range pod.Spec.Containers {
		c, ok := exactVec(pod.Spec.Containers[i].Resources.Requests)
		if !ok {
			return req, nonZero, false
		}
		sum.add(c)
		sum0.add(c.withDefaults())
	}
	var side, side0, peak, peak0 vec
	for i := range pod.Spec.InitContainers {
		ic := &pod.Spec.InitContainers[i]
		c, ok := exactVec(ic.Resources.Requests)
		if !ok {
			return req, nonZero, false
		}
		c0 := c.withDefaults()
		if isRestartable(ic) {
			sum.add(c)
			sum0.add(c0)
			side.add(c)
			side0.add(c0)
			peak.max(side)
			peak0.max(side0)
		} else {
			c.add(side)
			c0.add(side0)
			peak.max(c)
			peak0.max(c0)
		}
	}
	sum.max(peak)
	sum0.max(peak0)
	if len(pod.Spec.Overhead) > 0 {
		o, ok := exactVec(pod.Spec.Overhead)
		if !ok {
			return req, nonZero, false
		}
		sum.add(o)
		o.sc = nil
		sum0.add(o)
	}
	req = Resource{MilliCPU: sum.v[vCPU], Memory: sum.v[vMem], EphemeralStorage: sum.v[vEph]}
	if len(sum.sc) > 0 {
		req.Scalar = make(map[corev1.ResourceName]int64, len(sum.sc))
		for _, e := range sum.sc {
			req.Scalar[e.name] = e.v
		}
	}
	nonZero = Resource{MilliCPU: sum0.v[vCPU], Memory: sum0.v[vMem]}
	return req, nonZero, true
}
