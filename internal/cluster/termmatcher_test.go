package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"pgregory.net/rapid"
)

// termMatchesReference is fwk.AffinityTerm.Matches (kube-scheduler v1.36,
// framework/types.go) over the unflattened term, as InterPodAffinity used it
// before TermMatcher.
func termMatchesReference(t *AffinityTerm, ns string, podLabels map[string]string, nsLabels labels.Set) bool {
	if !t.Namespaces.Has(ns) && (t.NamespaceSelector == nil || !t.NamespaceSelector.Matches(nsLabels)) {
		return false
	}
	return t.Selector != nil && t.Selector.Matches(labels.Set(podLabels))
}

func mustSelector(t interface{ Fatal(...any) }, ls *metav1.LabelSelector) labels.Selector {
	s, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTermMatcherMatches mirrors fwk.AffinityTerm.Matches: explicit
// namespaces or the namespace selector, then the label selector; a nil
// selector matches nothing.
func TestTermMatcherMatches(t *testing.T) {
	app := mustSelector(t, &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}})
	notIn := mustSelector(t, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"x"}}}})
	everything := mustSelector(t, &metav1.LabelSelector{})
	team := mustSelector(t, &metav1.LabelSelector{MatchLabels: map[string]string{"team": "t"}})
	cases := []struct {
		name     string
		term     AffinityTerm
		ns       string
		labels   map[string]string
		nsLabels map[string]string
		want     bool
	}{
		{"listed namespace, selector matches", AffinityTerm{Namespaces: sets.New("a"), Selector: app}, "a", map[string]string{"app": "a"}, nil, true},
		{"other namespace, no namespace selector", AffinityTerm{Namespaces: sets.New("a"), Selector: app}, "b", map[string]string{"app": "a"}, nil, false},
		{"nil selector matches nothing", AffinityTerm{Namespaces: sets.New("a")}, "a", map[string]string{"app": "a"}, nil, false},
		{"empty namespace selector, unknown namespace", AffinityTerm{Selector: app, NamespaceSelector: everything}, "z", map[string]string{"app": "a"}, nil, true},
		{"namespace selector matches labels", AffinityTerm{Selector: app, NamespaceSelector: team}, "z", map[string]string{"app": "a"}, map[string]string{"team": "t"}, true},
		{"namespace selector, unknown namespace", AffinityTerm{Selector: app, NamespaceSelector: team}, "z", map[string]string{"app": "a"}, nil, false},
		{"NotIn matches a missing key", AffinityTerm{Namespaces: sets.New("a"), Selector: notIn}, "a", nil, nil, true},
		{"NotIn rejects a listed value", AffinityTerm{Namespaces: sets.New("a"), Selector: notIn}, "a", map[string]string{"tier": "x"}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := newLabelIndex()
			m := x.matchers[x.internTermByKey(&c.term)]
			assert.Equal(t, c.want, m.Matches(c.ns, c.labels, c.nsLabels))
			assert.Equal(t, termMatchesReference(&c.term, c.ns, c.labels, c.nsLabels), m.Matches(c.ns, c.labels, c.nsLabels))
		})
	}
}

// TestTermMatcherProperty: the flattened term decides as the labels.Selector
// form on small pools of keys, values and namespaces.
func TestTermMatcherProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		keys := rapid.SampledFrom([]string{"a", "b"})
		vals := rapid.SampledFrom([]string{"1", "2"})
		nss := rapid.SampledFrom([]string{"n1", "n2"})
		ops := rapid.SampledFrom([]metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist})
		genSel := func(label string) labels.Selector {
			if rapid.Bool().Draw(rt, label+"Nil") {
				return nil
			}
			ls := &metav1.LabelSelector{MatchLabels: rapid.MapOfN(keys, vals, 0, 1).Draw(rt, label+"Labels")}
			for range rapid.IntRange(0, 2).Draw(rt, label+"N") {
				r := metav1.LabelSelectorRequirement{Key: keys.Draw(rt, label+"Key"), Operator: ops.Draw(rt, label+"Op")}
				if r.Operator == metav1.LabelSelectorOpIn || r.Operator == metav1.LabelSelectorOpNotIn {
					r.Values = []string{vals.Draw(rt, label+"Val")}
				}
				ls.MatchExpressions = append(ls.MatchExpressions, r)
			}
			return mustSelector(rt, ls)
		}
		term := AffinityTerm{Namespaces: sets.New(rapid.SliceOfN(nss, 0, 2).Draw(rt, "namespaces")...), Selector: genSel("sel"), NamespaceSelector: genSel("nsSel")}
		ns := nss.Draw(rt, "ns")
		podLabels := rapid.MapOfN(keys, vals, 0, 2).Draw(rt, "podLabels")
		var nsLabels map[string]string
		if rapid.Bool().Draw(rt, "nsKnown") {
			nsLabels = rapid.MapOfN(keys, vals, 0, 2).Draw(rt, "nsLabels")
		}
		x := newLabelIndex()
		m := x.matchers[x.internTermByKey(&term)]
		if got, want := m.Matches(ns, podLabels, nsLabels), termMatchesReference(&term, ns, podLabels, nsLabels); got != want {
			rt.Fatalf("TermMatcher %v, selector form %v", got, want)
		}
	})
}
