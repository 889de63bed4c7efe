// Package surface holds the tests that keep schedkit's public surface its
// own: no exported identifier of a public package (every package outside
// internal/ and examples/) is an alias of, or a name for, an internal
// package's type, constant or variable, so go doc shows every type a caller
// touches with its methods where the caller finds it.
package surface
