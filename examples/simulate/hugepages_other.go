//go:build !linux

package main

// reserveHugePageHeap is Linux's alone: elsewhere the heap is left to the
// runtime.
func reserveHugePageHeap(int) bool { return false }
