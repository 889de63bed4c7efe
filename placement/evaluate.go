package placement

import (
	"errors"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// Decision is the outcome of one scheduling cycle without the per-node
// report: what Schedule returns.
type Decision struct {
	// Gated is SchedulingGates' rejection (nothing else was evaluated).
	Gated *framework.Status
	// PreFilter is the aggregated PreFilter status.
	PreFilter framework.Status
	// Node is the chosen node: the highest total score, ties to the lowest
	// node name; "" when no node is feasible.
	Node string
	// Feasible is the number of feasible nodes.
	Feasible int
	// TotalScore is Node's total (computed even with one feasible node).
	TotalScore int64
	// Codes is every node's recorded status code (first failing plugin, the
	// PreFilter status, or the absent-node status), in Snapshot.Nodes order;
	// Success for feasible nodes. Preemption dry-runs the Unschedulable ones.
	Codes []framework.Code
	// Statuses holds the full statuses, in the same order, only when no node
	// is feasible (they make the FitError message) or some node's status is
	// Error (upstream then aborts the cycle).
	Statuses []framework.Status
	// Message is upstream's FitError text when no node is feasible.
	Message string
	// Err is the scoring phase's error (Scores.Err: a *ScoreRangeError or a
	// *ScorePluginError): upstream's cycle then fails and Node is "". A
	// lone feasible node is chosen without it, as upstream does not score
	// one (Schedule's TotalScore for it is informative only).
	Err error
}

// Schedule runs one scheduling cycle for the compiled pod: PreEnqueue,
// PreFilter, every Filter on every node (short-circuit per node), Score on
// the feasible nodes and host selection. It is Evaluate without the
// per-plugin report and allocates only per-cycle buffers.
func (c *Compiled) Schedule() Decision { return c.schedule(true) }

// Decide is Schedule as kube-scheduler's cycle runs it (schedulePod): with
// a single feasible node nothing is scored (TotalScore is then 0), since
// the node is chosen either way. A scheduling loop that reports no score
// for such a pod saves the scoring plugins' walk of the cluster.
func (c *Compiled) Decide() Decision { return c.schedule(false) }

func (c *Compiled) schedule(scoreSingle bool) Decision {
	d := c.decide(scoreSingle)
	d.PreFilter = d.PreFilter.Clone()
	if c.memo == nil && c.bufs == nil {
		// A scheduling loop's memo or buffers lend their statuses until
		// its next pod, reasons shared; it copies what it keeps.
		sched.OwnReasons(len(d.Statuses), func(i int) *sched.Status { return &d.Statuses[i] })
	}
	return d
}

func (c *Compiled) decide(scoreSingle bool) Decision {
	var d Decision
	if c.gated != nil {
		d.Gated = c.Gated() // a copy: the caller owns its Decision
		return d
	}
	d.PreFilter = c.preFilter
	nodes := cluster.NodesOf(c.snap)
	switch {
	case c.memo != nil:
		// As its statuses below: valid until the class's next pod.
		c.memo.codes = reuse(c.memo.codes, len(nodes))
		d.Codes = c.memo.codes
	case c.bufs != nil:
		// Every node's code is written below.
		c.bufs.codes = reuse(c.bufs.codes, len(nodes))
		d.Codes = c.bufs.codes
	default:
		d.Codes = make([]sched.Code, len(nodes))
	}
	if !c.preFilter.Code.Passes() {
		d.Statuses = make([]sched.Status, len(nodes))
		for i := range d.Statuses {
			d.Statuses[i] = c.preFilter
			d.Codes[i] = c.preFilter.Code
		}
		d.Message = fitErrorMessage(len(nodes), &c.preFilter, nil)
		return d
	}
	// The feasible nodes are listed in a memo's array, else in a recycled
	// scratch's (cleared before it is put back, so that the pool holds no
	// node). Without a memo, the scratch also keeps what failed on each
	// node, from which the statuses are rebuilt when no node fits.
	var scr *scoreScratch
	var why []failure
	if c.memo == nil {
		scr = scoreScratches.Get().(*scoreScratch)
		defer func() {
			clear(scr.feasible[:cap(scr.feasible)])
			scoreScratches.Put(scr)
		}()
		if cap(scr.why) < len(nodes) {
			scr.why = make([]failure, len(nodes))
		}
		why = scr.why[:len(nodes)]
	}
	inResult := c.resultSlots()
	if c.memo != nil && !c.topologyFilters() {
		// With a memo and no topology filter, a node's verdict is a lookup:
		// sharing the pass would cost more than it saves.
		c.filterCodesMemo(nodes, d.Codes, inResult)
	} else {
		forChunks(len(nodes), c.opts.runner(), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				n := nodes[i]
				if inResult != nil && !inResult[n.Index] {
					d.Codes[i] = c.absent.Code
					continue
				}
				if c.memo != nil {
					d.Codes[i] = c.filterCodeMemo(n)
				} else {
					d.Codes[i], why[i] = c.filterWhy(n)
				}
			}
		})
	}
	return c.conclude(d, nodes, why, inResult, scr, scoreSingle, nil)
}

