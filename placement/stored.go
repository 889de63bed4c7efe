package placement

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// StoredPod returns pod as the API server would store it on create, for
// what the scheduler reads (kube-scheduler only ever sees stored pods):
// an empty namespace becomes "default"; v1 defaulting (pkg/apis/core/v1
// SetObjectDefaults_Pod: a container's or the pod's request defaults to its
// limit, host-network ports become host ports, quantities are rounded up to
// milli precision); and the pod strategy's create mutations (matchLabelKeys
// and mismatchLabelKeys merged into their label selectors, each requirement
// once). When nothing the scheduler reads would change, as for every pod
// read from the API server, it returns pod itself without copying it;
// otherwise a changed deep copy. pod is never modified.
//
// Every entry point of this module that takes a pod applies it, so an
// undefaulted pod is answered as its stored copy; call it to see what they
// answer about. Priority from priority classes is the Priority admission
// plugin's step: preemption.PriorityClasses.Admit.
func StoredPod(pod *corev1.Pod) *corev1.Pod { return cluster.StoredPod(pod) }

// StoredNode returns node as the API server stores it: status.allocatable
// is status.capacity when unset, quantities rounded up to milli precision.
// It returns node itself when nothing would change; node is never modified.
func StoredNode(node *corev1.Node) *corev1.Node { return cluster.StoredNode(node) }

// storedPods is pods with each one StoredPod would change replaced by its
// stored copy: pods itself when none would change.
func storedPods(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for i, p := range pods {
		s := cluster.StoredPod(p)
		if s == p {
			continue
		}
		if out == nil {
			out = append([]*corev1.Pod(nil), pods...)
		}
		out[i] = s
	}
	if out == nil {
		return pods
	}
	return out
}
