package topology

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// requiredNodeAffinity is the pod's nodeSelector plus its required node
// affinity, decided as component-helpers' nodeaffinity.GetRequiredNodeAffinity
// and RequiredNodeAffinity.Match (v0.36) decide, with parse errors treated as
// "no match" for the term that has them (the lazy-error selector's rule, which
// PodTopologySpread's node inclusion policy follows by ignoring the error).
type requiredNodeAffinity struct {
	nodeSelector matcher // used when hasSelector
	hasSelector  bool
	hasAffinity  bool
	terms        []nodeSelectorTerm // non-empty, parsed terms; ORed
}

type nodeSelectorTerm struct {
	broken    bool // a parse error: the term never matches
	hasLabels bool
	labels    matcher
	fields    []fieldReq // ANDed; used only when the node has a name
}

type fieldReq struct {
	key   string
	value string
	not   bool
}

func newRequiredNodeAffinity(pod *corev1.Pod) requiredNodeAffinity {
	var r requiredNodeAffinity
	if len(pod.Spec.NodeSelector) > 0 {
		r.hasSelector = true
		r.nodeSelector = newMatcher(labels.SelectorFromSet(pod.Spec.NodeSelector))
	}
	aff := pod.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return r
	}
	r.hasAffinity = true
	for _, t := range aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue // an empty term selects nothing
		}
		r.terms = append(r.terms, compileNodeSelectorTerm(t))
	}
	return r
}

func compileNodeSelectorTerm(t corev1.NodeSelectorTerm) nodeSelectorTerm {
	var out nodeSelectorTerm
	if len(t.MatchExpressions) > 0 {
		out.hasLabels = true
		sel := labels.NewSelector()
		for _, e := range t.MatchExpressions {
			var op selection.Operator
			switch e.Operator {
			case corev1.NodeSelectorOpIn:
				op = selection.In
			case corev1.NodeSelectorOpNotIn:
				op = selection.NotIn
			case corev1.NodeSelectorOpExists:
				op = selection.Exists
			case corev1.NodeSelectorOpDoesNotExist:
				op = selection.DoesNotExist
			case corev1.NodeSelectorOpGt:
				op = selection.GreaterThan
			case corev1.NodeSelectorOpLt:
				op = selection.LessThan
			default:
				out.broken = true
				continue
			}
			req, err := labels.NewRequirement(e.Key, op, e.Values)
			if err != nil {
				out.broken = true
				continue
			}
			sel = sel.Add(*req)
		}
		out.labels = newMatcher(sel)
	}
	for _, e := range t.MatchFields {
		switch {
		case (e.Operator == corev1.NodeSelectorOpIn || e.Operator == corev1.NodeSelectorOpNotIn) && len(e.Values) == 1:
			out.fields = append(out.fields, fieldReq{key: e.Key, value: e.Values[0], not: e.Operator == corev1.NodeSelectorOpNotIn})
		default:
			out.broken = true
		}
	}
	return out
}

// matches reports whether the node satisfies nodeSelector and required node
// affinity.
func (r *requiredNodeAffinity) matches(node *corev1.Node) bool {
	if r.hasSelector && !r.nodeSelector.matches(node.Labels) {
		return false
	}
	if !r.hasAffinity {
		return true
	}
	for i := range r.terms {
		if r.terms[i].matches(node) {
			return true
		}
	}
	return false
}

func (t *nodeSelectorTerm) matches(node *corev1.Node) bool {
	if t.broken {
		return false
	}
	if t.hasLabels && !t.labels.matches(node.Labels) {
		return false
	}
	// Upstream only extracts metadata.name, and skips field matching when the
	// node has no name.
	if node.Name == "" {
		return true
	}
	for _, f := range t.fields {
		got := ""
		if f.key == "metadata.name" {
			got = node.Name
		}
		if (got == f.value) == f.not {
			return false
		}
	}
	return true
}

// isUntainted reports whether every NoSchedule / NoExecute taint of the node
// is tolerated, as v1helper.FindMatchingUntoleratedTaint with
// helper.DoNotScheduleTaintsFilterFunc finds none. The Lt / Gt toleration
// operators never match: TaintTolerationComparisonOperators is off by default
// in v1.36.
func isUntainted(node *corev1.Node, tolerations []corev1.Toleration) bool {
	for i := range node.Spec.Taints {
		taint := &node.Spec.Taints[i]
		if taint.Effect != corev1.TaintEffectNoSchedule && taint.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if !tolerates(tolerations, taint) {
			return false
		}
	}
	return true
}

func tolerates(tolerations []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range tolerations {
		t := &tolerations[i]
		if t.Effect != "" && t.Effect != taint.Effect {
			continue
		}
		if t.Key != "" && t.Key != taint.Key {
			continue
		}
		switch t.Operator {
		case "", corev1.TolerationOpEqual:
			if t.Value == taint.Value {
				return true
			}
		case corev1.TolerationOpExists:
			return true
		}
	}
	return false
}
