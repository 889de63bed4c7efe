package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// spinFor is how long an idle helper of a Group keeps looking for work
// before it parks. It spans the sequential stretch between two per-pod
// phases of the scheduling queue (binding, compiling the node-local parts,
// recording the outcome) with room to spare, and is short next to any wait
// a caller could notice.
const spinFor = 300 * time.Microsecond

// spinChecks is how many times a spinning goroutine (an idle helper, or a
// caller waiting for its helpers) reads the flag it waits on between two
// yields of its processor. A yield (runtime.Gosched) goes through the
// runtime scheduler and its global run queue lock, and costs a hundred
// times a read: yielding at every read kept that lock busy enough to slow
// the goroutine doing the work (measured on the mixed 1000-node queue:
// 5 % of the decisions' wall time). Reading a few hundred times first
// still yields often enough for a goroutine that needs the processor.
const spinChecks = 200

// job is one Run call's tasks. The caller claims them from the front and
// helpers from the back, so that when a series of calls splits the same
// range (the nodes, pod after pod) each goroutine tends to get the same
// part every time and finds its data in its own core's cache.
type job struct {
	fn      func(i int)
	ends    atomic.Uint64 // the unclaimed tasks [front, back): front in the low half
	pending atomic.Int32  // tasks not finished
	wake    chan struct{} // receives a token when a helper finishes the last task
	// floor is the first task helpers may claim: the ones below it are the
	// caller's alone (RunReserving).
	floor uint32
	// background marks a Start job: helpers take its tasks one at a time,
	// and only when no Run has a task left for them.
	background bool
}

func newJob(n int, fn func(i int)) *job {
	j := &job{fn: fn, wake: make(chan struct{}, 1)}
	j.ends.Store(uint64(n) << 32)
	j.pending.Store(int32(n))
	return j
}

// claim takes the next task from the front, or the back, and reports
// whether there was one.
func (j *job) claim(back bool) (int, bool) {
	for {
		e := j.ends.Load()
		front, end := uint32(e), uint32(e>>32)
		if front >= end {
			return 0, false
		}
		var i int
		if back && end <= j.floor {
			return 0, false
		}
		if back {
			end--
			i = int(end)
		} else {
			i = int(front)
			front++
		}
		if j.ends.CompareAndSwap(e, uint64(end)<<32|uint64(front)) {
			return i, true
		}
	}
}

// runOne claims one task of j and runs it: ran reports whether there was
// one, last whether it was the last of j to finish.
func (j *job) runOne(back bool) (ran, last bool) {
	i, ok := j.claim(back)
	if !ok {
		return false, false
	}
	j.fn(i)
	return true, j.pending.Add(-1) == 0
}

// claimAll runs tasks of j until none is left to claim, and reports
// whether it ran the last one to finish.
func (j *job) claimAll(back bool) (last bool) {
	for {
		if ran, last := j.runOne(back); !ran || last {
			return last
		}
	}
}

// helpAll is a helper's share of j: it claims tasks from the back and, if
// it finished the last one, wakes the caller.
func (j *job) helpAll() {
	if j.claimAll(true) {
		j.wake <- struct{}{}
	}
}

// finish is the caller's share of j: it claims tasks from the front, then
// waits, blocked, for the tasks helpers are still running.
func (j *job) finish() {
	if !j.claimAll(false) && j.pending.Load() != 0 {
		<-j.wake
	}
}

// left reports whether j has tasks a helper may claim.
func (j *job) left() bool {
	e := j.ends.Load()
	front, end := uint32(e), uint32(e>>32)
	return front < end && end > j.floor
}

// helpOne is a helper's share of a background job: one task from the back,
// waking the caller if it was the last to finish.
func (j *job) helpOne() {
	if _, last := j.runOne(true); last {
		j.wake <- struct{}{}
	}
}

// join is the end of a call on j by its caller, once it claimed every
// task it could: j leaves the board and, unless last (the caller finished
// the last task), the caller waits for the tasks helpers are still running.
func (g *Group) join(j *job, last bool) {
	g.withdraw(j)
	if last || j.pending.Load() == 0 {
		return
	}
	// A helper is finishing a task. Tasks are short, and a goroutine that
	// blocks may have its thread put to sleep, which costs a wake-up as
	// long as the ones avoided here: look again (yielding every
	// spinChecks looks) for spinFor, and only then block.
	if !spinUntil(func() bool { return j.pending.Load() == 0 }) {
		<-j.wake
	}
	// The helper that finished the last task sent a token nobody waits
	// for: the channel is j's own and is dropped with it.
}

