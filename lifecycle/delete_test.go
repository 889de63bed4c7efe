package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/lifecycle"
)

// TestGracePeriod mirrors pkg/registry/core/pod podStrategy.CheckGracefulDelete.
func TestGracePeriod(t *testing.T) {
	base := pod(always).ctrs(ctr("a")).pod()
	with := func(f func(p *corev1.Pod)) *corev1.Pod { p := base.DeepCopy(); f(p); return p }
	tests := []struct {
		name     string
		pod      *corev1.Pod
		opts     *metav1.DeleteOptions
		graceful bool
		want     int64
	}{
		{"nil options are not graceful", base, nil, false, 0},
		{"request value wins", with(func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr[int64](5) }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](60)}, true, 60},
		{"else terminationGracePeriodSeconds", with(func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr[int64](5) }), &metav1.DeleteOptions{}, true, 5},
		{"unset terminationGracePeriodSeconds is 30", base, &metav1.DeleteOptions{}, true, 30},
		{"unscheduled pod is deleted at once", with(func(p *corev1.Pod) { p.Spec.NodeName = "" }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](60)}, true, 0},
		{"succeeded pod is deleted at once", with(func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }), &metav1.DeleteOptions{}, true, 0},
		{"failed pod is deleted at once", with(func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](3600)}, true, 0},
		{"negative becomes 1", base, &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](-5)}, true, 1},
		{"negative terminationGracePeriodSeconds becomes 1", with(func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr[int64](-2) }), &metav1.DeleteOptions{}, true, 1},
		{"zero is a force deletion", base, &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)}, true, 0},
		{"a negative request on a terminal pod is 0, not 1", with(func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](-5)}, true, 0},
		{"a negative request on an unscheduled pod is 0, not 1", with(func(p *corev1.Pod) { p.Spec.NodeName = "" }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](-5)}, true, 0},
		{"a bound Pending pod keeps its grace", with(func(p *corev1.Pod) { p.Status.Phase = corev1.PodPending }), &metav1.DeleteOptions{}, true, 30},
		{"an Unknown pod keeps its grace", with(func(p *corev1.Pod) { p.Status.Phase = corev1.PodUnknown }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](7)}, true, 7},
		{"a request of 0 wins over terminationGracePeriodSeconds", with(func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr[int64](600) }), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, s, err := lifecycle.GracePeriod(tt.pod, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.graceful, g)
			assert.Equal(t, tt.want, s)
		})
	}
}

