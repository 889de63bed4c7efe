package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestScoringStrategies mirrors noderesources leastResourceScorer,
// mostResourceScorer and requestedToCapacityRatioScorer (with
// helper.BuildBrokenLinearFunction) as of v1.36. Unlike TestResourceScores the
// node is unevenly used (cpu 3/4, memory 3Gi/8Gi after the pod), so swapping
// strategies, ignoring weights, truncating instead of rounding, or counting a
// zero RequestedToCapacityRatio resource in the weight sum each changes the
// answer. The default-profile row is upstream's answer (oracle, filter-score,
// node "a": NodeResourcesFit 43, BalancedAllocation 69; node "b": 75, 75).
func TestScoringStrategies(t *testing.T) {
	nodes := []*corev1.Node{mkNode("a", "4", "8Gi"), mkNode("b", "8", "8Gi")}
	bound := []*corev1.Pod{mkPod("b1", onNode("a"), requests("cpu", "1", "memory", "1Gi"))}
	pod := mkPod("p", requests("cpu", "2", "memory", "2Gi"))
	cpu3mem1 := []ResourceSpec{{Name: corev1.ResourceCPU, Weight: 3}, {Name: corev1.ResourceMemory, Weight: 1}}
	shape := func(pts ...int32) []UtilizationShapePoint {
		var out []UtilizationShapePoint
		for i := 0; i+1 < len(pts); i += 2 {
			out = append(out, UtilizationShapePoint{Utilization: pts[i], Score: pts[i+1]})
		}
		return out
	}
	tests := []struct {
		name     string
		strategy ScoringStrategy
		wantA    int64 // raw NodeResourcesFit on node a
	}{
		// cpu (4000-3000)*100/4000 = 25, memory (8Gi-3Gi)*100/8Gi = 62; (25+62)/2.
		{"LeastAllocated default (upstream: 43)", ScoringStrategy{}, 43},
		{"LeastAllocated weighted cpu 3 memory 1", ScoringStrategy{Type: LeastAllocated, Resources: cpu3mem1}, (25*3 + 62) / 4},
		{"LeastAllocated memory only", ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{Name: corev1.ResourceMemory, Weight: 1}}}, 62},
		// cpu 75, memory 3Gi*100/8Gi = 37.
		{"MostAllocated", ScoringStrategy{Type: MostAllocated}, (75 + 37) / 2},
		{"MostAllocated weighted cpu 3 memory 1", ScoringStrategy{Type: MostAllocated, Resources: cpu3mem1}, (75*3 + 37) / 4},
		// Shape scores are scaled by 100/10; the mean is rounded: 112/2 = 56.
		{"RequestedToCapacityRatio increasing", ScoringStrategy{Type: RequestedToCapacityRatio, Shape: shape(0, 0, 100, 10)}, 56},
		// cpu 100-75 = 25, memory 100-37 = 63; 88/2 = 44.
		{"RequestedToCapacityRatio decreasing", ScoringStrategy{Type: RequestedToCapacityRatio, Shape: shape(0, 10, 100, 0)}, 44},
		// memory 37 lies on the flat 0 segment and, scoring 0, leaves the
		// weight sum; cpu 75 -> 100*(75-50)/50 = 50.
		{"RequestedToCapacityRatio zero score leaves the weight sum", ScoringStrategy{Type: RequestedToCapacityRatio, Shape: shape(0, 0, 50, 0, 100, 10)}, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scoresOf(t, nodes[:1], bound, pod, Options{ScoringStrategy: tt.strategy})
			assert.Equal(t, [2]int64{tt.wantA, tt.wantA}, got["a"][sched.NodeResourcesFit])
		})
	}
	t.Run("default profile on two nodes matches upstream", func(t *testing.T) {
		got, r := scoresOf(t, nodes, bound, pod, Options{})
		assert.Equal(t, [2]int64{43, 43}, got["a"][sched.NodeResourcesFit])
		assert.Equal(t, [2]int64{69, 69}, got["a"][sched.NodeResourcesBalancedAllocation])
		assert.Equal(t, [2]int64{75, 75}, got["b"][sched.NodeResourcesFit])
		assert.Equal(t, [2]int64{75, 75}, got["b"][sched.NodeResourcesBalancedAllocation])
		assert.Equal(t, []string{"b"}, r.BestNodes)
	})
}