// helpersFor is the number of helpers a call with par goroutines and n
// tasks may use besides its caller.
func helpersFor(par, n int) int {
	return max(min(par, runtime.GOMAXPROCS(0), n)-1, 0)
}

// Run calls fn(i) for every i in [0, n) and returns when all calls have
// returned. With par > 1 up to par goroutines share the calls (the
// caller's among them, and never more than GOMAXPROCS): the others are
// started for this call and exit when no call is left to claim. With par
// <= 1 the caller makes them in order. Calls for different i must not
// write to the same memory.
func Run(par, n int, fn func(i int)) {
	h := helpersFor(par, n)
	if h == 0 {
		for i := range n {
			fn(i)
		}
		return
	}
	j := newJob(n, fn)
	for range h {
		go j.helpAll()
	}
	j.finish()
}

// Group is a set of helper goroutines that serve the Run calls made through
// it until Close. The zero value is not usable; use NewGroup. A nil *Group
// runs every call as the package-level Run does. Its methods are safe for
// concurrent use, and a task may itself call Run.
type Group struct {
	mu      sync.Mutex
	jobs    []*job
	helpers int  // helpers started (under mu)
	closed  bool // under mu

	open     atomic.Int32 // len(jobs), read by spinning helpers without the lock
	spinning atomic.Int32 // helpers looking for work
	parked   atomic.Int32 // helpers waiting for a wake-up
	stop     atomic.Bool
	wakeup   chan struct{}
	done     sync.WaitGroup
}

// NewGroup returns a Group without helpers: its Run calls start them, up to
// what they ask for.
func NewGroup() *Group {
	return &Group{wakeup: make(chan struct{}, 64)}
}

// Run is the package-level Run, served by g's helpers (started on demand,
// never more than GOMAXPROCS-1); after Close, or on a nil g, it is the
// package-level Run.
func (g *Group) Run(par, n int, fn func(i int)) { g.RunReserving(par, n, 0, fn) }

// RunReserving is Run whose first reserved tasks only the caller runs (in
// order, before any other it claims): helpers take the others, from the
// back, and once those are claimed turn to other work instead of waiting
// for the caller's. The caller still claims the others' leftovers.
func (g *Group) RunReserving(par, n, reserved int, fn func(i int)) {
	if g == nil {
		Run(par, n, fn)
		return
	}
	if helpersFor(par, n-reserved) == 0 {
		for i := range n {
			fn(i)
		}
		return
	}
	j := newJob(n, fn)
	j.floor = uint32(max(reserved, 0))
	if !g.publish(j, par) {
		Run(par, n, fn)
		return
	}
	g.join(j, j.claimAll(false))
}

// publish puts j on the board for up to par-1 helpers, starting or waking
// them; it reports false once g is closed.
func (g *Group) publish(j *job, par int) bool {
	want := min(par, runtime.GOMAXPROCS(0)) - 1
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.jobs = append(g.jobs, j)
	g.open.Add(1)
	if g.helpers < want {
		for ; g.helpers < want; g.helpers++ {
			g.done.Add(1)
			go g.helper()
		}
	} else if g.spinning.Load() == 0 && g.parked.Load() > 0 {
		select {
		case g.wakeup <- struct{}{}:
		default:
		}
	}
	return true
}

// Pending is a background job started with Group.Start: work a caller
// will need later, which helpers run while no Run has a task for them.
// Its owner must end it with Wait or Cancel, from one goroutine.
type Pending struct {
	g *Group // nil: nothing published, Wait runs every task
	j *job
	// dropped: Drop took the last unfinished task, so no helper finishes
	// it and none sends a token.
	dropped bool
}

// Start publishes n tasks for g's helpers (up to par-1 of them) and
// returns without running any: a helper with no Run task to claim takes
// them one at a time, from the back, and goes back to Run tasks as soon
// as one appears. On a nil or closed g, or with par <= 1, nothing runs
// until Wait. Calls for different i must not write to the same memory.
func (g *Group) Start(par, n int, fn func(i int)) *Pending {
	j := newJob(n, fn)
	j.background = true
	if g == nil || n == 0 || helpersFor(par, n) == 0 || !g.publish(j, par) {
		return &Pending{j: j}
	}
	return &Pending{g: g, j: j}
}

