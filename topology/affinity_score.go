package topology

import (
	"math"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Score is InterPodAffinity's PreScore, Score and NormalizeScore (v1.36)
// over the feasible nodes: raw[i] and normalized[i] belong to feasible[i].
//
// Every bound pod (every pod with affinity when the incoming pod has no
// preferred term) on a node with labels adds to the pair (term's key, node's
// value): the incoming pod's preferred affinity (+weight) and anti-affinity
// (-weight) terms that match it; its own required affinity terms that match
// the incoming pod (+HardPodAffinityWeight); its preferred affinity (+weight)
// and anti-affinity (-weight) terms that match the incoming pod. A node's
// raw score sums its pairs; normalization is 100 * (score - min) / (max -
// min), truncated, 0 everywhere when max = min.
//
// PreScore Skip (skipped true, every score 0) when
// IgnorePreferredTermsOfExistingPods is set and the pod has no preferred
// term, or when no term matched on a node carrying its topology key. The
// arguments and the receiver are not modified.
func (a *InterPodAffinity) Score(feasible []*cluster.NodeInfo) (raw, normalized []int64, skipped bool) {
	raw = make([]int64, len(feasible))
	normalized = make([]int64, len(feasible))
	hasConstraints := a.hasPreferredTerms()
	if a.opts.IgnorePreferredTermsOfExistingPods && !hasConstraints {
		return raw, normalized, true
	}
	hard := a.opts.HardPodAffinityWeight
	if hard == 0 {
		hard = defaultHardAffinityWght
	}
	var nodes []*cluster.NodeInfo
	if a.snap != nil {
		nodes = a.snap.Nodes()
	}
	var topo pairCounts
	cache := nsCache{}
	for _, n := range nodes {
		nl := n.Node.Labels
		if len(nl) == 0 {
			continue // processExistingPod skips pods of unlabelled nodes
		}
		pods := n.PodsWithAffinity
		if hasConstraints {
			pods = n.Pods
		}
		for _, ep := range pods {
			for i := range a.prefAff {
				t := &a.prefAff[i]
				if v, ok := nl[t.key]; ok && t.matches(ep.Pod, a.snap, cache) {
					topo.add(t.key, v, int64(t.weight))
				}
			}
			for i := range a.prefAnti {
				t := &a.prefAnti[i]
				if v, ok := nl[t.key]; ok && t.matches(ep.Pod, a.snap, cache) {
					topo.add(t.key, v, -int64(t.weight))
				}
			}
			if hard > 0 {
				for i := range ep.RequiredAffinityTerms {
					t := &ep.RequiredAffinityTerms[i]
					if v, ok := nl[t.TopologyKey]; ok && existingTermMatches(t, a.pod, a.nsLabels) {
						topo.add(t.TopologyKey, v, int64(hard))
					}
				}
			}
			for i := range ep.PreferredAffinityTerms {
				t := &ep.PreferredAffinityTerms[i]
				if v, ok := nl[t.TopologyKey]; ok && existingTermMatches(&t.AffinityTerm, a.pod, a.nsLabels) {
					topo.add(t.TopologyKey, v, int64(t.Weight))
				}
			}
			for i := range ep.PreferredAntiAffinityTerms {
				t := &ep.PreferredAntiAffinityTerms[i]
				if v, ok := nl[t.TopologyKey]; ok && existingTermMatches(&t.AffinityTerm, a.pod, a.nsLabels) {
					topo.add(t.TopologyKey, v, -int64(t.Weight))
				}
			}
		}
	}
	if topo.pairs == 0 {
		return raw, normalized, true
	}
	for fi, n := range feasible {
		nl := n.Node.Labels
		var score int64
		for key, vals := range topo.byKey {
			if v, ok := nl[key]; ok {
				score += vals[v]
			}
		}
		raw[fi] = score
	}
	var minCount int64 = math.MaxInt64
	var maxCount int64 = math.MinInt64
	for _, s := range raw {
		minCount = min(minCount, s)
		maxCount = max(maxCount, s)
	}
	diff := maxCount - minCount
	for fi, s := range raw {
		f := float64(0)
		if diff > 0 {
			f = float64(sched.MaxNodeScore) * (float64(s-minCount) / float64(diff))
		}
		normalized[fi] = int64(f)
	}
	return raw, normalized, false
}

// hasPreferredTerms mirrors PreScore's hasConstraints: the pod spec lists a
// preferred pod affinity or anti-affinity term.
func (a *InterPodAffinity) hasPreferredTerms() bool {
	aff := a.pod.Spec.Affinity
	if aff == nil {
		return false
	}
	return (aff.PodAffinity != nil && len(aff.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(aff.PodAntiAffinity != nil && len(aff.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0)
}
