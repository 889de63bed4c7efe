package topo

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
func (a *InterPodAffinity) Score(feasible []*NodeInfo) (raw, normalized []int64, skipped bool) {
	return a.ScoreWith(feasible, nil)
}

// AffinityScratch holds the per-node buffers of InterPodAffinity.ScoreWith,
// for a caller that scores pod after pod and reads each result before the
// next call.
type AffinityScratch struct {
	scores scoreBuffers
	arrays passPool[int64]
	memos  passPool[int8]

	// The pending PreScore (PreScoreWith) of state pending, until
	// ScoreFeasible reads it.
	counts  topoCounts
	skipped bool
	pending *InterPodAffinity

	slots []int32 // ScoreFeasible's node slots, by feasible index
}

// ScoreWith is Score with its per-node buffers taken from sc (nil: new
// ones): raw and normalized are then sc's and valid until its next use.
// One sc must not be used by two calls at once.
func (a *InterPodAffinity) ScoreWith(feasible []*NodeInfo, sc *AffinityScratch) (raw, normalized []int64, skipped bool) {
	if sc == nil {
		sc = &AffinityScratch{}
	}
	a.PreScoreWith(sc)
	return a.ScoreFeasible(feasible, sc)
}

// PreScoreWith is the part of ScoreWith that does not depend on the
// feasible nodes (upstream's PreScore walks every node of the snapshot):
// the weighted count of every topology pair, kept in sc for
// ScoreFeasible, which must follow before sc's next use.
func (a *InterPodAffinity) PreScoreWith(sc *AffinityScratch) {
	sc.arrays.release()
	sc.counts = topoCounts{arrays: &sc.arrays}
	sc.pending = a
	hasConstraints := a.hasPreferredTerms()
	if sc.skipped = a.opts.IgnorePreferredTermsOfExistingPods && !hasConstraints; sc.skipped {
		return
	}
	hard := defaultHardPodAffinityWeight
	if w := a.opts.HardPodAffinityWeight; w != nil {
		hard = *w
	}
	topo := &sc.counts
	defer sc.memos.release()
	cache := nsCache{}
	ix := &a.ix
	var termMemo memo
	var termCands cands
	if a.existingMemo != nil {
		// The PreFilter walk's verdicts are about the same pod and index.
		termMemo, termCands = memo(sc.memos.take(len(a.existingMemo))), a.existingCands
		copy(termMemo, a.existingMemo)
	} else {
		termMemo, termCands = a.termMemoIn(ix, &sc.memos)
	}
	keys := newTermKeys(ix)
	prefAffMemos := make([]memo, len(a.prefAff))
	prefAffCands := make([]cands, len(a.prefAff))
	prefAffKeys := make([]*keyCounts, len(a.prefAff))
	for i := range a.prefAff {
		prefAffMemos[i], prefAffCands[i] = ix.memoCandsIn(&sc.memos, a.prefAff[i].nsOK(ix, cache), &a.prefAff[i].m)
		prefAffKeys[i] = topo.forKey(ix, a.prefAff[i].key)
	}
	prefAntiMemos := make([]memo, len(a.prefAnti))
	prefAntiCands := make([]cands, len(a.prefAnti))
	prefAntiKeys := make([]*keyCounts, len(a.prefAnti))
	for i := range a.prefAnti {
		prefAntiMemos[i], prefAntiCands[i] = ix.memoCandsIn(&sc.memos, a.prefAnti[i].nsOK(ix, cache), &a.prefAnti[i].m)
		prefAntiKeys[i] = topo.forKey(ix, a.prefAnti[i].key)
	}
	if ix.snap != nil && ix.view.NumNodes() > 0 {
		occ := ix.snap.Occurrences()
		// The incoming pod's preferred terms against every pod (only when it
		// has some, which is when upstream walks every pod).
		if hasConstraints {
			addIncoming(topo, ix, occ, a.prefAff, prefAffKeys, prefAffMemos, prefAffCands, 1)
			addIncoming(topo, ix, occ, a.prefAnti, prefAntiKeys, prefAntiMemos, prefAntiCands, -1)
		}
		// Existing pods' terms against the incoming pod.
		if hard > 0 {
			a.addExisting(topo, keys, termMemo, termCands, occ, cluster.RequiredAffinityTerms, int64(hard), 0)
		}
		a.addExisting(topo, keys, termMemo, termCands, occ, cluster.PreferredAffinityTerms, 0, 1)
		a.addExisting(topo, keys, termMemo, termCands, occ, cluster.PreferredAntiAffinityTerms, 0, -1)
	}
	sc.skipped = !topo.nonEmpty
}

