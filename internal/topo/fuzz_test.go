package topo

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/cluster"
)

// parseExprs turns "key op v1,v2;key op" into match expressions; it accepts
// anything, so that the fuzzer reaches invalid keys, values and operators.
func parseExprs(s string) []metav1.LabelSelectorRequirement {
	var out []metav1.LabelSelectorRequirement
	for _, part := range strings.Split(s, ";") {
		f := strings.SplitN(part, " ", 3)
		r := metav1.LabelSelectorRequirement{Key: f[0]}
		if len(f) > 1 {
			r.Operator = metav1.LabelSelectorOperator(f[1])
		}
		if len(f) > 2 {
			r.Values = strings.Split(f[2], ",")
		}
		out = append(out, r)
	}
	return out
}

func parseLabels(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// FuzzMatcher checks that the flattened matcher decides exactly as the
// labels.Selector it was built from, for any selector the API accepts.
func FuzzMatcher(f *testing.F) {
	f.Add("app In a,b;tier Exists", "app=a,tier=web")
	f.Add("app NotIn a;x DoesNotExist", "app=b")
	f.Add("app In a", "")
	f.Add("bad key! In a", "app=a")
	f.Fuzz(func(t *testing.T, exprs, lbls string) {
		ls := &metav1.LabelSelector{MatchExpressions: parseExprs(exprs)}
		sel, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			return
		}
		m := newMatcher(sel)
		l := parseLabels(lbls)
		if got, want := m.matches(l), sel.Matches(labels.Set(l)); got != want {
			t.Fatalf("matcher %v, selector %v (%s) on %v", got, want, sel, l)
		}
		if m.empty() != sel.Empty() {
			t.Fatalf("empty: matcher %v, selector %v", m.empty(), sel.Empty())
		}
	})
}

// FuzzCompileAffinity feeds arbitrary terms to the affinity compiler and the
// plugins: invalid input must give an error with a field path, never a
// panic, and a compiled pod must be usable by both plugins.
func FuzzCompileAffinity(f *testing.F) {
	f.Add("app In a", "team In t1", "ns1", "topology.kubernetes.io/zone", int32(10))
	f.Add("app Bogus a", "", "", "", int32(0))
	f.Add("", "x DoesNotExist", "", "kubernetes.io/hostname", int32(100))
	f.Fuzz(func(t *testing.T, sel, nsSel, ns, key string, weight int32) {
		term := corev1.PodAffinityTerm{TopologyKey: key, LabelSelector: &metav1.LabelSelector{MatchExpressions: parseExprs(sel)}}
		if nsSel != "" {
			term.NamespaceSelector = &metav1.LabelSelector{MatchExpressions: parseExprs(nsSel)}
		}
		if ns != "" {
			term.Namespaces = strings.Split(ns, ",")
		}
		pod := mkPod("p", "", lbl("app", "a"), requiredAffinity(term), requiredAntiAffinity(term), preferredAffinity(weight, term))
		before := pod.DeepCopy()
		_, errs := cluster.CompileAffinityTerm(pod, &term, field.NewPath("term"))
		for _, e := range errs {
			if !strings.HasPrefix(e.Field, "term.") {
				t.Fatalf("error without a path: %v", e)
			}
		}
		pi, err := cluster.NewPodInfo(pod)
		if err != nil {
			if len(errs) == 0 {
				t.Fatalf("NewPodInfo failed on a valid term: %v", err)
			}
			return
		}
		if _, err := NewInterPodAffinity(pi, nil, AffinityOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := NewSpread(pi, nil, SpreadOptions{}); err != nil {
			t.Fatal(err)
		}
		if pod.String() != before.String() {
			t.Fatal("the pod was modified")
		}
	})
}
