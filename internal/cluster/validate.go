package cluster

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// isNegativeErrorMsg is apimachinery's validation.IsNegativeErrorMsg.
const isNegativeErrorMsg = "must be greater than or equal to 0"

// PodResourceErrors returns the negative quantities of a pod that the API
// server's pod validation (v1.36, pkg/apis/core/validation) refuses, with its
// texts, under path (nil: paths start at spec): a negative limit or request
// of a container, an init container or the pod-level resources
// (ValidateContainerResourceRequirements and validatePodResourceRequirements
// through ValidateNonnegativeQuantity, at ...resources.limits[name] or
// ...resources.requests[name]) and a negative overhead (validateOverhead).
// Names are visited in sorted order, so the result does not depend on map
// order. A negative request would reach the scheduler's arithmetic (a
// negative sum, then an invalid score) instead of being refused.
//
// The other rules of resource validation are deliberately not checked: a
// request above its limit, integer and hugepage values, resource names, and
// equal requests and limits for resources that cannot be overcommitted.
// The scheduler reads requests alone and gives each such pod a well-defined
// answer, which the conformance cases record (testdata/conformance/hand/
// apiserver-128 holds a request above its limit), so such pods are answered
// as given. pod is not modified; nil when there is nothing to report.
func PodResourceErrors(pod *corev1.Pod, path *field.Path) field.ErrorList {
	spec := func() *field.Path {
		if path == nil {
			return field.NewPath("spec")
		}
		return path.Child("spec")
	}
	var errs field.ErrorList
	for i := range pod.Spec.Containers {
		errs = resourceRequirementErrors(errs, &pod.Spec.Containers[i].Resources, func() *field.Path {
			return spec().Child("containers").Index(i).Child("resources")
		})
	}
	for i := range pod.Spec.InitContainers {
		errs = resourceRequirementErrors(errs, &pod.Spec.InitContainers[i].Resources, func() *field.Path {
			return spec().Child("initContainers").Index(i).Child("resources")
		})
	}
	if pod.Spec.Resources != nil {
		errs = resourceRequirementErrors(errs, pod.Spec.Resources, func() *field.Path { return spec().Child("resources") })
	}
	for _, name := range sortedNames(pod.Spec.Overhead) {
		if q := pod.Spec.Overhead[name]; q.Sign() < 0 {
			errs = append(errs, field.Invalid(spec().Child("overhead").Key(string(name)), q.String(), isNegativeErrorMsg))
		}
	}
	return errs
}

// resourceRequirementErrors appends the problems of one ResourceRequirements
// (see PodResourceErrors) to errs. It allocates nothing when there are none.
func resourceRequirementErrors(errs field.ErrorList, r *corev1.ResourceRequirements, path func() *field.Path) field.ErrorList {
	if !hasResourceProblem(r) {
		return errs
	}
	for _, name := range sortedNames(r.Limits) {
		if q := r.Limits[name]; q.Sign() < 0 {
			errs = append(errs, field.Invalid(path().Child("limits").Key(string(name)), q.String(), isNegativeErrorMsg))
		}
	}
	for _, name := range sortedNames(r.Requests) {
		q := r.Requests[name]
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(path().Child("requests").Key(string(name)), q.String(), isNegativeErrorMsg))
		}
	}
	return errs
}

// hasResourceProblem reports whether resourceRequirementErrors has anything
// to say about r.
func hasResourceProblem(r *corev1.ResourceRequirements) bool {
	return hasNegative(r.Limits) || hasNegative(r.Requests)
}

func sortedNames(rl corev1.ResourceList) []corev1.ResourceName {
	if len(rl) == 0 {
		return nil
	}
	names := make([]corev1.ResourceName, 0, len(rl))
	for name := range rl {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// podResourceProblem reports whether PodResourceErrors has anything to say
// about pod, without allocating: New's check of every bound pod.
func podResourceProblem(pod *corev1.Pod) bool {
	for i := range pod.Spec.Containers {
		if hasResourceProblem(&pod.Spec.Containers[i].Resources) {
			return true
		}
	}
	for i := range pod.Spec.InitContainers {
		if hasResourceProblem(&pod.Spec.InitContainers[i].Resources) {
			return true
		}
	}
	if pod.Spec.Resources != nil && hasResourceProblem(pod.Spec.Resources) {
		return true
	}
	return hasNegative(pod.Spec.Overhead)
}
