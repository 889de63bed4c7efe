package cluster

import (
	"slices"
	"sort"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// labelPair is one label, key and value.
type labelPair struct{ key, value string }

// setPostings lists the interned label sets by the labels they carry, so
// that a selector with an anchor (labelmatch.Anchor: In, Equals, Exists, Gt,
// Lt) is matched against the few sets carrying its key (and value) instead
// of every set. The postings are built on the first query, and extended on
// each query after the index grew, so building a snapshot pays nothing for
// them; they then cover every key of sets [0, upTo) in one pass over each
// set's labels (reading the sets' label maps once costs less than one
// lookup per set for each key queried: the maps are scattered in memory).
// Each list is in ascending ID order and only ever appended to.
type setPostings struct {
	upTo int
	keys map[string]*keyPostings
}

// keyPostings are one key's postings over sets [0, setPostings.upTo).
type keyPostings struct {
	all     []int32            // the sets carrying the key
	byValue map[string][]int32 // the sets carrying the key with that value
}

// termPostings lists the interned affinity terms by one anchor of their
// pod selector: a term whose selector has an In/Equals requirement is
// listed under (key, value) for each of its values, else one with an
// anchor on a key alone under the key, else (a selector of NotIn, NotEquals
// and DoesNotExist only, or labels.Everything) in always. A term whose
// selector matches nothing is listed nowhere. Covers terms [0, upTo).
type termPostings struct {
	upTo   int
	byPair map[labelPair][]int32
	byKey  map[string][]int32
	always []int32
}

// keyPostings returns key k's set postings, brought up to date; x.mu is
// held.
func (x *LabelIndex) keyPostings(k string) *keyPostings {
	x.postSets()
	return x.setPost.key(k)
}

// postSets brings the set postings up to date; x.mu is held (or New owns
// the set fields, see prewarm).
func (x *LabelIndex) postSets() {
	sp := &x.setPost
	for id := sp.upTo; id < len(x.sets); id++ {
		post := func(key, v string) {
			p := sp.key(key)
			p.all = append(p.all, int32(id))
			p.byValue[v] = append(p.byValue[v], int32(id))
		}
		// The set's key lists its labels in one string, where the label
		// map's entries are spread over the heap: read them from there.
		if !eachKeyLabel(x.setKeys[id], post) {
			for key, v := range x.sets[id].Labels {
				post(key, v)
			}
		}
	}
	sp.upTo = len(x.sets)
}

// key returns key k's postings, empty ones for a key no set carries.
func (sp *setPostings) key(k string) *keyPostings {
	p := sp.keys[k]
	if p == nil {
		p = &keyPostings{byValue: map[string][]int32{}}
		sp.keys[k] = p
	}
	return p
}

// postTerms brings the term postings up to date; x.mu is held.
func (x *LabelIndex) postTerms() {
	p := &x.termPost
	for id := p.upTo; id < len(x.matchers); id++ {
		m := &x.matchers[id].Selector
		if m.Nothing() {
			continue
		}
		var keyAnchor string
		hasKey, posted := false, false
		for i := range m.NumRequirements() {
			a, ok := m.AnchorAt(i)
			if !ok {
				continue
			}
			if a.Exists {
				if !hasKey {
					keyAnchor, hasKey = a.Key, true
				}
				continue
			}
			for j, v := range a.Values {
				if !slices.Contains(a.Values[:j], v) { // each term once per list
					p.byPair[labelPair{a.Key, v}] = append(p.byPair[labelPair{a.Key, v}], int32(id))
				}
			}
			posted = true
			break
		}
		switch {
		case posted:
		case hasKey:
			p.byKey[keyAnchor] = append(p.byKey[keyAnchor], int32(id))
		default:
			p.always = append(p.always, int32(id))
		}
	}
	p.upTo = len(x.matchers)
}

// below returns the prefix of ascending ids that is below n, with its
// capacity cut so that an append by the caller cannot reach the index's
// list.
func below(ids []int32, n int) []int32 {
	k := len(ids)
	if k > 0 && int(ids[k-1]) >= n {
		k = sort.Search(len(ids), func(i int) bool { return int(ids[i]) >= n })
	}
	return ids[:k:k]
}

// SetCandidates narrows the label sets that m can match: it appends to buf
// lists of set IDs (each ascending, all below len(v.Sets)) whose union holds
// every set of the view that m matches, choosing the anchor of m with the
// fewest sets, and returns them with their total length. ok is false when m
// has no anchor (every set is then a candidate); a matcher that matches
// nothing has no candidates. No set is listed twice (a set has one value
// per key; repeated values of an In requirement are listed once). The
// lists are shared with the index:
// do not modify them. It does not decide namespaces: the candidates are
// every namespace's.
func (v *LabelView) SetCandidates(m *labelmatch.Matcher, buf [][]int32) (lists [][]int32, total int, ok bool) {
	if m.Nothing() {
		return buf, 0, true
	}
	x := v.x
	if x == nil || m.NumRequirements() == 0 {
		return buf, 0, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	best, bestTotal := -1, 0
	for i := range m.NumRequirements() {
		a, isAnchor := m.AnchorAt(i)
		if !isAnchor {
			continue
		}
		n := 0
		p := x.keyPostings(a.Key)
		if a.Exists {
			n = len(p.all)
		} else {
			for j, val := range a.Values {
				if !slices.Contains(a.Values[:j], val) {
					n += len(p.byValue[val])
				}
			}
		}
		if best < 0 || n < bestTotal {
			best, bestTotal = i, n
		}
	}
	if best < 0 {
		return buf, 0, false
	}
	a, _ := m.AnchorAt(best)
	p := x.keyPostings(a.Key)
	lists = buf
	if a.Exists {
		l := below(p.all, len(v.Sets))
		lists, total = append(lists, l), len(l)
	} else {
		for j, val := range a.Values {
			if slices.Contains(a.Values[:j], val) {
				continue
			}
			if l := below(p.byValue[val], len(v.Sets)); len(l) > 0 {
				lists, total = append(lists, l), total+len(l)
			}
		}
	}
	return lists, total, true
}

// SetExclusions decides a matcher made of exclusions only
// (labelmatch.Matcher.ExclusionAt: NotIn, NotEquals, DoesNotExist; at
// least one) by the postings: it appends to buf lists of set IDs (each
// ascending, all below len(v.Sets)) whose union is exactly the sets of the
// view that m does not match, and returns ok true. For any other matcher
// it returns ok false. A set may be listed more than once. The lists are
// shared with the index: do not modify them. It does not decide
// namespaces.
func (v *LabelView) SetExclusions(m *labelmatch.Matcher, buf [][]int32) (lists [][]int32, ok bool) {
	x := v.x
	if x == nil || m.Nothing() || m.NumRequirements() == 0 {
		return buf, false
	}
	for i := range m.NumRequirements() {
		if _, _, ok := m.ExclusionAt(i); !ok {
			return buf, false
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	lists = buf
	for i := range m.NumRequirements() {
		key, values, _ := m.ExclusionAt(i)
		p := x.keyPostings(key)
		if values == nil {
			if l := below(p.all, len(v.Sets)); len(l) > 0 {
				lists = append(lists, l)
			}
			continue
		}
		for _, val := range values {
			if l := below(p.byValue[val], len(v.Sets)); len(l) > 0 {
				lists = append(lists, l)
			}
		}
	}
	return lists, true
}

// TermCandidates narrows the terms whose pod selector can match a pod with
// labels l: it appends to buf lists of term IDs (each ascending, all below
// len(v.Terms), no term in two lists or twice in one) whose union holds
// every term of the view whose TermMatchers[id].Selector matches l. It does
// not decide namespaces. The
// lists are shared with the index: do not modify them. l is not modified.
func (v *LabelView) TermCandidates(l map[string]string, buf [][]int32) [][]int32 {
	x := v.x
	if x == nil {
		all := make([]int32, len(v.Terms))
		for i := range all {
			all[i] = int32(i)
		}
		return append(buf, all)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.postTerms()
	p := &x.termPost
	n := len(v.Terms)
	lists := buf
	if ids := below(p.always, n); len(ids) > 0 {
		lists = append(lists, ids)
	}
	for k, val := range l {
		if ids := below(p.byPair[labelPair{k, val}], n); len(ids) > 0 {
			lists = append(lists, ids)
		}
		if ids := below(p.byKey[k], n); len(ids) > 0 {
			lists = append(lists, ids)
		}
	}
	return lists
}
