package placement

import (
	"fmt"
	"slices"
	"sync"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/topo"
	"github.com/schedkit/schedkit/internal/wrap"
)

// Score plugin positions in profile order (sched.ScoreOrder).
const (
	sTaintToleration = iota
	sNodeAffinity
	sNodeResourcesFit
	sPodTopologySpread
	sInterPodAffinity
	sBalancedAllocation
	sImageLocality
	numScores
)

var scoreNames = [numScores]string{
	sched.TaintToleration, sched.NodeAffinity, sched.NodeResourcesFit, sched.PodTopologySpread,
	sched.InterPodAffinity, sched.NodeResourcesBalancedAllocation, sched.ImageLocality,
}

// Scores holds every Score plugin's result over a list of feasible nodes:
// Raw[p][k] and Normalized[p][k] for plugin p (profile order) and feasible
// node k, Skipped[p] when its PreScore returned Skip (or its weight is 0),
// and Total[k], the weighted sum.
type Scores struct {
	Plugins    [numScores]string
	Weights    [numScores]int64
	Skipped    [numScores]bool
	Raw        [numScores][]int64
	Normalized [numScores][]int64
	Total      []int64
	// Err is set when the scoring phase fails, which fails the scheduling
	// cycle: no node is chosen. It is a *ScoreRangeError when a normalized
	// score lies outside [0, MaxNodeScore], which upstream's weighting
	// rejects (an int64 overflow in the resource plugins' arithmetic on
	// absurd quantities can give one), or a *ScorePluginError when a Score
	// plugin fails (one that needs its PreScore state scoring without its
	// PreScore, see Plugins); then no score is computed.
	Err error
}

// ScorePluginError is a Score plugin's failure as RunScorePlugins
// (pkg/scheduler/framework/runtime/framework.go, v1.36) reports it. The
// plugins that read a PreScore state (TaintToleration, PodTopologySpread,
// InterPodAffinity) fail on every node when their PreScore is not in the
// profile; the first of them in profile order is reported.
type ScorePluginError struct {
	Plugin string
	Reason string
}

func (e *ScorePluginError) Error() string {
	return fmt.Sprintf("plugin %q failed with: %s", e.Plugin, e.Reason)
}

// preScoreStateErrors are the plugins' getPreScoreState errors
// (cycleState's ErrNotFound).
var preScoreStateErrors = [numScores]string{
	sTaintToleration:   `failed to read "PreScoreTaintToleration" from cycleState: not found`,
	sPodTopologySpread: `error reading "PreScorePodTopologySpread" from cycleState: not found`,
	sInterPodAffinity:  `failed to read "PreScoreInterPodAffinity" from cycleState: not found`,
}

// ScoreRangeError is the error of RunScorePlugins
// (pkg/scheduler/framework/runtime/framework.go, v1.36) for a normalized
// score outside [0, MaxNodeScore]. Upstream checks the nodes in parallel and
// reports whichever it meets first; schedkit reports the first feasible node
// that has one (Index, in the order given to Score), and on it the first
// plugin in profile order (what the reference oracle reports too).
type ScoreRangeError struct {
	Plugin string
	Node   string
	Index  int
	Score  int64
}

func (e *ScoreRangeError) Error() string {
	return fmt.Sprintf("applying score defaultWeights on Score plugins: plugin %q returns an invalid score %d, it should in the range of [%d, %d] after normalizing",
		e.Plugin, e.Score, 0, sched.MaxNodeScore)
}

// Score runs PreScore, Score and NormalizeScore of every Score plugin over
// the feasible nodes and weights the results, as prioritizeNodes does
// (v1.36): the normalization of each plugin is over exactly these nodes.
// The slice is not modified.
func (c *Compiled) Score(feasible []*NodeInfo) *Scores {
	return c.score(wrap.Slice[cluster.NodeInfo](feasible))
}

func (c *Compiled) score(feasible []*cluster.NodeInfo) *Scores {
	return c.scoreWith(feasible, nil, nil)
}

