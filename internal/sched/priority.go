package sched

import corev1 "k8s.io/api/core/v1"

// PodPriority is k8s.io/component-helpers scheduling/corev1's PodPriority,
// written once for every package that orders or compares pods by priority:
// spec.priority, or 0 when unset (and for a nil pod, on which upstream's
// panics).
func PodPriority(pod *corev1.Pod) int32 {
	if pod != nil && pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// Priority constants of the scheduling API (pkg/apis/scheduling/types.go,
// v1.36), written once: preemption exports them, the scenario normalizer's
// built-in classes use them.
const (
	// HighestUserDefinablePriority is the largest value a PriorityClass
	// without the system- prefix may have.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the value of system-cluster-critical.
	SystemCriticalPriority = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix is reserved for the built-in classes.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical and SystemNodeCritical are the built-in classes
	// every cluster has; system-node-critical's value is
	// SystemCriticalPriority + 1000.
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
	SystemNodeCritical    = SystemPriorityClassPrefix + "node-critical"
)
