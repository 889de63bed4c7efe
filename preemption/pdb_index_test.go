package preemption

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// TestCoveringEqualsEveryBudget: the budgets covering a pod, found through
// the label anchors, are exactly those a match against every budget finds,
// in input order, under both selector rules (matchLabels, matchExpressions,
// empty and nil selectors, pods without labels, other namespaces).
func TestCoveringEqualsEveryBudget(t *testing.T) {
	keys, values := []string{"app", "tier", "team"}, []string{"a", "b"}
	genLabels := func(t *rapid.T, label string) map[string]string {
		l := map[string]string{}
		for _, k := range keys {
			if rapid.Bool().Draw(t, label+"Has"+k) {
				l[k] = rapid.SampledFrom(values).Draw(t, label+k)
			}
		}
		return l
	}
	rapid.Check(t, func(t *rapid.T) {
		var pdbs []*policyv1.PodDisruptionBudget
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "pdbs"); i < n; i++ {
			var sel *metav1.LabelSelector
			if rapid.IntRange(0, 5).Draw(t, "nilSel") > 0 {
				sel = &metav1.LabelSelector{MatchLabels: genLabels(t, "ml")}
				if rapid.Bool().Draw(t, "expr") {
					sel.MatchExpressions = []metav1.LabelSelectorRequirement{{
						Key: rapid.SampledFrom(keys).Draw(t, "exprKey"), Operator: rapid.SampledFrom([]metav1.LabelSelectorOperator{
							metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist}).Draw(t, "op")}}
					if op := sel.MatchExpressions[0].Operator; op == metav1.LabelSelectorOpIn || op == metav1.LabelSelectorOpNotIn {
						sel.MatchExpressions[0].Values = []string{rapid.SampledFrom(values).Draw(t, "exprValue")}
					}
				}
			}
			pdbs = append(pdbs, &policyv1.PodDisruptionBudget{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb%d", i), Namespace: rapid.SampledFrom([]string{"default", "other"}).Draw(t, "pdbNS")},
				Spec:       policyv1.PodDisruptionBudgetSpec{Selector: sel},
			})
		}
		rule := rapid.SampledFrom([]PDBSelectorRule{PDBSelectorScheduler, PDBSelectorEviction}).Draw(t, "rule")
		b := compileBudgets(pdbs, rule)
		f := b.fork()
		for i, n := 0, rapid.IntRange(1, 6).Draw(t, "pods"); i < n; i++ {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i),
				Namespace: rapid.SampledFrom([]string{"default", "other", ""}).Draw(t, "podNS"), Labels: genLabels(t, "pod")}}
			var want []int32
			for j := range b.items {
				if b.matches(j, pod) {
					want = append(want, int32(j))
				}
			}
			require.Equal(t, want, b.covering(pod), "pod %v", pod.Labels)
			require.Equal(t, want, f.covering(pod), "fork, pod %v", pod.Labels)
		}
	})
}