// scoreScratch holds the arrays of one scoring pass, for a caller that
// reads the result before its next pass and keeps nothing of it (decide
// keeps the best node and its total). Without it, a pod scored against
// 5000 nodes takes about 300 KB of fresh arrays, which is most of a
// scheduling loop's allocation for pods without a memo.
type scoreScratch struct {
	feasible           []*cluster.NodeInfo // decide's feasible nodes, without a memo
	why                []failure           // decide's failures by node, without a memo (filterWhy)
	s                  Scores
	total, block, norm []int64
	spread             topo.SpreadScratch
	affinity           topo.AffinityScratch
	ahead              aheadScores // compileDecide's
}

var scoreScratches = sync.Pool{New: func() any { return new(scoreScratch) }}

// scoreWith is score with the arrays of scr when it is not nil: the
// result, and every array in it, is then valid until scr's next use. With
// pre, the topology plugins it names end the PreScore counts pending in
// scr (compileDecide made them) rather than count here.
func (c *Compiled) scoreWith(feasible []*cluster.NodeInfo, scr *scoreScratch, pre *topologyPreScores) *Scores {
	var s *Scores
	if scr == nil {
		s = &Scores{Plugins: scoreNames, Total: make([]int64, len(feasible))}
	} else {
		scr.total = reuse(scr.total, len(feasible))
		clear(scr.total)
		scr.s = Scores{Plugins: scoreNames, Total: scr.total}
		s = &scr.s
	}
	for p := range numScores {
		s.Weights[p] = c.opts.weight(scoreNames[p])
		s.Skipped[p] = c.scoreSkipped(p, s.Weights[p])
	}
	if pl := c.opts.Plugins; pl != nil {
		for p, reason := range preScoreStateErrors {
			if reason != "" && s.Weights[p] != 0 && !slices.Contains(pl.PreScore, scoreNames[p]) {
				s.Err = &ScorePluginError{Plugin: scoreNames[p], Reason: reason}
				return s
			}
		}
	}
	k := len(feasible)
	used := 0
	for _, p := range localScores {
		if !s.Skipped[p] {
			used++
		}
	}
	var block []int64 // one array for the plugins that run
	if scr == nil {
		block = make([]int64, used*k)
	} else {
		scr.block = reuse(scr.block, used*k) // scoreLocal writes every entry
		block = scr.block
	}
	for _, p := range localScores {
		if !s.Skipped[p] {
			s.Raw[p], block = block[:k:k], block[k:]
		}
	}
	// The node-local plugins, PodTopologySpread and InterPodAffinity write
	// disjoint fields of s: with Options.Parallelism above 1 they run side
	// by side (the topology plugins walk the whole cluster and dominate).
	// The order puts each topology plugin on the goroutine that built its
	// PreFilter state in compileTopology (the caller takes tasks from the
	// front, a helper from the back; internal/par), so that its state is
	// read from the cache of the core that wrote it.
	spreadOn := !s.Skipped[sPodTopologySpread]
	ipaOn := !s.Skipped[sInterPodAffinity]
	var spreadRaw, spreadNorm, ipaRaw, ipaNorm []int64
	spreadSkipped, ipaSkipped := true, true
	// The node-local plugins are cut into node ranges between the two, so
	// that whichever goroutine finishes its topology plugin first takes
	// more of them (InterPodAffinity's walk is usually the longest task).
	tasks := []func(){
		func() {
			switch {
			case pre != nil && pre.spread:
				spreadRaw, spreadNorm, spreadSkipped = c.spread.ScoreFeasible(feasible, &scr.spread)
			case spreadOn && c.spread != nil:
				var sc *topo.SpreadScratch
				if scr != nil {
					sc = &scr.spread
				}
				spreadRaw, spreadNorm, spreadSkipped = c.spread.ScoreWith(feasible, sc)
			}
		},
	}
	chunks := 1
	if c.opts.Parallelism > 1 {
		chunks = max(1, min(8, k/(minChunk/2)))
	}
	size := (k + chunks - 1) / chunks
	// What the node ranges share (resource lists, image scores) is made
	// once per pass; each range gets its own buffers (localScorer.fork).
	var ahead *aheadScores // the nodes compileDecide scored ahead
	if scr != nil && scr.ahead.on {
		ahead = &scr.ahead
	}
	var lc *localScorer
	switch {
	case ahead != nil:
		lc = ahead.lc // the pod's scorer, made before the scoring ahead
	case used > 0:
		lc = c.newLocalScorer()
	}
	for lo := 0; lo < k && lc != nil; lo += size {
		tasks = append(tasks, func() { c.scoreLocal(s, feasible, lo, min(lo+size, k), lc, ahead) })
	}
	tasks = append(tasks, func() {
		switch {
		case pre != nil && pre.ipa:
			ipaRaw, ipaNorm, ipaSkipped = c.ipa.ScoreFeasible(feasible, &scr.affinity)
		case ipaOn && c.ipa != nil && !c.ipaPreScoreSkips():
			var sc *topo.AffinityScratch
			if scr != nil {
				sc = &scr.affinity
			}
			ipaRaw, ipaNorm, ipaSkipped = c.ipa.ScoreWith(feasible, sc)
		}
	})
	runAll(c.opts.runner(), tasks)
	var norm []int64 // TaintToleration's and NodeAffinity's normalized scores
	if scr == nil {
		norm = make([]int64, 2*k)
	} else {
		scr.norm = reuse(scr.norm, 2*k) // defaultNormalize writes every entry
		norm = scr.norm
	}
	c.normalizeLocal(s, norm[:k:k], norm[k:])
	// PodTopologySpread and InterPodAffinity come normalized.
	if spreadOn {
		if spreadSkipped {
			s.Skipped[sPodTopologySpread] = true
		} else {
			s.Raw[sPodTopologySpread], s.Normalized[sPodTopologySpread] = spreadRaw, spreadNorm
		}
	}
	if ipaOn {
		if ipaSkipped {
			s.Skipped[sInterPodAffinity] = true
		} else {
			s.Raw[sInterPodAffinity], s.Normalized[sInterPodAffinity] = ipaRaw, ipaNorm
		}
	}
	// The totals, then (rarely) the first score out of [0, MaxNodeScore]
	// in node order: upstream's RunScorePlugins checks each plugin's
	// normalized scores node by node and reports the first node's.
	anyBad := false
	for p := range numScores {
		if s.Skipped[p] {
			continue
		}
		w := s.Weights[p]
		for i, v := range s.Normalized[p] {
			s.Total[i] += v * w
			// One compare: a negative score wraps above MaxNodeScore.
			if uint64(v) > uint64(sched.MaxNodeScore) {
				anyBad = true
			}
		}
	}
	if anyBad {
		if e := firstScoreOutOfRange(s, feasible); e != nil {
			s.Err = e
		}
	}
	return s
}

