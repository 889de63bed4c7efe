// Package podcond is pkg/api/v1/pod's UpdatePodCondition (v1.36), written
// once for every package that writes a pod condition (the Eviction API's and
// the kubelet's DisruptionTarget, the pod garbage collector's).
package podcond

import corev1 "k8s.io/api/core/v1"

// Set writes c into st as UpdatePodCondition does: it replaces the condition
// of the same type, keeping that condition's lastTransitionTime when the
// status is unchanged, or appends c. The caller sets c.LastTransitionTime to
// its clock (upstream: metav1.Now()). st is modified.
func Set(st *corev1.PodStatus, c corev1.PodCondition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			if st.Conditions[i].Status == c.Status {
				c.LastTransitionTime = st.Conditions[i].LastTransitionTime
			}
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}
