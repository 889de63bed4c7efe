package labelmatch

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// Matcher is a flattened labels.Selector. The zero Matcher has no
// requirements and matches every label set, as labels.Everything does.
type Matcher struct {
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

// Same reports whether m and o are one flattened selector: copies of the
// Matcher that New or FromRequirements returned, sharing its requirements
// (a Matcher that matches everything or nothing has none, and is never
// Same as another).
func (m *Matcher) Same(o *Matcher) bool {
	return len(m.reqs) > 0 && len(m.reqs) == len(o.reqs) && &m.reqs[0] == &o.reqs[0]
}

// New flattens a selector. A nil selector, or one whose requirements cannot
// be listed (labels.Nothing), matches nothing, as
// metav1.LabelSelectorAsSelector(nil) does. The selector is not modified.
func New(sel labels.Selector) Matcher {
	if sel == nil {
		return Matcher{nothing: true}
	}
	reqs, ok := sel.Requirements()
	if !ok {
		return Matcher{nothing: true}
	}
	return FromRequirements(reqs)
}

// FromRequirements flattens ANDed requirements; none matches every label set.
// The slice is not kept.
func FromRequirements(reqs []labels.Requirement) Matcher {
	if len(reqs) == 0 {
		return Matcher{}
	}
	m := Matcher{reqs: make([]requirement, 0, len(reqs))}
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

// Nothing reports whether the matcher was built from labels.Nothing (or a
// nil selector) and so matches no label set.
func (m *Matcher) Nothing() bool { return m.nothing }

// Empty mirrors labels.Selector.Empty: true for a selector without
// requirements (labels.Everything), false for labels.Nothing.
func (m *Matcher) Empty() bool { return !m.nothing && len(m.reqs) == 0 }

// Matches reports whether the label set satisfies every requirement. It does
// not modify l.
func (m *Matcher) Matches(l map[string]string) bool {
	if m.nothing {
		return false
	}
	for i := range m.reqs {
		r := &m.reqs[i]
		switch r.op {
		case opIn:
			v, ok := l[r.key]
			if !ok || !HasValue(r.values, v) {
				return false
			}
		case opNotIn:
			if v, ok := l[r.key]; ok && HasValue(r.values, v) {
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

// Anchor is a requirement that a label set can only satisfy by carrying a
// label: the key with one of Values (In, Equals, ==), or the key with any
// value when Exists is set. Every label set a matcher matches carries a
// label for each of its anchors, which is what lets an index of label sets
// by (key, value) or by key narrow the candidates of a selector before
// matching them.
type Anchor struct {
	Key    string
	Values []string // nil when Exists
	Exists bool
}

// NumRequirements returns the number of ANDed requirements (0 for the
// zero Matcher, labels.Everything and labels.Nothing).
func (m *Matcher) NumRequirements() int { return len(m.reqs) }

// AnchorAt returns requirement i as an Anchor, ok false when it is not one
// (NotIn, NotEquals, DoesNotExist: a label set without the key satisfies
// them). Gt and Lt anchor on their key alone: labels.Requirement.Matches
// rejects a label set without it before comparing numbers (and any other
// operator matches nothing). Values is shared with the matcher: do not
// modify it.
func (m *Matcher) AnchorAt(i int) (Anchor, bool) {
	r := &m.reqs[i]
	switch r.op {
	case opIn:
		return Anchor{Key: r.key, Values: r.values}, true
	case opExists, opOther:
		return Anchor{Key: r.key, Exists: true}, true
	}
	return Anchor{}, false
}

// ExclusionAt returns requirement i as an exclusion when it is NotIn /
// NotEquals (a label set carrying key with one of values fails it) or
// DoesNotExist (values nil: a label set carrying key fails it); a label
// set that carries none of the excluded labels satisfies it. ok is false
// for any other operator. values is shared with the matcher: do not modify
// it.
func (m *Matcher) ExclusionAt(i int) (key string, values []string, ok bool) {
	r := &m.reqs[i]
	switch r.op {
	case opNotIn:
		return r.key, r.values, true
	case opDoesNotExist:
		return r.key, nil, true
	}
	return "", nil, false
}

// SingleAnchor reports whether the matcher is one requirement and that
// requirement is an In/Equals or Exists anchor: a label set carrying the
// anchor's label then matches, so candidates found through the anchor need
// no further matching.
func (m *Matcher) SingleAnchor() bool {
	return !m.nothing && len(m.reqs) == 1 && (m.reqs[0].op == opIn || m.reqs[0].op == opExists)
}

// HasValue reports whether v is one of values (a linear scan: requirement
// value lists are short).
func HasValue(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
