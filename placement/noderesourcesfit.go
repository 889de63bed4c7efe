package placement

import (
	"math"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go,
// v1.36): the Filter compares the pod's effective request (Compile:
// resourcehelper.PodRequests) with what the node has left; the Score applies
// the scoring strategy (LeastAllocated, MostAllocated,
// RequestedToCapacityRatio) to the requested share of each resource.
// filter.go dispatches (localCode), score.go runs the scores.

// Bits of the fixed NodeResourcesFit shortfalls, in fitsRequest's order.
const (
	fitPods = 1 << iota
	fitCPU
	fitMemory
	fitEphemeral
)

// fitReasons[mask] is the reason list for a combination of fixed shortfalls,
// built once so that a failing node costs no allocation.
var fitReasons = func() [16][]string {
	var t [16][]string
	texts := [4]string{"Too many pods", "Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"}
	for m := 1; m < 16; m++ {
		for b := 0; b < 4; b++ {
			if m&(1<<b) != 0 {
				t[m] = append(t[m], texts[b])
			}
		}
	}
	return t
}()

// fitMask is the fixed part of NodeResourcesFit's Filter (fitsRequest,
// v1.36): the shortfalls of pod count, cpu, memory and ephemeral storage
// as fitPods... bits, whether one of them is unresolvable (the request
// exceeds the node's allocatable outright, so preemption cannot help), and
// whether some extended (scalar) resource falls short too.
func (c *Compiled) fitMask(n *cluster.NodeInfo) (mask int, unresolvable, scalarShort bool) {
	if int64(len(n.Pods))+1 > n.Allocatable.AllowedPodNumber {
		mask |= fitPods
	}
	r := &c.req
	if r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(r.Scalar) == 0 {
		return mask, false, false
	}
	a, q := &n.Allocatable, &n.Requested
	if r.MilliCPU > 0 && r.MilliCPU > a.MilliCPU-q.MilliCPU {
		mask |= fitCPU
		unresolvable = unresolvable || r.MilliCPU > a.MilliCPU
	}
	if r.Memory > 0 && r.Memory > a.Memory-q.Memory {
		mask |= fitMemory
		unresolvable = unresolvable || r.Memory > a.Memory
	}
	if r.EphemeralStorage > 0 && r.EphemeralStorage > a.EphemeralStorage-q.EphemeralStorage {
		mask |= fitEphemeral
		unresolvable = unresolvable || r.EphemeralStorage > a.EphemeralStorage
	}
	for _, name := range c.reqScalars {
		if r.Scalar[name] > a.Scalar[name]-q.Scalar[name] {
			scalarShort = true
			break
		}
	}
	return mask, unresolvable, scalarShort
}

// fitsResources is NodeResourcesFit's Filter (fitsRequest, v1.36): pod
// count, then cpu, memory, ephemeral storage and scalar resources; a
// shortfall where the request exceeds the node's allocatable outright makes
// the status UnschedulableAndUnresolvable (preemption cannot help).
func (c *Compiled) fitsResources(n *cluster.NodeInfo) sched.Status {
	mask, unresolvable, scalarShort := c.fitMask(n)
	if scalarShort {
		r, a, q := &c.req, &n.Allocatable, &n.Requested
		reasons := make([]string, 0, 4+len(c.reqScalars))
		reasons = append(reasons, fitReasons[mask]...)
		for _, name := range c.reqScalars {
			want := r.Scalar[name]
			if want > a.Scalar[name]-q.Scalar[name] {
				reasons = append(reasons, "Insufficient "+string(name))
				unresolvable = unresolvable || want > a.Scalar[name]
			}
		}
		return fitStatus(reasons, unresolvable)
	}
	if mask == 0 {
		return sched.Status{}
	}
	return fitStatus(fitReasons[mask], unresolvable)
}

// scalarShortCode is fitsResources(n).Code for a node where a scalar
// resource falls short (fitMask's scalarShort), without building the
// reasons: a shortfall is unresolvable when a request exceeds the node's
// allocatable outright (a request above allocatable is above what is
// left too).
func (c *Compiled) scalarShortCode(n *cluster.NodeInfo) sched.Code {
	_, unresolvable, _ := c.fitMask(n)
	for _, name := range c.reqScalars {
		if c.req.Scalar[name] > n.Allocatable.Scalar[name] {
			unresolvable = true
		}
	}
	if unresolvable {
		return sched.UnschedulableAndUnresolvable
	}
	return sched.Unschedulable
}

func fitStatus(reasons []string, unresolvable bool) sched.Status {
	code := sched.Unschedulable
	if unresolvable {
		code = sched.UnschedulableAndUnresolvable
	}
	return sched.Status{Code: code, Reasons: reasons}
}

// resourceKind says where a scored resource's amounts are read in a
// NodeInfo. A pass decides it once per resource (resourceKinds) instead of
// comparing resource names on every node.
type resourceKind uint8

const (
	kindScalar            resourceKind = iota // Allocatable.Scalar, Requested.Scalar
	kindCPU                                   // MilliCPU
	kindMemory                                // Memory
	kindEphemeralStorage                      // EphemeralStorage
	kindUnrequestedScalar                     // a scalar the pod does not request: left at zero
)

// resourceKinds returns the kind of each of res for a pod requesting
// podReqs (indexed like res).
func resourceKinds(res []ResourceSpec, podReqs []int64) []resourceKind {
	kinds := make([]resourceKind, len(res))
	for i, r := range res {
		switch {
		case podReqs[i] == 0 && cluster.IsScalarResourceName(r.Name):
			kinds[i] = kindUnrequestedScalar
		case r.Name == corev1.ResourceCPU:
			kinds[i] = kindCPU
		case r.Name == corev1.ResourceMemory:
			kinds[i] = kindMemory
		case r.Name == corev1.ResourceEphemeralStorage:
			kinds[i] = kindEphemeralStorage
		default:
			kinds[i] = kindScalar
		}
	}
	return kinds
}

// nodeAllocatableRequest is resourceAllocationScorer.calculateNodeAllocatableRequest:
// per resource, the node's allocatable, what its pods request (the non-zero
// sums for cpu and memory unless useRequested) and that plus the pod's
// request; a scalar the pod does not request and a resource the node lacks
// stay zero. kinds are resourceKinds(res, podReqs).
func nodeAllocatableRequest(n *cluster.NodeInfo, res []ResourceSpec, kinds []resourceKind, podReqs []int64, useRequested bool, requested, allocated, allocatable []int64) {
	for i, k := range kinds {
		requested[i], allocated[i], allocatable[i] = 0, 0, 0
		var alloc, used int64
		switch k {
		case kindUnrequestedScalar:
			continue
		case kindCPU:
			alloc = n.Allocatable.MilliCPU
			used = n.NonZeroRequested.MilliCPU
			if useRequested {
				used = n.Requested.MilliCPU
			}
		case kindMemory:
			alloc = n.Allocatable.Memory
			used = n.NonZeroRequested.Memory
			if useRequested {
				used = n.Requested.Memory
			}
		case kindEphemeralStorage:
			alloc, used = n.Allocatable.EphemeralStorage, n.Requested.EphemeralStorage
		default:
			a, ok := n.Allocatable.Scalar[res[i].Name]
			if ok {
				alloc, used = a, n.Requested.Scalar[res[i].Name]
			}
		}
		if alloc == 0 {
			continue
		}
		allocatable[i], allocated[i], requested[i] = alloc, used, used+podReqs[i]
	}
}

// cpuMemory reports whether kinds are cpu then memory, the resources both
// scoring plugins use by default.
func cpuMemory(kinds []resourceKind) bool {
	return len(kinds) == 2 && kinds[0] == kindCPU && kinds[1] == kindMemory
}

// leastAllocatedCPUMemory is nodeAllocatableRequest followed by the
// LeastAllocated scorer (fitScorer) for the resources res (cpu then
// memory), with the pod's requests podReqs (cpu, memory), read from the
// node's non-zero sums into arrays on the stack instead of the
// per-resource buffers.
func leastAllocatedCPUMemory(n *cluster.NodeInfo, podReqs []int64, res []ResourceSpec) int64 {
	requested := [2]int64{n.NonZeroRequested.MilliCPU + podReqs[0], n.NonZeroRequested.Memory + podReqs[1]}
	allocatable := [2]int64{n.Allocatable.MilliCPU, n.Allocatable.Memory}
	return leastAllocated(requested[:], allocatable[:], res)
}

// leastAllocated is the LeastAllocated strategy's score
// (least_allocated.go): the weighted mean of each resource's free share of
// its allocatable, a resource of allocatable 0 left out.
func leastAllocated(requested, allocatable []int64, res []ResourceSpec) int64 {
	var score, weights int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		var v int64
		if requested[i] <= allocatable[i] {
			v = sched.Quotient((allocatable[i]-requested[i])*sched.MaxNodeScore, allocatable[i])
		}
		score += v * res[i].Weight
		weights += res[i].Weight
	}
	if weights == 0 {
		return 0
	}
	return sched.Quotient(score, weights)
}

