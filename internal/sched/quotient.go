package sched

// Quotient returns a / b, exactly as Go's integer division does (b must not
// be 0).
//
// The scoring plugins divide once or more per node and pod (a free share of
// allocatable, a normalization against the top score), and a 64-bit DIV
// takes about 25 cycles on the Skylake-family processors schedkit is
// measured on, several times a float64 division. For the usual operands,
// both non-negative and below 2^53, the quotient is computed through
// float64 and corrected: both operands convert exactly and the rounded
// quotient is off by less than one from the true one, so truncating it
// gives the integer quotient or its neighbour, and one comparison each way
// settles which. Other operands (negative, or 2^53 and above) take Go's
// division.
func Quotient(a, b int64) int64 {
	if uint64(a)|uint64(b) >= 1<<53 || b == 0 {
		return a / b
	}
	q := int64(float64(a) / float64(b))
	if q*b > a {
		q--
	} else if (q+1)*b <= a {
		q++
	}
	return q
}
