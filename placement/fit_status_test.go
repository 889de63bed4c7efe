package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestFitStatusCode mirrors noderesources fitsRequest and Fit.Filter
// (v1.36): the pod count comes first and is never unresolvable; a shortfall
// is unresolvable when the request exceeds the node's allocatable outright,
// and one unresolvable shortfall makes the whole status
// UnschedulableAndUnresolvable.
func TestFitStatusCode(t *testing.T) {
	bound := func(opts ...podOpt) []*corev1.Pod {
		return []*corev1.Pod{mkPod("b", append([]podOpt{onNode("n1")}, opts...)...)}
	}
	tests := []struct {
		name  string
		nodes []*corev1.Node
		bound []*corev1.Pod
		pod   *corev1.Pod
		want  string
	}{
		{"no pod slots at all is still resolvable", n1(withAllocatable(corev1.ResourcePods, "0")), nil, mkPod("p"),
			"Unschedulable: Too many pods"},
		{"pod count before cpu", n1(withAllocatable(corev1.ResourcePods, "1")), bound(requests("cpu", "3")), mkPod("p", requests("cpu", "2")),
			"Unschedulable: Too many pods, Insufficient cpu"},
		{"one unresolvable shortfall makes the status unresolvable", n1(), bound(requests("cpu", "3")),
			mkPod("p", requests("cpu", "2", "memory", "9Gi")), "UnschedulableAndUnresolvable: Insufficient cpu, Insufficient memory"},
		{"exactly the allocatable is resolvable", n1(), bound(requests("cpu", "1")), mkPod("p", requests("cpu", "4")),
			"Unschedulable: Insufficient cpu"},
		{"extended resource used by others is resolvable", n1(withAllocatable("example.com/gpu", "2")), bound(requests("example.com/gpu", "1")),
			mkPod("p", requests("example.com/gpu", "2")), "Unschedulable: Insufficient example.com/gpu"},
		{"extended resource the node lacks is unresolvable", n1(), nil, mkPod("p", requests("example.com/gpu", "1")),
			"UnschedulableAndUnresolvable: Insufficient example.com/gpu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.NodeResourcesFit, tt.nodes, tt.bound, tt.pod, Options{}))
		})
	}
}
