package cluster

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// Scheduler defaults for a container that requests no cpu or no memory, used
// only by the scoring plugins (pkg/scheduler/util/pod_resources.go, v1.36).
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MiB
)

// RequestOptions selects the variant of PodRequests, as
// resourcehelper.PodResourcesOptions does (k8s.io/component-helpers/resource,
// v0.36) for the options the scheduler uses.
type RequestOptions struct {
	// UseStatusResources takes, per container, the largest of spec, actuated
	// and allocated requests (in-place pod resize, GA in v1.35): the
	// scheduler's NodeInfo does so for bound pods.
	UseStatusResources bool
	// WithoutPodLevelResize ignores the status for pod-level requests even
	// with UseStatusResources, as before v1.36
	// (InPlacePodLevelResourcesVerticalScaling off; Input.WithoutPodLevelResize).
	WithoutPodLevelResize bool
	// NonMissing is added to every container (init or not) that does not
	// name the resource at all (explicit zero counts as named).
	NonMissing corev1.ResourceList
	// SkipPodLevel ignores spec.resources (resourcehelper's
	// SkipPodLevelResources), as NodeResourcesFit's scorer does.
	SkipPodLevel bool
}

// nonMissingDefaults is the scoring plugins' per-container default.
var nonMissingDefaults = corev1.ResourceList{
	corev1.ResourceCPU:    *resource.NewMilliQuantity(DefaultMilliCPURequest, resource.DecimalSI),
	corev1.ResourceMemory: *resource.NewQuantity(DefaultMemoryRequest, resource.DecimalSI),
}

// PodRequests returns the pod's effective request as resourcehelper.PodRequests
// does with the PodLevelResources gate on (v1.36): regular containers and
// restartable init containers (sidecars) are summed; each classic init
// container, plus the sidecars started before it, is a peak; the request is
// the per-resource maximum of the sum and every peak; supported pod-level
// requests (cpu, memory, hugepages-*) replace the aggregate; overhead is
// added last. Quantities are combined exactly (no early rounding). The pod is
// not modified; the result is a new list.
func PodRequests(pod *corev1.Pod, opts RequestOptions) corev1.ResourceList {
	reqs := aggregateContainerRequests(pod, opts)
	if !opts.SkipPodLevel && isPodLevelRequestsSet(pod) {
		var effective corev1.ResourceList
		// InPlacePodLevelResourcesVerticalScaling is beta and on in v1.36.
		if opts.UseStatusResources && !opts.WithoutPodLevelResize && pod.Status.Resources != nil {
			effective = effectiveRequests(pod, pod.Spec.Resources.Requests, pod.Status.Resources.Requests, pod.Status.AllocatedResources)
		}
		for name, q := range pod.Spec.Resources.Requests {
			if !isSupportedPodLevelResource(name) {
				continue
			}
			if effective != nil {
				q = effective[name]
			}
			reqs[name] = q.DeepCopy()
		}
	}
	if pod.Spec.Overhead != nil {
		AddResources(reqs, pod.Spec.Overhead)
	}
	return reqs
}

func aggregateContainerRequests(pod *corev1.Pod, opts RequestOptions) corev1.ResourceList {
	reqs := make(corev1.ResourceList, 4)
	var statuses map[string]*corev1.ContainerStatus
	if opts.UseStatusResources && (len(pod.Status.ContainerStatuses)+len(pod.Status.InitContainerStatuses)) > 0 {
		statuses = make(map[string]*corev1.ContainerStatus, len(pod.Status.ContainerStatuses)+len(pod.Status.InitContainerStatuses))
		for i := range pod.Status.ContainerStatuses {
			statuses[pod.Status.ContainerStatuses[i].Name] = &pod.Status.ContainerStatuses[i]
		}
		for i := range pod.Status.InitContainerStatuses {
			statuses[pod.Status.InitContainerStatuses[i].Name] = &pod.Status.InitContainerStatuses[i]
		}
	}
	containerReqs := func(c *corev1.Container, useStatus bool) corev1.ResourceList {
		r := c.Resources.Requests
		if useStatus && statuses != nil {
			if cs, ok := statuses[c.Name]; ok && cs.Resources != nil {
				r = effectiveRequests(pod, c.Resources.Requests, cs.Resources.Requests, cs.AllocatedResources)
			}
		}
		if len(opts.NonMissing) > 0 {
			r = withNonMissing(r, opts.NonMissing)
		}
		return r
	}
	for i := range pod.Spec.Containers {
		AddResources(reqs, containerReqs(&pod.Spec.Containers[i], true))
	}
	sidecars := corev1.ResourceList{}
	initPeak := corev1.ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		restartable := isRestartable(c)
		r := containerReqs(c, restartable)
		var peak corev1.ResourceList
		if restartable {
			// A sidecar keeps running: it adds to the steady state and to
			// every later init container's peak.
			AddResources(reqs, r)
			AddResources(sidecars, r)
			peak = sidecars
		} else {
			peak = corev1.ResourceList{}
			AddResources(peak, r)
			AddResources(peak, sidecars)
		}
		MaxResources(initPeak, peak)
	}
	MaxResources(reqs, initPeak)
	return reqs
}

