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

// claimAll runs tasks of j until none is left to claim, and reports
// whether it ran the last one to finish.
func (j *job) claimAll(back bool) (last bool) {
	for {
		i, ok := j.claim(back)
		if !ok {
			return false
		}
		j.fn(i)
		if j.pending.Add(-1) == 0 {
			return true
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

// left reports whether j has tasks to claim.
func (j *job) left() bool {
	e := j.ends.Load()
	return uint32(e) < uint32(e>>32)
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
func (g *Group) Run(par, n int, fn func(i int)) {
	if g == nil {
		Run(par, n, fn)
		return
	}
	want := helpersFor(par, n)
	if want == 0 {
		for i := range n {
			fn(i)
		}
		return
	}
	want = min(par, runtime.GOMAXPROCS(0)) - 1
	j := newJob(n, fn)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		Run(par, n, fn)
		return
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
	g.mu.Unlock()
	last := j.claimAll(false)
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

// take returns a job on the board with tasks left to claim, or nil.
func (g *Group) take() *job {
	if g.open.Load() == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, j := range g.jobs {
		if j.left() {
			return j
		}
	}
	return nil
}

// helper runs the group's tasks until Close: it claims tasks while there
// are any, looks for more for spinFor (yielding its processor every
// spinChecks looks, so that other goroutines are not held up), then parks
// until a caller finds no helper spinning and wakes it, or Close does.
func (g *Group) helper() {
	defer g.done.Done()
	for !g.stop.Load() {
		if j := g.take(); j != nil {
			j.helpAll()
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
