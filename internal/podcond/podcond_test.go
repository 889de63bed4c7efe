package podcond

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSet mirrors UpdatePodCondition: same status keeps the old transition
// time, a new status takes the new one, a new type is appended.
func TestSet(t *testing.T) {
	t0, t1 := metav1.NewTime(time.Unix(100, 0)), metav1.NewTime(time.Unix(200, 0))
	st := &corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}}}

	Set(st, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, Reason: "r", LastTransitionTime: t1})
	assert.Equal(t, []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, Reason: "r", LastTransitionTime: t0}}, st.Conditions)

	Set(st, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: t1})
	assert.Equal(t, t1, st.Conditions[0].LastTransitionTime)

	Set(st, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, LastTransitionTime: t1})
	assert.Len(t, st.Conditions, 2)
	assert.Equal(t, corev1.DisruptionTarget, st.Conditions[1].Type)
}
