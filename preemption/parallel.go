package preemption

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

// dryRun is one potential node's dry-run outcome.
type dryRun struct {
	vs  victimSet
	err error // the first error the node's dry run met
}

// dryRuns computes the potential nodes' dry runs in visiting order for
// preempt's candidate loop. Each node's dry run reads only the node, the
// compiled preemptor and the (static) budgets, so the outcomes do not depend
// on which goroutine computes them or when: with parallelism above 1 a round
// of upcoming positions is computed on several goroutines, each with its own
// preemptor scratch, trial and budget cache, and the loop then consumes them
// in order exactly as it would one by one. A round is every position when
// the loop visits all nodes (no sampling), else as many as the loop needs
// candidates at least, so that an early stop wastes at most one round.
type dryRuns struct {
	pr        *preemptor
	potential []*cluster.NodeInfo
	offset    int
	// refs[i] is position i's dry run: the memo's entry when it has one
	// (read in place, not copied: a queue of preemptors reads a thousand
	// per pod), else results[i], computed for this call.
	refs      []*dryRun
	results   []dryRun
	next      int // positions below next are computed
	round     int
	par       int
	helpers   *placement.Workers // nil: par.Run's per-call helpers
	newTrials func() func(n *cluster.NodeInfo) trial
	seq       func(n *cluster.NodeInfo) trial // the sequential worker's trials
	workers   []*dryRunWorker
	memo      *dryRunMemo // nil: every dry run computed
}

type dryRunWorker struct {
	pr       *preemptor
	newTrial func(n *cluster.NodeInfo) trial
}

// minParallelDryRuns is the smallest round worth other goroutines.
const minParallelDryRuns = 4

func newDryRuns(pr *preemptor, potential []*cluster.NodeInfo, offset, limit int, sampled bool,
	newTrials func() func(n *cluster.NodeInfo) trial, par int, workers *placement.Workers, memo *dryRunMemo) *dryRuns {
	buf := dryRunBuffers.Get().(*dryRunBuffer)
	results := slices.Grow(buf.results[:0], len(potential))[:len(potential)]
	refs := slices.Grow(buf.refs[:0], len(potential))[:len(potential)]
	d := &dryRuns{pr: pr, potential: potential, offset: offset, results: results, refs: refs,
		round: len(potential), par: par, helpers: workers, newTrials: newTrials, memo: memo}
	memo.size(potential)
	if sampled {
		d.round = max(limit, minParallelDryRuns)
	}
	return d
}

// dryRunBuffers recycles the results arrays: a queue of preemptors dry-runs
// hundreds of nodes per pod, and a fresh array per pod was a fifth of what
// such a run allocated.
var dryRunBuffers = sync.Pool{New: func() any { return new(dryRunBuffer) }}

// dryRunBuffer is what dryRunBuffers recycle: a dryRuns' arrays.
type dryRunBuffer struct {
	results []dryRun
	refs    []*dryRun
}

// release returns the arrays for the next preemptor's dry runs, once
// preempt has copied out what it keeps (victim lists and statuses are
// referenced, not the arrays). The results entries that were used (those
// refs points at) are cleared, so that the pool keeps no reference alive.
func (d *dryRuns) release() {
	for i, r := range d.refs {
		if r == &d.results[i] {
			d.results[i] = dryRun{}
		}
	}
	clear(d.refs)
	dryRunBuffers.Put(&dryRunBuffer{results: d.results[:0], refs: d.refs[:0]})
	d.results, d.refs = nil, nil
}

func (d *dryRuns) node(i int) *cluster.NodeInfo {
	return d.potential[(d.offset+i)%len(d.potential)]
}

// at returns the node at visiting position i and its dry run, computing
// it (and, in parallel, the rest of its round) when not done yet. Positions
// must be asked in increasing order.
func (d *dryRuns) at(i int) (*cluster.NodeInfo, *dryRun) {
	if i >= d.next {
		hi := min(d.next+d.round, len(d.potential))
		if d.memo != nil {
			d.fillMemo(d.next, hi)
		} else if d.par > 1 && hi-d.next >= minParallelDryRuns {
			d.fillRange(d.next, hi)
		} else {
			if d.seq == nil {
				d.seq = d.newTrials()
			}
			d.compute(i, d.pr, d.seq)
			hi = i + 1
		}
		d.next = hi
	}
	return d.node(i), d.refs[i]
}

// compute runs position i's dry run with pr and newTrial, and points
// refs[i] at its outcome: the memo's entry when the memo records it, else
// results[i].
func (d *dryRuns) compute(i int, pr *preemptor, newTrial func(n *cluster.NodeInfo) trial) {
	d.refs[i] = d.memo.run(pr, d.node(i), newTrial, &d.results[i])
}

