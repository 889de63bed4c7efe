package nodeaffinity

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/schedkit/schedkit/internal/cluster"
)

// Columns gives a node label key's column over a snapshot's nodes
// (cluster.Snapshot.Column).
type Columns interface {
	Column(key string) *cluster.Column
}

// IndexedTerm is a Term decided through node label columns: each label
// requirement is settled once per distinct value of its key (and once for
// nodes without the key), so that matching a node is one array load and
// one table load per requirement instead of label map lookups. The verdict
// per value is labels.Requirement's (In, NotIn, Exists, DoesNotExist by
// value set and presence; Gt and Lt by Requirement.Matches itself). It is
// immutable; its node slots are those of the snapshot whose columns built
// it (and of every view of it).
type IndexedTerm struct {
	reqs   []indexedReq
	fields []fieldRequirement
}

type indexedReq struct {
	of     []int32 // value ID by node slot (NodeInfo.Index); -1 without the key
	ok     []bool  // verdict by value ID
	absent bool    // verdict for a node without the key
}

// oneLabel is a label set with at most one label, for deciding a
// requirement on one column value without building a map.
type oneLabel struct {
	key, value string
	present    bool
}

func (l *oneLabel) Has(k string) bool { return l.present && k == l.key }
func (l *oneLabel) Get(k string) string {
	if l.Has(k) {
		return l.value
	}
	return ""
}
func (l *oneLabel) Lookup(k string) (string, bool) { return l.Get(k), l.Has(k) }

var _ labels.Labels = (*oneLabel)(nil)

// indexRequirement settles r on every value of its key's column.
func indexRequirement(r *labels.Requirement, cols Columns) indexedReq {
	col := cols.Column(r.Key())
	out := indexedReq{of: col.Of, ok: make([]bool, len(col.Values))}
	switch r.Operator() {
	case selection.In, selection.Equals, selection.DoubleEquals, selection.NotIn, selection.NotEquals:
		in := r.Operator() != selection.NotIn && r.Operator() != selection.NotEquals
		if !in {
			for i := range out.ok {
				out.ok[i] = true
			}
			out.absent = true
		}
		for _, v := range r.ValuesUnsorted() {
			if id, ok := col.ID[v]; ok {
				out.ok[id] = in
			}
		}
	case selection.Exists:
		for i := range out.ok {
			out.ok[i] = true
		}
	case selection.DoesNotExist:
		out.absent = true
	default:
		l := &oneLabel{key: r.Key()}
		for i, v := range col.Values {
			l.value, l.present = v, true
			out.ok[i] = r.Matches(l)
		}
		l.value, l.present = "", false
		out.absent = r.Matches(l)
	}
	return out
}

// Index returns the term decided through cols' columns.
func (t *Term) Index(cols Columns) IndexedTerm {
	out := IndexedTerm{fields: t.fields, reqs: make([]indexedReq, len(t.reqs))}
	for i := range t.reqs {
		out.reqs[i] = indexRequirement(&t.reqs[i], cols)
	}
	return out
}

// LabelsIndexed returns the ANDed requirements that every label of set
// equals its value (a pod's spec.nodeSelector, labels.SelectorFromSet
// without validation), decided through cols' columns.
func LabelsIndexed(set map[string]string, cols Columns) IndexedTerm {
	var out IndexedTerm
	for k, v := range set {
		col := cols.Column(k)
		r := indexedReq{of: col.Of, ok: make([]bool, len(col.Values))}
		if id, ok := col.ID[v]; ok {
			r.ok[id] = true
		}
		out.reqs = append(out.reqs, r)
	}
	return out
}

// Matches is Term.Matches for the node of snapshot slot i, whose object is
// node (for matchFields).
func (t *IndexedTerm) Matches(i int, node *corev1.Node) bool {
	for k := range t.reqs {
		r := &t.reqs[k]
		if id := r.of[i]; id < 0 {
			if !r.absent {
				return false
			}
		} else if !r.ok[id] {
			return false
		}
	}
	if node.Name == "" {
		return true
	}
	for k := range t.fields {
		f := &t.fields[k]
		v := ""
		if f.key == metav1.ObjectNameField {
			v = node.Name
		}
		if (v == f.value) == f.notIn {
			return false
		}
	}
	return true
}

// IndexedSelector is a Selector decided through node label columns.
type IndexedSelector struct {
	terms []IndexedTerm
}

// Index returns the selector decided through cols' columns.
func (s *Selector) Index(cols Columns) *IndexedSelector {
	out := &IndexedSelector{terms: make([]IndexedTerm, len(s.terms))}
	for i := range s.terms {
		out.terms[i] = s.terms[i].Index(cols)
	}
	return out
}

// Matches is Selector.Matches for the node of snapshot slot i.
func (s *IndexedSelector) Matches(i int, node *corev1.Node) bool {
	for k := range s.terms {
		if s.terms[k].Matches(i, node) {
			return true
		}
	}
	return false
}

// IndexedPreferred is Preferred decided through node label columns; the
// nil *IndexedPreferred scores 0.
type IndexedPreferred struct {
	terms   []IndexedTerm
	weights []int64
}

// Index returns the preferred terms decided through cols' columns (nil for
// a nil receiver).
func (p *Preferred) Index(cols Columns) *IndexedPreferred {
	if p == nil {
		return nil
	}
	out := &IndexedPreferred{terms: make([]IndexedTerm, len(p.terms)), weights: p.weights}
	for i := range p.terms {
		out.terms[i] = p.terms[i].Index(cols)
	}
	return out
}

// Score is Preferred.Score for the node of snapshot slot i.
func (p *IndexedPreferred) Score(i int, node *corev1.Node) int64 {
	if p == nil {
		return 0
	}
	var s int64
	for k := range p.terms {
		if p.terms[k].Matches(i, node) {
			s += p.weights[k]
		}
	}
	return s
}
