package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
)

// TestSortQueueTies mirrors queuesort.PrioritySort.Less: equal priority and
// timestamp keep the input order (schedkit's documented rule for upstream's
// heap order), not the name order; a negative priority sorts after 0.
func TestSortQueueTies(t *testing.T) {
	tests := []struct {
		name string
		in   []*corev1.Pod
		want []string
	}{
		{"ties keep the input order, names descending",
			[]*corev1.Pod{mkPod("z", prio(5), created(3)), mkPod("a", prio(5), created(3))}, []string{"z", "a"}},
		{"ties keep the input order, names ascending",
			[]*corev1.Pod{mkPod("a", prio(5), created(3)), mkPod("z", prio(5), created(3))}, []string{"a", "z"}},
		{"earlier timestamp first within a priority",
			[]*corev1.Pod{mkPod("a", prio(5), created(4)), mkPod("z", prio(5), created(3))}, []string{"z", "a"}},
		{"negative priority after unset (0)",
			[]*corev1.Pod{mkPod("neg", prio(-1), created(0)), mkPod("unset", created(9))}, []string{"unset", "neg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, names(SortQueue(tt.in)))
		})
	}
}
