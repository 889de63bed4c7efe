package topo

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/nodeaffinity"
)

// requiredNodeAffinity is the pod's nodeSelector plus its required node
// affinity, decided as component-helpers' nodeaffinity.GetRequiredNodeAffinity
// and RequiredNodeAffinity.Match (v0.36) decide, with parse errors treated as
// "no match" for the term that has them (the lazy-error selector's rule, which
// PodTopologySpread's node inclusion policy follows by ignoring the error).
type requiredNodeAffinity struct {
	nodeSelector matcher // used when hasSelector
	selectorSet  map[string]string
	hasSelector  bool
	affinity     *nodeaffinity.Selector // nil: no required node affinity
}

func newRequiredNodeAffinity(pod *corev1.Pod) requiredNodeAffinity {
	var r requiredNodeAffinity
	if len(pod.Spec.NodeSelector) > 0 {
		r.hasSelector = true
		r.selectorSet = pod.Spec.NodeSelector
		r.nodeSelector = newMatcher(labels.SelectorFromSet(pod.Spec.NodeSelector))
	}
	aff := pod.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return r
	}
	r.affinity = nodeaffinity.LenientSelector(aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	return r
}

// any reports whether the pod has a nodeSelector or required node affinity.
func (r *requiredNodeAffinity) any() bool { return r.hasSelector || r.affinity != nil }

// honorsAffinity reports whether a constraint honors node affinity.
func honorsAffinity(cs []constraint) bool {
	for i := range cs {
		if cs[i].honorAffinity {
			return true
		}
	}
	return false
}

func honorsTaints(cs []constraint) bool {
	for i := range cs {
		if cs[i].honorTaints {
			return true
		}
	}
	return false
}

// indexedNodeAffinity is requiredNodeAffinity decided through a snapshot's
// node label columns (nodeaffinity.LabelsIndexed, Selector.Index): a few
// array loads per requirement instead of label map lookups, for the nodes
// of that snapshot and its views.
type indexedNodeAffinity struct {
	pairs    nodeaffinity.IndexedTerm
	affinity *nodeaffinity.IndexedSelector // nil: no required node affinity
}

func (r *requiredNodeAffinity) index(snap *cluster.Snapshot) *indexedNodeAffinity {
	x := &indexedNodeAffinity{}
	if r.hasSelector {
		x.pairs = nodeaffinity.LabelsIndexed(r.selectorSet, snap)
	}
	if r.affinity != nil {
		x.affinity = r.affinity.Index(snap)
	}
	return x
}

// matches is requiredNodeAffinity.matches for the node of snapshot slot i.
func (x *indexedNodeAffinity) matches(i int, node *corev1.Node) bool {
	return x.pairs.Matches(i, node) && (x.affinity == nil || x.affinity.Matches(i, node))
}

// matches reports whether the node satisfies nodeSelector and required node
// affinity.
func (r *requiredNodeAffinity) matches(node *corev1.Node) bool {
	if r.hasSelector && !r.nodeSelector.matches(node.Labels) {
		return false
	}
	return r.affinity == nil || r.affinity.Matches(node)
}
