package deletion

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func bound(grace *int64) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1", ResourceVersion: "7"},
		Spec:       corev1.PodSpec{NodeName: "n1", TerminationGracePeriodSeconds: grace},
	}
}

func ptr(v int64) *int64 { return &v }

// TestGracePeriod: the one difference between the callers is how an unset
// terminationGracePeriodSeconds reads; everything else is the same rule.
func TestGracePeriod(t *testing.T) {
	tests := []struct {
		name         string
		pod          *corev1.Pod
		opts         metav1.DeleteOptions
		stored, dflt int64
	}{
		{name: "unset on the pod", pod: bound(nil), stored: 0, dflt: 30},
		{name: "the pod's own", pod: bound(ptr(12)), stored: 12, dflt: 12},
		{name: "the request's wins", pod: bound(nil), opts: metav1.DeleteOptions{GracePeriodSeconds: ptr(5)}, stored: 5, dflt: 5},
		{name: "negative becomes 1", pod: bound(ptr(-3)), stored: 1, dflt: 1},
		{name: "unbound is immediate", pod: &corev1.Pod{}, stored: 0, dflt: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.stored, GracePeriod(tt.pod, &tt.opts, UnsetGraceStored))
			assert.Equal(t, tt.dflt, GracePeriod(tt.pod, &tt.opts, UnsetGraceAPIDefault))
		})
	}
}

// TestBeforeDelete: a first delete sets the deadline, a later one only
// shortens it, and failed preconditions are 409 Conflicts naming "Pod".
func TestBeforeDelete(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := bound(nil)
	opts := &metav1.DeleteOptions{}
	graceful, pending, err := BeforeDelete(pod, opts, now, UnsetGraceAPIDefault)
	require.NoError(t, err)
	assert.True(t, graceful)
	assert.False(t, pending)
	assert.Equal(t, now.Add(30*time.Second), pod.DeletionTimestamp.Time)
	assert.Equal(t, int64(30), *opts.GracePeriodSeconds)

	graceful, pending, err = BeforeDelete(pod, &metav1.DeleteOptions{GracePeriodSeconds: ptr(40)}, now, UnsetGraceAPIDefault)
	require.NoError(t, err)
	assert.False(t, graceful)
	assert.True(t, pending, "a longer period changes nothing")

	graceful, _, err = BeforeDelete(pod, &metav1.DeleteOptions{GracePeriodSeconds: ptr(10)}, now, UnsetGraceAPIDefault)
	require.NoError(t, err)
	assert.True(t, graceful)
	assert.Equal(t, now.Add(10*time.Second), pod.DeletionTimestamp.Time)

	uid := types.UID("other")
	_, _, err = BeforeDelete(bound(nil), &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}}, now, UnsetGraceStored)
	require.True(t, apierrors.IsConflict(err))
	assert.Equal(t, `Operation cannot be fulfilled on Pod "p": the UID in the precondition (other) does not match the UID in record (u1). The object might have been deleted and then recreated`, err.Error())
}
