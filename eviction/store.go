package eviction

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedkit/schedkit/internal/deletion"
	"github.com/schedkit/schedkit/internal/podcond"
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
	return deletion.CheckPreconditions(pod, pre)
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
	podcond.Set(&pod.Status, corev1.PodCondition{
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

// beforeDelete is rest.BeforeDelete with the pod strategy on the stored pod
// (internal/deletion): an unset terminationGracePeriodSeconds reads as 0, as
// upstream's CheckGracefulDelete reads it.
func beforeDelete(pod *corev1.Pod, opts *metav1.DeleteOptions, now time.Time) (graceful, pending bool, err error) {
	return deletion.BeforeDelete(pod, opts, now, deletion.UnsetGraceStored)
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
