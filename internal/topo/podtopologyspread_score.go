package topo

import (
	"math"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Score is PodTopologySpread's PreScore, Score and NormalizeScore (v1.36)
// over the feasible nodes: raw[i] and normalized[i] belong to feasible[i].
//
// PreScore Skip (skipped true, every score 0) when the snapshot has no node
// or the pod has no ScheduleAnyway constraint (its own, or the system
// defaults with a non-empty DefaultSelector). Otherwise, for each
// constraint, matching pods are counted per topology value over every node
// of the snapshot (hostname constraints per node); a feasible node scores
// sum(count * log(domains + 2) + maxSkew - 1), rounded, where domains is the
// number of topology values among the feasible nodes (the number of
// non-ignored feasible nodes for hostname). A feasible node lacking one of
// the keys is ignored (score 0) when the pod has its own constraints or the
// defaults are not the system's; with system defaulting a missing key simply
// contributes nothing. Normalization maps the lowest count to 100:
// 100 * (max + min - score) / max over the non-ignored nodes.
//
// The arguments and the receiver are not modified.
func (s *Spread) Score(feasible []*NodeInfo) (raw, normalized []int64, skipped bool) {
	return s.ScoreWith(feasible, nil)
}

// SpreadScratch holds the per-node buffers of Spread.ScoreWith, for a
// caller that scores pod after pod (a scheduling loop) and reads each
// result before the next call.
type SpreadScratch struct {
	scores  scoreBuffers
	doms    []int32
	slots   []int32 // per feasible node: its slot of the indexed snapshot, or -1
	acc     []float64
	ignored []bool
	counts  [][]int32 // per selector: spreadCounts
	touched [][]int32 // per selector: the node slots whose count is above 0
	memos   passPool[int8]

	// The pending PreScore (PreScoreWith) of state pending, until
	// ScoreFeasible reads it.
	pending     *Spread
	skipped     bool
	cols        []*cluster.Column // per constraint
	missingSlot []int32           // per constraint: the slot of a node without the key
	selMemos    []memo            // per selector
	nodeCounts  [][]int32         // per selector: counts
}

// scoreBuffers are a Score's raw and normalized results, reused call
// after call.
type scoreBuffers struct{ raw, normalized []int64 }

// take returns the buffers with length n, zeroed.
func (b *scoreBuffers) take(n int) (raw, normalized []int64) {
	b.raw, b.normalized = grow(b.raw, n), grow(b.normalized, n)
	return b.raw, b.normalized
}

// grow returns buf with length n, zeroed, reusing its array when it can.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// ScoreWith is Score with its per-node buffers taken from sc (nil: new
// ones): raw and normalized are then sc's and valid until its next use.
// One sc must not be used by two calls at once.
func (s *Spread) ScoreWith(feasible []*NodeInfo, sc *SpreadScratch) (raw, normalized []int64, skipped bool) {
	if sc == nil {
		sc = &SpreadScratch{}
	}
	s.PreScoreWith(sc)
	return s.ScoreFeasible(feasible, sc)
}

// PreScoreWith is the part of ScoreWith that does not depend on the
// feasible nodes: PreScore's walk over every node of the snapshot, which
// counts the matching pods per node, kept in sc for ScoreFeasible (which
// adds them up per topology value of the feasible nodes), which must
// follow before sc's next use.
func (s *Spread) PreScoreWith(sc *SpreadScratch) {
	sc.memos.release()
	sc.pending = s
	// A node view may have slots and no node left.
	if sc.skipped = s.snap == nil || len(cluster.NodesOf(s.snap)) == 0 || len(s.soft) == 0; sc.skipped {
		return
	}
	cs, nSel := s.soft, s.softSel
	cols := make([]*cluster.Column, len(cs))
	for i := range cs {
		cols[i] = s.ix.column(cs[i].key)
	}
	// Upstream reads a missing key as the value "", so a node without the
	// key shares the slot of a node whose value is "": missingSlot.
	missingSlot := make([]int32, len(cs))
	for i, c := range cols {
		missingSlot[i] = int32(len(c.Values))
		if id, ok := c.ID[""]; ok {
			missingSlot[i] = id
		}
	}
	memos := make([]memo, nSel)
	nodeCounts := make([][]int32, nSel) // per selector: spreadCounts
	for i := range cs {
		if memos[cs[i].selID] == nil {
			mm, cands := s.ix.memoCandsIn(&sc.memos, s.ix.nsIs(s.pod.Namespace), &cs[i].m)
			memos[cs[i].selID] = mm
			if len(sc.counts) <= cs[i].selID {
				sc.counts = append(sc.counts, make([][]int32, cs[i].selID+1-len(sc.counts))...)
			}
			if len(sc.touched) <= cs[i].selID {
				sc.touched = append(sc.touched, make([][]int32, cs[i].selID+1-len(sc.touched))...)
			}
			sel := cs[i].selID
			sc.counts[sel], sc.touched[sel] = s.ix.spreadCountsTouched(sc.counts[sel], sc.touched[sel][:0], &cs[i].m, mm, cands)
			nodeCounts[sel] = sc.counts[sel]
		}
	}
	sc.cols, sc.missingSlot, sc.selMemos, sc.nodeCounts = cols, missingSlot, memos, nodeCounts
}

// ScoreFeasible ends the ScoreWith that s.PreScoreWith began on sc (or
// does all of it, when sc holds no PreScore of s's): the feasible nodes'
// raw and normalized scores (sc's arrays, valid until its next use).
func (s *Spread) ScoreFeasible(feasible []*NodeInfo, sc *SpreadScratch) (raw, normalized []int64, skipped bool) {
	if sc.pending != s {
		s.PreScoreWith(sc)
	}
	sc.pending = nil
	defer sc.memos.release()
	raw, normalized = sc.scores.take(len(feasible))
	if sc.skipped {
		return raw, normalized, true
	}
	cs := s.soft
	cols, missingSlot, memos, nodeCounts := sc.cols, sc.missingSlot, sc.selMemos, sc.nodeCounts
	nodes := s.ix.nodes

	// initPreScoreState: ignored nodes, and the topology values (other than
	// hostname) present among the feasible nodes.
	registered := make([][]bool, len(cs))
	sizes := make([]int, len(cs))
	for i, c := range cols {
		if cs[i].key != corev1.LabelHostname {
			// Hostname constraints register nothing: their size is
			// the number of non-ignored feasible nodes.
			registered[i] = make([]bool, len(c.Values)+1)
		}
	}
	slotOf := func(i int, d int32) int32 {
		if d == noLabel {
			return missingSlot[i]
		}
		return d
	}
	nf := len(feasible)
	sc.doms = grow(sc.doms, nf*len(cs)) // constraint x feasible node
	sc.ignored = grow(sc.ignored, len(feasible))
	sc.slots = grow(sc.slots, len(feasible))
	doms, ignored, slots := sc.doms, sc.ignored, sc.slots
	nIgnored := 0
	for fi, n := range feasible {
		// A node of the indexed snapshot (the common case) is read by its
		// slot from here on: domainOf's column load, countAt's count.
		slot := s.ix.slotOf(n)
		slots[fi] = slot
		missing := false
		for i, c := range cols {
			d := s.ix.domainAt(c, n, slot)
			doms[i*nf+fi] = d
			if d == noLabel {
				missing = true
			}
		}
		if s.requireAll && missing {
			ignored[fi] = true
			nIgnored++
			continue
		}
		for i := range cs {
			if cs[i].key == corev1.LabelHostname {
				continue
			}
			if d := slotOf(i, doms[i*nf+fi]); d >= 0 && !registered[i][d] {
				registered[i][d] = true
				sizes[i]++
			}
		}
	}
	weights := make([]float64, len(cs))
	for i := range cs {
		size := sizes[i]
		if cs[i].key == corev1.LabelHostname {
			size = len(feasible) - nIgnored
		}
		weights[i] = topologyNormalizingWeight(size)
	}

	// PreScore's walk adds each node's count to its domain: only the nodes
	// with a matching pod (touched) add anything, in any order, and only
	// to the domains of feasible nodes.
	slotCounts := make([][]int64, len(cs))
	for i := range cs {
		c := &cs[i]
		if sizes[i] == 0 {
			continue
		}
		slotCounts[i] = make([]int64, len(registered[i]))
		for _, t := range sc.touched[c.selID] {
			ni := int(t)
			n := nodes[ni]
			if n == nil || (s.requireAll && missingAny(cols, ni)) {
				continue // an empty slot, or a node upstream skips
			}
			slot := slotOf(i, cols[i].Of[ni])
			if !registered[i][slot] || !s.incl.includes(c, ni, n) {
				continue
			}
			slotCounts[i][slot] += int64(nodeCounts[c.selID][ni])
		}
	}

	// Score per feasible node: constraint by constraint over the nodes,
	// each node's sum taken in constraint order as upstream's loop takes it
	// (float addition is not associative).
	sc.acc = grow(sc.acc, len(feasible))
	acc := sc.acc
	for i := range cs {
		c := &cs[i]
		w, host := weights[i], c.key == corev1.LabelHostname
		counts := nodeCounts[c.selID]
		for fi, d := range doms[i*nf : (i+1)*nf] {
			if ignored[fi] || d == noLabel {
				continue
			}
			var cnt int64
			switch {
			case host:
				if slot := slots[fi]; slot >= 0 {
					cnt = int64(counts[slot])
				} else {
					cnt = int64(s.ix.countAt(counts, feasible[fi], &c.m, s.pod.Namespace, memos[c.selID]))
				}
			case d >= 0:
				cnt = slotCounts[i][d]
			}
			acc[fi] += scoreForCount(cnt, c.maxSkew, w)
		}
	}
	for fi := range feasible {
		if !ignored[fi] {
			raw[fi] = int64(math.Round(acc[fi]))
		}
	}

	// NormalizeScore.
	var minScore int64 = math.MaxInt64
	var maxScore int64
	for fi := range feasible {
		if ignored[fi] {
			continue
		}
		minScore = min(minScore, raw[fi])
		maxScore = max(maxScore, raw[fi])
	}
	for fi := range feasible {
		switch {
		case ignored[fi]:
			normalized[fi] = 0
		case maxScore == 0:
			normalized[fi] = sched.MaxNodeScore
		default:
			normalized[fi] = sched.Quotient(sched.MaxNodeScore*(maxScore+minScore-raw[fi]), maxScore)
		}
	}
	return raw, normalized, false
}

// topologyNormalizingWeight is upstream's weight of a constraint with size
// topology values: log(size + 2), so that constraints over fewer domains
// weigh less.
func topologyNormalizingWeight(size int) float64 {
	return math.Log(float64(size + 2))
}

// scoreForCount is upstream's per-constraint raw score: the matching pods in
// the node's domain times the weight, plus maxSkew - 1.
func scoreForCount(cnt int64, maxSkew int32, weight float64) float64 {
	return float64(cnt)*weight + float64(maxSkew-1)
}
