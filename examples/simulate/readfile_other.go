//go:build !linux

package main

import "os"

// readFile reads the input file (Linux maps it instead; see readfile_linux.go).
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