// firstScoreOutOfRange returns the error for the first node (in feasible
// order) with a normalized score out of [0, MaxNodeScore], and on that node
// the first plugin in score order, or nil when every score is in range.
func firstScoreOutOfRange(s *Scores, feasible []*cluster.NodeInfo) *ScoreRangeError {
	for i := range feasible {
		for p := range numScores {
			if s.Skipped[p] {
				continue
			}
			if v := s.Normalized[p][i]; v < 0 || v > sched.MaxNodeScore {
				return &ScoreRangeError{Plugin: scoreNames[p], Node: feasible[i].Name, Index: i, Score: v}
			}
		}
	}
	return nil
}

// scoreSkipped reports whether Score plugin p, of weight w, is skipped
// for the pod: a zero weight, or a node-local plugin's PreScore Skip
// (NodeAffinity without preferred terms, BalancedAllocation for a
// best-effort pod). The topology plugins' Skips are decided by their own
// PreScore.
func (c *Compiled) scoreSkipped(p int, w int64) bool {
	switch {
	case w == 0:
		return true
	case p == sNodeAffinity:
		return c.preferred == nil && c.addedPreferred == nil // no preferred terms
	case p == sBalancedAllocation:
		for _, v := range c.balReqs {
			if v != 0 {
				return false
			}
		}
		return true // a best-effort pod
	}
	return false
}

