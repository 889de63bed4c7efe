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