// effectiveRequests is resourcehelper's determineEffectiveRequests: while a
// resize is infeasible only what is actuated or allocated counts.
func effectiveRequests(pod *corev1.Pod, spec, actuated, allocated corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	if !isResizeInfeasible(pod) {
		MaxResources(out, spec)
	}
	MaxResources(out, actuated)
	MaxResources(out, allocated)
	return out
}

func isResizeInfeasible(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodResizePending {
			return c.Reason == corev1.PodReasonInfeasible
		}
	}
	return false
}

func isRestartable(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

func withNonMissing(reqs, nonMissing corev1.ResourceList) corev1.ResourceList {
	out := make(corev1.ResourceList, len(reqs)+len(nonMissing))
	for k, v := range reqs {
		out[k] = v.DeepCopy()
	}
	for k, v := range nonMissing {
		if _, ok := reqs[k]; !ok {
			q := out[k]
			q.Add(v)
			out[k] = q
		}
	}
	return out
}

// AddResources adds every quantity of src to dst, copying the ones dst
// lacks; src is not modified.
func AddResources(dst, src corev1.ResourceList) {
	for name, q := range src {
		if cur, ok := dst[name]; ok {
			cur.Add(q)
			dst[name] = cur
		} else {
			dst[name] = q.DeepCopy()
		}
	}
}

// MaxResources raises every quantity of dst to src's where src's is larger
// or dst lacks it; src is not modified.
func MaxResources(dst, src corev1.ResourceList) {
	for name, q := range src {
		if cur, ok := dst[name]; !ok || q.Cmp(cur) > 0 {
			dst[name] = q.DeepCopy()
		}
	}
}

func isSupportedPodLevelResource(name corev1.ResourceName) bool {
	return name == corev1.ResourceCPU || name == corev1.ResourceMemory ||
		strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// isPodLevelRequestsSet is resourcehelper.IsPodLevelRequestsSet.
func isPodLevelRequestsSet(pod *corev1.Pod) bool {
	if pod.Spec.Resources == nil {
		return false
	}
	for name := range pod.Spec.Resources.Requests {
		if isSupportedPodLevelResource(name) {
			return true
		}
	}
	return false
}

// IsScalarResourceName reports whether the scheduler tracks the resource in
// Resource.Scalar: extended resources, hugepages, kubernetes.io/-prefixed
// native resources and attachable volumes (schedutil.IsScalarResourceName).
func IsScalarResourceName(name corev1.ResourceName) bool {
	s := string(name)
	return isExtendedResourceName(s) || strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) ||
		strings.Contains(s, "kubernetes.io/") || strings.HasPrefix(s, corev1.ResourceAttachableVolumesPrefix)
}

// IsExtendedResourceName is v1helper.IsExtendedResourceName: a
// domain-prefixed name outside kubernetes.io that is a valid quota name.
func IsExtendedResourceName(name corev1.ResourceName) bool {
	return isExtendedResourceName(string(name))
}

func isExtendedResourceName(s string) bool {
	if !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/") ||
		strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	// labelmatch.ValidKey decides as validation.IsQualifiedName without its
	// regular expressions; New asks for every extended resource of every
	// container.
	return labelmatch.ValidKey(corev1.DefaultResourceRequestsPrefix + s)
}

// ResourceFromList converts a request or capacity list as framework.Resource.Add
// does: cpu in millicores, the rest in units; pods to AllowedPodNumber;
// resources the scheduler does not track are dropped.
func ResourceFromList(rl corev1.ResourceList) Resource {
	var r Resource
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case corev1.ResourceMemory:
			r.Memory += q.Value()
		case corev1.ResourcePods:
			r.AllowedPodNumber += q.Value()
		case corev1.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		default:
			if IsScalarResourceName(name) {
				if r.Scalar == nil {
					r.Scalar = map[corev1.ResourceName]int64{}
				}
				r.Scalar[name] += q.Value()
			}
		}
	}
	return r
}