// conclude ends decide once every node's code is in d.Codes (and, without
// a memo, its failure in why, scr being the pass's scratch): the feasible
// nodes, the statuses when none is feasible (or a filter erred), else the
// scores and the best node. inResult is the pass's PreFilter node
// restriction by slot (resultSlots). pre, when not nil, names the topology
// plugins whose PreScore counts are pending in scr (compileDecide).
func (c *Compiled) conclude(d Decision, nodes []*cluster.NodeInfo, why []failure, inResult []bool, scr *scoreScratch, scoreSingle bool, pre *topologyPreScores) Decision {
	// The nodes that pass, in node order (and, with scores made ahead,
	// their positions). The loop does not branch on a node's code: on a
	// mixed queue about a third of the nodes pass, in no order a branch
	// predictor learns. Every node is written at the next free place,
	// which moves on only past one that passes.
	var feasible []*cluster.NodeInfo
	if c.memo != nil {
		feasible = reuse(c.memo.feasible, len(nodes))
	} else {
		feasible = reuse(scr.feasible, len(nodes))
	}
	var pos []int32
	if scr != nil && scr.ahead.on {
		scr.ahead.pos = reuse(scr.ahead.pos, len(nodes))
		pos = scr.ahead.pos
	}
	kept, errs := 0, 0
	for i, code := range d.Codes {
		feasible[kept] = nodes[i]
		if pos != nil {
			pos[kept] = int32(i)
		}
		pass, err := 0, 0
		if code.Passes() {
			pass = 1
		}
		if code == sched.Error {
			err = 1
		}
		kept += pass
		errs |= err
	}
	hasErr := errs != 0
	feasible = feasible[:kept]
	if pos != nil {
		scr.ahead.pos = pos[:kept]
	}
	if scr != nil && cap(feasible) > cap(scr.feasible) {
		scr.feasible = feasible[:0]
	}
	d.Feasible = len(feasible)
	if c.memo != nil {
		if cap(feasible) > cap(c.memo.feasible) {
			c.memo.feasible = feasible[:0]
		}
		c.memo.fitNowhere = len(feasible) == 0
	}
	if len(feasible) == 0 || hasErr {
		// A memo's loop reads a pod's statuses before it decides the next
		// pod: one array serves every pod of the class, and a node whose
		// state has not changed since a pod without topology filters
		// computed its status keeps it (node-local answers are the class's).
		var statusAt []*cluster.NodeInfo
		if c.memo != nil {
			m := c.memo
			if len(m.statuses) != len(nodes) {
				m.statuses = reuse(m.statuses, len(nodes))
				m.statusAt = make([]*cluster.NodeInfo, len(nodes))
			}
			d.Statuses = m.statuses
			if c.topologyFilters() {
				clear(m.statusAt)
			} else {
				statusAt = m.statusAt
			}
		} else if c.bufs != nil {
			// Every node's status is written below.
			c.bufs.statuses = reuse(c.bufs.statuses, len(nodes))
			d.Statuses = c.bufs.statuses
		} else {
			d.Statuses = make([]sched.Status, len(nodes))
		}
		forChunks(len(nodes), c.opts.runner(), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				n := nodes[i]
				switch {
				case statusAt != nil && statusAt[i] == n:
				case inResult != nil && !inResult[n.Index]:
					d.Statuses[i] = c.absent
				case c.memo != nil:
					d.Statuses[i] = c.filterMemo(n)
				default:
					d.Statuses[i] = c.statusOf(n, why[i])
				}
				if statusAt != nil {
					statusAt[i] = n
				}
			}
		})
		if len(feasible) == 0 {
			d.Message = fitErrorMessage(len(nodes), nil, d.Statuses)
			return d
		}
	}
	if len(feasible) == 1 {
		// Upstream does not score a single feasible node.
		d.Node = feasible[0].Name
		if scoreSingle {
			one := scoreScratches.Get().(*scoreScratch)
			d.TotalScore = c.scoreWith(feasible, one, nil).Total[0]
			scoreScratches.Put(one)
		}
		return d
	}
	if c.memo != nil {
		if best, total, ok := c.selectMemo(feasible); ok {
			d.Node, d.TotalScore = feasible[best].Name, total
			return d
		}
	}
	// Only the best node and its total leave: the arrays are recycled.
	if scr == nil {
		scr = scoreScratches.Get().(*scoreScratch)
		defer scoreScratches.Put(scr)
	}
	s := c.scoreWith(feasible, scr, pre)
	if s.Err != nil {
		d.Err = s.Err
		return d
	}
	best := 0
	for k := 1; k < len(feasible); k++ {
		if s.Total[k] > s.Total[best] {
			best = k
		}
	}
	d.Node, d.TotalScore = feasible[best].Name, s.Total[best]
	return d
}

