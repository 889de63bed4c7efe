package nodeaffinity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func expr(key string, op corev1.NodeSelectorOperator, vals ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

func nameIs(op corev1.NodeSelectorOperator, vals ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: metav1.ObjectNameField, Operator: op, Values: vals}
}

// TestTermMatches mirrors nodeaffinity.nodeSelectorTerm.match (component-helpers v0.36).
func TestTermMatches(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a", "gen": "5"}}}
	unnamed := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"zone": "a"}}}
	tests := []struct {
		name string
		term corev1.NodeSelectorTerm
		node *corev1.Node
		want bool
	}{
		{"label In", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "a", "b")}}, node, true},
		{"labels are ANDed", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "a"), expr("disk", corev1.NodeSelectorOpExists)}}, node, false},
		{"Gt compares integers", corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpGt, "4")}}, node, true},
		{"metadata.name In", corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{nameIs(corev1.NodeSelectorOpIn, "n1")}}, node, true},
		{"metadata.name NotIn", corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{nameIs(corev1.NodeSelectorOpNotIn, "n1")}}, node, false},
		{"another field reads as empty", corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{{Key: "spec.x", Operator: corev1.NodeSelectorOpIn, Values: []string{""}}}}, node, true},
		{"fields are skipped for a node without a name", corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{nameIs(corev1.NodeSelectorOpIn, "n1")}}, unnamed, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, errs := CompileTerm(&tt.term, field.NewPath("t"))
			require.Empty(t, errs)
			assert.Equal(t, tt.want, c.Matches(tt.node))
		})
	}
}

// TestCompileErrors mirrors nodeaffinity.NewNodeSelector's error list: every
// problem at once, each with its path.
func TestCompileErrors(t *testing.T) {
	ns := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{
		{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", "Bogus", "a"), expr("zone", corev1.NodeSelectorOpIn)}},
		{},
		{MatchFields: []corev1.NodeSelectorRequirement{nameIs(corev1.NodeSelectorOpIn, "a", "b"), nameIs(corev1.NodeSelectorOpExists)}},
	}}
	_, errs := CompileSelector(ns, field.NewPath("spec"))
	var paths []string
	for _, e := range errs {
		paths = append(paths, e.Field)
	}
	assert.Equal(t, []string{
		"spec.nodeSelectorTerms[0].matchExpressions[0].operator",
		"spec.nodeSelectorTerms[0].matchExpressions[1].values",
		"spec.nodeSelectorTerms[2].matchFields[0].values",
		"spec.nodeSelectorTerms[2].matchFields[1].operator",
	}, paths)
}

// TestSelectors covers ORed terms, empty terms, the lenient rule of
// LazyErrorNodeSelector and PreferredSchedulingTerms.Score.
func TestSelectors(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a"}}}
	zoneA := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "a")}}
	zoneB := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "b")}}
	broken := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", "Bogus")}}

	s, errs := CompileSelector(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{zoneB, zoneA}}, nil)
	require.Empty(t, errs)
	assert.True(t, s.Matches(node), "terms are ORed")

	s, errs = CompileSelector(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{}}}, nil)
	require.Empty(t, errs)
	assert.False(t, s.Matches(node), "an empty term selects nothing")

	assert.True(t, LenientSelector(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{broken, zoneA}}).Matches(node), "a broken term does not spoil the others")
	assert.False(t, LenientSelector(&corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{broken}}).Matches(node), "a broken term never matches")

	p, errs := CompilePreferred([]corev1.PreferredSchedulingTerm{{Weight: 3, Preference: zoneA}, {Weight: 5, Preference: zoneB}, {Weight: 0, Preference: zoneA}, {Weight: 7}, {Weight: 11, Preference: zoneA}}, nil)
	require.Empty(t, errs)
	assert.Equal(t, int64(14), p.Score(node))
	var none *Preferred
	assert.Zero(t, none.Score(node))
}
