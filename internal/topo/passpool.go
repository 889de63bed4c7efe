package topo

// passPool keeps the per-pod arrays of a scoring pass (dense counts, label
// set and term memos) for the next pass of the same scratch: they live for
// one pod, and some are as long as the cluster (a hostname key's counts) or
// its label sets. A nil pool hands out fresh arrays and keeps nothing, as
// the PreFilter states, which outlive the call, need.
type passPool[E any] struct{ free, used [][]E }

// take returns a zeroed array of n elements, recorded as used until the
// next release.
func (p *passPool[E]) take(n int) []E {
	if p == nil {
		return make([]E, n)
	}
	var a []E
	for i := len(p.free) - 1; i >= 0; i-- {
		if cap(p.free[i]) >= n {
			a = p.free[i][:n]
			p.free[i] = p.free[len(p.free)-1]
			p.free = p.free[:len(p.free)-1]
			clear(a)
			break
		}
	}
	if a == nil {
		a = make([]E, n)
	}
	p.used = append(p.used, a)
	return a
}

// release makes every array taken since the last release free again: the
// pass that took them reads none of them after.
func (p *passPool[E]) release() {
	p.free = append(p.free, p.used...)
	clear(p.used)
	p.used = p.used[:0]
}
