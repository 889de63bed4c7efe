package cluster

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

func labelledPod(ns, name, node string, l map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: l},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
}

// union returns the distinct IDs of the lists, sorted.
func union(lists [][]int32) []int32 {
	var out []int32
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// listed returns the number of IDs in the lists, repeats included.
func listed(lists [][]int32) int {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	return n
}

func mustParse(t *testing.T, s string) labels.Selector {
	sel, err := labels.Parse(s)
	require.NoError(t, err)
	return sel
}

// TestSetCandidates checks the label-set postings: each anchored selector
// gets the sets carrying its narrowest anchor's label, a selector without
// anchor gets none (ok false), labels.Nothing gets an empty list, and a
// view that interned new sets sees them while the parent's view, taken
// before, never gets an ID beyond its own sets.
func TestSetCandidates(t *testing.T) {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}
	snap, _, err := New(Input{Nodes: []*corev1.Node{n}, Pods: []*corev1.Pod{
		labelledPod("default", "p0", "n", map[string]string{"app": "a", "tier": "web"}), // set 0
		labelledPod("default", "p1", "n", map[string]string{"app": "b"}),                // set 1
		labelledPod("default", "p2", "n", map[string]string{"tier": "db", "n": "5"}),    // set 2
		labelledPod("other", "p3", "n", map[string]string{"app": "a"}),                  // set 3
	}})
	require.NoError(t, err)
	v := snap.Labels()
	require.Len(t, v.Sets, 4)
	idOf := map[string]int32{}
	for id, s := range v.Sets {
		idOf[fmt.Sprintf("%s %v", s.Namespace, s.Labels)] = int32(id)
	}
	require.Len(t, idOf, 4)
	ids := func(keys ...string) []int32 {
		var out []int32
		for _, k := range keys {
			out = append(out, idOf[k])
		}
		slices.Sort(out)
		return out
	}
	a0, b1, db2, a3 := "default map[app:a tier:web]", "default map[app:b]", "default map[n:5 tier:db]", "other map[app:a]"
	tests := []struct {
		name   string
		sel    labels.Selector
		want   []int32
		wantOK bool
	}{
		{"equals", mustParse(t, "app=a"), ids(a0, a3), true},
		{"in, two values", mustParse(t, "app in (a,b)"), ids(a0, b1, a3), true},
		{"exists", mustParse(t, "tier"), ids(a0, db2), true},
		{"narrowest anchor of several", mustParse(t, "app=a,tier"), ids(a0, a3), true},
		{"gt anchors on its key", mustParse(t, "n>3"), ids(db2), true},
		{"in and notin: the in anchors", mustParse(t, "app in (b),tier notin (web)"), ids(b1), true},
		{"unknown value", mustParse(t, "app=zzz"), nil, true},
		{"notin alone has no anchor", mustParse(t, "app notin (a)"), nil, false},
		{"does-not-exist alone has no anchor", mustParse(t, "!tier"), nil, false},
		{"everything has no anchor", labels.Everything(), nil, false},
		{"nothing has no candidate", labels.Nothing(), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := labelmatch.New(tt.sel)
			lists, total, ok := v.SetCandidates(&m, nil)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, union(lists))
			assert.Equal(t, len(tt.want), total)
		})
	}

	t.Run("exclusions decide NotIn and DoesNotExist selectors", func(t *testing.T) {
		for _, tt := range []struct {
			sel    string
			want   []int32 // the sets it does not match
			wantOK bool
		}{
			{"app notin (a)", ids(a0, a3), true},
			{"app!=b", ids(b1), true},
			{"!tier", ids(a0, db2), true},
			{"app notin (a,b),!n", ids(a0, b1, db2, a3), true},
			{"app notin (zzz)", nil, true},
			{"app=a", nil, false},
			{"app notin (a),tier", nil, false},
			{"n<3", nil, false},
		} {
			m := labelmatch.New(mustParse(t, tt.sel))
			lists, ok := v.SetExclusions(&m, nil)
			assert.Equal(t, tt.wantOK, ok, tt.sel)
			assert.Equal(t, tt.want, union(lists), tt.sel)
		}
		for _, sel := range []labels.Selector{labels.Everything(), labels.Nothing()} {
			m := labelmatch.New(sel)
			_, ok := v.SetExclusions(&m, nil)
			assert.False(t, ok, "everything and nothing are not exclusions")
		}
	})

	t.Run("a view's new sets are posted, the parent's view filters them", func(t *testing.T) {
		view, err := snap.WithPod(labelledPod("default", "p4", "n", map[string]string{"app": "a", "new": "x"}))
		require.NoError(t, err)
		vv := view.Labels()
		require.Len(t, vv.Sets, 5)
		m := labelmatch.New(mustParse(t, "app=a"))
		lists, _, _ := vv.SetCandidates(&m, nil)
		assert.Equal(t, []int32{idOf[a0], idOf[a3], 4}, union(lists))
		// The parent's view was taken with four sets: the postings (now
		// holding set 4) are cut to it.
		lists, total, _ := v.SetCandidates(&m, nil)
		assert.Equal(t, ids(a0, a3), union(lists))
		assert.Equal(t, 2, total)
		nm := labelmatch.New(mustParse(t, "new"))
		lists, _, ok := v.SetCandidates(&nm, nil)
		assert.True(t, ok)
		assert.Empty(t, union(lists))
		lists, _, _ = vv.SetCandidates(&nm, nil)
		assert.Equal(t, []int32{4}, union(lists))
		assert.Equal(t, []string{"default", "other"}, vv.Namespaces)
		assert.Equal(t, "other", vv.Namespaces[vv.Sets[idOf[a3]].NamespaceID])
	})

	t.Run("the zero view narrows nothing", func(t *testing.T) {
		var zero LabelView
		m := labelmatch.New(mustParse(t, "app=a"))
		_, _, ok := zero.SetCandidates(&m, nil)
		assert.False(t, ok)
	})
}

