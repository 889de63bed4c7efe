//go:build linux

package main

import (
	"bytes"
	"os"
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
// own tables for the new heap).
func TestReserveHugePageHeapTouchesNothing(t *testing.T) {
	before := residentBytes(t)
	reserveHugePageHeap(512 << 20)
	assert.Less(t, residentBytes(t)-before, 64<<20)
}

// TestAdviseHugePagesSkipsWhatItCannotAdvise: with huge pages on advice,
// the heap just grown is advised; the count is never negative either way.
func TestAdviseHugePagesSkipsWhatItCannotAdvise(t *testing.T) {
	n := adviseHugePages()
	assert.GreaterOrEqual(t, n, 0)
	if hugePagesOnAdvice() {
		reserveHugePageHeap(64 << 20)
		assert.Positive(t, adviseHugePages(), "the reserved heap is an anonymous mapping of 64 MiB")
	}
}

// TestReservableIsBounded: never more than a quarter of the machine's
// memory, nothing under strict overcommit.
func TestReservableIsBounded(t *testing.T) {
	n := reservable()
	assert.GreaterOrEqual(t, n, 0)
	if mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err == nil && string(bytes.TrimSpace(mode)) == "2" {
		assert.Zero(t, n)
		return
	}
	var total int64
	info, err := os.ReadFile("/proc/meminfo")
	require.NoError(t, err)
	for line := range bytes.Lines(info) {
		if rest, ok := bytes.CutPrefix(line, []byte("MemTotal:")); ok {
			total, err = strconv.ParseInt(string(bytes.Fields(rest)[0]), 10, 64)
			require.NoError(t, err)
		}
	}
	require.Positive(t, total)
	assert.Equal(t, int(total<<10/4), n)
}
