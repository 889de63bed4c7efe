package topo

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedkit/schedkit/internal/cluster"
)

var (
	kindReplicationController = corev1.SchemeGroupVersion.WithKind("ReplicationController")
	kindReplicaSet            = appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	kindStatefulSet           = appsv1.SchemeGroupVersion.WithKind("StatefulSet")
)

// DefaultSelector returns the selector that PodTopologySpread's default
// constraints use for pod, as kube-scheduler's helper.DefaultSelector (v1.36)
// builds it: the union of the selectors of the pod's namespace's Services
// that select the pod, plus the selector of the ReplicationController,
// ReplicaSet or StatefulSet named by the pod's controller owner reference.
//
// Upstream merges the services in informer order, which is unspecified;
// here they are merged in input order, a later service's value winning for a
// key that two services set differently. Objects with an empty namespace are
// taken to be in "default", as the API server would store them. When two
// controllers share a namespace and name, the first in input order is used.
// The arguments are not modified. A nil pod or in gives the empty selector.
//
// The objects are looked up in the Input's Workloads index (built once per
// snapshot): the services that select the pod come out of it in input
// order, and it keeps the first controller of each namespace and name, so
// the answer is the one a scan of every object in input order would give.
func DefaultSelector(pod *corev1.Pod, in *SnapshotInput) labels.Selector {
	if in == nil {
		return defaultSelectorIn(pod, nil)
	}
	return defaultSelectorIn(pod, in.Workloads())
}

// defaultSelectorIn is DefaultSelector over an Input's Workloads index
// (nil: no objects).
func defaultSelectorIn(pod *corev1.Pod, w *cluster.Workloads) labels.Selector {
	set := labels.Set{}
	if w == nil || pod == nil {
		return set.AsSelector()
	}
	for _, svc := range w.ServicesSelecting(pod.Namespace, pod.Labels) {
		set = labels.Merge(set, svc.Spec.Selector)
	}
	sel := set.AsSelector()

	owner := metav1.GetControllerOfNoCopy(pod)
	if owner == nil {
		return sel
	}
	gv, err := schema.ParseGroupVersion(owner.APIVersion)
	if err != nil {
		return sel
	}
	switch gv.WithKind(owner.Kind) {
	case kindReplicationController:
		if rc := w.ReplicationController(pod.Namespace, owner.Name); rc != nil {
			set = labels.Merge(set, rc.Spec.Selector)
			sel = set.AsSelector()
		}
	case kindReplicaSet:
		// The controller's selector requirements, parsed once per
		// snapshot input; a nil, invalid or match-nothing selector adds
		// nothing.
		if reqs, ok := w.ReplicaSetRequirements(pod.Namespace, owner.Name); ok {
			sel = sel.Add(reqs...)
		}
	case kindStatefulSet:
		if reqs, ok := w.StatefulSetRequirements(pod.Namespace, owner.Name); ok {
			sel = sel.Add(reqs...)
		}
	}
	return sel
}
