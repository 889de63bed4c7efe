package lifecycle

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/podcond"
)

// Pod garbage collector constants as of v1.36 (pkg/controller/podgc).
const (
	// DefaultTerminatedPodGCThreshold is kube-controller-manager's default
	// --terminated-pod-gc-threshold.
	DefaultTerminatedPodGCThreshold = 12500
	// OrphanQuarantine is how long a node must have been missing before its
	// pods are collected (the controller re-checks the node after it).
	OrphanQuarantine = 40 * time.Second
	// OrphanMessage is the DisruptionTarget message of a pod whose node is gone.
	OrphanMessage = "PodGC: node no longer exists"
	// EvictedReason is status.reason of a pod the kubelet evicted.
	EvictedReason = "Evicted"
)

// GCReason says why the pod garbage collector deletes a pod.
type GCReason string

// The collection passes, in the order one GC cycle runs them.
const (
	// GCTerminated: a Succeeded or Failed pod beyond the threshold.
	GCTerminated GCReason = "Terminated"
	// GCTerminatingOutOfService: a terminating pod on a node that is not
	// Ready and carries the node.kubernetes.io/out-of-service taint.
	GCTerminatingOutOfService GCReason = "TerminatingOutOfService"
	// GCOrphaned: a pod bound to a node that no longer exists.
	GCOrphaned GCReason = "Orphaned"
	// GCTerminatingUnscheduled: a terminating pod never bound to a node.
	GCTerminatingUnscheduled GCReason = "TerminatingUnscheduled"
)

// GCInput is one cycle of the pod garbage collector's view of the cluster.
type GCInput struct {
	// Pods are the pod informer's contents, any order (a nil entry is an
	// error); they are never modified.
	Pods []*corev1.Pod
	// Nodes are the node informer's contents; a pod's node is missing when
	// no node here has its name.
	Nodes []*corev1.Node
	// TerminatedPodThreshold is --terminated-pod-gc-threshold: terminated
	// pods are collected only above it; 0 or less disables that pass. Use
	// DefaultTerminatedPodGCThreshold for the default.
	TerminatedPodThreshold int
	// MissingSince tells when the controller first saw each missing node
	// missing (a pod named a node absent from Nodes). A node absent from
	// Nodes and from MissingSince is first seen missing now. Its pods are
	// collected once it has been missing for OrphanQuarantine.
	MissingSince []MissingNode
	// Now is the controller's clock.
	Now time.Time
}

// MissingNode records when the controller first noticed a node was missing.
type MissingNode struct {
	// Name is the missing node's name.
	Name string
	// Since is when the controller first saw it missing (its quarantine
	// starts then).
	Since time.Time
}

// GCAction is one pod the garbage collector deletes, with the status it
// writes first.
type GCAction struct {
	// Namespace and Name identify the pod deleted.
	Namespace, Name string
	// Reason is the collection pass that chose the pod.
	Reason GCReason
	// Status is the status patched before the delete (phase Failed, and for
	// orphans the DisruptionTarget condition), nil when the pod was already
	// Succeeded or Failed and is deleted as is.
	Status *corev1.PodStatus
	// GracePeriodSeconds of the delete: always 0.
	GracePeriodSeconds int64
}