// ScoreFeasible ends the ScoreWith that a.PreScoreWith began on sc (or
// does all of it, when sc holds no PreScore of a's): the feasible nodes'
// raw and normalized scores (sc's arrays, valid until its next use).
func (a *InterPodAffinity) ScoreFeasible(feasible []*NodeInfo, sc *AffinityScratch) (raw, normalized []int64, skipped bool) {
	if sc.pending != a {
		a.PreScoreWith(sc) // the counts are for any feasible nodes
	}
	defer sc.arrays.release()
	sc.pending = nil
	raw, normalized = sc.scores.take(len(feasible))
	if sc.skipped {
		return raw, normalized, true
	}
	// Key by key over the feasible nodes, each node's slot found once: a
	// node of the indexed snapshot (the common case) reads its value from
	// the key's column, another through domainOf.
	ix := &a.ix
	sc.slots = grow(sc.slots, len(feasible))
	slots := sc.slots
	for fi, n := range feasible {
		slots[fi] = ix.slotOf(n)
	}
	for _, k := range sc.counts.keys {
		for fi, slot := range slots {
			if d := ix.domainAt(k.col, feasible[fi], slot); d >= 0 {
				raw[fi] += k.get(d)
			}
		}
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

// addExisting adds, for each use of an existing pod's term of one kind
// that matches the incoming pod, on a node with labels, fixed + sign * the
// use's weight at the node's pair for the term's key. It is
// eachMatchingUse with the term's key counts found once per term rather
// than once per use. (A node with a value for the key has labels, so the
// value check is processExistingPod's skip of unlabelled nodes too.)
func (a *InterPodAffinity) addExisting(topo *topoCounts, keys termKeys, mm memo, cs cands, occ *cluster.Occurrences,
	kind cluster.TermKind, fixed, sign int64) {
	ix := &a.ix
	t := occ.Terms(kind)
	visit := func(id int32) {
		nodes, weights := t.Uses(id)
		if len(nodes) == 0 || !a.existingMatches(id, &ix.view.TermMatchers[id], mm) {
			return
		}
		k := keys.get(topo, ix, id)
		of := k.col.Of
		for u, i := range nodes {
			if d := of[i]; d >= 0 && !occ.Stale(i) {
				topo.add(k, d, fixed+sign*int64(weights[u]))
			}
		}
	}
	ix.eachCandidateTerm(t, cs, visit)
	ix.view.EachNode(occ.Changed(), func(i int32, nl *cluster.NodeLabels) {
		for _, r := range kind.Refs(nl) {
			if a.existingMatches(r.Term, &ix.view.TermMatchers[r.Term], mm) {
				k := keys.get(topo, ix, r.Term)
				if d := k.col.Of[i]; d >= 0 {
					topo.add(k, d, fixed+sign*int64(r.Weight))
				}
			}
		}
	})
}

// addIncoming adds, for each of the incoming pod's preferred terms, sign *
// weight per pod it matches (terminating pods included) on a node with
// labels, at the node's value of the term's key.
func addIncoming(topo *topoCounts, ix *interned, occ *cluster.Occurrences,
	terms []incomingTerm, keys []*keyCounts, memos []memo, cs []cands, sign int64) {
	for j := range terms {
		t, k, mm := &terms[j], keys[j], memos[j]
		w := sign * int64(t.weight)
		ix.eachMatchingPod(occ, cs[j],
			func(id int32) bool { return ix.setMatches(id, &t.m, mm) },
			func(i int32, _ bool) {
				if !occ.Labelled(i) {
					return
				}
				if d := k.col.Of[i]; d >= 0 {
					topo.add(k, d, w)
				}
			})
	}
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
