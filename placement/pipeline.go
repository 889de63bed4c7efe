package placement

import (
	"sync/atomic"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/topo"
)

// topologyPreScores records which topology plugins' PreScore counts a
// decision made before its feasible nodes were known (compileDecide): they
// are pending in the scratch's SpreadScratch and AffinityScratch
// (PreScoreWith), for scoreWith to end.
type topologyPreScores struct {
	spread, ipa bool
}

// pipelineMinNodes is the fewest nodes worth sharing a decision's
// node-local pass over (the tests lower it).
var pipelineMinNodes = 2 * minChunk

// pipelines reports whether compileDecide overlaps p's PreFilters with the
// rest of the decision on snap: with helpers to share the work, the
// default profile (every Filter with its PreFilter's state, which the
// node-local pass, localWhyOf, takes for granted), at least
// pipelineMinNodes nodes, and no node-local Filter that runs after a
// topology Filter (NodeDeclaredFeatures with requirements: its verdict
// would come after theirs).
func (p *Prepared) pipelines(snap *cluster.Snapshot, w *Workers) bool {
	c := p.c
	return snap != nil && p.err == nil && w != nil && c.opts.Parallelism > 1 && c.opts.Plugins == nil && !c.anyNoState() &&
		c.gated == nil && !c.noTopology && len(c.features) == 0 && len(cluster.NodesOf(snap)) >= pipelineMinNodes
}

