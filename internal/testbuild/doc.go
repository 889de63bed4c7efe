// Package testbuild holds the small builders the table tests of every
// package share: label maps, label selectors and resource lists written as
// key/value pairs, so that a test row reads Labels("app", "web") rather than a
// map literal; and CPUTime, which the benchmarks report beside wall time.
// Each package keeps its own pod and node builders on top of
// these, shaped for its plugin. Only tests import it.
package testbuild
