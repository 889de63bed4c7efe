package cluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// A fast path for podResources: most pods name only cpu, memory and
// ephemeral-storage, with quantities that are exact in millicores (cpu) or
// units (the rest), no pod-level requests and no in-place resize status.
// Their requests are then computed with int64 arithmetic, which gives the
// same numbers as the exact Quantity arithmetic of PodRequests (a sum of
// exact values is exact). Any other pod takes the general path.

const (
	vCPU = iota
	vMem
	vEph
	vLen
)

// vec holds one container's (or a sum's) cpu in millicores, memory and
// ephemeral storage; has marks the resources named.
type vec struct {
	v   [vLen]int64
	has [vLen]bool
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
	if n > vLen {
		return out, false
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
	// Any name left over is one the fast path does not handle.
	return out, found == n
}

func (a *vec) add(b vec) {
	for i := range a.v {
		a.v[i] += b.v[i]
		a.has[i] = a.has[i] || b.has[i]
	}
}

func (a *vec) max(b vec) {
	for i := range a.v {
		if b.has[i] && (!a.has[i] || b.v[i] > a.v[i]) {
			a.v[i], a.has[i] = b.v[i], true
		}
	}
}

// withDefaults adds the scoring defaults for cpu and memory when unnamed.
func (a vec) withDefaults() vec {
	if !a.has[vCPU] {
		a.v[vCPU], a.has[vCPU] = DefaultMilliCPURequest, true
	}
	if !a.has[vMem] {
		a.v[vMem], a.has[vMem] = DefaultMemoryRequest, true
	}
	return a
}

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
		sum0.add(o)
	}
	req = Resource{MilliCPU: sum.v[vCPU], Memory: sum.v[vMem], EphemeralStorage: sum.v[vEph]}
	nonZero = Resource{MilliCPU: sum0.v[vCPU], Memory: sum0.v[vMem]}
	return req, nonZero, true
}
