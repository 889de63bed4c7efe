package sched

// Quotient returns a / b, exactly as Go's integer division does (b must not
// be 0).
//
// The scoring plugins divide once or more per node and pod (a free share of
// allocatable, a normalization against the top score), and a 64-bit DIV
// takes about 25 cycles on the Skylake-family processors schedkit is
// measured on, several times a float64 division. For the usual operands,
// both non-negative and below 2^53, the quotient is taken in float64 and
// truncated, which is exact: both operands convert exactly, the rounded
// quotient is within half an ulp of a/b, at most a/b * 2^-53 < 1/b, while
// a/b is an integer or at least 1/b from the next one (b divides the gap
// times b, a positive integer), so rounding never reaches that integer.
// Other operands (negative, or 2^53 and above) take Go's division.
func Quotient(a, b int64) int64 {
	if uint64(a)|uint64(b) >= 1<<53 || b == 0 {
		return a / b
	}
	return int64(float64(a) / float64(b))
}
