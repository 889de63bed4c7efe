// Package deletion is the API server's graceful-deletion rule for pods, written
// once for every package that answers a DELETE: k8s.io/apiserver's
// rest.BeforeDelete (pkg/registry/rest/delete.go) with the pod strategy's
// CheckGracefulDelete (pkg/registry/core/pod/strategy.go), as of v1.36, and
// the precondition check the Eviction API handler shares with it.
//
// The one deliberate difference between its callers is how an unset
// spec.terminationGracePeriodSeconds is read (UnsetGrace): upstream only ever
// sees stored, defaulted pods, so CheckGracefulDelete reads an unset field as
// 0; a caller answering for a pod that was never stored reads it as the API
// server's default of 30 seconds, which defaulting would have written.
package deletion

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// UnsetGrace says how CheckGracefulDelete reads a pod whose
// spec.terminationGracePeriodSeconds is unset.
type UnsetGrace int8

const (
	// UnsetGraceStored reads it as upstream does on the object in storage: 0.
	// Stored pods are defaulted, so the field is only unset on a pod built
	// by hand; the Eviction API handler works on stored objects.
	UnsetGraceStored UnsetGrace = iota
	// UnsetGraceAPIDefault reads it as the API server's default
	// (corev1.DefaultTerminationGracePeriodSeconds, 30): the pod is taken
	// as it would be stored after defaulting.
	UnsetGraceAPIDefault
)

// podKindResource is how rest.BeforeDelete and the eviction handler's
// precondition check name the pod in a Conflict: by Kind, "Pod".
var podKindResource = schema.GroupResource{Resource: "Pod"}

var deleteOptionsKind = schema.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}

// CheckPreconditions is the UID-then-resourceVersion precondition check that
// rest.BeforeDelete and the eviction handler (on the latest pod) perform:
// nil, or a 409 Conflict status error with upstream's message.
func CheckPreconditions(pod *corev1.Pod, pre *metav1.Preconditions) error {
	if pre == nil {
		return nil
	}
	if pre.UID != nil && *pre.UID != pod.UID {
		return apierrors.NewConflict(podKindResource, pod.Name, fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *pre.UID, pod.UID))
	}
	if pre.ResourceVersion != nil && *pre.ResourceVersion != pod.ResourceVersion {
		return apierrors.NewConflict(podKindResource, pod.Name, fmt.Errorf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *pre.ResourceVersion, pod.ResourceVersion))
	}
	return nil
}

// GracePeriod is the pod strategy's CheckGracefulDelete settling of the
// period for a first deletion: the request's gracePeriodSeconds, else the
// pod's terminationGracePeriodSeconds (unset read as unset says), 0 for a pod
// not bound to a node or already Succeeded or Failed, and 1 for a negative
// value. Nothing is modified.
func GracePeriod(pod *corev1.Pod, opts *metav1.DeleteOptions, unset UnsetGrace) int64 {
	var period int64
	if unset == UnsetGraceAPIDefault {
		period = corev1.DefaultTerminationGracePeriodSeconds
	}
	switch {
	case opts.GracePeriodSeconds != nil:
		period = *opts.GracePeriodSeconds
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		period = *pod.Spec.TerminationGracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period
}

// BeforeDelete is rest.BeforeDelete with the pod strategy. It adjusts pod and
// opts in place (pass copies) and reports whether the delete is graceful
// (this request set or shortened the deadline) or an already pending
// graceful deletion, or the 422 Invalid / 409 Conflict status error upstream
// answers.
func BeforeDelete(pod *corev1.Pod, opts *metav1.DeleteOptions, now time.Time, unset UnsetGrace) (graceful, pending bool, err error) {
	if errs := metav1validation.ValidateDeleteOptions(opts); len(errs) > 0 {
		return false, false, apierrors.NewInvalid(deleteOptionsKind, "", errs)
	}
	if err := CheckPreconditions(pod, opts.Preconditions); err != nil {
		return false, false, err
	}
	if opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds < 0 {
		opts.GracePeriodSeconds = int64Ptr(1)
	}
	if d := pod.DeletionGracePeriodSeconds; d != nil && *d < 0 {
		pod.DeletionGracePeriodSeconds = int64Ptr(1)
	}
	if pod.DeletionTimestamp != nil {
		// Already terminating: the grace period may only be shortened.
		cur := pod.DeletionGracePeriodSeconds
		if cur == nil || *cur == 0 {
			// Deletion was already decided with no grace left: finish it.
			return false, false, nil
		}
		if opts.GracePeriodSeconds == nil {
			opts.GracePeriodSeconds = int64Ptr(*cur)
			return false, true, nil
		}
		period := *opts.GracePeriodSeconds
		if period >= *cur {
			return false, true, nil
		}
		deadline := pod.DeletionTimestamp.Add(-time.Duration(*cur) * time.Second).Add(time.Duration(period) * time.Second)
		if deadline.Before(now) {
			deadline = now
			if period != 0 {
				period = 1
			}
		}
		ts := metav1.NewTime(deadline)
		pod.DeletionTimestamp = &ts
		pod.DeletionGracePeriodSeconds = &period
		return true, false, nil
	}
	// The pod strategy's CheckGracefulDelete always answers graceful and
	// settles the period.
	period := GracePeriod(pod, opts, unset)
	opts.GracePeriodSeconds = &period
	ts := metav1.NewTime(now.Add(time.Duration(period) * time.Second))
	pod.DeletionTimestamp = &ts
	pod.DeletionGracePeriodSeconds = int64Ptr(period)
	if pod.Generation > 0 {
		pod.Generation++
	}
	return true, false, nil
}

func int64Ptr(v int64) *int64 { return &v }
