package pdbmatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestMatches: the two rules differ on {} and on unlabelled pods only.
func TestMatches(t *testing.T) {
	pdb := func(ns string, sel *metav1.LabelSelector) *policyv1.PodDisruptionBudget {
		return &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns}, Spec: policyv1.PodDisruptionBudgetSpec{Selector: sel}}
	}
	pod := func(ns string, l map[string]string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns, Labels: l}}
	}
	app := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	notB := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"b"}}}}
	tests := []struct {
		name                string
		pdb                 *policyv1.PodDisruptionBudget
		pod                 *corev1.Pod
		scheduler, eviction bool
	}{
		{"nil selector matches nothing", pdb("ns", nil), pod("ns", map[string]string{"app": "a"}), false, false},
		{"{} matches the namespace under Eviction only", pdb("ns", &metav1.LabelSelector{}), pod("ns", nil), false, true},
		{"{} stays in its namespace", pdb("ns", &metav1.LabelSelector{}), pod("other", nil), false, false},
		{"labels match", pdb("ns", app), pod("ns", map[string]string{"app": "a"}), true, true},
		{"other namespace", pdb("ns", app), pod("other", map[string]string{"app": "a"}), false, false},
		{"empty namespace is default", pdb("", app), pod("default", map[string]string{"app": "a"}), true, true},
		{"unlabelled pod under the scheduler's rule", pdb("ns", notB), pod("ns", nil), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile(tt.pdb, Scheduler)
			require.NoError(t, err)
			e, err := Compile(tt.pdb, Eviction)
			require.NoError(t, err)
			assert.Equal(t, tt.scheduler, s.Matches(tt.pod), "scheduler")
			assert.Equal(t, tt.eviction, e.Matches(tt.pod), "eviction")
		})
	}
}
