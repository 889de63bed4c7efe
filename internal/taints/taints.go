package taints

import corev1 "k8s.io/api/core/v1"

// Tolerates reports whether t tolerates taint: an empty effect or key
// matches any, the empty operator means Equal, Exists ignores the value.
func Tolerates(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		return t.Value == taint.Value
	case corev1.TolerationOpExists:
		return true
	}
	return false
}

// ToleratesAny reports whether some toleration of ts tolerates taint
// (v1helper.TolerationsTolerateTaint).
func ToleratesAny(ts []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range ts {
		if Tolerates(&ts[i], taint) {
			return true
		}
	}
	return false
}

// Untolerated reports whether some NoSchedule or NoExecute taint of
// nodeTaints is tolerated by none of tolerations: whether
// v1helper.FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc
// finds one (TaintToleration's Filter, PodTopologySpread's nodeTaintsPolicy).
func Untolerated(nodeTaints []corev1.Taint, tolerations []corev1.Toleration) bool {
	for i := range nodeTaints {
		t := &nodeTaints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if !ToleratesAny(tolerations, t) {
			return true
		}
	}
	return false
}
