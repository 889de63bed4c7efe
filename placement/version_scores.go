package placement

// Scoring and request rules that differ between the supported versions; see
// the Version doc comment for the list. Each function takes the version and
// applies the rule of that release, so callers need no version switch.

import (
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// maxNodeScore is framework.MaxNodeScore.
const maxNodeScore = 100

// balanceOf mirrors balancedResourceScore (v1.36) / balancedResourceScorer
// (v1.34, v1.35) of noderesources/balanced_allocation.go: each resource with
// a non-zero allocatable contributes min(requested/allocatable, 1); the score
// is (1 - standard deviation of those fractions) * 100, truncated. Two
// fractions use |f0-f1|/2, more use the population standard deviation, fewer
// give 100. The float operations are upstream's, in upstream's order, so the
// truncation agrees bit for bit. It does not allocate.
func balanceOf(requested, allocatable []int64) int64 {
	var n int
	var total, first, second float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := float64(requested[i]) / float64(allocatable[i])
		if f > 1 {
			f = 1
		}
		total += f
		switch n {
		case 0:
			first = f
		case 1:
			second = f
		}
		n++
	}
	std := 0.0
	switch {
	case n == 2:
		std = math.Abs((first - second) / 2)
	case n > 2:
		mean := total / float64(n)
		var sum float64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			f := float64(requested[i]) / float64(allocatable[i])
			if f > 1 {
				f = 1
			}
			sum = sum + (f-mean)*(f-mean)
		}
		std = math.Sqrt(sum / float64(n))
	}
	return int64((1 - std) * float64(maxNodeScore))
}

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

// imageLocalityImages calls fn with every image reference ImageLocality
// counts for pod at version v, in upstream's order: init containers, regular
// containers, then (v1.36 only, kubernetes/kubernetes#130231) image volumes.
// Names are passed as written; normalising them (adding ":latest") is the
// caller's job, as in upstream's sumImageScores. pod is not modified.
func imageLocalityImages(v Version, pod *corev1.Pod, fn func(image string)) {
	for i := range pod.Spec.InitContainers {
		fn(pod.Spec.InitContainers[i].Image)
	}
	for i := range pod.Spec.Containers {
		fn(pod.Spec.Containers[i].Image)
	}
	if !v.CountsImageVolumes() {
		return
	}
	for i := range pod.Spec.Volumes {
		if img := pod.Spec.Volumes[i].Image; img != nil {
			fn(img.Reference)
		}
	}
}

// podLevelRequests returns the pod-level requests (cpu, memory and
// hugepages-*, the pod-level resources upstream supports) that count for a bound pod at
// version v, or nil when the pod sets none; callers replace the
// container-level sum by these entries, as resourcehelper.PodRequests does.
//
// v1.34 and v1.35 take spec.resources.requests as written. v1.36
// (InPlacePodLevelResourcesVerticalScaling) takes, when status.resources is
// set, the per-resource maximum of spec.resources.requests,
// status.resources.requests and status.allocatedResources, or of the latter
// two only when the pod's PodResizePending condition has reason Infeasible;
// a resource missing from all of them counts as zero. The pod is not
// modified; the returned list is new.
func podLevelRequests(v Version, pod *corev1.Pod) corev1.ResourceList {
	if pod.Spec.Resources == nil || len(pod.Spec.Resources.Requests) == 0 {
		return nil
	}
	var spec corev1.ResourceList
	for name, q := range pod.Spec.Resources.Requests {
		if name != corev1.ResourceCPU && name != corev1.ResourceMemory &&
			!strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix) {
			continue
		}
		if spec == nil {
			spec = corev1.ResourceList{}
		}
		spec[name] = q.DeepCopy()
	}
	if spec == nil || !v.UsesPodLevelResizeStatus() || pod.Status.Resources == nil {
		return spec
	}
	var effective corev1.ResourceList
	if podResizeInfeasible(pod) {
		effective = maxResourceLists(pod.Status.Resources.Requests, pod.Status.AllocatedResources)
	} else {
		effective = maxResourceLists(pod.Spec.Resources.Requests, pod.Status.Resources.Requests, pod.Status.AllocatedResources)
	}
	out := make(corev1.ResourceList, len(spec))
	for name := range spec {
		// Upstream indexes the effective list with every supported spec
		// resource, so a resource the status lists drop counts as zero.
		out[name] = effective[name]
	}
	return out
}

// podResizeInfeasible mirrors resourcehelper.IsPodResizeInfeasible: the first
// PodResizePending condition decides.
func podResizeInfeasible(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodResizePending {
			return c.Reason == corev1.PodReasonInfeasible
		}
	}
	return false
}

// maxResourceLists returns a new list with, per resource, the largest
// quantity found in any of the lists.
func maxResourceLists(lists ...corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, l := range lists {
		for name, q := range l {
			if cur, ok := out[name]; !ok || q.Cmp(cur) > 0 {
				out[name] = q.DeepCopy()
			}
		}
	}
	return out
}
