package placement

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
)

func BenchmarkBalancedAllocationScore(b *testing.B) {
	withPod, alloc, allocatable := []int64{4250, 30333206528}, []int64{1000, 268435456}, []int64{16000, 33822867456}
	for _, v := range Versions() {
		b.Run(v.String(), func(b *testing.B) {
			b.ReportAllocs()
			var sink int64
			for b.Loop() {
				sink += balancedAllocationScore(v, withPod, alloc, allocatable)
			}
			_ = sink
		})
	}
}

// BenchmarkEvaluateVersion evaluates one pod on 1000 nodes with 10 pods
// each under every version profile: the older rules cost nothing extra.
func BenchmarkEvaluateVersion(b *testing.B) {
	var nodes []*corev1.Node
	var pods []*corev1.Pod
	for i := range 1000 {
		name := fmt.Sprintf("node-%04d", i)
		nodes = append(nodes, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name, corev1.LabelTopologyZone: fmt.Sprintf("z%d", i%3)}},
			Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: verQuantity("32"), corev1.ResourceMemory: verQuantity("128Gi"), corev1.ResourcePods: verQuantity("110")},
				Images: []corev1.ContainerImage{{Names: []string{"registry.example.com/app:1"}, SizeBytes: 300 << 20}}},
		})
		for j := range 10 {
			p := verScenarioPod(fmt.Sprintf("p-%04d-%d", i, j), name, "registry.example.com/app:1", "250m", fmt.Sprintf("%dMi", 256*(1+j%4)))
			p.UID = types.UID(p.Name)
			pods = append(pods, p)
		}
	}
	pod := verScenarioPod("incoming", "", "registry.example.com/app:1", "500m", "1Gi")
	pod.Spec.Volumes = []corev1.Volume{{Name: "m", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry.example.com/model:v3"}}}}
	for _, v := range Versions() {
		b.Run(v.String(), func(b *testing.B) {
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods, WithoutPodLevelResize: !v.UsesPodLevelResizeStatus()})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Evaluate(snap, pod, Options{Version: v}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
