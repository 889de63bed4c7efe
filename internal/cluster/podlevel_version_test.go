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
			n, ok := NodeOf(snap, "n")
			require.True(t, ok)
			assert.Equal(t, tt.wantCPU, n.Requested.MilliCPU)
			assert.Equal(t, tt.wantMemGi<<30, n.Requested.Memory)

			view, err := snap.WithPod(resized("b"))
			require.NoError(t, err)
			vn, ok := NodeOf(view, "n")
			require.True(t, ok)
			assert.Equal(t, 2*tt.wantCPU, vn.Requested.MilliCPU, "WithPod keeps the snapshot's rule")
			assert.Equal(t, 2*tt.wantMemGi<<30, vn.Requested.Memory)
		})
	}
}

// TestPodRequestsPodLevelResize mirrors resourcehelper.PodRequests' pod-level
// branch (component-helpers/resource/helpers.go) for a bound pod
// (UseStatusResources) with InPlacePodLevelResourcesVerticalScalingEnabled
// on (v1.36) and off (WithoutPodLevelResize: v1.35; v1.34 has no such
// option and takes the spec).
func TestPodRequestsPodLevelResize(t *testing.T) {
	q := resource.MustParse
	rl := func(kv ...string) corev1.ResourceList {
		l := corev1.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			l[corev1.ResourceName(kv[i])] = q(kv[i+1])
		}
		return l
	}
	pod := func(spec corev1.ResourceList, status *corev1.ResourceRequirements, allocated corev1.ResourceList, infeasible bool) *corev1.Pod {
		p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "100m", "memory", "64Mi")}}}}}
		if spec != nil {
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: spec}
		}
		p.Status.Resources = status
		p.Status.AllocatedResources = allocated
		if infeasible {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible}}
		}
		return p
	}
	tests := []struct {
		name      string
		pod       *corev1.Pod
		old, v136 corev1.ResourceList
	}{
		{
			name: "no pod-level resources: the containers",
			pod:  pod(nil, nil, nil, false),
			old:  rl("cpu", "100m", "memory", "64Mi"), v136: rl("cpu", "100m", "memory", "64Mi"),
		},
		{
			name: "hugepages are a pod-level resource, ephemeral-storage is not",
			pod:  pod(rl("hugepages-2Mi", "4Mi", "ephemeral-storage", "1Gi"), nil, nil, false),
			old:  rl("cpu", "100m", "memory", "64Mi", "hugepages-2Mi", "4Mi"), v136: rl("cpu", "100m", "memory", "64Mi", "hugepages-2Mi", "4Mi"),
		},
		{
			name: "spec only",
			pod:  pod(rl("cpu", "1", "memory", "1Gi"), nil, nil, false),
			old:  rl("cpu", "1", "memory", "1Gi"), v136: rl("cpu", "1", "memory", "1Gi"),
		},
		{
			name: "resize in progress: the largest of spec, status and allocated from v1.36",
			pod:  pod(rl("cpu", "1", "memory", "1Gi"), &corev1.ResourceRequirements{Requests: rl("cpu", "2", "memory", "512Mi")}, rl("cpu", "1500m", "memory", "2Gi"), false),
			old:  rl("cpu", "1", "memory", "1Gi"), v136: rl("cpu", "2", "memory", "2Gi"),
		},
		{
			name: "infeasible resize ignores the spec",
			pod:  pod(rl("cpu", "4", "memory", "4Gi"), &corev1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi")}, rl("cpu", "1", "memory", "1Gi"), true),
			old:  rl("cpu", "4", "memory", "4Gi"), v136: rl("cpu", "1", "memory", "1Gi"),
		},
		{
			name: "infeasible resize with memory missing from the status counts zero memory",
			pod:  pod(rl("cpu", "4", "memory", "4Gi"), &corev1.ResourceRequirements{Requests: rl("cpu", "1")}, nil, true),
			old:  rl("cpu", "4", "memory", "4Gi"), v136: rl("cpu", "1", "memory", "0"),
		},
		{
			name: "status.resources unset: spec only, whatever allocatedResources says",
			pod:  pod(rl("cpu", "1"), nil, rl("cpu", "3"), false),
			old:  rl("cpu", "1", "memory", "64Mi"), v136: rl("cpu", "1", "memory", "64Mi"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.pod.DeepCopy()
			for _, without := range []bool{true, false} {
				want := tt.v136
				if without {
					want = tt.old
				}
				got := PodRequests(tt.pod, RequestOptions{UseStatusResources: true, WithoutPodLevelResize: without})
				require.Len(t, got, len(want), "without=%v: %v", without, got)
				for name, w := range want {
					g, ok := got[name]
					require.True(t, ok, "without=%v: %s missing", without, name)
					assert.Zero(t, w.Cmp(g), "without=%v: %s = %s, want %s", without, name, g.String(), w.String())
				}
			}
			assert.Equal(t, before, tt.pod, "the pod is not modified")
		})
	}
}
