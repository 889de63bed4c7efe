package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// spinFor is how long an idle helper keeps looking for work before it
// parks. It spans the sequential stretch between two per-pod phases of the
// scheduling queue (binding, compiling the node-local parts, recording the
// outcome) with room to spare, and is short next to any wait a caller could
// notice.
const spinFor = 300 * time.Microsecond

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

// left reports whether j has tasks to claim.
func (j *job) left() bool {
	e := j.ends.Load()
	return uint32(e) < uint32(e>>32)
}

// The board of jobs with tasks to claim, shared by every caller.
var (
	mu       sync.Mutex
	jobs     []*job
	open     atomic.Int32 // len(jobs), read by spinning helpers without the lock
	spinning atomic.Int32 // helpers looking for work
	parked   atomic.Int32 // helpers waiting for a wake-up
	helpers  int          // helpers started (under mu)
	wakeup   = make(chan struct{}, 64)
)

// Run calls fn(i) for every i in [0, n) and returns when all calls have
// returned. With par > 1 up to par goroutines share the calls (the
// caller's among them, and never more helpers than GOMAXPROCS-1); with
// par <= 1 the caller makes them in order. Calls for different i must not
// write to the same memory.
func Run(par, n int, fn func(i int)) {
	if par <= 1 || n <= 1 || runtime.GOMAXPROCS(0) == 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	j := &job{fn: fn, wake: make(chan struct{}, 1)}
	j.ends.Store(uint64(n) << 32)
	j.pending.Store(int32(n))
	mu.Lock()
	jobs = append(jobs, j)
	open.Add(1)
	if want := min(par, runtime.GOMAXPROCS(0)) - 1; helpers < want {
		for ; helpers < want; helpers++ {
			go helper()
		}
	} else if spinning.Load() == 0 && parked.Load() > 0 {
		select {
		case wakeup <- struct{}{}:
		default:
		}
	}
	mu.Unlock()
	last := j.claimAll(false)
	withdraw(j)
	if last {
		return
	}
	// A helper is finishing a task. Tasks are short, and a goroutine that
	// blocks may have its thread put to sleep, which costs a wake-up as
	// long as the ones avoided here: look again (yielding) for spinFor,
	// and only then block.
	deadline := time.Now().Add(spinFor)
	for j.pending.Load() != 0 {
		if time.Now().After(deadline) {
			<-j.wake
			continue
		}
		runtime.Gosched()
	}
}

// withdraw takes j off the board once every task has been claimed.
func withdraw(j *job) {
	mu.Lock()
	for k, o := range jobs {
		if o == j {
			jobs = append(jobs[:k], jobs[k+1:]...)
			jobs[len(jobs):cap(jobs)][0] = nil
			open.Add(-1)
			break
		}
	}
	mu.Unlock()
}

// take returns a job on the board with tasks left to claim, or nil.
func take() *job {
	if open.Load() == 0 {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	for _, j := range jobs {
		if j.left() {
			return j
		}
	}
	return nil
}

// helper runs other callers' tasks for the life of the process: it claims
// tasks while there are any, looks for more for spinFor (yielding its
// processor at every look, so that other goroutines are not held up), then
// parks until a caller finds no helper spinning and wakes it.
func helper() {
	for {
		if j := take(); j != nil {
			if j.claimAll(true) {
				j.wake <- struct{}{}
			}
			continue
		}
		spinning.Add(1)
		deadline := time.Now().Add(spinFor)
		for open.Load() == 0 && time.Now().Before(deadline) {
			runtime.Gosched()
		}
		spinning.Add(-1)
		// A caller sends a wake-up only when it sees no helper spinning
		// and one parked, after publishing its job; this helper counts
		// itself parked before its last look at the board, so either the
		// caller sees it parked or it sees the job. (A wake-up that finds
		// the helper already gone back to work stays for the next park and
		// costs one idle round.)
		parked.Add(1)
		if open.Load() != 0 {
			parked.Add(-1)
			continue
		}
		<-wakeup
		parked.Add(-1)
	}
}