// compileDecide is compileSerial(snap, w, false) (compileAfter with prev,
// when prev is not nil) followed by withBuffers(bufs) and Decide, with d
// set to the decision: the same Compiled, the same Decision and the same
// error.
//
// A node's node-local filters do not depend on the topology plugins'
// PreFilter states, and in the default profile they all run before the
// topology Filters; the topology plugins' PreScores count over every node
// of the snapshot, not over the feasible ones (only their last step, per
// feasible node, needs those). So one fork-join runs each topology
// plugin's PreFilter and PreScore counts as a task, beside the node-local
// filters cut into node ranges, which the other goroutines take (run one
// after the other, the PreFilters leave the other core idle). The
// topology Filters then run on the nodes that passed, and scoring ends
// from the counts already made. (Scoring every node that passes the
// node-local filters in the same pass was measured too: on 5000 nodes the
// mixed queue's pods pass them on 4.6 times as many nodes as end up
// feasible, and the pass cost a quarter more. Only a goroutine that would
// otherwise wait scores ahead: aheadScores.)
func (p *Prepared) compileDecide(snap *cluster.Snapshot, w *Workers, bufs *decisionBuffers, prev *Compiled, la *lookahead, d *Decision) (*Compiled, error) {
	if la != nil {
		// Dropped before anything else: the helpers turn to this pod's
		// fork-join, and the ranges of la they did not run are this
		// decision's. A range a helper is still running ends long before
		// the decision does; the decision waits for it all the same, so
		// that no helper reads la's snapshot once the queue moves on (it
		// may retire the snapshot and reuse its node list).
		la.drop()
		defer la.cancel()
	}
	if !p.pipelines(snap, w) {
		var c *Compiled
		var err error
		if prev != nil {
			c, err = p.compileAfter(snap, w, prev)
		} else {
			c, err = p.compileSerial(snap, w, false)
		}
		if err != nil {
			return nil, err
		}
		*d = c.withBuffers(bufs).Decide()
		return c, nil
	}
	v := *p.c
	v.opts.Workers = w
	if prev != nil && prev.preFilterErr == nil {
		v.spread, v.ipa = prev.spread, prev.ipa
	}
	v.snap = snap
	if err := v.opts.Version.checkSnapshot(snap); err != nil {
		return nil, err
	}
	localFilters, ok := v.localPass(bufs.taintMemo())
	if !ok {
		// NodeAffinity's PreFilter rejects the pod: nothing to overlap.
		*d = v.withBuffers(bufs).Decide()
		return &v, nil
	}

	nodes := cluster.NodesOf(snap)
	bufs.codes = reuse(bufs.codes, len(nodes)) // every node's code is written below
	codes := bufs.codes
	scr := scoreScratches.Get().(*scoreScratch)
	defer func() {
		clear(scr.feasible[:cap(scr.feasible)])
		scr.ahead.on, scr.ahead.lc = false, nil // for the scratch's next user
		scoreScratches.Put(scr)
	}()
	scr.why = reuse(scr.why, len(nodes))
	why := scr.why
	var pre topologyPreScores
	inResult := v.resultSlots()

	// The two PreFilters, each with its PreScore counts, are tasks of
	// their own, taken first by the calling goroutine; the other
	// goroutines take the node ranges from the back. On the nodes that
	// passed a range, a goroutine with nothing else to take scores the
	// node-local plugins ahead while a topology task is still running
	// (aheadScores).
	var (
		sp            *topo.Spread
		ipa           *topo.InterPodAffinity
		spErr, ipaErr error
	)
	spreadScores := v.opts.weight(sched.PodTopologySpread) != 0
	ipaScores := v.opts.weight(sched.InterPodAffinity) != 0
	r := v.opts.runner()
	chunks := max(1, min(4*r.n, len(nodes)/minChunk))
	size := (len(nodes) + chunks - 1) / chunks
	ahead := &scr.ahead
	ahead.start(&v, len(nodes), chunks)
	if la != nil && (v.restricted || !la.fits(p, localFilters, &ahead.want, nodes)) {
		la = nil
	}
	reserved := 0
	if la != nil {
		// The node-local verdicts and scores of the nodes the last
		// binding left alone are la's: the node ranges are short, and
		// the helpers, done with them, go back to the next pod's
		// lookahead rather than take a topology task (with the label
		// index's lock spinning, par.Mutex, the two side by side were
		// measured no faster, 1.005 and 1.000 over 30 pairs on the mixed
		// 1000-node queue: the lookahead is what the helper's time buys
		// most).
		reserved = 2
		if ahead.on && la.lc != nil {
			ahead.lc = la.lc
			ahead.scorer.Store(true)
		}
	}
	// Tasks: 0 and 1 the topology plugins, then the ranges' scoring
	// ahead, then the ranges' filters, and last the pod's node-local
	// scorer (its image scores walk every node: off the calling
	// goroutine's path). Helpers take the scorer and the filters first
	// (from the back), and reach a range's scoring only once every range's
	// filters are taken; the calling goroutine reaches the scoring after
	// its topology tasks, and then only scores while a helper still runs
	// one.
	last := 2 + 2*chunks
	r.w.runReserving(r.n, last+1, reserved, func(k int) {
		switch {
		case k == last:
			ahead.makeScorer(&v)
			return
		case k == 0:
			defer ahead.topologyDone()
			if sp, spErr = v.spreadPreFilter(); spErr == nil && spreadScores {
				sp.PreScoreWith(&scr.spread)
				pre.spread = true
			}
			return
		case k == 1:
			defer ahead.topologyDone()
			if ipa, ipaErr = v.affinityPreFilter(); ipaErr == nil && ipaScores && !v.ipaPreScoreSkips() {
				ipa.PreScoreWith(&scr.affinity)
				pre.ipa = true
			}
			return
		case k < 2+chunks:
			if aheadStride == 0 {
				j := k - 2
				ahead.scoreRange(&v, nodes, codes, j, j*size, min((j+1)*size, len(nodes)), 1)
			}
			return
		}
		j := k - 2 - chunks
		lo, hi := j*size, min((j+1)*size, len(nodes))
		for i := lo; i < hi; i++ {
			n := nodes[i]
			if inResult != nil && !inResult[n.Index] {
				codes[i], why[i] = v.absent.Code, 0
				continue
			}
			if la != nil && la.has(i, n) {
				codes[i], why[i] = la.codes[i], la.why[i]
				if ahead.on && la.have[i] {
					ahead.have[i], ahead.raw[i] = true, la.raw[i]
				}
				continue
			}
			codes[i], why[i] = v.localWhyOf(n, localFilters)
		}
		ahead.filtered[j].Store(true)
	})
	if aheadStride > 0 {
		ahead.makeScorer(&v) // done by the tasks unless none ran
		ahead.topology.Store(1)
		for j := range chunks {
			ahead.scoreRange(&v, nodes, codes, j, j*size, min((j+1)*size, len(nodes)), aheadStride)
		}
	}
	if err := v.setTopology(sp, spErr, ipa, ipaErr); err != nil {
		return nil, err
	}
	v.settleFilters()
	c := v.withBuffers(bufs)
	if rest := c.active[len(localFilters):]; len(rest) > 0 {
		forChunks(len(nodes), c.opts.runner(), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if codes[i].Passes() {
					if code, f := c.filterWhyOf(nodes[i], rest); !code.Passes() {
						codes[i], why[i] = code, f
					}
				}
			}
		})
	}
	*d = c.conclude(Decision{PreFilter: c.preFilter, Codes: codes}, nodes, why, inResult, scr, false, &pre)
	d.PreFilter = d.PreFilter.Clone()
	return c, nil
}

