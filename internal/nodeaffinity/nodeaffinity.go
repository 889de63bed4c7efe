package nodeaffinity

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// LabelOperator maps a node selector operator to the label selector operator
// nodeaffinity's nodeSelectorRequirementsAsSelector uses; ok is false for an
// operator it does not support.
func LabelOperator(op corev1.NodeSelectorOperator) (_ selection.Operator, ok bool) {
	switch op {
	case corev1.NodeSelectorOpIn:
		return selection.In, true
	case corev1.NodeSelectorOpNotIn:
		return selection.NotIn, true
	case corev1.NodeSelectorOpExists:
		return selection.Exists, true
	case corev1.NodeSelectorOpDoesNotExist:
		return selection.DoesNotExist, true
	case corev1.NodeSelectorOpGt:
		return selection.GreaterThan, true
	case corev1.NodeSelectorOpLt:
		return selection.LessThan, true
	}
	return "", false
}

// Term is a compiled NodeSelectorTerm (nodeaffinity's nodeSelectorTerm).
type Term struct {
	labels labelmatch.Matcher // the ANDed matchExpressions; none matches all
	reqs   []labels.Requirement
	fields []fieldRequirement // the ANDed matchFields
}

// fieldRequirement is one matchFields entry: the node's field (only
// metadata.name exists; any other field reads as "") equals (In) or differs
// from (NotIn) value.
type fieldRequirement struct {
	key   string
	value string
	notIn bool
}

// IsEmptyTerm reports whether the term has no requirement at all; such a
// term selects nothing and callers drop it before compiling.
func IsEmptyTerm(t *corev1.NodeSelectorTerm) bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

// CompileTerm compiles one term and reports every problem with its path under
// path, as nodeaffinity.newNodeSelectorTerm does. The term is not modified;
// paths are built only when there is a problem.
func CompileTerm(t *corev1.NodeSelectorTerm, path *field.Path) (Term, field.ErrorList) {
	var out Term
	var errs field.ErrorList
	if len(t.MatchExpressions) > 0 {
		reqs := make([]labels.Requirement, 0, len(t.MatchExpressions))
		for i := range t.MatchExpressions {
			e := &t.MatchExpressions[i]
			op, ok := LabelOperator(e.Operator)
			if !ok {
				errs = append(errs, field.NotSupported(path.Child("matchExpressions").Index(i).Child("operator"), e.Operator, supportedLabelOperators()))
				continue
			}
			r, err := labels.NewRequirement(e.Key, op, e.Values)
			if err != nil {
				// Again with the path, for errors that carry it.
				p := path.Child("matchExpressions").Index(i)
				_, err = labels.NewRequirement(e.Key, op, e.Values, field.WithPath(p))
				errs = append(errs, AsFieldErrors(p, err)...)
				continue
			}
			reqs = append(reqs, *r)
		}
		out.labels = labelmatch.FromRequirements(reqs)
		out.reqs = reqs
	}
	for i := range t.MatchFields {
		e := &t.MatchFields[i]
		switch e.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(e.Values) != 1 {
				errs = append(errs, field.Invalid(path.Child("matchFields").Index(i).Child("values"), e.Values, "must have one element"))
				continue
			}
			out.fields = append(out.fields, fieldRequirement{key: e.Key, value: e.Values[0], notIn: e.Operator == corev1.NodeSelectorOpNotIn})
		default:
			errs = append(errs, field.NotSupported(path.Child("matchFields").Index(i).Child("operator"), e.Operator, []string{string(corev1.NodeSelectorOpIn), string(corev1.NodeSelectorOpNotIn)}))
		}
	}
	return out, errs
}

func supportedLabelOperators() []string {
	return []string{
		string(corev1.NodeSelectorOpIn), string(corev1.NodeSelectorOpNotIn), string(corev1.NodeSelectorOpExists),
		string(corev1.NodeSelectorOpDoesNotExist), string(corev1.NodeSelectorOpGt), string(corev1.NodeSelectorOpLt),
	}
}

// AsFieldErrors unpacks an error of labels.NewRequirement (an aggregate of
// field errors) into a list; other errors become one Invalid at p.
func AsFieldErrors(p *field.Path, err error) field.ErrorList {
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

// Matches is nodeSelectorTerm.match: every label requirement and every field
// requirement holds. The node is not modified.
func (t *Term) Matches(n *corev1.Node) bool {
	if !t.labels.Matches(n.Labels) {
		return false
	}
	// Upstream extracts only metadata.name, and skips field matching when
	// the node has no name.
	if n.Name == "" {
		return true
	}
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
	return true
}

// Selector is a compiled required NodeSelector: ORed non-empty terms. A
// selector whose terms are all empty matches no node.
type Selector struct {
	terms []Term
}

// CompileSelector compiles a required node selector, reporting every problem
// of every term under path.Child("nodeSelectorTerms"), as
// nodeaffinity.NewNodeSelector does. ns is not modified.
func CompileSelector(ns *corev1.NodeSelector, path *field.Path) (*Selector, field.ErrorList) {
	out := &Selector{}
	var errs field.ErrorList
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if IsEmptyTerm(t) {
			continue
		}
		c, e := CompileTerm(t, path.Child("nodeSelectorTerms").Index(i))
		errs = append(errs, e...)
		if len(e) == 0 {
			out.terms = append(out.terms, c)
		}
	}
	return out, errs
}

// LenientSelector compiles a required node selector with the lazy-error
// rule of nodeaffinity.LazyErrorNodeSelector as its callers that ignore the
// error see it: a term with a problem never matches (so it is dropped from
// the ORed terms), and the other terms still count. ns is not modified.
func LenientSelector(ns *corev1.NodeSelector) *Selector {
	out := &Selector{}
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if IsEmptyTerm(t) {
			continue
		}
		if c, e := CompileTerm(t, nil); len(e) == 0 {
			out.terms = append(out.terms, c)
		}
	}
	return out
}

// Matches reports whether some term matches the node.
func (s *Selector) Matches(n *corev1.Node) bool {
	for i := range s.terms {
		if s.terms[i].Matches(n) {
			return true
		}
	}
	return false
}

// Preferred are compiled PreferredSchedulingTerms; terms of weight 0 or
// without requirements are dropped, as nodeaffinity.NewPreferredSchedulingTerms
// does. The nil *Preferred scores 0.
type Preferred struct {
	terms   []Term
	weights []int64
}

// CompilePreferred compiles preferred terms, reporting every problem with
// paths path[i].preference.... The input is not modified.
func CompilePreferred(in []corev1.PreferredSchedulingTerm, path *field.Path) (*Preferred, field.ErrorList) {
	out := &Preferred{}
	var errs field.ErrorList
	for i := range in {
		t := &in[i]
		if t.Weight == 0 || IsEmptyTerm(&t.Preference) {
			continue
		}
		c, e := CompileTerm(&t.Preference, path.Index(i).Child("preference"))
		errs = append(errs, e...)
		if len(e) == 0 {
			out.terms = append(out.terms, c)
			out.weights = append(out.weights, int64(t.Weight))
		}
	}
	return out, errs
}

// Score sums the weights of the terms the node matches
// (PreferredSchedulingTerms.Score).
func (p *Preferred) Score(n *corev1.Node) int64 {
	if p == nil {
		return 0
	}
	var s int64
	for i := range p.terms {
		if p.terms[i].Matches(n) {
			s += p.weights[i]
		}
	}
	return s
}