// Wait runs on the calling goroutine every task no helper has claimed
// (helpers may still take some) and returns when all have returned.
func (p *Pending) Wait() {
	last := p.j.claimAll(false)
	if p.g != nil {
		p.g.join(p.j, last)
	}
}

// Drop drops the tasks no helper has claimed, without waiting for the
// ones helpers are running: afterwards no task of p starts. Cancel must
// still follow before the tasks' memory is reused.
func (p *Pending) Drop() {
	for {
		if _, ok := p.j.claim(false); !ok {
			break
		}
		if p.j.pending.Add(-1) == 0 {
			p.dropped = true // nothing runs: no helper will send a token
		}
	}
}

// Cancel is Drop, then waits for the tasks helpers are running: once it
// returns, no task of p runs, and which ones ran is unknown.
func (p *Pending) Cancel() {
	p.Drop()
	if p.g != nil {
		p.g.join(p.j, p.dropped)
	}
}

// Close stops g's helpers and returns when every one has exited. Runs in
// progress finish first (their callers run whatever no helper took); later
// Runs start their own helpers per call. Close may be called more than
// once; a nil g has nothing to close.
func (g *Group) Close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	already := g.closed
	g.closed = true
	g.mu.Unlock()
	if !already {
		g.stop.Store(true)
		close(g.wakeup)
	}
	g.done.Wait()
}

// withdraw takes j off the board once every task has been claimed.
func (g *Group) withdraw(j *job) {
	g.mu.Lock()
	for k, o := range g.jobs {
		if o == j {
			g.jobs = append(g.jobs[:k], g.jobs[k+1:]...)
			g.jobs[len(g.jobs):cap(g.jobs)][0] = nil
			g.open.Add(-1)
			break
		}
	}
	g.mu.Unlock()
}

// take returns a job on the board with tasks left for a helper, a Run's
// before a background one, or nil. A job with none left never has any
// again (its range only shrinks): take drops it from the board, so that
// spinning helpers do not keep finding it (a caller running its reserved
// tasks, or a background job nobody has waited for yet).
func (g *Group) take() *job {
	if g.open.Load() == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var run, bg *job
	kept := g.jobs[:0]
	for _, j := range g.jobs {
		if !j.left() {
			continue
		}
		kept = append(kept, j)
		switch {
		case j.background && bg == nil:
			bg = j
		case !j.background && run == nil:
			run = j
		}
	}
	clear(g.jobs[len(kept):])
	g.jobs = kept
	g.open.Store(int32(len(kept)))
	if run != nil {
		return run
	}
	return bg
}

// helper runs the group's tasks until Close: it claims tasks while there
// are any, looks for more for spinFor (yielding its processor every
// spinChecks looks, so that other goroutines are not held up), then parks
// until a caller finds no helper spinning and wakes it, or Close does.
func (g *Group) helper() {
	defer g.done.Done()
	for !g.stop.Load() {
		if j := g.take(); j != nil {
			if j.background {
				j.helpOne()
			} else {
				j.helpAll()
			}
			continue
		}
		g.spinning.Add(1)
		spinUntil(func() bool { return g.open.Load() != 0 || g.stop.Load() })
		g.spinning.Add(-1)
		// A caller sends a wake-up only when it sees no helper spinning
		// and one parked, after publishing its job; this helper counts
		// itself parked before its last look at the board, so either the
		// caller sees it parked or it sees the job. (A wake-up that finds
		// the helper already gone back to work stays for the next park and
		// costs one idle round.)
		g.parked.Add(1)
		if g.open.Load() != 0 || g.stop.Load() {
			g.parked.Add(-1)
			continue
		}
		<-g.wakeup
		g.parked.Add(-1)
	}
}

// spinUntil looks at done until it reports true, yielding the processor
// every spinChecks looks, for at most spinFor; it reports whether done
// did.
func spinUntil(done func() bool) bool {
	deadline := time.Now().Add(spinFor)
	for {
		for range spinChecks {
			if done() {
				return true
			}
		}
		if !time.Now().Before(deadline) {
			return false
		}
		runtime.Gosched()
	}
}