// scoreLocal fills the raw scores of the node-local plugins
// (TaintToleration, NodeAffinity, NodeResourcesFit, BalancedAllocation,
// ImageLocality) whose arrays Score allocated in s, for feasible[lo:hi],
// with a fork of shared (nil when no such plugin runs: nothing to fill),
// taking those of ahead's nodes (when not nil) that it scored.
func (c *Compiled) scoreLocal(s *Scores, feasible []*cluster.NodeInfo, lo, hi int, shared *localScorer, ahead *aheadScores) {
	if shared == nil || lo >= hi {
		return
	}
	lc := shared.fork()
	var want [numLocalScores]bool
	for k, p := range localScores {
		want[k] = s.Raw[p] != nil
	}
	// Node by node: each node is read once, while it is in cache.
	var raw [numLocalScores]int64
	for i := lo; i < hi; i++ {
		switch {
		case c.memo != nil:
			raw = c.rawLocal(&want, feasible[i], lc)
		case ahead != nil && ahead.have[ahead.pos[i]]:
			raw = ahead.raw[ahead.pos[i]]
		default:
			lc.raw(c, &want, feasible[i], &raw)
		}
		s.setLocalRaw(i, &raw)
	}
}

// setLocalRaw sets the i-th raw score of every node-local plugin that
// runs (its array allocated) from raw (localScores order).
func (s *Scores) setLocalRaw(i int, raw *[numLocalScores]int64) {
	for k, p := range localScores {
		if r := s.Raw[p]; r != nil {
			r[i] = raw[k]
		}
	}
}

// localScorer computes the node-local Score plugins' raw scores with
// buffers of its own (one per goroutine).
type localScorer struct {
	fitRes, balRes     []ResourceSpec
	fitKinds, balKinds []resourceKind // resourceKinds of fitRes and balRes for the pod
	fit                func(requested, allocatable []int64) int64
	imageSpread        []float64    // imageSpreads
	images             *imageScores // the pod's images' scores by node slot (nil: none kept)
	fitBuf, balBuf     []int64
	// fitCPUMemory and balCPUMemory say that the plugin's resources are
	// cpu then memory (the default), and for NodeResourcesFit that the
	// strategy is LeastAllocated: score then reads the node's sums
	// directly (leastAllocatedCPUMemory, balancedCPUMemory).
	fitCPUMemory, balCPUMemory bool
}

func (c *Compiled) newLocalScorer() *localScorer {
	fitRes, balRes := c.opts.fitResources(), c.opts.balancedResources()
	lc := &localScorer{
		fitRes: fitRes, balRes: balRes, fit: c.fitScorer(fitRes),
		fitKinds: resourceKinds(fitRes, c.fitReqs), balKinds: resourceKinds(balRes, c.balReqs),
		imageSpread: c.imageSpreads(len(cluster.NodesOf(c.snap))),
		fitBuf:      make([]int64, 3*len(fitRes)),
		balBuf:      make([]int64, 3*len(balRes)),
	}
	lc.images = c.imageScoresOf(lc.imageSpread)
	t := c.opts.ScoringStrategy.Type
	lc.fitCPUMemory = cpuMemory(lc.fitKinds) && t != MostAllocated && t != RequestedToCapacityRatio
	lc.balCPUMemory = cpuMemory(lc.balKinds)
	return lc
}

// fork returns a scorer that shares lc's read-only parts (resource lists,
// scoring function, image scores) and has buffers of its own, for another
// goroutine.
func (lc *localScorer) fork() *localScorer {
	f := *lc
	f.fitBuf, f.balBuf = make([]int64, len(lc.fitBuf)), make([]int64, len(lc.balBuf))
	return &f
}

// raw sets out to the raw scores on n of the node-local plugins want
// names (localScores order), 0 for the others.
func (lc *localScorer) raw(c *Compiled, want *[numLocalScores]bool, n *cluster.NodeInfo, out *[numLocalScores]int64) {
	*out = [numLocalScores]int64{}
	for k, p := range localScores {
		if want[k] {
			out[k] = lc.score(c, p, n)
		}
	}
}