// TestDelete mirrors k8s.io/apiserver rest.BeforeDelete with the pod
// strategy and the generic store's finalizer handling (Store.Delete,
// markAsDeleting).
func TestDelete(t *testing.T) {
	base := pod(always).ctrs(ctr("a")).pod()
	terminating := func(deadline time.Time, grace *int64) *corev1.Pod {
		p := base.DeepCopy()
		ts := metav1.NewTime(deadline)
		p.DeletionTimestamp = &ts
		p.DeletionGracePeriodSeconds = grace
		return p
	}
	withFinalizer := base.DeepCopy()
	withFinalizer.Finalizers = []string{"example.com/keep"}
	at := func(d time.Duration) *metav1.Time { ts := metav1.NewTime(t0.Add(d)); return &ts }
	type want struct {
		graceful, pending, removed bool
		opts                       *int64
		deadline                   *metav1.Time
		grace                      *int64
		generation                 int64
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		opts *metav1.DeleteOptions
		want want
	}{
		{"first graceful delete sets the deadline and bumps generation", base, &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](60)},
			want{graceful: true, opts: ptr[int64](60), deadline: at(time.Minute), grace: ptr[int64](60), generation: 2}},
		{"no body uses the pod's grace period", base, nil, want{graceful: true, opts: ptr[int64](30), deadline: at(30 * time.Second), grace: ptr[int64](30), generation: 2}},
		{"grace 0 removes the object", base, &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)},
			want{graceful: true, removed: true, opts: ptr[int64](0), deadline: at(0), grace: ptr[int64](0), generation: 2}},
		{"finalizers keep a force-deleted object", withFinalizer, &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)},
			want{graceful: true, opts: ptr[int64](0), deadline: at(0), grace: ptr[int64](0), generation: 2}},
		{"a second delete may shorten the deadline", terminating(t0.Add(20*time.Second), ptr[int64](30)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](10)},
			want{graceful: true, opts: ptr[int64](10), deadline: at(0), grace: ptr[int64](10), generation: 1}},
		{"shortening never moves the deadline before now; graceful keeps 1 s", terminating(t0.Add(5*time.Second), ptr[int64](30)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](10)},
			want{graceful: true, opts: ptr[int64](10), deadline: at(0), grace: ptr[int64](1), generation: 1}},
		{"shortening an expired deadline moves it to now, later than before (found by rapid)", terminating(t0.Add(-time.Second), ptr[int64](30)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](-1)},
			want{graceful: true, opts: ptr[int64](1), deadline: at(0), grace: ptr[int64](1), generation: 1}},
		{"shortening to 0 removes", terminating(t0.Add(5*time.Second), ptr[int64](30)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)},
			want{graceful: true, removed: true, opts: ptr[int64](0), deadline: at(0), grace: ptr[int64](0), generation: 1}},
		{"a longer grace period changes nothing", terminating(t0.Add(5*time.Second), ptr[int64](30)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](100)},
			want{pending: true, opts: ptr[int64](100), deadline: at(5 * time.Second), grace: ptr[int64](30), generation: 1}},
		{"no grace period while pending reports the pending one", terminating(t0.Add(5*time.Second), ptr[int64](30)), &metav1.DeleteOptions{},
			want{pending: true, opts: ptr[int64](30), deadline: at(5 * time.Second), grace: ptr[int64](30), generation: 1}},
		{"pending deletion with grace 0 is finished at once", terminating(t0.Add(-time.Second), ptr[int64](0)), &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](10)},
			want{removed: true, opts: ptr[int64](10), deadline: at(-time.Second), grace: ptr[int64](0), generation: 1}},
		{"negative deletion grace period is read as 1", terminating(t0.Add(time.Second), ptr[int64](-4)), &metav1.DeleteOptions{},
			want{pending: true, opts: ptr[int64](1), deadline: at(time.Second), grace: ptr[int64](1), generation: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.pod.DeepCopy()
			var optsBefore *metav1.DeleteOptions
			if tt.opts != nil {
				optsBefore = tt.opts.DeepCopy()
			}
			d, err := lifecycle.Delete(tt.pod, tt.opts, t0)
			require.NoError(t, err)
			got := want{graceful: d.Graceful, pending: d.PendingGraceful, removed: d.Removed, opts: d.GracePeriodSeconds,
				deadline: d.Pod.DeletionTimestamp, grace: d.Pod.DeletionGracePeriodSeconds, generation: d.Pod.Generation}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, before, tt.pod, "pod modified")
			assert.Equal(t, optsBefore, tt.opts, "options modified")
		})
	}
}

// TestDeleteErrors: BeforeDelete's validation and precondition failures carry
// upstream's status codes and messages.
func TestDeleteErrors(t *testing.T) {
	p := pod(always).ctrs(ctr("a")).pod()
	tests := []struct {
		name string
		opts *metav1.DeleteOptions
		code int32
		msg  string
	}{
		{"orphanDependents with propagationPolicy", &metav1.DeleteOptions{OrphanDependents: ptr(true), PropagationPolicy: ptr(metav1.DeletePropagationBackground)}, 422,
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set`},
		{"uid precondition", &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr(types.UID("other"))}}, 409,
			`Operation cannot be fulfilled on Pod "p": the UID in the precondition (other) does not match the UID in record (uid-p). The object might have been deleted and then recreated`},
		{"resourceVersion precondition", &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: ptr("1")}}, 409,
			`Operation cannot be fulfilled on Pod "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (7). The object might have been modified`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lifecycle.Delete(p, tt.opts, t0)
			require.Error(t, err)
			var se *apierrors.StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.code, se.Status().Code)
			assert.Equal(t, tt.msg, err.Error())
		})
	}
}
