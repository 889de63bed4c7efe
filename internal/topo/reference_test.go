package topo

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/taints"
)

// refSpreadFilter is a deliberately plain transcription of
// podtopologyspread's calPreFilterState and Filter (v1.36) for explicit
// constraints: string maps, selectors re-evaluated on every pod.
func refSpreadFilter(snap *cluster.Snapshot, pod *corev1.Pod, node *corev1.Node) string {
	type tsc struct {
		c   corev1.TopologySpreadConstraint
		sel labels.Selector
	}
	var cs []tsc
	for _, c := range pod.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable != corev1.DoNotSchedule {
			continue
		}
		sel, _ := metav1.LabelSelectorAsSelector(c.LabelSelector)
		cs = append(cs, tsc{c, sel})
	}
	if len(cs) == 0 {
		return "Success"
	}
	aff := newRequiredNodeAffinity(pod)
	counts := make([]map[string]int, len(cs))
	for i := range cs {
		counts[i] = map[string]int{}
	}
	for _, n := range cluster.NodesOf(snap) {
		all := true
		for _, c := range cs {
			if _, ok := n.Node.Labels[c.c.TopologyKey]; !ok {
				all = false
			}
		}
		if !all {
			continue
		}
		for i, c := range cs {
			honorAff := c.c.NodeAffinityPolicy == nil || *c.c.NodeAffinityPolicy == corev1.NodeInclusionPolicyHonor
			honorTaints := c.c.NodeTaintsPolicy != nil && *c.c.NodeTaintsPolicy == corev1.NodeInclusionPolicyHonor
			if honorAff && !aff.matches(n.Node) {
				continue
			}
			if honorTaints && taints.Untolerated(n.Node.Spec.Taints, pod.Spec.Tolerations) {
				continue
			}
			cnt := 0
			if !c.sel.Empty() {
				for _, p := range n.Pods {
					if p.Pod.DeletionTimestamp == nil && p.Pod.Namespace == pod.Namespace && c.sel.Matches(labels.Set(p.Pod.Labels)) {
						cnt++
					}
				}
			}
			counts[i][n.Node.Labels[c.c.TopologyKey]] += cnt
		}
	}
	for i, c := range cs {
		v, ok := node.Labels[c.c.TopologyKey]
		if !ok {
			return "UnschedulableAndUnresolvable"
		}
		minNum := -1
		for _, x := range counts[i] {
			if minNum < 0 || x < minNum {
				minNum = x
			}
		}
		minDomains := int32(1)
		if c.c.MinDomains != nil {
			minDomains = *c.c.MinDomains
		}
		if len(counts[i]) < int(minDomains) || minNum < 0 {
			minNum = 0
		}
		self := 0
		if c.sel.Matches(labels.Set(pod.Labels)) {
			self = 1
		}
		if counts[i][v]+self-minNum > int(c.c.MaxSkew) {
			return "Unschedulable"
		}
	}
	return "Success"
}

// refAffinityFilter transcribes interpodaffinity's PreFilter and Filter
// (v1.36) for terms without namespace selectors: pair maps, every pod
// matched against every term.
func refAffinityFilter(snap *cluster.Snapshot, pi *cluster.PodInfo, node *corev1.Node) string {
	pod := pi.Pod
	type pair struct{ k, v string }
	matches := func(t *cluster.AffinityTerm, p *corev1.Pod) bool {
		return t.Namespaces.Has(p.Namespace) && t.Selector.Matches(labels.Set(p.Labels))
	}
	existing, aff, anti := map[pair]int{}, map[pair]int{}, map[pair]int{}
	for _, n := range cluster.NodesOf(snap) {
		for _, ep := range n.Pods {
			for i := range ep.RequiredAntiAffinityTerms() {
				t := &ep.RequiredAntiAffinityTerms()[i]
				if v, ok := n.Node.Labels[t.TopologyKey]; ok && matches(t, pod) {
					existing[pair{t.TopologyKey, v}]++
				}
			}
			all := len(pi.RequiredAffinityTerms()) > 0
			for i := range pi.RequiredAffinityTerms() {
				all = all && matches(&pi.RequiredAffinityTerms()[i], ep.Pod)
			}
			if all {
				for _, t := range pi.RequiredAffinityTerms() {
					if v, ok := n.Node.Labels[t.TopologyKey]; ok {
						aff[pair{t.TopologyKey, v}]++
					}
				}
			}
			for i := range pi.RequiredAntiAffinityTerms() {
				t := &pi.RequiredAntiAffinityTerms()[i]
				if v, ok := n.Node.Labels[t.TopologyKey]; ok && matches(t, ep.Pod) {
					anti[pair{t.TopologyKey, v}]++
				}
			}
		}
	}
	podsExist := true
	for _, t := range pi.RequiredAffinityTerms() {
		v, ok := node.Labels[t.TopologyKey]
		if !ok {
			return "UnschedulableAndUnresolvable"
		}
		if aff[pair{t.TopologyKey, v}] <= 0 {
			podsExist = false
		}
	}
	if !podsExist {
		self := len(pi.RequiredAffinityTerms()) > 0
		for i := range pi.RequiredAffinityTerms() {
			self = self && matches(&pi.RequiredAffinityTerms()[i], pod)
		}
		if len(aff) != 0 || !self {
			return "UnschedulableAndUnresolvable"
		}
	}
	for _, t := range pi.RequiredAntiAffinityTerms() {
		if v, ok := node.Labels[t.TopologyKey]; ok && anti[pair{t.TopologyKey, v}] > 0 {
			return "Unschedulable"
		}
	}
	for k, v := range node.Labels {
		if existing[pair{k, v}] > 0 {
			return "Unschedulable"
		}
	}
	return "Success"
}

// TestFiltersAgainstReference checks both Filters against the plain
// transcriptions above on random small clusters.
func TestFiltersAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		genNodeAffinity(t, pod)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		pi, s, a := plugins(t, snap, pod)
		for _, n := range cluster.NodesOf(snap) {
			require.Equal(t, refSpreadFilter(snap, pod, n.Node), s.Filter(n).Code.String(), "spread on %s", n.Name)
			require.Equal(t, refAffinityFilter(snap, pi, n.Node), a.Filter(n).Code.String(), "affinity on %s", n.Name)
		}
	})
}
