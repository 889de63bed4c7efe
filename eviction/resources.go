package eviction

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// requestQuantity is the kubelet's v1resource.GetResourceRequestQuantity
// with v1.36's gates: the pod-level request when the pod sets pod-level
// resources (PodLevelResources), else the containers' sum with sidecars
// (restartable init containers) added and the largest init-container need
// as a floor; the overhead is added when the total is not zero. Status
// (in-place resize) values are not read, as upstream's options say.
func requestQuantity(pod *corev1.Pod, name corev1.ResourceName) resource.Quantity {
	q := resource.Quantity{Format: resource.DecimalSI}
	if name == corev1.ResourceMemory || name == corev1.ResourceStorage || name == corev1.ResourceEphemeralStorage {
		q.Format = resource.BinarySI
	}
	if podLevelResourcesSet(pod) {
		if pod.Spec.Resources != nil && isPodLevelResource(name) {
			if v, ok := pod.Spec.Resources.Requests[name]; ok {
				q.Add(v)
			}
		}
	} else {
		q.Add(containerRequests(pod, name))
	}
	if pod.Spec.Overhead != nil {
		if v, ok := pod.Spec.Overhead[name]; ok && !q.IsZero() {
			q.Add(v)
		}
	}
	return q
}

// isPodLevelResource: cpu, memory and hugepages can be set at pod level.
func isPodLevelResource(name corev1.ResourceName) bool {
	return name == corev1.ResourceCPU || name == corev1.ResourceMemory || strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// podLevelResourcesSet is resourcehelper.IsPodLevelResourcesSet.
func podLevelResourcesSet(pod *corev1.Pod) bool {
	r := pod.Spec.Resources
	if r == nil {
		return false
	}
	for n := range r.Requests {
		if isPodLevelResource(n) {
			return true
		}
	}
	for n := range r.Limits {
		if isPodLevelResource(n) {
			return true
		}
	}
	return false
}

// containerRequests is AggregateContainerRequests for one resource: the
// containers' sum plus sidecars, at least the largest need while an init
// container runs (itself plus the sidecars started before it). A missing
// request counts as zero, which gives upstream's result for valid pods.
func containerRequests(pod *corev1.Pod, name corev1.ResourceName) resource.Quantity {
	var sum, sidecars, initMax resource.Quantity
	for i := range pod.Spec.Containers {
		if v, ok := pod.Spec.Containers[i].Resources.Requests[name]; ok {
			sum.Add(v)
		}
	}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		v := c.Resources.Requests[name]
		need := sidecars.DeepCopy()
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sum.Add(v)
			sidecars.Add(v)
			need = sidecars.DeepCopy()
		} else {
			need.Add(v)
		}
		if need.Cmp(initMax) > 0 {
			initMax = need
		}
	}
	if initMax.Cmp(sum) > 0 {
		return initMax
	}
	return sum
}