// localPass runs c's node-local PreFilters (c is compiled on its
// snapshot) and readies c for compileDecide's node-local pass: both
// topology Filters active, the taint verdicts taken from taints. It
// returns the node-local Filters, which come before the topology ones in
// the active list, or false when NodeAffinity's PreFilter rejects the
// pod (c.preFilter says why).
func (c *Compiled) localPass(taints *taintMemo) (local []int8, ok bool) {
	c.naIndex = c.indexNodeAffinity()
	ok = c.preFilterNodeLocal()
	c.taintVerdicts = taints.indexTaints(c)
	if !ok {
		return nil, false
	}
	c.skip[fPodTopologySpread], c.skip[fInterPodAffinity] = false, false
	c.settleFilters()
	front := len(c.active)
	for k, f := range c.active {
		if !isLocal(int(f)) {
			front = k
			break
		}
	}
	return c.active[:front:front], true
}

// localScoresWanted returns which node-local Score plugins run for c
// (localScores order), and whether any does.
func (c *Compiled) localScoresWanted() (want [numLocalScores]bool, any bool) {
	for k, p := range localScores {
		if want[k] = !c.scoreSkipped(p, c.opts.weight(scoreNames[p])); want[k] {
			any = true
		}
	}
	return want, any
}

// aheadScores are node-local raw scores (localScores order) that
// compileDecide computed before its topology Filters ran, by node
// position, for conclude to take instead of scoring those nodes again.
//
// At a thousand nodes the calling goroutine's two topology tasks (the
// PreFilters with their PreScore counts, run one after the other: run by
// one goroutine pod after pod, their data stays in its core's cache)
// take about twice what the helper's share of the node-local filters
// does, and the helper would then wait. It scores the nodes its ranges
// passed instead, as long as a topology task runs: the node-local scores
// do not depend on the topology states, and a node the topology Filters then
// reject costs only time the helper would have spent idle. Where the
// filters are the longer part (thousands of nodes), no time is left over
// and no node is scored ahead.
type aheadScores struct {
	on       bool
	want     [numLocalScores]bool // the plugins scoreWith runs
	have     []bool               // by node position: raw holds its scores
	raw      [][numLocalScores]int64
	pos      []int32       // conclude's feasible nodes' positions, when on
	filtered []atomic.Bool // by node range: its filters have run
	// topology counts the topology tasks still running; scoring ahead
	// stops when it reaches zero.
	topology atomic.Int32
	lc       *localScorer // the pod's node-local scorer, scoreWith's too (makeScorer)
	scorer   atomic.Bool  // lc is set for this pod
}

// aheadStride, when not zero, makes compileDecide score ahead after its
// node-local pass (whatever the goroutines' timing), every aheadStride-th
// passing node only, so that conclude meets nodes with and without scores
// ahead (the tests set it).
var aheadStride = 0

// start readies a for a pod of c on n nodes cut into ranges node ranges.
func (a *aheadScores) start(c *Compiled, n, ranges int) {
	if cap(a.filtered) < ranges {
		a.filtered = make([]atomic.Bool, ranges)
	}
	a.filtered = a.filtered[:ranges]
	for i := range a.filtered {
		a.filtered[i].Store(false)
	}
	a.topology.Store(2)
	if a.want, a.on = c.localScoresWanted(); !a.on {
		return
	}
	a.have = reuse(a.have, n)
	clear(a.have)
	a.raw = reuse(a.raw, n)
	a.pos = a.pos[:0]
	a.lc = nil
	a.scorer.Store(false)
}

// makeScorer sets a.lc to the pod's node-local scorer, once per pod (a
// task of compileDecide's fork-join, which every later reader follows).
func (a *aheadScores) makeScorer(c *Compiled) {
	if a.on && !a.scorer.Load() {
		a.lc = c.newLocalScorer()
		a.scorer.Store(true)
	}
}

// topologyDone records the end of one topology task.
func (a *aheadScores) topologyDone() { a.topology.Add(-1) }

// scoreRange scores ahead every stride-th node of range j ([lo, hi)) that
// passed its filters, once they have run, and stops as soon as no topology
// task is running.
func (a *aheadScores) scoreRange(c *Compiled, nodes []*cluster.NodeInfo, codes []sched.Code, j, lo, hi, stride int) {
	if !a.on || a.topology.Load() == 0 || !a.filtered[j].Load() || !a.scorer.Load() {
		return
	}
	lc := a.lc.fork()
	for i := lo; i < hi; i += stride {
		if (i-lo)%16 == 15 && a.topology.Load() == 0 {
			return
		}
		if !codes[i].Passes() || a.have[i] {
			continue
		}
		lc.raw(c, &a.want, nodes[i], &a.raw[i])
		a.have[i] = true
	}
}
