package testbuild

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Labels returns the map of the key/value pairs kv (k1, v1, k2, v2, ...); a
// trailing odd key is ignored. It is never nil, also for no pairs.
func Labels(kv ...string) map[string]string {
	return AddLabels(make(map[string]string, len(kv)/2), kv...)
}

// AddLabels sets the key/value pairs kv in m and returns m.
func AddLabels(m map[string]string, kv ...string) map[string]string {
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// Selector returns a label selector whose matchLabels are the pairs kv.
func Selector(kv ...string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: Labels(kv...)}
}

// Resources returns the resource list of the name/quantity pairs kv, such as
// Resources("cpu", "500m", "memory", "1Gi"). It panics on an unparsable
// quantity: the pairs are test literals.
func Resources(kv ...string) corev1.ResourceList {
	out := make(corev1.ResourceList, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}
