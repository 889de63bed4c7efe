package cluster

import (
	"fmt"
	"maps"
	"slices"
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

// A NodeInfo that CopyInto fills again and again (preemption's dry run
// copies node after node into one) reuses its own scalar map: each copy
// equals a fresh one, whatever the copies before it took off, and no
// snapshot node changes.
func TestCopyIntoReusedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*corev1.Node
		var pods []*corev1.Pod
		for n := range 3 {
			node := &corev1.Node{}
			node.Name = fmt.Sprintf("n%d", n)
			node.Status.Allocatable = rl("cpu", "64", "example.com/gpu", "8", "example.com/fpga", "8")
			nodes = append(nodes, node)
			for i := range rapid.IntRange(0, 4).Draw(t, "pods") {
				// Nodes differ in which scalar resources their pods
				// request, so a copy must not keep the previous one's.
				name := rapid.SampledFrom([]string{"example.com/gpu", "example.com/fpga"}).Draw(t, "scalar")
				count := rapid.SampledFrom([]string{"0", "1", "2"}).Draw(t, "count")
				pods = append(pods, pod("ns", fmt.Sprintf("p%d-%d", n, i), node.Name, rl("cpu", "100m", name, count)))
			}
		}
		s, _, err := New(Input{Nodes: nodes, Pods: pods})
		require.NoError(t, err)
		var before []NodeInfo
		var scalars []map[corev1.ResourceName]int64
		for _, ni := range NodesOf(s) {
			before = append(before, *ni)
			scalars = append(scalars, maps.Clone(ni.Requested.Scalar))
		}
		var reused NodeInfo
		var buf []*PodInfo
		for range rapid.IntRange(1, 6).Draw(t, "copies") {
			src := NodesOf(s)[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
			buf = src.CopyInto(&reused, buf)
			var fresh NodeInfo
			src.CopyInto(&fresh, nil)
			require.Equal(t, fresh.Requested, reused.Requested)
			require.True(t, slices.Equal(fresh.Pods, reused.Pods), "pods")
			for _, pi := range slices.Clone(reused.Pods) {
				if rapid.Bool().Draw(t, "remove") {
					reused.RemovePodInPlace(pi)
				}
			}
		}
		for i, ni := range NodesOf(s) {
			require.Equal(t, before[i], *ni, "the snapshot's node is unchanged")
			require.Equal(t, scalars[i], ni.Requested.Scalar, "and its scalar map too")
		}
	})
}
