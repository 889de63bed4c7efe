// Package evlcase is test support for the eviction and lifecycle conformance
// files (testdata/evl, answered by upstream v1.36.3 through the evl oracle):
// it loads the cases and compares an answer with upstream's under the rules
// of the conformance suite's compare.py. Only tests import it.
//
// The rules: every field upstream gives must be present and equal, a missing
// field is fine when upstream's value is a JSON zero (null, false, "", 0, [],
// {}), lists compare element by element, and for the memory-ranking and
// pid-ranking kinds pods that upstream reports as tied may come in any order
// within their run.
package evlcase
