package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestEligibility mirrors DefaultPreemption.PodEligibleToPreemptOthers with
// isPreemptionAllowed and podTerminatingByPreemption (v1.36): only a pod
// that the preemptor could itself evict (lower priority), that is being
// deleted, and that carries DisruptionTarget=True with reason
// PreemptionByScheduler, on the node the preemptor is nominated to, blocks a
// new preemption.
func TestEligibility(t *testing.T) {
	const blocked = "preemption: not eligible due to a terminating pod on the nominated node."
	now := metav1.NewTime(t0)
	terminating := func(name string, priority int32, cond *corev1.PodCondition) *corev1.Pod {
		p := mkPod(name, prio(priority), cpu(500))
		p.DeletionTimestamp = &now
		if cond != nil {
			p.Status.Conditions = []corev1.PodCondition{*cond}
		}
		return p
	}
	byScheduler := &corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: corev1.PodReasonPreemptionByScheduler}
	tests := []struct {
		name      string
		nominated string
		first     *corev1.Pod
		eligible  bool
	}{
		{"lower-priority pod terminating by preemption blocks", "a", terminating("v", 1, byScheduler), false},
		{"equal-priority terminating pod does not block", "a", terminating("v", 10, byScheduler), true},
		{"higher-priority terminating pod does not block", "a", terminating("v", 20, byScheduler), true},
		{"deleted without a DisruptionTarget condition does not block", "a", terminating("v", 1, nil), true},
		{"DisruptionTarget for another reason does not block", "a", terminating("v", 1,
			&corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: corev1.PodReasonTerminationByKubelet}), true},
		{"DisruptionTarget False does not block", "a", terminating("v", 1,
			&corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionFalse, Reason: corev1.PodReasonPreemptionByScheduler}), true},
		{"condition without deletion does not block", "a", func() *corev1.Pod {
			p := terminating("v", 1, byScheduler)
			p.DeletionTimestamp = nil
			return p
		}(), true},
		{"no nominated node", "", terminating("v", 1, byScheduler), true},
		{"nominated to a node that is not in the snapshot", "gone", terminating("v", 1, byScheduler), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mkPod("p", prio(10))
			p.Status.NominatedNodeName = tt.nominated
			// A second, ordinary lower-priority pod keeps a victim available
			// whatever happens to the first.
			node := fakeNode{name: "a", code: sched.Unschedulable, capacity: 1000,
				pods: []*corev1.Pod{tt.first, mkPod("w", prio(1), cpu(500))}}
			r := runFake(p, 500, []fakeNode{node}, nil, Options{})
			if tt.eligible {
				assert.NotEqual(t, blocked, r.Message())
				assert.Equal(t, "a", r.NominatedNode)
			} else {
				assert.Equal(t, blocked, r.Message())
				assert.Empty(t, r.NominatedNode)
			}
		})
	}
}
