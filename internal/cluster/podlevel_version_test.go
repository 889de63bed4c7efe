package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestWithoutPodLevelResize mirrors framework.PodInfo.CalculateResource with
// InPlacePodLevelResourcesVerticalScaling on (v1.36: pod-level requests are
// the larger of spec, status.resources and status.allocatedResources) and off
// (v1.34, v1.35: spec only), for a snapshot and for a view made with WithPod.
func TestWithoutPodLevelResize(t *testing.T) {
	q := resource.MustParse
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: corev1.NodeStatus{
		Allocatable: corev1.ResourceList{corev1.ResourceCPU: q("8"), corev1.ResourceMemory: q("8Gi"), corev1.ResourcePods: q("110")}}}
	resized := func(name string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: corev1.PodSpec{NodeName: "n", Containers: []corev1.Container{{Name: "c"}},
				Resources: &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: q("1"), corev1.ResourceMemory: q("1Gi")}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning,
				Resources:          &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: q("3"), corev1.ResourceMemory: q("1Gi")}},
				AllocatedResources: corev1.ResourceList{corev1.ResourceCPU: q("3"), corev1.ResourceMemory: q("2Gi")}},
		}
	}
	tests := []struct {
		name      string
		without   bool
		wantCPU   int64
		wantMemGi int64
	}{
		{name: "v1.36: status counts", without: false, wantCPU: 3000, wantMemGi: 2},
		{name: "v1.34/v1.35: spec only", without: true, wantCPU: 1000, wantMemGi: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, warnings, err := New(Input{Nodes: []*corev1.Node{node}, Pods: []*corev1.Pod{resized("a")}, WithoutPodLevelResize: tt.without})
			require.NoError(t, err)
			require.Empty(t, warnings)
			n, ok := snap.Node("n")
			require.True(t, ok)
			assert.Equal(t, tt.wantCPU, n.Requested.MilliCPU)
			assert.Equal(t, tt.wantMemGi<<30, n.Requested.Memory)

			view, err := snap.WithPod(resized("b"))
			require.NoError(t, err)
			vn, ok := view.Node("n")
			require.True(t, ok)
			assert.Equal(t, 2*tt.wantCPU, vn.Requested.MilliCPU, "WithPod keeps the snapshot's rule")
			assert.Equal(t, 2*tt.wantMemGi<<30, vn.Requested.Memory)
		})
	}
}
