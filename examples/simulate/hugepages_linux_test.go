//go:build linux

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAdviseHugePages: with huge pages on advice, the Go heap's arenas
// (anonymous mappings of 4 MiB and more) are advised.
func TestAdviseHugePages(t *testing.T) {
	n := adviseHugePages()
	if hugePagesOnAdvice() {
		assert.GreaterOrEqual(t, n, 2<<20)
	} else {
		assert.GreaterOrEqual(t, n, 0)
	}
}

func TestReservableFrom(t *testing.T) {
	const eightGiB = "MemTotal:        8388608 kB\nMemFree:         1048576 kB\n"
	for _, tc := range []struct {
		name                string
		overcommit, meminfo string
		want                int
	}{
		{"heuristic overcommit: a quarter of memory", "0\n", eightGiB, 2 << 30},
		{"always overcommit: a quarter of memory", "1\n", eightGiB, 2 << 30},
		{"strict overcommit: nothing", "2\n", eightGiB, 0},
		{"no MemTotal line", "0\n", "MemFree: 1048576 kB\n", 0},
		{"another unit", "0\n", "MemTotal: 8192 MB\n", 0},
		{"not a number", "0\n", "MemTotal: lots kB\n", 0},
		{"zero", "0\n", "MemTotal: 0 kB\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, reservableFrom([]byte(tc.overcommit), []byte(tc.meminfo)))
		})
	}
}

func TestOnAdvice(t *testing.T) {
	assert.True(t, onAdvice([]byte("always [madvise] never\n")))
	assert.True(t, onAdvice([]byte("[always] madvise never\n")))
	assert.False(t, onAdvice([]byte("always madvise [never]\n")))
	assert.False(t, onAdvice(nil))
}

// TestAdviceRanges: only private, writable, anonymous mappings of 2 MiB
// or more (lines as /proc/self/maps prints them).
func TestAdviceRanges(t *testing.T) {
	maps := `00400000-004ab000 r-xp 00000000 fe:00 10215585                           /usr/bin/simulate
0058e000-00599000 rw-p 0018e000 fe:00 10215585                           /usr/bin/simulate
c80fc000000-c80ffc00000 ---p 00000000 00:00 0
c80ffc00000-c8102000000 rw-p 00000000 00:00 0
7f9868740000-7f9868900000 rw-p 00000000 00:00 0
7f9868900000-7f986aa00000 rw-p 00000000 00:00 0
7f986aa00000-7f986a900000 rw-p 00000000 00:00 0
7ffd8afa9000-7ffd8afca000 rw-p 00000000 00:00 0                          [stack]
7f98af20b000-7f98af2d3000 rw-s 00000000 00:01 42                         /dev/shm/x
`
	assert.Equal(t, [][2]uintptr{
		{0xc80ffc00000, 0xc8102000000},   // a heap arena, 36 MiB
		{0x7f9868900000, 0x7f986aa00000}, // 33 MiB
	}, adviceRanges([]byte(maps)), "not code, file-backed, reserved, under 2 MiB (1.75 MiB), inverted, the stack or shared")
}