// add adds (sign +1) or subtracts (sign -1) o, with a fresh Scalar map.
func (r Resource) add(o Resource, sign int64) Resource {
	out := Resource{
		MilliCPU:         r.MilliCPU + sign*o.MilliCPU,
		Memory:           r.Memory + sign*o.Memory,
		EphemeralStorage: r.EphemeralStorage + sign*o.EphemeralStorage,
		AllowedPodNumber: r.AllowedPodNumber,
	}
	if len(r.Scalar) > 0 || len(o.Scalar) > 0 {
		out.Scalar = make(map[corev1.ResourceName]int64, len(r.Scalar)+len(o.Scalar))
		for k, v := range r.Scalar {
			out.Scalar[k] = v
		}
		for k, v := range o.Scalar {
			out.Scalar[k] += sign * v
		}
	}
	return out
}

// ScalarNames returns the names in r.Scalar, sorted.
func (r Resource) ScalarNames() []corev1.ResourceName {
	if len(r.Scalar) == 0 {
		return nil
	}
	out := make([]corev1.ResourceName, 0, len(r.Scalar))
	for k := range r.Scalar {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// podResources is framework.PodInfo.CalculateResource (v1.36) for a bound
// pod: the requests (with in-place resize status) and the non-zero cpu and
// memory the scoring plugins sum per node.
func podResources(pod *corev1.Pod) (req, nonZero Resource) { return podResourcesAt(pod, false) }

// podResourcesAt is podResources with Input.WithoutPodLevelResize.
func podResourcesAt(pod *corev1.Pod, withoutPodLevelResize bool) (req, nonZero Resource) {
	if req, nonZero, ok := fastPodResources(pod); ok {
		return req, nonZero
	}
	return quantityPodResources(pod, withoutPodLevelResize)
}

// quantityPodResources is podResourcesAt on the exact Quantity arithmetic
// alone, for a pod the fast path declined.
func quantityPodResources(pod *corev1.Pod, withoutPodLevelResize bool) (req, nonZero Resource) {
	reqs := PodRequests(pod, RequestOptions{UseStatusResources: true, WithoutPodLevelResize: withoutPodLevelResize})
	req = ResourceFromList(reqs)
	req.AllowedPodNumber = 0
	// getNonMissingContainerRequests: without pod-level requests every
	// container gets the defaults; with them, only a resource named nowhere.
	var nonMissing corev1.ResourceList
	if !isPodLevelRequestsSet(pod) {
		nonMissing = nonMissingDefaults
	} else {
		nonMissing = corev1.ResourceList{}
		for name, q := range nonMissingDefaults {
			if _, ok := reqs[name]; !ok {
				nonMissing[name] = q
			}
		}
	}
	non0 := reqs
	if len(nonMissing) > 0 {
		non0 = PodRequests(pod, RequestOptions{UseStatusResources: true, WithoutPodLevelResize: withoutPodLevelResize, NonMissing: nonMissing})
	}
	cpu, mem := non0[corev1.ResourceCPU], non0[corev1.ResourceMemory]
	nonZero = Resource{MilliCPU: cpu.MilliValue(), Memory: mem.Value()}
	return req, nonZero
}

// ScoringRequests is the incoming pod's request as the resource scoring
// plugins compute it (resourceAllocationScorer.calculatePodResourceRequest,
// v1.36): with per-container defaults for cpu and memory when useDefaults
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), without them for
// BalancedAllocation. NodeResourcesFit builds its scorer
// (noderesources/fit.go nodeResourceStrategyTypeMap) without the feature
// flags, so with useDefaults pod-level requests and resize status are
// ignored; BalancedAllocation passes the gates (both on).
func ScoringRequests(pod *corev1.Pod, useDefaults bool) corev1.ResourceList {
	opts := RequestOptions{UseStatusResources: true}
	if useDefaults {
		opts = RequestOptions{NonMissing: nonMissingDefaults, SkipPodLevel: true}
	}
	return PodRequests(pod, opts)
}
