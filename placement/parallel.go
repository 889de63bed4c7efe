package placement

import "github.com/schedkit/schedkit/internal/par"

// minChunk is the smallest node range worth sharing.
const minChunk = 128

// forChunks calls fn on consecutive ranges [lo, hi) covering [0, n), shared
// by up to workers goroutines, the caller's among them (the caller's alone
// when workers <= 1 or n is small; see internal/par). fn must write only to
// indices in its range.
func forChunks(n, workers int, fn func(lo, hi int)) {
	if workers <= 1 || n < 2*minChunk {
		fn(0, n)
		return
	}
	// More ranges than goroutines, so that a helper that joins late still
	// takes a share.
	chunks := min(4*workers, n/minChunk)
	size := (n + chunks - 1) / chunks
	par.Run(workers, chunks, func(k int) { fn(k*size, min((k+1)*size, n)) })
}

// both runs a and b, on two goroutines when workers > 1 (see internal/par),
// and returns when both are done. They must not write to the same memory.
func both(workers int, a, b func()) {
	par.Run(workers, 2, func(i int) {
		if i == 0 {
			a()
		} else {
			b()
		}
	})
}

// runAll runs every task and returns when all are done, with workers > 1 on
// up to that many goroutines (see internal/par). Tasks must not write to
// the same memory.
func runAll(workers int, tasks []func()) {
	par.Run(workers, len(tasks), func(i int) { tasks[i]() })
}
