//go:build linux && !race

package main

// The race detector backs every heap allocation with shadow memory that it
// writes, so the resident size says nothing about the heap's own pages
// under it: these tests run without it.

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// residentBytes is the process's resident set size (/proc/self/statm).
func residentBytes(t *testing.T) int {
	t.Helper()
	statm, err := os.ReadFile("/proc/self/statm")
	require.NoError(t, err)
	f := bytes.Fields(statm)
	require.GreaterOrEqual(t, len(f), 2)
	pages, err := strconv.Atoi(string(f[1]))
	require.NoError(t, err)
	return pages * os.Getpagesize()
}

// TestReserveHugePageHeapTouchesNothing: the reservation is address space
// only. Touching the reserved bytes would raise the resident size by
// about the reservation (512 MiB); it may rise by a little (the runtime's
// own tables for the new heap). It runs in a fresh process, as main calls
// it: on a heap with freed spans the runtime zeroes a large allocation
// that reuses them, which touches every page.
func TestReserveHugePageHeapTouchesNothing(t *testing.T) {
	if os.Getenv("SIMULATE_RESERVE_CHILD") == "1" {
		before := residentBytes(t)
		reserveHugePageHeap(512 << 20)
		assert.Less(t, residentBytes(t)-before, 64<<20)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReserveHugePageHeapTouchesNothing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SIMULATE_RESERVE_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "PASS")
}
