package placement

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// nodeSelectorTerm is a compiled NodeSelectorTerm, as nodeaffinity's
// nodeSelectorTerm (k8s.io/component-helpers v0.36): the label
// requirements are ANDed, the field requirements are ANDed, and a term with
// neither is never compiled (empty terms are dropped by the callers).
type nodeSelectorTerm struct {
	hasLabels bool
	labels    []labels.Requirement
	hasFields bool
	fields    []fieldRequirement
}

// fieldRequirement is one matchFields entry: the node's field (only
// metadata.name exists; any other field reads as "") equals (In) or differs
// from (NotIn) value.
type fieldRequirement struct {
	key   string
	value string
	notIn bool
}

var validSelectorOperators = []string{
	string(corev1.NodeSelectorOpIn), string(corev1.NodeSelectorOpNotIn), string(corev1.NodeSelectorOpExists),
	string(corev1.NodeSelectorOpDoesNotExist), string(corev1.NodeSelectorOpGt), string(corev1.NodeSelectorOpLt),
}

var validFieldOperators = []string{string(corev1.NodeSelectorOpIn), string(corev1.NodeSelectorOpNotIn)}

// compileTerm compiles one term and reports every problem with its path,
// as nodeaffinity.newNodeSelectorTerm does.
func compileTerm(t *corev1.NodeSelectorTerm, path *field.Path) (nodeSelectorTerm, field.ErrorList) {
	var out nodeSelectorTerm
	var errs field.ErrorList
	if len(t.MatchExpressions) > 0 {
		out.hasLabels = true
		p := path.Child("matchExpressions")
		for i := range t.MatchExpressions {
			e := &t.MatchExpressions[i]
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
				errs = append(errs, field.NotSupported(p.Index(i).Child("operator"), e.Operator, validSelectorOperators))
				continue
			}
			r, err := labels.NewRequirement(e.Key, op, e.Values, field.WithPath(p.Index(i)))
			if err != nil {
				errs = append(errs, asFieldErrors(p.Index(i), err)...)
				continue
			}
			out.labels = append(out.labels, *r)
		}
	}
	if len(t.MatchFields) > 0 {
		out.hasFields = true
		p := path.Child("matchFields")
		for i := range t.MatchFields {
			e := &t.MatchFields[i]
			switch e.Operator {
			case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
				if len(e.Values) != 1 {
					errs = append(errs, field.Invalid(p.Index(i).Child("values"), e.Values, "must have one element"))
					continue
				}
				out.fields = append(out.fields, fieldRequirement{key: e.Key, value: e.Values[0], notIn: e.Operator == corev1.NodeSelectorOpNotIn})
			default:
				errs = append(errs, field.NotSupported(p.Index(i).Child("operator"), e.Operator, validFieldOperators))
			}
		}
	}
	return out, errs
}

// asFieldErrors unpacks an aggregate of field errors (labels.NewRequirement's).
func asFieldErrors(p *field.Path, err error) field.ErrorList {
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		var out field.ErrorList
		for _, e := range agg.Errors() {
			var fe *field.Error
			if errors.As(e, &fe) {
				out = append(out, fe)
			} else {
				out = append(out, field.Invalid(p, nil, e.Error()))
			}
		}
		return out
	}
	var fe *field.Error
	if errors.As(err, &fe) {
		return field.ErrorList{fe}
	}
	return field.ErrorList{field.Invalid(p, nil, err.Error())}
}

func isEmptyTerm(t *corev1.NodeSelectorTerm) bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

// matches is nodeSelectorTerm.match: every label requirement holds and every
// field requirement holds.
func (t *nodeSelectorTerm) matches(n *corev1.Node) bool {
	if t.hasLabels {
		ls := labels.Set(n.Labels)
		for i := range t.labels {
			if !t.labels[i].Matches(ls) {
				return false
			}
		}
	}
	if t.hasFields && n.Name != "" {
		for i := range t.fields {
			f := &t.fields[i]
			v := ""
			if f.key == metav1.ObjectNameField {
				v = n.Name
			}
			if (v == f.value) == f.notIn {
				return false
			}
		}
	}
	return true
}

// nodeSelector is a compiled required NodeSelector: ORed non-empty terms.
// A selector whose terms are all empty matches no node.
type nodeSelector struct {
	terms []nodeSelectorTerm
}

func compileNodeSelector(ns *corev1.NodeSelector, path *field.Path) (*nodeSelector, field.ErrorList) {
	out := &nodeSelector{}
	var errs field.ErrorList
	p := path.Child("nodeSelectorTerms")
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if isEmptyTerm(t) {
			continue
		}
		c, e := compileTerm(t, p.Index(i))
		errs = append(errs, e...)
		if len(e) == 0 {
			out.terms = append(out.terms, c)
		}
	}
	return out, errs
}

func (s *nodeSelector) matches(n *corev1.Node) bool {
	for i := range s.terms {
		if s.terms[i].matches(n) {
			return true
		}
	}
	return false
}

// preferredTerms are compiled PreferredSchedulingTerms; terms of weight 0 or
// without requirements are dropped, as nodeaffinity.NewPreferredSchedulingTerms does.
type preferredTerms struct {
	terms   []nodeSelectorTerm
	weights []int64
}

func compilePreferred(in []corev1.PreferredSchedulingTerm, path *field.Path) (*preferredTerms, field.ErrorList) {
	out := &preferredTerms{}
	var errs field.ErrorList
	for i := range in {
		t := &in[i]
		if t.Weight == 0 || isEmptyTerm(&t.Preference) {
			continue
		}
		c, e := compileTerm(&t.Preference, path.Index(i).Child("preference"))
		errs = append(errs, e...)
		if len(e) == 0 {
			out.terms = append(out.terms, c)
			out.weights = append(out.weights, int64(t.Weight))
		}
	}
	return out, errs
}

// score sums the weights of the terms the node matches.
func (p *preferredTerms) score(n *corev1.Node) int64 {
	if p == nil {
		return 0
	}
	var s int64
	for i := range p.terms {
		if p.terms[i].matches(n) {
			s += p.weights[i]
		}
	}
	return s
}

// labelPair is one pod.spec.nodeSelector entry: the node must have the key
// with exactly that value (labels.SelectorFromSet, no validation).
type labelPair struct{ key, value string }

func matchesPairs(pairs []labelPair, n *corev1.Node) bool {
	for _, kv := range pairs {
		v, ok := n.Labels[kv.key]
		if !ok || v != kv.value {
			return false
		}
	}
	return true
}

// tolerates is corev1.Toleration.ToleratesTaint with the
// TaintTolerationComparisonOperators gate off (alpha in v1.36): Lt and Gt
// never match.
func tolerates(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		return t.Value == taint.Value
	case corev1.TolerationOpExists:
		return true
	}
	return false
}

func toleratesAny(ts []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range ts {
		if tolerates(&ts[i], taint) {
			return true
		}
	}
	return false
}
