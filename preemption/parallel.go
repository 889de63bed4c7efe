package preemption

import (
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
	results   []dryRun
	next      int // positions below next are computed
	round     int
	par       int
	helpers   *placement.Workers // nil: par.Run's per-call helpers
	newTrials func() func(n *cluster.NodeInfo) trial
	seq       func(n *cluster.NodeInfo) trial // the sequential worker's trials
	workers   []*dryRunWorker
}

type dryRunWorker struct {
	pr       *preemptor
	newTrial func(n *cluster.NodeInfo) trial
}

// minParallelDryRuns is the smallest round worth other goroutines.
const minParallelDryRuns = 4

func newDryRuns(pr *preemptor, potential []*cluster.NodeInfo, offset, limit int, sampled bool,
	newTrials func() func(n *cluster.NodeInfo) trial, par int, workers *placement.Workers) *dryRuns {
	d := &dryRuns{pr: pr, potential: potential, offset: offset, results: make([]dryRun, len(potential)),
		round: len(potential), par: par, helpers: workers, newTrials: newTrials}
	if sampled {
		d.round = max(limit, minParallelDryRuns)
	}
	return d
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
		if d.par > 1 && hi-d.next >= minParallelDryRuns {
			d.fillParallel(d.next, hi)
		} else {
			if d.seq == nil {
				d.seq = d.newTrials()
			}
			n := d.node(i)
			t := d.seq(n)
			d.results[i] = dryRun{vs: d.pr.selectVictims(n, t), err: t.err()}
			hi = i + 1
		}
		d.next = hi
	}
	return d.node(i), &d.results[i]
}

// fillParallel computes positions [lo, hi) on d.par goroutines, which take
// positions one at a time (dry runs differ much in cost), then folds the
// workers' budget caches into the shared one.
func (d *dryRuns) fillParallel(lo, hi int) {
	if d.workers == nil {
		d.workers = make([]*dryRunWorker, min(d.par, hi-lo))
		for k := range d.workers {
			pr := &preemptor{pod: d.pr.pod, priority: d.pr.priority, budgets: d.pr.budgets.fork(), now: d.pr.now}
			d.workers[k] = &dryRunWorker{pr: pr, newTrial: d.newTrials()}
		}
	}
	var pos atomic.Int64
	pos.Store(int64(lo))
	// Each worker's scratch is used by one task; the tasks share the
	// positions (internal/par: the caller runs them all when no helper is
	// awake to take one).
	d.helpers.Run(d.par, len(d.workers), func(k int) {
		w := d.workers[k]
		for {
			i := int(pos.Add(1) - 1)
			if i >= hi {
				return
			}
			n := d.node(i)
			t := w.newTrial(n)
			d.results[i] = dryRun{vs: w.pr.selectVictims(n, t), err: t.err()}
		}
	})
	for _, w := range d.workers {
		d.pr.budgets.absorb(w.pr.budgets)
	}
}