// fitScorer returns the NodeResourcesFit strategy's scorer over requested
// and allocatable (least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go).
func (c *Compiled) fitScorer(res []ResourceSpec) func(requested, allocatable []int64) int64 {
	switch c.opts.ScoringStrategy.Type {
	case MostAllocated:
		return func(requested, allocatable []int64) int64 {
			var score, weights int64
			for i := range requested {
				if allocatable[i] == 0 {
					continue
				}
				req := min(requested[i], allocatable[i])
				score += sched.Quotient(req*sched.MaxNodeScore, allocatable[i]) * res[i].Weight
				weights += res[i].Weight
			}
			if weights == 0 {
				return 0
			}
			return sched.Quotient(score, weights)
		}
	case RequestedToCapacityRatio:
		shape := make([]UtilizationShapePoint, len(c.opts.ScoringStrategy.Shape))
		copy(shape, c.opts.ScoringStrategy.Shape)
		sort.SliceStable(shape, func(i, j int) bool { return shape[i].Utilization < shape[j].Utilization })
		fn := func(p int64) int64 {
			if len(shape) == 0 {
				return 0
			}
			for i := range shape {
				if p <= int64(shape[i].Utilization) {
					if i == 0 {
						return int64(shape[0].Score) * 10
					}
					x0, y0 := int64(shape[i-1].Utilization), int64(shape[i-1].Score)*10
					x1, y1 := int64(shape[i].Utilization), int64(shape[i].Score)*10
					return y0 + (y1-y0)*(p-x0)/(x1-x0)
				}
			}
			return int64(shape[len(shape)-1].Score) * 10
		}
		return func(requested, allocatable []int64) int64 {
			var score, weights int64
			for i := range requested {
				if allocatable[i] == 0 {
					continue
				}
				var v int64
				if requested[i] > allocatable[i] {
					v = fn(100)
				} else {
					v = fn(sched.Quotient(requested[i]*100, allocatable[i]))
				}
				if v > 0 {
					score += v * res[i].Weight
					weights += res[i].Weight
				}
			}
			if weights == 0 {
				return 0
			}
			return int64(math.Round(float64(score) / float64(weights)))
		}
	default:
		return func(requested, allocatable []int64) int64 { return leastAllocated(requested, allocatable, res) }
	}
}
