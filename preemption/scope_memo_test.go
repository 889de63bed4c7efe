package preemption

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

// drawScopeSelector draws a small selector (possibly nil, empty or with a
// set operator) over the app/tier pool, so that selectors collide with the
// bound pods' labels often.
func drawScopeSelector(t *rapid.T, label string) *metav1.LabelSelector {
	switch rapid.IntRange(0, 4).Draw(t, label) {
	case 0:
		return nil
	case 1:
		return &metav1.LabelSelector{}
	case 2:
		return sel("app", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, label+"app"))
	case 3:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{rapid.SampledFrom([]string{"x", "y"}).Draw(t, label+"tier")}}}}
	default:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: "app", Operator: metav1.LabelSelectorOpDoesNotExist}}}
	}
}

func drawScopeTerms(t *rapid.T, label string) []corev1.PodAffinityTerm {
	var terms []corev1.PodAffinityTerm
	for i := rapid.IntRange(0, 2).Draw(t, label); i > 0; i-- {
		terms = append(terms, corev1.PodAffinityTerm{LabelSelector: drawScopeSelector(t, label+"sel"), TopologyKey: "kubernetes.io/hostname"})
	}
	return terms
}

// TestScopeMemoMatchesScope: scopeMemo.affects (labelsAffect decided once
// per interned label set) answers as topologyScope.affects (selectors
// matched against every pod's labels) for every bound pod of random worlds,
// on first use and from the memo, and for a pod the index never interned;
// the memo's scope is narrowed by the label index's set candidates.
func TestScopeMemoMatchesScope(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nNodes := rapid.IntRange(1, 4).Draw(t, "nodes")
		var nodes []*corev1.Node
		for i := 0; i < nNodes; i++ {
			nodes = append(nodes, mkNode(fmt.Sprintf("n%d", i), 4000))
		}
		var pods []*corev1.Pod
		for i, n := 0, rapid.IntRange(1, 12).Draw(t, "pods"); i < n; i++ {
			p := mkPod(fmt.Sprintf("b%d", i), onNode(fmt.Sprintf("n%d", rapid.IntRange(0, nNodes-1).Draw(t, "node"))))
			p.Namespace = rapid.SampledFrom([]string{"", "default", "other"}).Draw(t, "ns")
			p.Labels = map[string]string{}
			if rapid.Bool().Draw(t, "hasApp") {
				p.Labels["app"] = rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "app")
			}
			if rapid.Bool().Draw(t, "hasTier") {
				p.Labels["tier"] = rapid.SampledFrom([]string{"x", "y"}).Draw(t, "tier")
			}
			if anti := drawScopeTerms(t, "boundAnti"); len(anti) > 0 {
				p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: anti}}
			}
			pods = append(pods, p)
		}
		pod := mkPod("incoming", labelled("app", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "papp")))
		pod.Namespace = rapid.SampledFrom([]string{"", "other"}).Draw(t, "pns")
		for i := rapid.IntRange(0, 2).Draw(t, "spread"); i > 0; i-- {
			pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: "kubernetes.io/hostname",
				WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"),
				LabelSelector:     drawScopeSelector(t, "spreadSel")})
		}
		aff, anti := drawScopeTerms(t, "aff"), drawScopeTerms(t, "anti")
		if len(aff) > 0 || len(anti) > 0 {
			pod.Spec.Affinity = &corev1.Affinity{}
			if len(aff) > 0 {
				pod.Spec.Affinity.PodAffinity = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: aff}
			}
			if len(anti) > 0 {
				pod.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: anti}
			}
		}
		// Enough copies of the drawn pods that New interns their label sets
		// up front (it does so from 2048 pods on, with more than one CPU):
		// the memo is then shared by many pods per set.
		drawn := len(pods)
		for i := drawn; i < 2100; i++ {
			p := pods[i%drawn].DeepCopy()
			p.Name = fmt.Sprintf("copy%d", i)
			pods = append(pods, p)
		}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods, Parallelism: runtime.GOMAXPROCS(0)})
		require.NoError(t, err)
		c, err := placement.Compile(snap, pod, placement.Options{})
		if err != nil {
			t.Skip("invalid preemptor:", err)
		}
		scope := newTopologyScope(c)
		narrowed := newTopologyScope(c)
		is := snapshotOf(snap)
		narrowed.narrow(is)
		memo := scopeMemo{scope: narrowed, snap: is}
		var all []*cluster.PodInfo
		for _, n := range cluster.NodesOf(is) {
			for _, pi := range n.Pods {
				if _, ok := is.PodLabelSet(pi); !ok && runtime.GOMAXPROCS(0) > 1 {
					t.Fatalf("pod %s bound by New is not interned", pi.Key)
				}
				all = append(all, pi)
			}
		}
		_, ok := is.PodLabelSet(podInfoOf(c))
		require.False(t, ok, "the preemptor was never interned")
		all = append(all, podInfoOf(c))
		decided := 0
		for round := 0; round < 2; round++ {
			for _, pi := range all {
				require.Equal(t, hasRequiredAntiAffinity(pi.Pod), pi.HasRequiredAntiAffinity(), pi.Key)
				require.Equal(t, scope.affects(pi), memo.affects(pi), "round %d, pod %s", round, pi.Key)
			}
		}
		for _, pi := range all {
			// Decided without matching: excluded by the candidates or memoized.
			if id, ok := is.PodLabelSet(pi); ok {
				c := narrowed.candidates
				if (c != nil && !c[id]) || (int(id) < len(memo.bySet) && memo.bySet[id] != 0) {
					decided++
				}
			}
		}
		if runtime.GOMAXPROCS(0) > 1 && scope.active() && !scope.all {
			require.Positive(t, decided, "label sets decided by the index")
		}
	})
}