// TestTermCandidates checks the term postings: a term is a candidate for
// a pod when the pod carries its In anchor's label (any of the values) or
// its Exists anchor's key; terms without anchor are always candidates; a
// term that matches nothing never is. Namespaces are not decided here.
func TestTermCandidates(t *testing.T) {
	x := newLabelIndex()
	intern := func(s labels.Selector) int32 {
		return x.internTermByKey(&AffinityTerm{TopologyKey: "zone", Namespaces: sets.New("default"), Selector: s})
	}
	appA := intern(mustParse(t, "app=a"))
	appAB := intern(mustParse(t, "app in (a,b),tier notin (x)"))
	tierExists := intern(mustParse(t, "tier"))
	notIn := intern(mustParse(t, "tier notin (web)"))
	every := intern(labels.Everything())
	nothing := x.internTermByKey(&AffinityTerm{TopologyKey: "zone", Namespaces: sets.New("default")})
	nGt := intern(mustParse(t, "n>2"))
	v := LabelView{x: x, Terms: x.terms, TermMatchers: x.matchers}
	tests := []struct {
		name   string
		labels map[string]string
		want   []int32
	}{
		{"app a", map[string]string{"app": "a"}, []int32{appA, appAB, notIn, every}},
		{"app b with tier", map[string]string{"app": "b", "tier": "web"}, []int32{appAB, tierExists, notIn, every}},
		{"no labels", nil, []int32{notIn, every}},
		{"numeric key", map[string]string{"n": "3"}, []int32{notIn, every, nGt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := union(v.TermCandidates(tt.labels, nil))
			want := slices.Clone(tt.want)
			slices.Sort(want)
			assert.Equal(t, want, got)
			assert.NotContains(t, got, nothing)
		})
	}
	t.Run("namespace rules and single anchors are recorded per term", func(t *testing.T) {
		y := newLabelIndex()
		mk := func(key string, names []string, nsSel labels.Selector, sel string) TermMatcher {
			return y.matchers[y.internTermByKey(&AffinityTerm{TopologyKey: key, Namespaces: sets.New(names...), NamespaceSelector: nsSel, Selector: mustParse(t, sel)})]
		}
		a := mk("zone", []string{"x", "y"}, nil, "app=a")
		b := mk("host", []string{"y", "x"}, nil, "app in (b,c)") // same rule, other key and selector
		c := mk("zone", []string{"x"}, nil, "app=a")
		d := mk("zone", []string{"x", "y"}, labels.Everything(), "app=a,tier")
		e := mk("zone", []string{"x", "y"}, labels.Nothing(), "tier")
		assert.Equal(t, a.NamespaceRule, b.NamespaceRule)
		assert.Equal(t, a.NamespaceRule, e.NamespaceRule, "a nil namespace selector and labels.Nothing both match nothing")
		assert.NotEqual(t, a.NamespaceRule, c.NamespaceRule)
		assert.NotEqual(t, a.NamespaceRule, d.NamespaceRule)
		assert.NotEqual(t, a.KeyID, b.KeyID)
		assert.Equal(t, a.KeyID, c.KeyID)
		assert.Equal(t, []bool{true, true, true, false, true}, []bool{a.SingleAnchor, b.SingleAnchor, c.SingleAnchor, d.SingleAnchor, e.SingleAnchor})
		assert.Equal(t, 3, len(y.nsRuleIDs))
	})

	t.Run("a view taken before a term was interned never lists it", func(t *testing.T) {
		later := intern(mustParse(t, "app=a,tier=web"))
		got := union(v.TermCandidates(map[string]string{"app": "a"}, nil))
		assert.NotContains(t, got, later)
		now := LabelView{x: x, Terms: x.terms, TermMatchers: x.matchers}
		assert.Contains(t, union(now.TermCandidates(map[string]string{"app": "a"}, nil)), later)
	})
}

