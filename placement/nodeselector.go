package placement

import (
	corev1 "k8s.io/api/core/v1"
)

// The NodeAffinity plugin's compiled selectors (internal/nodeaffinity) are
// shared with topology's node inclusion policy, and toleration matching
// (internal/taints) with topology and eviction.

// labelPair is one pod.spec.nodeSelector entry: the node must have the key
// with exactly that value (labels.SelectorFromSet, no validation).
type labelPair struct{ key, value string }

func matchesPairs(pairs []labelPair, n *corev1.Node) bool {
	for _, kv := range pairs {
		v, ok := n.Labels[kv.key]
		if !ok || v != kv.value {
			return false
		}
	}
	return true
}

// tolerates is corev1.Toleration.ToleratesTaint with the
// TaintTolerationComparisonOperators gate off (alpha in v1.36): Lt and Gt
// never match.
func tolerates(t *corev1.Toleration, taint *corev1.Taint) bool {
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

func toleratesAny(ts []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range ts {
		if tolerates(&ts[i], taint) {
			return true
		}
	}
	return false
}
