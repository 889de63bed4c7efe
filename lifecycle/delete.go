package lifecycle

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/deletion"
)

// DefaultTerminationGracePeriodSeconds is the API server's default for an
// unset spec.terminationGracePeriodSeconds.
const DefaultTerminationGracePeriodSeconds = corev1.DefaultTerminationGracePeriodSeconds

// GracePeriod returns the grace period the pod registry grants a DELETE of
// pod with opts, and whether the delete is graceful at all: nil options
// (an old client asking for an immediate delete) are not graceful; otherwise
// the request's gracePeriodSeconds, else the pod's
// terminationGracePeriodSeconds (unset = 30, the API server's default); 0
// for a pod not bound to a node or already Succeeded or Failed; a negative
// value becomes 1. Mirrors pkg/registry/core/pod's
// podStrategy.CheckGracefulDelete as of v1.36. Nothing is modified.
func GracePeriod(pod *corev1.Pod, opts *metav1.DeleteOptions) (graceful bool, seconds int64, err error) {
	if pod == nil {
		return false, 0, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	if opts == nil {
		return false, 0, nil
	}
	return true, deletion.GracePeriod(pod, opts, deletion.UnsetGraceAPIDefault), nil
}

// Deletion is what the API server does with a DELETE of a pod.
type Deletion struct {
	// Graceful: this request set or shortened the deletion deadline.
	Graceful bool
	// PendingGraceful: a graceful deletion was already under way and this
	// request did not shorten it; the object is left as it was.
	PendingGraceful bool
	// GracePeriodSeconds is the request's gracePeriodSeconds after the
	// registry adjusted it (nil when the request left it unset and the
	// registry did not fill it in).
	GracePeriodSeconds *int64
	// Pod is the object after the registry's update (a new copy): deletion
	// timestamp, deletion grace period and generation as stored. When Removed
	// it is the last state before removal.
	Pod *corev1.Pod
	// Removed: the object is gone from storage now. A deletion with grace 0
	// (a force deletion, or an unscheduled or terminal pod) removes it unless
	// finalizers remain; those keep the object, marked deleting, until they
	// are removed.
	Removed bool
}

// Delete answers a DELETE of pod with opts at the API server's time now,
// mirroring k8s.io/apiserver's rest.BeforeDelete with the pod strategy
// (pkg/registry/core/pod CheckGracefulDelete) and the generic store's
// finalizer handling (registry.Store.Delete), as of v1.36:
//
//   - invalid options give a 422 Invalid status error, failed UID or
//     resourceVersion preconditions a 409 Conflict, with upstream's messages;
//   - the first graceful delete sets deletionTimestamp = now + grace,
//     deletionGracePeriodSeconds = grace and bumps a non-zero generation;
//   - on a pod already being deleted, only a shorter grace period changes
//     anything: the deadline moves earlier (never before now; a graceful
//     request whose whole period has passed gets 1 s) — so a deadline never
//     grows once deletion has started (but an already expired deadline moves
//     to now); a pod whose deletion grace period is 0
//     or unset is removed at once;
//   - grace 0 removes the object unless it has finalizers.
//
// nil opts are the empty options a DELETE without body decodes to. Inputs
// are not modified. Errors other than the API status errors wrap
// ErrInvalidInput.
func Delete(pod *corev1.Pod, opts *metav1.DeleteOptions, now time.Time) (Deletion, error) {
	if pod == nil {
		return Deletion{}, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	if opts == nil {
		opts = &metav1.DeleteOptions{}
	} else {
		opts = opts.DeepCopy()
	}
	obj := pod.DeepCopy()
	out := Deletion{Pod: obj}
	graceful, pending, err := beforeDelete(obj, opts, now)
	out.GracePeriodSeconds = opts.GracePeriodSeconds
	if err != nil {
		return Deletion{GracePeriodSeconds: opts.GracePeriodSeconds}, err
	}
	out.Graceful, out.PendingGraceful = graceful, pending
	if pending {
		return out, nil
	}
	finalizers := len(obj.Finalizers) > 0
	switch {
	case graceful && *opts.GracePeriodSeconds > 0:
		// Kept until the kubelet (or a later force delete) confirms.
	case finalizers:
		if !graceful {
			markDeleting(obj, now)
		}
	default:
		out.Removed = true
	}
	return out, nil
}

// markDeleting mirrors the store's markAsDeleting for an immediate delete
// held back by finalizers.
func markDeleting(obj *corev1.Pod, now time.Time) {
	if obj.DeletionTimestamp == nil && obj.Generation > 0 {
		obj.Generation++
	}
	if obj.DeletionTimestamp == nil || obj.DeletionTimestamp.After(now) {
		t := metav1.NewTime(now)
		obj.DeletionTimestamp = &t
	}
	var zero int64
	obj.DeletionGracePeriodSeconds = &zero
}

// BeforeDelete applies the API server's pre-delete rules to obj in place and
// adjusts opts in place, exactly as k8s.io/apiserver's rest.BeforeDelete does
// with the pod strategy (as of v1.36), and reports whether the deletion is
// graceful, whether a graceful deletion was already pending, and the API
// status error (Invalid or Conflict) upstream answers. Both arguments are
// modified: pass copies. Use Delete for the whole DELETE semantics without
// modifying anything.
func BeforeDelete(obj *corev1.Pod, opts *metav1.DeleteOptions, now time.Time) (graceful, pendingGraceful bool, err error) {
	if obj == nil || opts == nil {
		return false, false, fmt.Errorf("%w: pod and options are required", ErrInvalidInput)
	}
	return beforeDelete(obj, opts, now)
}

// beforeDelete is rest.BeforeDelete with the pod strategy
// (internal/deletion), reading an unset terminationGracePeriodSeconds as the
// API server's default: lifecycle answers for pods as they would be stored.
func beforeDelete(obj *corev1.Pod, opts *metav1.DeleteOptions, now time.Time) (bool, bool, error) {
	return deletion.BeforeDelete(obj, opts, now, deletion.UnsetGraceAPIDefault)
}
