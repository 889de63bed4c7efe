package placement

import (
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
// default profile, at least pipelineMinNodes nodes, and no node-local
// Filter that runs after a topology Filter (NodeDeclaredFeatures with
// requirements: its verdict would come after theirs).
func (p *Prepared) pipelines(snap *cluster.Snapshot, w *Workers) bool {
	c := p.c
	return snap != nil && p.err == nil && w != nil && c.opts.Parallelism > 1 && c.opts.Plugins == nil &&
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
// from the counts already made. (Scoring the node-local plugins in the
// same pass, before the topology Filters, was measured too: on 5000 nodes
// the mixed queue's pods pass the node-local filters on 4.6 times as many
// nodes as end up feasible, and the pass cost a quarter more.)
func (p *Prepared) compileDecide(snap *cluster.Snapshot, w *Workers, bufs *decisionBuffers, prev *Compiled, d *Decision) (*Compiled, error) {
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
	v.naIndex = v.indexNodeAffinity()
	if !v.preFilterNodeLocal() {
		// NodeAffinity's PreFilter rejects the pod: nothing to overlap.
		v.taintVerdicts = v.indexTaints()
		*d = v.withBuffers(bufs).Decide()
		return &v, nil
	}
	// The active list with both topology Filters in it: the node-local
	// ones before them are the pass's.
	v.skip[fPodTopologySpread], v.skip[fInterPodAffinity] = false, false
	v.settleFilters()
	front := len(v.active)
	for k, f := range v.active {
		if !isLocal(int(f)) {
			front = k
			break
		}
	}
	localFilters := v.active[:front:front]
	v.taintVerdicts = v.indexTaints()

	nodes := cluster.NodesOf(snap)
	bufs.codes = reuse(bufs.codes, len(nodes)) // every node's code is written below
	codes := bufs.codes
	scr := scoreScratches.Get().(*scoreScratch)
	defer func() {
		clear(scr.feasible[:cap(scr.feasible)])
		scoreScratches.Put(scr)
	}()
	scr.why = reuse(scr.why, len(nodes))
	why := scr.why
	var pre topologyPreScores

	// The two PreFilters, each with its PreScore counts, are tasks of
	// their own, taken first by the calling goroutine; the other
	// goroutines take the node ranges from the back.
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
	r.w.Run(r.n, 2+chunks, func(k int) {
		switch k {
		case 0:
			if sp, spErr = v.spreadPreFilter(); spErr == nil && spreadScores {
				sp.PreScoreWith(&scr.spread)
				pre.spread = true
			}
			return
		case 1:
			if ipa, ipaErr = v.affinityPreFilter(); ipaErr == nil && ipaScores && !v.ipaPreScoreSkips() {
				ipa.PreScoreWith(&scr.affinity)
				pre.ipa = true
			}
			return
		}
		lo, hi := (k-2)*size, min((k-1)*size, len(nodes))
		for i := lo; i < hi; i++ {
			n := nodes[i]
			if !v.InPreFilterResult(n.Name) {
				codes[i], why[i] = v.absent.Code, 0
				continue
			}
			codes[i], why[i] = v.filterWhyOf(n, localFilters)
		}
	})
	if err := v.setTopology(sp, spErr, ipa, ipaErr); err != nil {
		return nil, err
	}
	v.settleFilters()
	c := v.withBuffers(bufs)
	if rest := c.active[front:]; len(rest) > 0 {
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
	*d = c.conclude(Decision{PreFilter: c.preFilter, Codes: codes}, nodes, why, scr, false, &pre)
	d.PreFilter = d.PreFilter.Clone()
	return c, nil
}
