package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Every task runs exactly once, whatever par and n, and Run returns only
// after all of them.
func TestRunCallsEachTaskOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		par := rapid.IntRange(-1, 4).Draw(t, "par")
		n := rapid.IntRange(0, 64).Draw(t, "n")
		calls := make([]atomic.Int32, n)
		Run(par, n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("task %d ran %d times", i, c)
			}
		}
	})
}

// Callers on many goroutines share the helpers, and a task may itself call
// Run: every caller can finish its own tasks alone, so nothing waits on a
// helper that is busy elsewhere.
func TestRunConcurrentAndNested(t *testing.T) {
	var wg sync.WaitGroup
	var total atomic.Int64
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				Run(2, 4, func(i int) {
					Run(2, 3, func(j int) { total.Add(int64(g + i + j)) })
				})
			}
		}()
	}
	wg.Wait()
	want := int64(0)
	for g := range 8 {
		for i := range 4 {
			for j := range 3 {
				want += int64(g + i + j)
			}
		}
	}
	require.Equal(t, 200*want, total.Load())
}

// The caller claims from the front, helpers from the back: with one task
// the caller runs it; with par 1 the caller runs them in order.
func TestRunOrderOnCaller(t *testing.T) {
	var order []int
	Run(1, 5, func(i int) { order = append(order, i) })
	require.Equal(t, []int{0, 1, 2, 3, 4}, order)
	j := &job{}
	j.ends.Store(uint64(3) << 32)
	i, ok := j.claim(false)
	require.True(t, ok)
	require.Equal(t, 0, i)
	i, ok = j.claim(true)
	require.True(t, ok)
	require.Equal(t, 2, i)
	i, ok = j.claim(true)
	require.True(t, ok)
	require.Equal(t, 1, i)
	_, ok = j.claim(false)
	require.False(t, ok)
}

// After a quiet spell the helpers have parked; a call must wake one: here
// the caller's task waits for the other task to start, which only a helper
// can do while the caller is busy.
func TestRunWakesParkedHelper(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two processors")
	}
	Run(2, 2, func(int) {}) // start the helpers
	for range 3 {
		time.Sleep(10 * spinFor) // long enough for every helper to park
		started := make(chan struct{})
		var helped bool
		Run(2, 2, func(i int) {
			if i == 1 {
				close(started)
				return
			}
			select {
			case <-started:
				helped = true
			case <-time.After(5 * time.Second):
			}
		})
		require.True(t, helped, "no helper took the second task")
	}
}

// A Group's Run calls every task once, from many callers and nested, and
// Close leaves no helper behind; Run after Close still works.
func TestGroupRunAndClose(t *testing.T) {
	before := runtime.NumGoroutine()
	g := NewGroup()
	rapid.Check(t, func(t *rapid.T) {
		par := rapid.IntRange(-1, 4).Draw(t, "par")
		n := rapid.IntRange(0, 64).Draw(t, "n")
		calls := make([]atomic.Int32, n)
		g.Run(par, n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("task %d ran %d times", i, c)
			}
		}
	})
	var wg sync.WaitGroup
	var total atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				g.Run(2, 4, func(i int) { g.Run(2, 3, func(j int) { total.Add(1) }) })
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int64(4*100*4*3), total.Load())
	g.Close()
	g.Close()
	requireNoGrowth(t, before)
	ran := 0
	g.Run(2, 3, func(int) {})
	var nilGroup *Group
	nilGroup.Run(1, 3, func(int) { ran++ })
	nilGroup.Close()
	require.Equal(t, 3, ran)
}

// Run's helpers are the call's own: once it returns, they have exited or
// are about to, having found nothing left to claim.
func TestRunLeavesNothingRunning(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 50 {
		Run(4, 16, func(int) { time.Sleep(time.Microsecond) })
	}
	requireNoGrowth(t, before)
}

