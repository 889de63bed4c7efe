package sched

import corev1 "k8s.io/api/core/v1"

// PodPriority is k8s.io/component-helpers scheduling/corev1's PodPriority,
// written once for every package that orders or compares pods by priority:
// spec.priority, or 0 when unset.
func PodPriority(pod *corev1.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}
