package placement

import "github.com/schedkit/schedkit/internal/par"

// Workers is a set of helper goroutines that a caller creates for a series
// of calls and closes when done: with Options.Workers set, the parallel
// work of Compile, Schedule, Score and Evaluate (and of the preemption
// queue and dry runs) is shared with these helpers, which stay awake for a
// moment after each task (spinning, yielding their processor, for 300 us)
// and then park until the next call; without it, every call starts its
// helpers itself and they exit before it returns. A Workers pays off for a
// chain of short calls, such as a scheduling queue, where starting
// goroutines per call would wake an idle core each time (100 us and more on
// small VMs); preemption.ScheduleQueue makes one for its own run.
//
// Helpers are started on demand, never more than GOMAXPROCS-1, and only
// Close stops them: a Workers that is not closed keeps them parked for the
// life of the process. Results do not depend on whether, or which, Workers
// is used. A Workers is safe for concurrent use.
type Workers struct{ g *par.Group }

// NewWorkers returns a Workers without helpers; the calls that use it start
// them. The caller must Close it.
func NewWorkers() *Workers { return &Workers{g: par.NewGroup()} }

// Close stops the helpers and returns when every one has exited. Calls
// still using w afterwards start their own helpers per call. Close may be
// called more than once; a nil w has nothing to close.
func (w *Workers) Close() {
	if w != nil {
		w.g.Close()
	}
}

// Run calls fn(i) for every i in [0, n) and returns when all calls have
// returned, on the calling goroutine and up to parallelism-1 of w's
// helpers (on a nil w, helpers started for this call, which exit before it
// returns; with parallelism <= 1, in order on the caller). Calls for
// different i must not write to the same memory.
func (w *Workers) Run(parallelism, n int, fn func(i int)) {
	var g *par.Group
	if w != nil {
		g = w.g
	}
	g.Run(parallelism, n, fn)
}

// runReserving is Run whose first reserved calls only the calling
// goroutine makes (par.Group.RunReserving): the helpers, once the others
// are taken, turn to other work.
func (w *Workers) runReserving(parallelism, n, reserved int, fn func(i int)) {
	if w == nil {
		par.Run(parallelism, n, fn)
		return
	}
	w.g.RunReserving(parallelism, n, reserved, fn)
}

// runner is the parallelism of a call and the helpers it uses.
type runner struct {
	n int
	w *Workers
}

// runner returns the options' parallelism and helpers.
func (o *Options) runner() runner { return runner{o.Parallelism, o.Workers} }

// minChunk is the smallest node range worth sharing.
const minChunk = 128

// forChunks calls fn on consecutive ranges [lo, hi) covering [0, n), shared
// by up to r.n goroutines, the caller's among them (the caller's alone
// when r.n <= 1 or n is small; see internal/par). fn must write only to
// indices in its range.
func forChunks(n int, r runner, fn func(lo, hi int)) {
	if r.n <= 1 || n < 2*minChunk {
		fn(0, n)
		return
	}
	// More ranges than goroutines, so that a helper that joins late still
	// takes a share.
	chunks := min(4*r.n, n/minChunk)
	size := (n + chunks - 1) / chunks
	r.w.Run(r.n, chunks, func(k int) { fn(k*size, min((k+1)*size, n)) })
}

// both runs a and b, on two goroutines when r.n > 1 (see internal/par),
// and returns when both are done. They must not write to the same memory.
func both(r runner, a, b func()) {
	r.w.Run(r.n, 2, func(i int) {
		if i == 0 {
			a()
		} else {
			b()
		}
	})
}

// runAll runs every task and returns when all are done, with r.n > 1 on
// up to that many goroutines (see internal/par). Tasks must not write to
// the same memory.
func runAll(r runner, tasks []func()) {
	r.w.Run(r.n, len(tasks), func(i int) { tasks[i]() })
}
