package placement

import "golang.org/x/sync/errgroup"

// minChunk is the smallest node range worth a goroutine.
const minChunk = 256

// forChunks calls fn on consecutive ranges [lo, hi) covering [0, n), on up
// to par goroutines (the caller's alone when par <= 1 or n is small). fn
// must write only to indices in its range.
func forChunks(n, par int, fn func(lo, hi int)) {
	if par <= 1 || n < 2*minChunk {
		fn(0, n)
		return
	}
	chunks := min(par, (n+minChunk-1)/minChunk)
	size := (n + chunks - 1) / chunks
	var g errgroup.Group
	g.SetLimit(par)
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		g.Go(func() error { fn(lo, hi); return nil })
	}
	_ = g.Wait()
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

// runAll runs every task, on up to par goroutines when par > 1 (in list
// order of start), and returns when all are done. Tasks must not write to
// the same memory.
func runAll(par int, tasks []func()) {
	if par <= 1 {
		for _, t := range tasks {
			t()
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(par)
	for _, t := range tasks {
		g.Go(func() error { t(); return nil })
	}
	_ = g.Wait()
}