// fitErrorMessage is FitError.Error (sched.FitErrorMessage) for a pod that
// PreFilter rejected (preFilter set) or for the nodes' statuses: the
// histogram counts the reasons of every node that does not pass.
func fitErrorMessage(numNodes int, preFilter *sched.Status, statuses []sched.Status) string {
	if preFilter != nil {
		return sched.FitErrorMessage(numNodes, preFilter.Reasons, nil)
	}
	// Nodes that fail alike usually hold one shared reasons slice (the
	// filters' reason texts are shared): a run of statuses with the same
	// slice is counted once, by its length, instead of one map update per
	// node and reason.
	counts := map[string]int{}
	var run []string
	n := 0
	for i := range statuses {
		if statuses[i].Code.Passes() {
			continue
		}
		rs := statuses[i].Reasons
		if len(rs) > 0 && len(rs) == len(run) && &rs[0] == &run[0] {
			n++
			continue
		}
		for _, r := range run {
			counts[r] += n
		}
		run, n = rs, 1
	}
	for _, r := range run {
		counts[r] += n
	}
	return sched.FitErrorMessage(numNodes, nil, counts)
}

// Evaluate runs PreEnqueue, PreFilter, every Filter on every node and every
// Score on the feasible nodes for one pod, as kube-scheduler v1.36's
// scheduling cycle does, and reports each node's verdict: Status is what
// upstream records (first failing plugin in order, the PreFilter status, or
// the status of a node outside the PreFilter result), Filters is every
// Filter plugin run on its own, Scores are listed for every feasible node
// (also when only one is feasible). Nodes are in name order; BestNodes are
// the feasible nodes with the highest total, in name order (host selection
// takes the first). It does not modify its arguments.
//
// Invalid input (an unparsable selector, a nil pod or snapshot) returns an
// error wrapping ErrInvalidPod; when a pod was given, the Result is returned
// too and describes it as upstream would (PreFilter status Error, Error set).
func Evaluate(snap *Snapshot, pod *corev1.Pod, opts Options) (*Result, error) {
	c, err := Compile(snap, pod, opts)
	if err != nil {
		if pod == nil || snap == nil {
			return nil, err
		}
		r := &Result{Pod: pod.Namespace + "/" + pod.Name, FeasibleNodes: []string{}, BestNodes: []string{}, Nodes: []NodeResult{}, Error: err.Error()}
		r.Priority = sched.PodPriority(pod)
		r.PreFilter.Status = framework.Status{Code: framework.Error}
		return r, err
	}
	return c.Evaluate(), nil
}

// Evaluate is the package-level Evaluate for an already compiled pod.
func (c *Compiled) Evaluate() *Result { return c.evaluate(maxIDs) }

