package placement

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/par"
	"github.com/schedkit/schedkit/internal/sched"
)

// lookahead is the next pod's node-local work in a scheduling queue, done
// before its turn by helpers that would otherwise wait: its node-local
// filter verdicts on every node of the snapshot the queue holds while it
// decides the pod before it, and its node-local raw scores on the nodes
// that pass them. Binding that pod changes one node (preempting changes
// the victims' nodes too): compileDecide then takes the verdicts and
// scores of every node whose NodeInfo is the same object, and works out
// only the others. Its setup also compiles the pod's default spread
// constraints (topo.PodSpread.Warm), which its PreFilter on the calling
// goroutine then copies.
//
// Both are functions of the pod and the node alone (localWhyOf, and
// localScorer.raw, whose image scores depend on the nodes' images, which
// views never change), so a node object's answers are the same on any
// snapshot that holds it: the queue's decisions are those it makes
// without looking ahead, whoever ran the work and whenever.
//
// Helpers take the work as a par.Pending, node range by node range, only
// when no fork-join has a task for them: at a thousand nodes the calling
// goroutine's topology PreFilters take twice as long as the node-local
// filters, and the stretches between two pods' fork-joins leave the other
// core idle. The calling goroutine never runs any of it: compileDecide
// drops what no helper has started, and takes the ranges that are done.
type lookahead struct {
	p    *Prepared
	snap *cluster.Snapshot
	w    *Workers
	// Set up by the first range to run (setup), read by the others and,
	// once one is done, by compileDecide.
	ready  bool
	v      Compiled            // p compiled on snap, node-local PreFilters only
	nodes  []*cluster.NodeInfo // snap's nodes by position, a copy (a view's list may be reused)
	local  []int8              // the node-local Filters, in order (in v.active)
	want   [numLocalScores]bool
	scores bool // some node-local score is wanted
	codes  []sched.Code
	why    []failure
	have   []bool // by node position: raw holds its scores
	raw    [][numLocalScores]int64
	lc     *localScorer
	taints taintMemo // this lookahead's own: the queue's is the calling goroutine's
	size   int       // nodes per range
	done   []atomic.Bool
	once   sync.Once
	job    *par.Pending // nil once ended
}

// lookaheadRanges is the number of node ranges a lookahead is cut into: a
// range on a thousand nodes is a few microseconds of a helper's time, so
// that a helper busy with one delays a fork-join that starts meanwhile by
// no more.
const lookaheadRanges = 16

// startLookahead starts the lookahead of p on snap in one of b's two
// lookaheads (the other may be the one of the pod about to be decided),
// and returns it, or nil when compileDecide would not take it (p does not
// pipeline on snap). The caller must end it: compileDecide with it, or
// endLookaheads.
func (b *decisionBuffers) startLookahead(p *Prepared, snap *cluster.Snapshot, w *Workers) *lookahead {
	if w == nil || !p.pipelines(snap, w) {
		return nil
	}
	la := &b.looks[b.nextLook]
	b.nextLook ^= 1
	la.cancel()
	la.p, la.snap, la.w, la.ready = p, snap, w, false
	la.once = sync.Once{}
	if cap(la.done) < lookaheadRanges {
		la.done = make([]atomic.Bool, lookaheadRanges)
	}
	la.done = la.done[:lookaheadRanges]
	for i := range la.done {
		la.done[i].Store(false)
	}
	la.job = w.g.Start(p.c.opts.Parallelism, lookaheadRanges, la.run)
	return la
}

// lookaheadRangeHook, when set, runs at the start of every lookahead
// range (the tests hold a range in flight with it). Atomic: a test sets
// and clears it while helpers run ranges.
var lookaheadRangeHook atomic.Pointer[func()]

// run is range j of la.
func (la *lookahead) run(j int) {
	if hook := lookaheadRangeHook.Load(); hook != nil {
		(*hook)()
	}
	la.once.Do(la.setup)
	if !la.ready {
		return
	}
	n := len(la.nodes)
	lo, hi := j*la.size, min((j+1)*la.size, n)
	var lc *localScorer
	if la.scores && lo < hi {
		lc = la.lc.fork()
	}
	v := &la.v
	for i := lo; i < hi; i++ {
		nd := la.nodes[i]
		la.codes[i], la.why[i] = v.localWhyOf(nd, la.local)
		la.have[i] = false
		if lc != nil && la.codes[i].Passes() {
			lc.raw(v, &la.want, nd, &la.raw[i])
			la.have[i] = true
		}
	}
	la.done[j].Store(true)
}

// setup compiles la's pod on its snapshot as compileDecide does up to its
// node-local pass; ready stays false when compileDecide would not take
// the result (the pod's NodeAffinity PreFilter rejects it, or it names its
// nodes).
func (la *lookahead) setup() {
	la.v = *la.p.c
	v := &la.v
	v.opts.Workers = la.w
	v.snap = la.snap
	if v.opts.Version.checkSnapshot(la.snap) != nil {
		return
	}
	local, ok := v.localPass(&la.taints)
	if !ok || v.restricted {
		return
	}
	la.local = local
	nodes := cluster.NodesOf(la.snap)
	n := len(nodes)
	la.nodes = append(la.nodes[:0], nodes...)
	la.codes = reuse(la.codes, n)
	la.why = reuse(la.why, n)
	la.have = reuse(la.have, n)
	la.raw = reuse(la.raw, n)
	la.want, la.scores = v.localScoresWanted()
	la.lc = nil
	if la.scores {
		la.lc = v.newLocalScorer()
	}
	la.size = max(1, (n+lookaheadRanges-1)/lookaheadRanges)
	la.ready = true
	if v.spreadPrep != nil {
		// The pod's default spread constraints (their DefaultSelector
		// walks the Services and controllers) are the same on the view
		// of its turn: its PreFilter, on the calling goroutine, then
		// copies them.
		v.spreadPrep.Warm(la.snap, v.spreadOptions())
	}
}

// drop drops the ranges no helper has started; a range a helper is
// running ends on its own (done), and cancel waits for it.
func (la *lookahead) drop() {
	if la.job != nil {
		la.job.Drop()
	}
}

// cancel ends la: the ranges no helper has started never run, and the
// ones running have returned.
func (la *lookahead) cancel() {
	if la.job != nil {
		la.job.Cancel()
		la.job = nil
	}
}

// endLookaheads ends both of b's lookaheads (a queue's last act: no
// helper works for it once it returns).
func (b *decisionBuffers) endLookaheads() {
	for i := range b.looks {
		b.looks[i].cancel()
	}
}

// fits reports whether la (dropped) is p's and applies to a decision with
// the given node-local Filters and node-local scores wanted on nodes (the
// same positions: a node whose object is la's takes la's answers).
func (la *lookahead) fits(p *Prepared, local []int8, want *[numLocalScores]bool, nodes []*cluster.NodeInfo) bool {
	// A done range orders setup's writes before these reads; without one,
	// a helper may still be in setup, and nothing is to be taken anyway.
	someDone := false
	for j := range la.done {
		if la.done[j].Load() {
			someDone = true
			break
		}
	}
	return someDone && la.ready && la.p == p && len(la.nodes) == len(nodes) && slices.Equal(la.local, local) && la.want == *want
}

// has reports whether la (dropped, fitting) holds the answers of node i:
// its range is done (a range a helper was still running when la was
// dropped may finish meanwhile) and the node is la's.
func (la *lookahead) has(i int, n *cluster.NodeInfo) bool {
	return la.done[i/la.size].Load() && la.nodes[i] == n
}
