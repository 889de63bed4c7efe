package eviction

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// podStore is the part of kube-apiserver's pod storage the eviction handler
// talks to, holding one pod: Get, the pods/status Update that adds the
// DisruptionTarget condition (optimistic concurrency on resourceVersion, which
// each write bumps), and Delete with rest.BeforeDelete's rules under the pod
// strategy. It works on its own copy of the pod.
type podStore struct {
	ns      string      // the request's namespace
	pod     *corev1.Pod // nil when the request has no pod
	deleted bool
	now     time.Time

	updates int
	deletes []DeleteCall
}

var podsResource = schema.GroupResource{Resource: "pods"}

// podKindResource is how rest.BeforeDelete and the handler's precondition
// check name the pod in a Conflict: by Kind, "Pod".
var podKindResource = schema.GroupResource{Resource: "Pod"}

// firstResourceVersion is the version a pod without one is stored with.
const firstResourceVersion = "1"

func newPodStore(ns string, pod *corev1.Pod, now time.Time) *podStore {
	s := &podStore{ns: ns, now: now}
	if pod != nil {
		s.pod = pod.DeepCopy()
		if s.pod.Namespace == "" {
			s.pod.Namespace = metav1.NamespaceDefault
		}
		if s.pod.ResourceVersion == "" {
			// A pod the caller built rather than read: stored as a
			// create would store it (doc.go, deliberate differences).
			s.pod.ResourceVersion = firstResourceVersion
		}
	}
	return s
}

func (s *podStore) current(name string) (*corev1.Pod, error) {
	if s.pod == nil || s.deleted || s.pod.Name != name || s.pod.Namespace != s.ns {
		return nil, apierrors.NewNotFound(podsResource, name)
	}
	return s.pod, nil
}

func (s *podStore) get(name string) (*corev1.Pod, error) {
	p, err := s.current(name)
	if err != nil {
		return nil, err
	}
	return p.DeepCopy(), nil
}

// checkPreconditions is the UID-then-resourceVersion precondition check that
// both the handler (on the latest pod) and rest.BeforeDelete perform.
func checkPreconditions(pod *corev1.Pod, pre *metav1.Preconditions) error {
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

// updateDisruptionTarget writes the DisruptionTarget condition and returns
// the pod's new resourceVersion. Like the handler's getLatestPod, an empty
// UID or resourceVersion precondition is ignored here.
func (s *podStore) updateDisruptionTarget(name string, pre *metav1.Preconditions) (string, error) {
	existing, err := s.current(name)
	if err != nil {
		return "", err
	}
	if pre != nil {
		if pre.UID != nil && *pre.UID != "" && *pre.UID != existing.UID {
			return "", checkPreconditions(existing, &metav1.Preconditions{UID: pre.UID})
		}
		if pre.ResourceVersion != nil && *pre.ResourceVersion != "" && *pre.ResourceVersion != existing.ResourceVersion {
			return "", checkPreconditions(existing, &metav1.Preconditions{ResourceVersion: pre.ResourceVersion})
		}
	}
	rv, err := strconv.ParseUint(existing.ResourceVersion, 10, 64)
	if err != nil {
		return "", apierrors.NewInternalError(fmt.Errorf("resourceVersion %q is not a number", existing.ResourceVersion))
	}
	pod := existing.DeepCopy()
	setPodCondition(&pod.Status, corev1.PodCondition{
		Type:               corev1.DisruptionTarget,
		Status:             corev1.ConditionTrue,
		Reason:             ReasonEvictionByEvictionAPI,
		Message:            MessageEvictionByEvictionAPI,
		LastTransitionTime: metav1.NewTime(s.now),
	})
	pod.ResourceVersion = strconv.FormatUint(rv+1, 10)
	s.pod = pod
	s.updates++
	return pod.ResourceVersion, nil
}

// setPodCondition is podutil.UpdatePodCondition: the condition replaces one
// of its type (keeping the transition time when the status is unchanged) or
// is appended.
func setPodCondition(st *corev1.PodStatus, c corev1.PodCondition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			if st.Conditions[i].Status == c.Status {
				c.LastTransitionTime = st.Conditions[i].LastTransitionTime
			}
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// delete records one Delete call. opts may be adjusted as rest.BeforeDelete
// adjusts the caller's options (the grace period).
func (s *podStore) delete(name string, opts *metav1.DeleteOptions) error {
	call := DeleteCall{DryRun: len(opts.DryRun) > 0}
	if opts.Preconditions != nil {
		if opts.Preconditions.ResourceVersion != nil {
			call.PreconditionResourceVersion = *opts.Preconditions.ResourceVersion
		}
		if opts.Preconditions.UID != nil {
			call.PreconditionUID = string(*opts.Preconditions.UID)
		}
	}
	err := s.doDelete(name, opts, &call)
	call.Err = err
	s.deletes = append(s.deletes, call)
	return err
}

func (s *podStore) doDelete(name string, opts *metav1.DeleteOptions, call *DeleteCall) error {
	existing, err := s.current(name)
	if err != nil {
		return err
	}
	pod := existing.DeepCopy()
	graceful, pending, err := beforeDelete(pod, opts, s.now)
	call.GracePeriodSeconds = copyInt64(opts.GracePeriodSeconds)
	call.Graceful, call.PendingGraceful = graceful, pending
	if err != nil || pending || call.DryRun {
		return err
	}
	if graceful {
		s.pod = pod
		return nil
	}
	s.deleted = true
	return nil
}

var deleteOptionsKind = schema.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}

// beforeDelete is rest.BeforeDelete with the pod strategy
// (k8s.io/apiserver/pkg/registry/rest/delete.go and
// pkg/registry/core/pod/strategy.go CheckGracefulDelete, v1.36). It adjusts
// pod and opts in place and reports whether the delete is graceful or an
// already pending graceful deletion.
func beforeDelete(pod *corev1.Pod, opts *metav1.DeleteOptions, now time.Time) (graceful, pending bool, err error) {
	if errs := metav1validation.ValidateDeleteOptions(opts); len(errs) > 0 {
		return false, false, apierrors.NewInvalid(deleteOptionsKind, "", errs)
	}
	if err := checkPreconditions(pod, opts.Preconditions); err != nil {
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
			return false, false, nil
		}
		if opts.GracePeriodSeconds != nil {
			period := *opts.GracePeriodSeconds
			if period >= *cur {
				return false, true, nil
			}
			ts := pod.DeletionTimestamp.Add(-time.Duration(*cur) * time.Second).Add(time.Duration(period) * time.Second)
			if ts.Before(now) {
				ts = now
				if period != 0 {
					period = 1
				}
			}
			t := metav1.NewTime(ts)
			pod.DeletionTimestamp = &t
			pod.DeletionGracePeriodSeconds = &period
			return true, false, nil
		}
		opts.GracePeriodSeconds = copyInt64(cur)
		return false, true, nil
	}
	// The pod strategy's CheckGracefulDelete always answers graceful and
	// settles the period.
	period := int64(0)
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
	opts.GracePeriodSeconds = &period
	t := metav1.NewTime(now.Add(time.Duration(period) * time.Second))
	pod.DeletionTimestamp = &t
	pod.DeletionGracePeriodSeconds = int64Ptr(period)
	if pod.Generation > 0 {
		pod.Generation++
	}
	return true, false, nil
}

func int64Ptr(v int64) *int64 { return &v }

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func labelSet(m map[string]string) labels.Set { return labels.Set(m) }
