package placement_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
)

// undefaulted is p as a user might write it: requests only as limits, no
// namespace for a default-namespace pod, matchLabelKeys instead of the
// merged requirement.
func undefaulted(t *rapid.T, p *corev1.Pod) *corev1.Pod {
	u := p.DeepCopy()
	for i := range u.Spec.Containers {
		r := &u.Spec.Containers[i].Resources
		if rapid.Bool().Draw(t, "limits only") {
			r.Limits, r.Requests = r.Requests, nil
		}
	}
	if u.Namespace == "default" && rapid.Bool().Draw(t, "no namespace") {
		u.Namespace = ""
	}
	for i := range u.Spec.TopologySpreadConstraints {
		if rapid.Bool().Draw(t, "matchLabelKeys") {
			u.Spec.TopologySpreadConstraints[i].MatchLabelKeys = []string{"app"}
		}
	}
	return u
}

// TestUndefaultedPodsAnswerAsStored: Evaluate, Compile, the queue and a
// snapshot's bound pods answer an undefaulted pod exactly as its stored
// copy (StoredPod), which they do not copy when it needs nothing.
func TestUndefaultedPodsAnswerAsStored(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 5, MaxPods: 10}).Draw(t, "cluster")
		var bound []*corev1.Pod
		for _, p := range c.Pods {
			bound = append(bound, undefaulted(t, p))
		}
		in := c.SnapshotInput()
		stored := make([]*corev1.Pod, len(bound))
		for i, p := range bound {
			stored[i] = placement.StoredPod(p)
		}
		in.Pods = bound
		snapU, _, err := placement.NewSnapshot(in)
		require.NoError(t, err)
		in.Pods = stored
		snapS, _, err := placement.NewSnapshot(in)
		require.NoError(t, err)
		for _, p := range c.Pending {
			u := undefaulted(t, p)
			before := u.DeepCopy()
			s := placement.StoredPod(u)
			require.True(t, equality.Semantic.DeepEqual(before, u), "StoredPod modified its argument")
			require.Same(t, s, placement.StoredPod(s), "a stored pod is returned as is")
			want, err := placement.Evaluate(snapS, s, placement.Options{})
			require.NoError(t, err)
			got, err := placement.Evaluate(snapU, u, placement.Options{})
			require.NoError(t, err)
			require.Equal(t, want, got)
		}
		var pendingU, pendingS []*corev1.Pod
		for _, p := range c.Pending {
			u := undefaulted(t, p)
			pendingU, pendingS = append(pendingU, u), append(pendingS, placement.StoredPod(u))
		}
		want, err := preemption.ScheduleQueue(snapS, pendingS, preemption.QueueOptions{})
		require.NoError(t, err)
		got, err := preemption.ScheduleQueue(snapU, pendingU, preemption.QueueOptions{})
		require.NoError(t, err)
		want.Final, got.Final = nil, nil
		require.Equal(t, want, got)
	})
}

// A template with limits only: the API server defaults its requests, so a
// 2-cpu limit does not fit a 1-cpu node.
func ExampleStoredPod() {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}}}
	stored := placement.StoredPod(pod)
	cpu := stored.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
	fmt.Println(stored.Namespace, cpu.String(), placement.StoredPod(stored) == stored)
	// Output: default 2 true
}
