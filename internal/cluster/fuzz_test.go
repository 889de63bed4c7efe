package cluster

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// FuzzNew feeds New arbitrary nodes and pods (decoded from JSON): it must
// never panic, and a snapshot it returns must be internally consistent.
func FuzzNew(f *testing.F) {
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1","pods":"3"}}}],
		"pods":[{"metadata":{"name":"p","namespace":"d"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}],
		"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"k","labelSelector":{"matchLabels":{"a":"b"}}}]}}}}]}`))
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"n1"}},{"metadata":{"name":"n1"}}],"pods":[{"metadata":{"name":""}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Nodes []*corev1.Node `json:"nodes"`
			Pods  []*corev1.Pod  `json:"pods"`
		}
		if json.Unmarshal(data, &in) != nil {
			return
		}
		snap, _, err := New(Input{Nodes: in.Nodes, Pods: in.Pods})
		if err != nil {
			return
		}
		for i, n := range NodesOf(snap) {
			if n.Index != i || (i > 0 && NodesOf(snap)[i-1].Name >= n.Name) {
				t.Fatalf("nodes out of order at %d", i)
			}
			for _, p := range n.Pods {
				if _, got, ok := PodOf(snap, p.Key); !ok || got != n {
					t.Fatalf("pod %s not found on its node", p.Key)
				}
				_ = snap.WithoutPods(p.Key)
			}
		}
	})
}
