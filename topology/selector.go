package topology

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// matcher is a labels.Selector flattened for the hot loops that walk every
// bound pod: each requirement is a key, an operator class and its values, so
// a match is one map lookup and a few string compares per requirement, with
// no interface call and no allocation. It decides exactly as the selector it
// was built from (labels.Requirement.Matches, apimachinery v0.36).
type matcher struct {
	nothing bool // labels.Nothing(): matches no label set
	reqs    []requirement
}

type reqOp uint8

const (
	opIn reqOp = iota
	opNotIn
	opExists
	opDoesNotExist
	opOther // Gt / Lt: delegated to labels.Requirement.Matches
)

type requirement struct {
	key    string
	op     reqOp
	values []string
	full   labels.Requirement
}

// newMatcher flattens a selector. A nil selector matches nothing, as
// metav1.LabelSelectorAsSelector(nil) does.
func newMatcher(sel labels.Selector) matcher {
	if sel == nil {
		return matcher{nothing: true}
	}
	reqs, ok := sel.Requirements()
	if !ok {
		return matcher{nothing: true}
	}
	m := matcher{reqs: make([]requirement, 0, len(reqs))}
	for _, r := range reqs {
		q := requirement{key: r.Key(), values: r.ValuesUnsorted(), full: r}
		switch r.Operator() {
		case selection.In, selection.Equals, selection.DoubleEquals:
			q.op = opIn
		case selection.NotIn, selection.NotEquals:
			q.op = opNotIn
		case selection.Exists:
			q.op = opExists
		case selection.DoesNotExist:
			q.op = opDoesNotExist
		default:
			q.op = opOther
		}
		m.reqs = append(m.reqs, q)
	}
	return m
}

// empty mirrors labels.Selector.Empty: true for a selector without
// requirements (labels.Everything), false for labels.Nothing.
func (m *matcher) empty() bool { return !m.nothing && len(m.reqs) == 0 }

// matches reports whether the label set satisfies every requirement.
func (m *matcher) matches(l map[string]string) bool {
	if m.nothing {
		return false
	}
	for i := range m.reqs {
		r := &m.reqs[i]
		switch r.op {
		case opIn:
			v, ok := l[r.key]
			if !ok || !hasValue(r.values, v) {
				return false
			}
		case opNotIn:
			if v, ok := l[r.key]; ok && hasValue(r.values, v) {
				return false
			}
		case opExists:
			if _, ok := l[r.key]; !ok {
				return false
			}
		case opDoesNotExist:
			if _, ok := l[r.key]; ok {
				return false
			}
		default:
			if !r.full.Matches(labels.Set(l)) {
				return false
			}
		}
	}
	return true
}

func hasValue(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
