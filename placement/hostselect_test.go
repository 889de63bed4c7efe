package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// TestHostSelection mirrors schedulerImpl.selectHost (schedule_one.go,
// v1.36) with schedkit's documented rule for ties: upstream picks at random
// among the nodes with the top total (reservoir sampling); schedkit takes
// the lowest node name, whatever the input order.
func TestHostSelection(t *testing.T) {
	tests := []struct {
		name     string
		nodes    []*corev1.Node
		pod      *corev1.Pod
		wantNode string
		wantBest []string
	}{
		{"identical nodes in reverse input order: lowest name",
			[]*corev1.Node{mkNode("c", "4", "8Gi"), mkNode("b", "4", "8Gi"), mkNode("a", "4", "8Gi")},
			mkPod("p", requests("cpu", "1")), "a", []string{"a", "b", "c"}},
		{"the higher total wins over a lower name",
			[]*corev1.Node{mkNode("a", "4", "8Gi"), mkNode("z", "8", "16Gi")},
			mkPod("p", requests("cpu", "1", "memory", "1Gi")), "z", []string{"z"}},
		{"an infeasible lower name is never chosen",
			[]*corev1.Node{mkNode("a", "4", "8Gi", withTaint("k", "", corev1.TaintEffectNoSchedule)), mkNode("b", "4", "8Gi")},
			mkPod("p"), "b", []string{"b"}},
		{"no feasible node: empty",
			[]*corev1.Node{mkNode("a", "1", "1Gi")},
			mkPod("p", requests("cpu", "2")), "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshotOf(t, tt.nodes)
			c, err := Compile(snap, tt.pod, Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.wantNode, c.Schedule().Node)
			r, err := Evaluate(snap, tt.pod, Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.wantBest, r.BestNodes)
		})
	}
}