// evaluate is Evaluate with a bound on each plugin's distinct statuses in
// the shared-row table (tests lower it to exercise unshared rows).
func (c *Compiled) evaluate(maxDistinct int) *Result {
	r := &Result{Pod: c.pi.Key, FeasibleNodes: []string{}, BestNodes: []string{}, Nodes: []NodeResult{}}
	r.Priority = sched.PodPriority(c.pod)
	if c.gated != nil {
		g := toPluginStatus(*c.gated)
		r.Gated = &g
		return r
	}
	r.PreFilter.Status = toPluginStatus(c.preFilter)
	r.PreFilter.Status.Plugin = c.preFilter.Plugin
	for i := 0; i < numFilters; i++ {
		if c.skip[i] && c.includesFilter(i) {
			r.PreFilter.SkippedFilterPlugins = append(r.PreFilter.SkippedFilterPlugins, filterNames[i])
		}
	}
	sort.Strings(r.PreFilter.SkippedFilterPlugins)
	if c.restricted {
		r.PreFilter.NodeNames = sets.List(c.nodeNames)
		r.PreFilter.RestrictedBy = c.restrictedBy
	}
	nodes := cluster.NodesOf(c.snap)
	r.Nodes = make([]NodeResult, len(nodes))
	if !c.preFilter.Code.Passes() {
		for i, n := range nodes {
			r.Nodes[i] = NodeResult{Node: n.Name, Status: toPluginStatus(c.preFilter)}
		}
		if c.preFilter.Code == sched.Error {
			r.Error = strings.Join(c.preFilter.Reasons, ", ")
		} else {
			r.Message = fitErrorMessage(len(nodes), &c.preFilter, nil)
		}
		return r
	}
	// Nodes with the same verdict from every filter (most nodes, as a rule)
	// share one Filters list and recorded status (verdictTable): a report
	// is read-only, and building a list per node was most of Evaluate's
	// time and memory.
	t := newVerdictTable(c, maxDistinct)
	feasibleIdx := make([]int32, 0, len(nodes))
	for i, n := range nodes {
		row := t.row(n)
		first := &row.first
		nr := &r.Nodes[i]
		nr.Node = n.Name
		nr.Filters = row.filters
		nr.ExcludedByPreFilter = row.excluded
		nr.Status = row.status
		if first.Code == sched.Error && r.Error == "" {
			r.Error = first.String()
		}
		if first.Code.Passes() {
			nr.Feasible = true
			feasibleIdx = append(feasibleIdx, int32(i))
		}
	}
	feasible := make([]*cluster.NodeInfo, len(feasibleIdx))
	r.FeasibleNodes = make([]string, len(feasibleIdx))
	for k, i := range feasibleIdx {
		feasible[k] = nodes[i]
		r.FeasibleNodes[k] = nodes[i].Name
	}
	if len(feasible) == 0 {
		if r.Error == "" {
			// Every node was rejected: the histogram needs only each
			// node's recorded reasons (kept in its report).
			statuses := make([]sched.Status, len(nodes))
			for i := range r.Nodes {
				statuses[i] = sched.Status{Code: sched.Unschedulable, Reasons: r.Nodes[i].Status.Reasons}
			}
			r.Message = fitErrorMessage(len(nodes), nil, statuses)
		}
		return r
	}
	if r.Error != "" {
		// A filter's Error aborts upstream's cycle before scoring.
		return r
	}
	s := c.score(feasible)
	scored := len(feasible) // nodes whose scores are listed
	if s.Err != nil {
		// The cycle fails: no best node; the nodes before the one with the
		// invalid score keep theirs (they were checked, in node order, as
		// the reference oracle reports them).
		r.Error = s.Err.Error()
		scored = 0 // a failed plugin: no score at all
		var rangeErr *ScoreRangeError
		if errors.As(s.Err, &rangeErr) {
			scored = rangeErr.Index
		}
	}
	for p := range numScores {
		if s.Skipped[p] && s.Weights[p] != 0 {
			r.PreScoreSkippedPlugins = append(r.PreScoreSkippedPlugins, scoreNames[p])
		}
	}
	sort.Strings(r.PreScoreSkippedPlugins)
	var top int64
	run := 0 // plugins listed per node
	for p := range numScores {
		if !s.Skipped[p] {
			run++
		}
	}
	scoreBlock := make([]PluginScore, scored*run)
	totals := make([]int64, scored)
	for k, i := range feasibleIdx[:scored] {
		nr := &r.Nodes[i]
		nr.Scores = scoreBlock[k*run : k*run : (k+1)*run]
		for p := range numScores {
			if s.Skipped[p] {
				continue
			}
			nr.Scores = append(nr.Scores, PluginScore{Plugin: scoreNames[p], Raw: s.Raw[p][k],
				Normalized: s.Normalized[p][k], Weight: s.Weights[p], Weighted: s.Normalized[p][k] * s.Weights[p]})
		}
		totals[k] = s.Total[k]
		nr.TotalScore = &totals[k]
		if k == 0 || s.Total[k] > top {
			top = s.Total[k]
		}
	}
	if s.Err != nil {
		return r
	}
	for k, i := range feasibleIdx {
		if s.Total[k] == top {
			r.BestNodes = append(r.BestNodes, r.Nodes[i].Node)
		}
	}
	return r
}

// includesFilter reports whether the profile (its version and
// Options.Plugins) has the filter.
func (c *Compiled) includesFilter(p int) bool {
	return (p != fNodeDeclaredFeatures || c.opts.Version.RunsNodeDeclaredFeatures()) && c.opts.runsFilter(p)
}

// toPluginStatus copies s for a Result: the Reasons are the caller's to
// change, while a Status's are often shared constants.
func toPluginStatus(s sched.Status) framework.Status { return s.Clone() }
