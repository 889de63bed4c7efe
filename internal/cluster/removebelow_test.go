package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"
)

// RemoveBelowInPlace leaves a node copy as RemovePodInPlace of each pod
// below the priority does, in any order, and leaves the snapshot's node as
// it was.
func TestRemoveBelowInPlaceProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		node := &corev1.Node{}
		node.Name = "n"
		node.Status.Allocatable = rl("cpu", "64", "memory", "64Gi", "example.com/gpu", "8")
		var pods []*corev1.Pod
		for i := range rapid.IntRange(0, 8).Draw(t, "pods") {
			p := pod("ns", fmt.Sprintf("p%d", i), "n", rl("cpu", "100m", "example.com/gpu", rapid.SampledFrom([]string{"0", "1"}).Draw(t, "gpu")))
			prio := rapid.Int32Range(0, 3).Draw(t, "priority")
			p.Spec.Priority = &prio
			if rapid.Bool().Draw(t, "port") {
				p.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: rapid.Int32Range(80, 82).Draw(t, "hostPort"), ContainerPort: 80}}
			}
			switch rapid.IntRange(0, 2).Draw(t, "affinity") {
			case 1:
				p.Spec.Affinity = antiAffinity("app", "a", "zone")
			case 2:
				anti := antiAffinity("app", "a", "zone").PodAntiAffinity
				p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution:  anti.RequiredDuringSchedulingIgnoredDuringExecution,
					PreferredDuringSchedulingIgnoredDuringExecution: anti.PreferredDuringSchedulingIgnoredDuringExecution,
				}}
			}
			pods = append(pods, p)
		}
		s, _, err := New(Input{Nodes: []*corev1.Node{node}, Pods: pods})
		require.NoError(t, err)
		src := NodesOf(s)[0]
		before := *src
		below := rapid.Int32Range(0, 4).Draw(t, "below")

		var one, bulk NodeInfo
		src.CopyInto(&one, nil)
		var victims []*PodInfo
		for _, pi := range src.Pods {
			if pi.Priority < below {
				victims = append(victims, pi)
			}
		}
		for _, i := range rapid.Permutation(rangeOf(len(victims))).Draw(t, "order") {
			require.True(t, one.RemovePodInPlace(victims[i]))
		}
		src.CopyInto(&bulk, nil)
		bulk.RemoveBelowInPlace(below)

		require.Equal(t, one.Pods, bulk.Pods)
		require.Equal(t, one.PodsWithAffinity, bulk.PodsWithAffinity)
		require.Equal(t, one.PodsWithRequiredAntiAffinity, bulk.PodsWithRequiredAntiAffinity)
		require.Equal(t, one.Requested, bulk.Requested)
		require.Equal(t, one.NonZeroRequested, bulk.NonZeroRequested)
		require.Equal(t, one.UsedPorts, bulk.UsedPorts)
		require.Equal(t, before, *src, "the snapshot's node is unchanged")
	})
}

func rangeOf(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