// CollectGarbage returns the pods one cycle of the pod garbage collector
// deletes, mirroring pkg/controller/podgc's PodGCController.gc as of v1.36.
// Passes run in upstream's order: terminated pods over the threshold
// (evicted first, then oldest creationTimestamp, then name), terminating pods
// on out-of-service nodes (same order), pods on nodes missing for at least
// OrphanQuarantine, terminating pods without a node. Every collected pod that
// is not yet terminal is first marked Failed (orphans also get
// DisruptionTarget=True, DeletionByPodGC), then deleted with grace 0. A pod
// eligible in several passes is listed once, under the first. Within the
// orphaned and unscheduled passes, where upstream follows informer (map)
// order, pods come in namespace/name order. Inputs are not modified. The
// error wraps ErrInvalidInput for nil pods or nodes.
func CollectGarbage(in GCInput) ([]GCAction, error) {
	for i, p := range in.Pods {
		if p == nil {
			return nil, fmt.Errorf("%w: pods[%d] is nil", ErrInvalidInput, i)
		}
	}
	nodes := make(map[string]*corev1.Node, len(in.Nodes))
	for i, n := range in.Nodes {
		if n == nil {
			return nil, fmt.Errorf("%w: nodes[%d] is nil", ErrInvalidInput, i)
		}
		nodes[n.Name] = n
	}
	pods := slices.Clone(in.Pods)
	slices.SortFunc(pods, byNamespaceName)

	var out []GCAction
	done := map[*corev1.Pod]bool{}
	collect := func(p *corev1.Pod, r GCReason, cond *corev1.PodCondition) {
		if done[p] {
			return
		}
		done[p] = true
		a := GCAction{Namespace: p.Namespace, Name: p.Name, Reason: r}
		if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			st := p.Status.DeepCopy()
			st.Phase = corev1.PodFailed
			st.ObservedGeneration = p.Generation
			if cond != nil {
				c := *cond
				c.LastTransitionTime = metav1.NewTime(in.Now)
				podcond.Set(st, c)
			}
			a.Status = st
		}
		out = append(out, a)
	}

	if in.TerminatedPodThreshold > 0 {
		var terminated []*corev1.Pod
		for _, p := range pods {
			if isTerminatedPhase(p.Status.Phase) {
				terminated = append(terminated, p)
			}
		}
		if n := len(terminated) - in.TerminatedPodThreshold; n > 0 {
			slices.SortFunc(terminated, gcOrder)
			for _, p := range terminated[:n] {
				collect(p, GCTerminated, nil)
			}
		}
	}

	var terminating []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			continue
		}
		if n, ok := nodes[p.Spec.NodeName]; ok && !isNodeReady(n) && hasTaintKey(n, corev1.TaintNodeOutOfService) {
			terminating = append(terminating, p)
		}
	}
	slices.SortFunc(terminating, gcOrder)
	for _, p := range terminating {
		collect(p, GCTerminatingOutOfService, nil)
	}

	for _, p := range pods {
		if p.Spec.NodeName == "" {
			continue
		}
		if _, ok := nodes[p.Spec.NodeName]; ok {
			continue
		}
		since := in.Now
		for _, m := range in.MissingSince {
			if m.Name == p.Spec.NodeName && m.Since.Before(since) {
				since = m.Since
			}
		}
		if in.Now.Sub(since) < OrphanQuarantine {
			continue
		}
		collect(p, GCOrphaned, &corev1.PodCondition{
			Type:               corev1.DisruptionTarget,
			ObservedGeneration: p.Generation,
			Status:             corev1.ConditionTrue,
			Reason:             string(DisruptionByPodGC),
			Message:            OrphanMessage,
		})
	}

	for _, p := range pods {
		if p.DeletionTimestamp != nil && p.Spec.NodeName == "" {
			collect(p, GCTerminatingUnscheduled, nil)
		}
	}
	return out, nil
}

func isTerminatedPhase(ph corev1.PodPhase) bool {
	return ph != corev1.PodPending && ph != corev1.PodRunning && ph != corev1.PodUnknown
}

// gcOrder mirrors podgc's byEvictionAndCreationTimestamp: evicted pods
// first, then older creationTimestamp, then name.
func gcOrder(a, b *corev1.Pod) int {
	ae := a.Status.Phase == corev1.PodFailed && a.Status.Reason == EvictedReason
	be := b.Status.Phase == corev1.PodFailed && b.Status.Reason == EvictedReason
	if ae != be {
		if ae {
			return -1
		}
		return 1
	}
	if c := a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time); c != 0 {
		return c
	}
	// Upstream stops at the name (its list holds one namespace's pods in
	// practice); the namespace makes the order total.
	return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Namespace, b.Namespace))
}

func byNamespaceName(a, b *corev1.Pod) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

func isNodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func hasTaintKey(n *corev1.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
