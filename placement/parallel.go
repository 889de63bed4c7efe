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
