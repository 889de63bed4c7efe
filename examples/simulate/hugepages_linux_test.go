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

// TestAdviseHugePages: with huge pages on advice, the Go heap's arenas
// (anonymous mappings of 4 MiB and more) are advised; nothing is
// advised, and nothing fails, otherwise.
func TestAdviseHugePages(t *testing.T) {
	n := adviseHugePages()
	if hugePagesOnAdvice() {
		assert.GreaterOrEqual(t, n, 2<<20)
	} else {
		assert.GreaterOrEqual(t, n, 0)
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
