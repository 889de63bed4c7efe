package sched

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestQuotientTable(t *testing.T) {
	for _, c := range []struct{ a, b int64 }{
		{0, 1}, {1, 1}, {99, 100}, {100, 100}, {101, 100},
		{1<<53 - 1, 1}, {1<<53 - 1, 3}, {1<<53 - 1, 1<<53 - 2},
		{1 << 53, 3}, {math.MaxInt64, 7}, {math.MaxInt64, math.MaxInt64},
		{-7, 2}, {7, -2}, {-7, -2}, {math.MinInt64, 3}, {math.MinInt64, -1 << 62},
		// A free share of a node's memory: (allocatable - requested) * 100 / allocatable.
		{(17179869184 - 1) * 100, 17179869184},
		// Quotients just below and at an integer, with operands near 2^53:
		// the closest the float64 quotient comes to rounding across one.
		{(1<<52+1)*3 - 1, 3}, {9007199254740991, 9007199254740990},
	} {
		assert.Equal(t, c.a/c.b, Quotient(c.a, c.b), "%d / %d", c.a, c.b)
	}
}

// TestQuotientProperty: Quotient agrees with Go's division for any
// operands, and in particular near the float64 fast path's edges (operands
// just below 2^53, quotients at and next to integers).
func TestQuotientProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var a, b int64
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0: // anything
			a = rapid.Int64().Draw(t, "a")
			b = rapid.Int64().Filter(func(v int64) bool { return v != 0 }).Draw(t, "b")
		case 1: // the fast path's domain
			a = rapid.Int64Range(0, 1<<53-1).Draw(t, "a")
			b = rapid.Int64Range(1, 1<<53-1).Draw(t, "b")
		case 2: // a multiple of b, or one off it
			b = rapid.Int64Range(1, 1<<26).Draw(t, "b")
			q := rapid.Int64Range(0, (1<<53-1)/b-1).Draw(t, "q")
			a = q*b + rapid.Int64Range(-1, 1).Draw(t, "off")
		default: // near 2^53
			a = 1<<53 - rapid.Int64Range(-4, 4).Draw(t, "below")
			b = rapid.Int64Range(1, 1<<20).Draw(t, "b")
		}
		if got, want := Quotient(a, b), a/b; got != want {
			t.Fatalf("Quotient(%d, %d) = %d, want %d", a, b, got, want)
		}
	})
}

func BenchmarkQuotient(b *testing.B) {
	const n = 1024
	as, bs := make([]int64, n), make([]int64, n)
	x := uint64(88172645463325252)
	for i := range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		bs[i] = int64(x%(64<<30)) + 1<<30
		as[i] = int64(x>>3) % bs[i] * 100
	}
	var sink int64
	b.Run("div", func(b *testing.B) {
		for b.Loop() {
			for i := range n {
				sink += as[i] / bs[i]
			}
		}
	})
	b.Run("Quotient", func(b *testing.B) {
		for b.Loop() {
			for i := range n {
				sink += Quotient(as[i], bs[i])
			}
		}
	})
	_ = sink
}
