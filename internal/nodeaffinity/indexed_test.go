package nodeaffinity

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// testColumns builds columns over a node list as cluster.Snapshot.Column
// does: value IDs in order of first appearance, -1 without the key.
type testColumns []*corev1.Node

func (ns testColumns) Column(key string) *cluster.Column {
	return cluster.NewColumn(key, len(ns), func(i int) map[string]string { return ns[i].Labels })
}

// TestIndexedTermMatches: the column form of a term decides each node as
// nodeSelectorTerm.match does (component-helpers v0.36), operator by
// operator, for nodes with and without the key.
func TestIndexedTermMatches(t *testing.T) {
	nodes := testColumns{
		{ObjectMeta: metav1.ObjectMeta{Name: "n0", Labels: map[string]string{"zone": "a", "gen": "5"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "b", "gen": "x"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "n2", Labels: map[string]string{}}},
		{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"zone": "a"}}}, // no name: fields skipped
	}
	tests := []struct {
		name string
		term corev1.NodeSelectorTerm
		want []bool
	}{
		{"In", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "a", "c")}}, []bool{true, false, false, true}},
		{"In a value no node has", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "c")}}, []bool{false, false, false, false}},
		{"NotIn holds without the key", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpNotIn, "a")}}, []bool{false, true, true, false}},
		{"Exists", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpExists)}}, []bool{true, true, false, false}},
		{"DoesNotExist", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpDoesNotExist)}}, []bool{false, false, true, true}},
		{"Gt skips values that are not integers", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpGt, "4")}}, []bool{true, false, false, false}},
		{"Lt", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpLt, "6")}}, []bool{true, false, false, false}},
		{"a key no node has", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("disk", corev1.NodeSelectorOpNotIn, "ssd")}}, []bool{true, true, true, true}},
		{"requirements are ANDed", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "a"), expr("gen", corev1.NodeSelectorOpExists)}}, []bool{true, false, false, false}},
		{"metadata.name, skipped without a name", corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{nameIs(corev1.NodeSelectorOpIn, "n1")}}, []bool{false, true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, errs := CompileTerm(&tt.term, field.NewPath("t"))
			require.Empty(t, errs)
			x := c.Index(nodes)
			for i, n := range nodes {
				assert.Equal(t, tt.want[i], x.Matches(i, n), "node %d", i)
				assert.Equal(t, c.Matches(n), x.Matches(i, n), "node %d against Term.Matches", i)
			}
		})
	}
}

// TestIndexedProperties: over random nodes and requirements from small
// pools, the column forms decide as the map forms (and as labels.Selector
// for a node selector map).
func TestIndexedProperties(t *testing.T) {
	keys := []string{"zone", "gen", "disk"}
	values := []string{"a", "b", "1", "7", "30"}
	ops := []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists,
		corev1.NodeSelectorOpDoesNotExist, corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt}
	drawNodes := func(t *rapid.T) testColumns {
		var nodes testColumns
		for i := range rapid.IntRange(1, 8).Draw(t, "nodes") {
			n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%d", i), Labels: map[string]string{}}}
			for _, k := range keys {
				if rapid.Bool().Draw(t, "has") {
					n.Labels[k] = rapid.SampledFrom(values).Draw(t, "v")
				}
			}
			nodes = append(nodes, n)
		}
		return nodes
	}
	drawTerm := func(t *rapid.T) corev1.NodeSelectorTerm {
		var term corev1.NodeSelectorTerm
		for range rapid.IntRange(0, 3).Draw(t, "reqs") {
			op := rapid.SampledFrom(ops).Draw(t, "op")
			r := corev1.NodeSelectorRequirement{Key: rapid.SampledFrom(keys).Draw(t, "key"), Operator: op}
			switch op {
			case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
				r.Values = rapid.SliceOfNDistinct(rapid.SampledFrom(values), 1, 3, rapid.ID[string]).Draw(t, "values")
			case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
				r.Values = []string{rapid.SampledFrom([]string{"1", "5", "20"}).Draw(t, "bound")}
			}
			term.MatchExpressions = append(term.MatchExpressions, r)
		}
		if rapid.IntRange(0, 3).Draw(t, "field") == 0 {
			term.MatchFields = append(term.MatchFields, nameIs(rapid.SampledFrom([]corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}).Draw(t, "fop"), "n1"))
		}
		return term
	}
	t.Run("a selector and preferred terms decide every node as their map forms", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			nodes := drawNodes(t)
			ns := &corev1.NodeSelector{}
			var pref []corev1.PreferredSchedulingTerm
			for range rapid.IntRange(0, 3).Draw(t, "terms") {
				term := drawTerm(t)
				ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, term)
				pref = append(pref, corev1.PreferredSchedulingTerm{Weight: rapid.Int32Range(0, 5).Draw(t, "w"), Preference: term})
			}
			sel, errs := CompileSelector(ns, field.NewPath("s"))
			require.Empty(t, errs)
			p, errs := CompilePreferred(pref, field.NewPath("p"))
			require.Empty(t, errs)
			xs, xp := sel.Index(nodes), p.Index(nodes)
			for i, n := range nodes {
				require.Equal(t, sel.Matches(n), xs.Matches(i, n), "node %d", i)
				require.Equal(t, p.Score(n), xp.Score(i, n), "node %d", i)
			}
		})
	})
	t.Run("a node selector map decides as labels.SelectorFromSet", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			nodes := drawNodes(t)
			set := map[string]string{}
			for range rapid.IntRange(0, 2).Draw(t, "pairs") {
				set[rapid.SampledFrom(keys).Draw(t, "k")] = rapid.SampledFrom(values).Draw(t, "v")
			}
			x := LabelsIndexed(set, nodes)
			for i, n := range nodes {
				require.Equal(t, labels.SelectorFromSet(set).Matches(labels.Set(n.Labels)), x.Matches(i, n), "node %d", i)
			}
		})
	})
}

// TestIndexedNilPreferred: the nil preferred terms score 0 in both forms.
func TestIndexedNilPreferred(t *testing.T) {
	var p *Preferred
	x := p.Index(testColumns{})
	assert.Nil(t, x)
	assert.Equal(t, int64(0), x.Score(0, &corev1.Node{}))
}