// TestCandidatesCoverMatches is a reference-model property of the postings:
// every label set a selector matches is among its candidates (and a single
// anchor's candidates all match), and every term whose selector matches a
// pod's labels is among the pod's term candidates, for selectors with every
// operator over small pools and views that add sets.
func TestCandidatesCoverMatches(t *testing.T) {
	keys := []string{"app", "tier", "n"}
	vals := []string{"a", "b", "1", "3"}
	ops := []selection.Operator{selection.In, selection.NotIn, selection.Exists, selection.DoesNotExist,
		selection.Equals, selection.NotEquals, selection.GreaterThan, selection.LessThan}
	genSel := func(t *rapid.T) labels.Selector {
		switch rapid.IntRange(0, 8).Draw(t, "shape") {
		case 0:
			return labels.Nothing()
		case 1:
			return labels.Everything()
		}
		sel := labels.NewSelector()
		for range rapid.IntRange(1, 3).Draw(t, "reqs") {
			op := rapid.SampledFrom(ops).Draw(t, "op")
			var vs []string
			switch op {
			case selection.In, selection.NotIn:
				vs = rapid.SliceOfN(rapid.SampledFrom(vals), 1, 3).Draw(t, "vals")
			case selection.Equals, selection.NotEquals:
				vs = []string{rapid.SampledFrom(vals).Draw(t, "val")}
			case selection.GreaterThan, selection.LessThan:
				vs = []string{rapid.SampledFrom([]string{"1", "2"}).Draw(t, "num")}
			}
			r, err := labels.NewRequirement(rapid.SampledFrom(keys).Draw(t, "key"), op, vs)
			if err != nil {
				t.Fatal(err)
			}
			sel = sel.Add(*r)
		}
		return sel
	}
	genLabels := func(t *rapid.T, name string) map[string]string {
		return rapid.MapOfN(rapid.SampledFrom(keys), rapid.SampledFrom(vals), 0, 3).Draw(t, name)
	}
	t.Run("candidates hold every matching set and term", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}
			var pods []*corev1.Pod
			for i := range rapid.IntRange(0, 8).Draw(t, "pods") {
				pods = append(pods, labelledPod("default", fmt.Sprintf("p%d", i), "n", genLabels(t, "labels")))
			}
			snap, _, err := New(Input{Nodes: []*corev1.Node{n}, Pods: pods})
			require.NoError(t, err)
			v := snap.Labels()
			view, err := snap.WithPod(labelledPod("default", "added", "n", genLabels(t, "added")))
			require.NoError(t, err)
			vv := view.Labels()
			for range rapid.IntRange(1, 4).Draw(t, "selectors") {
				sel := genSel(t)
				m := labelmatch.New(sel)
				for _, lv := range []*LabelView{&v, &vv, &v} {
					lists, total, ok := lv.SetCandidates(&m, nil)
					got := union(lists)
					if n := listed(lists); ok && (len(got) != total || n != total) {
						t.Fatalf("total %d, %d listed, %d distinct candidates: a set listed twice", total, n, len(got))
					}
					for id, s := range lv.Sets {
						match := sel.Matches(labels.Set(s.Labels))
						listed := !ok || slices.Contains(got, int32(id))
						if match && !listed {
							t.Fatalf("selector %q matches set %d %v, not a candidate (%v)", sel, id, s.Labels, got)
						}
						if ok && listed && m.SingleAnchor() && !match {
							t.Fatalf("single anchor %q lists set %d %v, which it does not match", sel, id, s.Labels)
						}
					}
					if excl, ok := lv.SetExclusions(&m, nil); ok {
						ex := union(excl)
						for id, s := range lv.Sets {
							if sel.Matches(labels.Set(s.Labels)) == slices.Contains(ex, int32(id)) {
								t.Fatalf("exclusions of %q: set %d %v listed %v", sel, id, s.Labels, slices.Contains(ex, int32(id)))
							}
						}
					}
					for _, id := range got {
						if int(id) >= len(lv.Sets) {
							t.Fatalf("candidate %d beyond the view's %d sets", id, len(lv.Sets))
						}
					}
				}
				x := view.labels
				x.mu.Lock()
				x.internTermByKey(&AffinityTerm{TopologyKey: "zone", Namespaces: sets.New("default"), Selector: sel})
				x.mu.Unlock()
			}
			tv := LabelView{x: view.labels, Terms: view.labels.terms, TermMatchers: view.labels.matchers}
			for range 3 {
				l := genLabels(t, "podLabels")
				lists := tv.TermCandidates(l, nil)
				got := union(lists)
				if listed(lists) != len(got) {
					t.Fatalf("a term listed twice for %v: %v", l, lists)
				}
				for id := range tv.TermMatchers {
					tm := &tv.TermMatchers[id]
					match := tm.Selector.Matches(l)
					listed := slices.Contains(got, int32(id))
					if match && !listed {
						t.Fatalf("term %d matches %v, not a candidate (%v)", id, l, got)
					}
					if listed && tm.Selector.SingleAnchor() && !match {
						t.Fatalf("single-anchor term %d listed for %v, which it does not match", id, l)
					}
				}
			}
		})
	})
}

