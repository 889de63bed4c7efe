//go:build linux

package main

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// reserveHugePageHeap maps heap address space for n bytes (at most
// reservable) ahead of the run and asks the kernel to back the process's
// anonymous memory with transparent huge pages. It reports whether the
// kernel took the advice.
//
// Why: on a virtual machine a page fault is a trap to the hypervisor; on
// the machine the speed figures come from, the first touch of a 4 KiB page
// costs about 13 µs, and a 2 MiB huge page costs about 130 µs for 512
// times the memory (measured with a 64 MiB anonymous mapping touched page
// by page). A scheduling run touches tens to hundreds of megabytes of fresh
// heap, so most of its time in the kernel is faults. The Go runtime does
// not advise huge pages for its heap (it did in Go 1.21.0 only), and maps
// the heap in 4 MiB steps as it grows, each a new mapping without the
// advice. So the heap is grown once, up front, by one large allocation
// that is never touched and is collected at once, and every anonymous
// mapping is then advised: later allocations reuse that address space.
// The memory is only reserved: pages are backed when first written, so the
// resident size grows with use as before. It must run once, early, on a
// young heap (main calls it before reading any input): a large allocation
// that reuses freed heap is zeroed by the runtime, which would touch
// every page of it.
func reserveHugePageHeap(n int) bool {
	n = min(n, reservable())
	if n <= 0 || !hugePagesOnAdvice() {
		return false
	}
	runtime.KeepAlive(make([]byte, n))
	runtime.GC()
	return adviseHugePages() > 0
}

// reservable is the most heap reserveHugePageHeap may map: a quarter of
// the machine's memory, and nothing under strict overcommit accounting
// (vm.overcommit_memory 2), where mapped address space counts against the
// commit limit even if never touched, and a refused mapping would stop
// the Go runtime with a fatal out-of-memory error. The heuristic default
// refuses a single mapping larger than the machine's memory; a quarter
// stays far below that.
func reservable() int {
	overcommit, err1 := os.ReadFile("/proc/sys/vm/overcommit_memory")
	meminfo, err2 := os.ReadFile("/proc/meminfo")
	if err1 != nil || err2 != nil {
		return 0
	}
	return reservableFrom(overcommit, meminfo)
}

// reservableFrom is reservable's rule on the contents of
// /proc/sys/vm/overcommit_memory and /proc/meminfo: 0 when either is not
// what it expects.
func reservableFrom(overcommit, meminfo []byte) int {
	if string(bytes.TrimSpace(overcommit)) == "2" {
		return 0
	}
	for line := range bytes.Lines(meminfo) {
		// "MemTotal:       24683620 kB"
		if rest, ok := bytes.CutPrefix(line, []byte("MemTotal:")); ok {
			f := bytes.Fields(rest)
			if len(f) != 2 || string(f[1]) != "kB" {
				return 0
			}
			kb, err := strconv.ParseInt(string(f[0]), 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return int(min(kb<<10/4, 1<<40))
		}
	}
	return 0
}

// hugePagesOnAdvice reports whether the kernel backs advised memory with
// transparent huge pages.
func hugePagesOnAdvice() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && onAdvice(mode)
}

// onAdvice reads the transparent_hugepage/enabled setting: the mode in
// brackets is "always" or "madvise".
func onAdvice(mode []byte) bool {
	return bytes.Contains(mode, []byte("[always]")) || bytes.Contains(mode, []byte("[madvise]"))
}

// madvHugePage is MADV_HUGEPAGE from <linux/mman.h> (the syscall package
// does not name it).
const madvHugePage = 14

// adviseHugePages advises huge pages for every private, writable,
// anonymous mapping of the process large enough to hold one (the heap
// arenas and the runtime's own large tables), and returns how many bytes
// it advised. Mappings backed by files and the stack are left alone.
func adviseHugePages() (advised int) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0
	}
	for _, r := range adviceRanges(maps) {
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], madvHugePage)
		if errno == 0 {
			advised += int(r[1] - r[0])
		}
	}
	return advised
}

// adviceRanges returns the [start, end) address ranges of the
// /proc/self/maps lines adviseHugePages advises: private, writable,
// anonymous (no path, inode 0) and at least 2 MiB long.
func adviceRanges(maps []byte) [][2]uintptr {
	var out [][2]uintptr
	for line := range bytes.Lines(maps) {
		// "start-end perms offset dev inode [path]"
		f := bytes.Fields(line)
		if len(f) != 5 || string(f[1]) != "rw-p" || string(f[4]) != "0" {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start || end-start < 2<<20 {
			continue
		}
		out = append(out, [2]uintptr{uintptr(start), uintptr(end)})
	}
	return out
}