// fillMemo fills positions [lo, hi) from the memo and computes the
// positions it has no entry for (on d.par goroutines when there are enough
// of them).
func (d *dryRuns) fillMemo(lo, hi int) {
	var misses []int
	for i := lo; i < hi; i++ {
		if r := d.memo.lookup(d.node(i)); r != nil {
			d.refs[i] = r
		} else {
			misses = append(misses, i)
		}
	}
	if d.par > 1 && len(misses) >= minParallelDryRuns {
		d.fillParallel(misses)
		return
	}
	if len(misses) > 0 && d.seq == nil {
		d.seq = d.newTrials()
	}
	for _, i := range misses {
		d.compute(i, d.pr, d.seq)
	}
}

// fillRange computes positions [lo, hi) on d.par goroutines.
func (d *dryRuns) fillRange(lo, hi int) {
	positions := make([]int, hi-lo)
	for k := range positions {
		positions[k] = lo + k
	}
	d.fillParallel(positions)
}

// fillParallel computes the given positions on d.par goroutines, which take
// positions one at a time (dry runs differ much in cost), then folds the
// workers' budget caches into the shared one.
func (d *dryRuns) fillParallel(positions []int) {
	if d.workers == nil {
		d.workers = make([]*dryRunWorker, min(d.par, len(positions)))
		for k := range d.workers {
			pr := &preemptor{pod: d.pr.pod, priority: d.pr.priority, budgets: d.pr.budgets.fork(), now: d.pr.now}
			d.workers[k] = &dryRunWorker{pr: pr, newTrial: d.newTrials()}
		}
	}
	var pos atomic.Int64
	// Each worker's scratch is used by one task; the tasks share the
	// positions (internal/par: the caller runs them all when no helper is
	// awake to take one).
	d.helpers.Run(d.par, len(d.workers), func(k int) {
		w := d.workers[k]
		for {
			k := int(pos.Add(1) - 1)
			if k >= len(positions) {
				return
			}
			d.compute(positions[k], w.pr, w.newTrial)
		}
	})
	for _, w := range d.workers {
		d.pr.budgets.absorb(w.pr.budgets)
	}
}

// dryRunMemo keeps, per node slot (NodeInfo.Index), the dry run of a class
// of equivalent preemptors (the queue's node-local classes: the same spec
// but for what only the topology filters read, so the same priority,
// policy and node-local filters) on one state of the node, for one
// scheduling loop.
// It is used only when a node's dry run reads nothing but the node, the
// preemptor and the budgets, whose status the loop never changes: no
// nominated pods, and neither topology filter running for the pod (their
// PreFilter state counts pods on other nodes). An entry is valid while the
// node's NodeInfo is the one recorded (views copy a node they change), so
// a pod of the class dry-runs only the nodes bindings and evictions
// changed since the last one, as upstream's equivalence cache once skipped
// predicates. Slots are written by one goroutine each.
type dryRunMemo struct {
	at  []*cluster.NodeInfo
	out []dryRun
}

// size makes room for the slots of nodes.
func (m *dryRunMemo) size(nodes []*cluster.NodeInfo) {
	if m == nil {
		return
	}
	top := 0
	for _, n := range nodes {
		top = max(top, n.Index+1)
	}
	if top > len(m.at) {
		m.at = append(m.at, make([]*cluster.NodeInfo, top-len(m.at))...)
		m.out = append(m.out, make([]dryRun, top-len(m.out))...)
	}
}

// lookup returns the recorded dry run for n's current state. Its victim
// list is the recorded one: results of one run share it (capacity capped,
// so that appending to one list never writes into another).
func (m *dryRunMemo) lookup(n *cluster.NodeInfo) *dryRun {
	if n.Index >= 0 && n.Index < len(m.at) && m.at[n.Index] == n {
		return &m.out[n.Index]
	}
	return nil
}

// run computes n's dry run for pr and records it when it met no error; it
// returns the recorded entry, else own, which it fills. A recorded entry
// stays in place until a later call records the node again (a preempt
// call dry-runs each node once).
func (m *dryRunMemo) run(pr *preemptor, n *cluster.NodeInfo, newTrial func(n *cluster.NodeInfo) trial, own *dryRun) *dryRun {
	t := newTrial(n)
	r := dryRun{vs: pr.selectVictims(n, t), err: t.err()}
	if m != nil && r.err == nil && n.Index >= 0 && n.Index < len(m.at) {
		m.at[n.Index], m.out[n.Index] = n, r
		return &m.out[n.Index]
	}
	*own = r
	return own
}