// score is node-local Score plugin p's raw score on n.
func (lc *localScorer) score(c *Compiled, p int, n *cluster.NodeInfo) int64 {
	switch p {
	case sTaintToleration:
		// Untolerated PreferNoSchedule taints.
		return c.preferTaintsOn(n)
	case sNodeAffinity:
		// Weights of the matching preferred terms.
		return c.preferredScore(n)
	case sNodeResourcesFit:
		// The scoring strategy.
		if lc.fitCPUMemory {
			return leastAllocatedCPUMemory(n, c.fitReqs, lc.fitRes)
		}
		m, buf := len(lc.fitRes), lc.fitBuf
		nodeAllocatableRequest(n, lc.fitRes, lc.fitKinds, c.fitReqs, false, buf[:m], buf[m:2*m], buf[2*m:])
		return lc.fit(buf[:m], buf[2*m:])
	case sBalancedAllocation:
		if lc.balCPUMemory {
			return balancedCPUMemory(c.opts.Version, n, c.balReqs)
		}
		m, buf := len(lc.balRes), lc.balBuf
		nodeAllocatableRequest(n, lc.balRes, lc.balKinds, c.balReqs, true, buf[:m], buf[m:2*m], buf[2*m:])
		return balancedAllocationScore(c.opts.Version, buf[:m], buf[m:2*m], buf[2*m:])
	case sImageLocality:
		if im := lc.images; im != nil && n.Index >= 0 && n.Index < len(im.nodes) && im.nodes[n.Index] == n.Node {
			return im.raw[n.Index]
		}
		return c.imageScore(n, lc.imageSpread)
	}
	return 0
}

// normalizeLocal fills the node-local plugins' normalized scores once every
// raw score is in: TaintToleration reversed, NodeAffinity plain; the
// resource and image plugins have none.
func (c *Compiled) normalizeLocal(s *Scores, taintOut, affinityOut []int64) {
	if r := s.Raw[sTaintToleration]; r != nil {
		s.Normalized[sTaintToleration] = defaultNormalize(taintOut, r, true)
	}
	if r := s.Raw[sNodeAffinity]; r != nil {
		s.Normalized[sNodeAffinity] = defaultNormalize(affinityOut, r, false)
	}
	s.Normalized[sNodeResourcesFit] = s.Raw[sNodeResourcesFit]
	s.Normalized[sBalancedAllocation] = s.Raw[sBalancedAllocation]
	s.Normalized[sImageLocality] = s.Raw[sImageLocality]
}

// ipaPreScoreSkips reports a case where InterPodAffinity's PreScore surely
// returns Skip, without walking the nodes: the pod has no preferred (anti-)
// affinity term and no bound pod has a term that processExistingPod scores
// (required affinity, preferred affinity or preferred anti-affinity; a
// required anti-affinity term only filters), so no topology pair can be
// counted (interpodaffinity PreScore, v1.36).
func (c *Compiled) ipaPreScoreSkips() bool {
	if len(c.pi.PreferredAffinityTerms()) > 0 || len(c.pi.PreferredAntiAffinityTerms()) > 0 {
		return false
	}
	if !cluster.MayHaveScoredPodAffinity(c.snap) {
		return true // no bound pod has such a term: the walk below would find none
	}
	for _, n := range cluster.NodesOf(c.snap) {
		for _, p := range n.PodsWithAffinity {
			if len(p.RequiredAffinityTerms()) > 0 || len(p.PreferredAffinityTerms()) > 0 || len(p.PreferredAntiAffinityTerms()) > 0 {
				return false
			}
		}
	}
	return true
}

// reuse returns buf with length n, its contents unspecified, reusing its
// array when it can.
func reuse[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// defaultNormalize is helper.DefaultNormalizeScore with MaxNodeScore,
// written into out (len(raw) long), which it returns.
func defaultNormalize(out, raw []int64, reverse bool) []int64 {
	out = out[:len(raw)]
	var top int64
	for _, v := range raw {
		top = max(top, v)
	}
	if top == 0 {
		v := int64(0)
		if reverse {
			v = sched.MaxNodeScore
		}
		for i := range out {
			out[i] = v
		}
		return out
	}
	for i, v := range raw {
		s := sched.Quotient(sched.MaxNodeScore*v, top)
		if reverse {
			s = sched.MaxNodeScore - s
		}
		out[i] = s
	}
	return out
}

const (
	mib                   int64 = 1024 * 1024
	minImageThreshold     int64 = 23 * mib
	maxContainerThreshold int64 = 1000 * mib
)
