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