// requireNoGrowth waits up to a second for the goroutines to number at
// most before (helpers that found nothing to claim exit just after their
// call; goroutines of earlier tests may still be exiting too).
func requireNoGrowth(t *testing.T, before int) {
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)
}

// A background job's tasks each run once when it is waited for, whether
// helpers took some or none; after Cancel (or Drop then Cancel) no task
// runs any more, and none ran twice. Run calls made meanwhile are served
// as usual.
func TestStartWaitCancel(t *testing.T) {
	g := NewGroup()
	defer g.Close()
	rapid.Check(t, func(t *rapid.T) {
		par := rapid.IntRange(-1, 4).Draw(t, "par")
		n := rapid.IntRange(0, 40).Draw(t, "n")
		end := rapid.SampledFrom([]string{"wait", "cancel", "drop-cancel"}).Draw(t, "end")
		runs := rapid.IntRange(0, 3).Draw(t, "runs")
		calls := make([]atomic.Int32, n)
		p := g.Start(par, n, func(i int) {
			calls[i].Add(1)
			time.Sleep(time.Duration(i%3) * time.Microsecond)
		})
		for range runs {
			var sum atomic.Int32
			g.Run(par, 5, func(int) { sum.Add(1) })
			if sum.Load() != 5 {
				t.Fatalf("a Run beside the job ran %d of 5 tasks", sum.Load())
			}
		}
		switch end {
		case "wait":
			p.Wait()
		case "cancel":
			p.Cancel()
		default:
			p.Drop()
			p.Cancel()
		}
		snapshot := make([]int32, n)
		for i := range calls {
			snapshot[i] = calls[i].Load()
			if snapshot[i] > 1 || (end == "wait" && snapshot[i] != 1) {
				t.Fatalf("%s: task %d ran %d times", end, i, snapshot[i])
			}
		}
		time.Sleep(20 * time.Microsecond)
		for i := range calls {
			if calls[i].Load() != snapshot[i] {
				t.Fatalf("%s: task %d ran after the job ended", end, i)
			}
		}
	})
}

// A helper with nothing else to do runs a background job without anyone
// waiting for it; on a nil Group nothing runs before Wait.
func TestStartRunsOnIdleHelpers(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two processors")
	}
	g := NewGroup()
	defer g.Close()
	var done atomic.Int32
	p := g.Start(2, 8, func(int) { done.Add(1) })
	deadline := time.Now().Add(5 * time.Second)
	for done.Load() < 8 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, int32(8), done.Load(), "no helper ran the background job")
	p.Wait()

	var nilGroup *Group
	ran := 0
	q := nilGroup.Start(2, 3, func(int) { ran++ })
	require.Equal(t, 0, ran)
	q.Wait()
	require.Equal(t, 3, ran)
}

// RunReserving's first tasks run on the caller, in order, whatever the
// helpers do; every task runs once.
func TestRunReservingKeepsTasksOnCaller(t *testing.T) {
	g := NewGroup()
	defer g.Close()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 24).Draw(t, "n")
		reserved := rapid.IntRange(0, n).Draw(t, "reserved")
		calls := make([]atomic.Int32, n)
		ranOn := make([]int64, n)
		caller := goid()
		g.RunReserving(2, n, reserved, func(i int) {
			calls[i].Add(1)
			ranOn[i] = goid()
			if i == 0 {
				// Time for a helper to reach the other reserved tasks,
				// were they not reserved.
				time.Sleep(50 * time.Microsecond)
			}
		})
		for i := range calls {
			if calls[i].Load() != 1 {
				t.Fatalf("task %d ran %d times", i, calls[i].Load())
			}
			if i < reserved && ranOn[i] != caller {
				t.Fatalf("reserved task %d ran on a helper", i)
			}
		}
	})
}

// goid returns the calling goroutine's ID (from its stack trace's header).
func goid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	var id int64
	for _, c := range b[len("goroutine "):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
