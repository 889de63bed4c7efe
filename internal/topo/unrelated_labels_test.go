package topo

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// TestUnrelatedLabels is the metamorphic property for the topology
// plugins: labels that no selector, topology key or term mentions, added to
// nodes, bound pods and the incoming pod, change no filter verdict and no
// score of PodTopologySpread or InterPodAffinity.
func TestUnrelatedLabels(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		want := verdicts(t, snap, pod)

		key := "unrelated.example.com/" + rapid.SampledFrom([]string{"a", "b"}).Draw(t, "key")
		value := func() string { return rapid.SampledFrom([]string{"x", "y", ""}).Draw(t, "value") }
		var nodes []*corev1.Node
		for _, n := range w.nodes {
			c := n.DeepCopy()
			c.Labels[key] = value()
			nodes = append(nodes, c)
		}
		var pods []*corev1.Pod
		for _, p := range w.pods {
			c := p.DeepCopy()
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			c.Labels[key] = value()
			pods = append(pods, c)
		}
		incoming := pod.DeepCopy()
		if incoming.Labels == nil {
			incoming.Labels = map[string]string{}
		}
		incoming.Labels[key] = value()
		snap2, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: pods})
		require.NoError(t, err)
		require.Equal(t, want, verdicts(t, snap2, incoming))
	})
}