// BenchmarkSetCandidates measures narrowing one selector on an index of
// 2,000 label sets (postings already built).
func BenchmarkSetCandidates(b *testing.B) {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}
	var pods []*corev1.Pod
	for i := range 2000 {
		pods = append(pods, labelledPod("default", fmt.Sprintf("p%d", i), "n",
			map[string]string{"app": fmt.Sprintf("a%d", i%100), "workload": fmt.Sprintf("w%d", i), "tier": "web"}))
	}
	snap, _, err := New(Input{Nodes: []*corev1.Node{n}, Pods: pods})
	require.NoError(b, err)
	v := snap.Labels()
	m := labelmatch.New(labels.SelectorFromSet(labels.Set{"app": "a7", "tier": "web"}))
	var buf [4][]int32
	v.SetCandidates(&m, buf[:0])
	b.ReportAllocs()
	for b.Loop() {
		v.SetCandidates(&m, buf[:0])
	}
}

// TestInternTermIdentity checks that terms are identified by their
// canonical text (topology key, namespaces in any order, selectors'
// String, nil and labels.Nothing alike) whether found through the spec
// hash or the text: equal specs share an ID, and specs that differ only in
// value order share it too (the text sorts values).
func TestInternTermIdentity(t *testing.T) {
	req := func(key string, op selection.Operator, vals ...string) labels.Requirement {
		r, err := labels.NewRequirement(key, op, vals)
		require.NoError(t, err)
		return *r
	}
	sel := func(rs ...labels.Requirement) labels.Selector { return labels.NewSelector().Add(rs...) }
	term := func(key string, ns []string, nsSel, s labels.Selector) *AffinityTerm {
		return &AffinityTerm{TopologyKey: key, Namespaces: sets.New(ns...), NamespaceSelector: nsSel, Selector: s}
	}
	x := newLabelIndex()
	a := x.internTermByKey(term("zone", []string{"x", "y"}, nil, sel(req("app", selection.In, "a", "b"))))
	tests := []struct {
		name string
		t    *AffinityTerm
		same bool
	}{
		{"equal spec, other objects", term("zone", []string{"y", "x"}, nil, sel(req("app", selection.In, "a", "b"))), true},
		{"values in another order", term("zone", []string{"x", "y"}, nil, sel(req("app", selection.In, "b", "a"))), true},
		{"labels.Nothing namespace selector is nil's", term("zone", []string{"x", "y"}, labels.Nothing(), sel(req("app", selection.In, "a", "b"))), true},
		{"other value", term("zone", []string{"x", "y"}, nil, sel(req("app", selection.In, "a", "c"))), false},
		{"other operator", term("zone", []string{"x", "y"}, nil, sel(req("app", selection.NotIn, "a", "b"))), false},
		{"other key", term("host", []string{"x", "y"}, nil, sel(req("app", selection.In, "a", "b"))), false},
		{"other namespaces", term("zone", []string{"x"}, nil, sel(req("app", selection.In, "a", "b"))), false},
		{"everything namespace selector", term("zone", []string{"x", "y"}, labels.Everything(), sel(req("app", selection.In, "a", "b"))), false},
		{"nil selector", term("zone", []string{"x", "y"}, nil, nil), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := x.internTermByKey(tt.t)
			assert.Equal(t, tt.same, id == a)
			assert.Equal(t, id, x.internTermByKey(tt.t), "found again through the hash")
		})
	}
}
