package placement

import (
	"sync"
	"sync/atomic"
)

// minChunk is the smallest node range worth a goroutine.
const minChunk = 256

// forChunks calls fn on consecutive ranges [lo, hi) covering [0, n), on up
// to par goroutines, the caller's among them (the caller's alone when
// par <= 1 or n is small). fn must write only to indices in its range.
func forChunks(n, par int, fn func(lo, hi int)) {
	if par <= 1 || n < 2*minChunk {
		fn(0, n)
		return
	}
	chunks := min(par, (n+minChunk-1)/minChunk)
	size := (n + chunks - 1) / chunks
	var wg sync.WaitGroup
	lo := 0
	for ; lo+size < n; lo += size {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, lo+size)
	}
	fn(lo, n) // the last range on the caller's goroutine
	wg.Wait()
}

// both runs a and b, on two goroutines when par > 1 (the caller's goroutine
// runs a), and returns when both are done. They must not write to the same
// memory.
func both(par int, a, b func()) {
	if par <= 1 {
		a()
		b()
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b()
	}()
	a()
	<-done
}

// runAll runs every task and returns when all are done: with par > 1 on up
// to par goroutines, the caller's among them, each taking the next task in
// list order when it is free (so put the longest first). Tasks must not
// write to the same memory.
func runAll(par int, tasks []func()) {
	if par <= 1 || len(tasks) < 2 {
		for _, t := range tasks {
			t()
		}
		return
	}
	var next atomic.Int32
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(tasks) {
				return
			}
			tasks[i]()
		}
	}
	var wg sync.WaitGroup
	for range min(par, len(tasks)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
