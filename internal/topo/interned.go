package topo

import (
	"github.com/schedkit/schedkit/internal/cluster"
)

// interned walks bound pods through the snapshot's label index
// (cluster.Snapshot.Labels): a selector is evaluated once per distinct
// (namespace, labels) pair, remembered in a memo indexed by label-set ID,
// and a node's pods are a contiguous array of IDs.
type interned struct {
	snap *cluster.Snapshot
	view cluster.LabelView
	// nodes is the snapshot's nodes by slot (cluster.SlotsOf: nil at a
	// node view's empty slots), which index the label view, the columns and
	// the occurrences.
	nodes []*cluster.NodeInfo
}

func newInterned(snap *cluster.Snapshot) interned {
	if snap == nil {
		return interned{}
	}
	return interned{snap: snap, view: snap.Labels(), nodes: cluster.SlotsOf(snap)}
}

// nodeLabels returns the interned pods of n when n belongs to the indexed
// snapshot, nil otherwise (a node from another view).
func (x *interned) nodeLabels(n *cluster.NodeInfo) *cluster.NodeLabels {
	if x.indexes(n) {
		return x.view.Node(n.Index)
	}
	return nil
}

// indexes reports whether n belongs to the indexed snapshot, as
// nodeLabels(n) != nil without looking the node up in the label view (a
// view's patched nodes are found by a search).
func (x *interned) indexes(n *cluster.NodeInfo) bool {
	return n.Index >= 0 && n.Index < len(x.nodes) && n.Index < x.view.NumNodes() && x.nodes[n.Index] == n
}

// slotOf returns n's slot when x indexes n (indexes), else -1: a column
// of x's index is then read at that slot, and another node's value is
// looked up (domainOf).
func (x *interned) slotOf(n *cluster.NodeInfo) int32 {
	if x.indexes(n) {
		return int32(n.Index)
	}
	return -1
}

// domainAt is domainOf(c, n) for n at slot (slotOf(n)): an array load for
// a node x indexes, a lookup otherwise.
func (x *interned) domainAt(c *cluster.Column, n *cluster.NodeInfo, slot int32) int32 {
	if slot >= 0 && int(slot) < len(c.Of) {
		return c.Of[slot]
	}
	return x.domainOf(c, n)
}

// memo caches a yes/no per label-set ID: 0 unknown, 1 yes, 2 no. A memo
// made by memoCands starts with every verdict it can give without matching
// labels (a namespace the rule rejects, a set lacking an anchor's label);
// setMatches fills the rest on first use with the full match.
type memo []int8

func (x *interned) newMemo() memo { return make(memo, len(x.view.Sets)) }

// nsIs returns the namespace rule "namespace ns" ("" for any namespace)
// per namespace ID of the view.
func (x *interned) nsIs(ns string) []bool {
	ok := make([]bool, len(x.view.Namespaces))
	for i, n := range x.view.Namespaces {
		ok[i] = ns == "" || n == ns
	}
	return ok
}

// cands lists the IDs a memo can say yes to, in disjoint lists (no ID
// twice); nil stands for every ID.
type cands [][]int32

// memoCands returns a memo for matching label sets against every one of ms
// within the namespaces nsOK allows (by namespace ID of the view). Sets of
// other namespaces are a no; when the matchers have an anchor
// (cluster.LabelView.SetCandidates), so is every set outside the narrowest
// anchor's candidates, and when the one matcher is a single anchor its
// candidates are a yes. A single matcher of exclusions only is decided
// entirely (cluster.LabelView.SetExclusions). The full match runs on the
// remaining sets only, on first use, so the memo holds the answers a full
// match of every set would. It also returns the candidates outside which
// the memo says no (nil when it narrowed nothing).
func (x *interned) memoCands(nsOK []bool, ms ...*matcher) (memo, cands) {
	return x.memoCandsIn(nil, nsOK, ms...)
}

// memoCandsIn is memoCands with the memo taken from p.
func (x *interned) memoCandsIn(p *passPool[int8], nsOK []bool, ms ...*matcher) (memo, cands) {
	sets := x.view.Sets
	mm := memo(p.take(len(sets)))
	var best [][]int32
	bestTotal := -1
	for _, m := range ms {
		lists, total, ok := x.view.SetCandidates(&m.Matcher, nil)
		if ok && (bestTotal < 0 || total < bestTotal) {
			best, bestTotal = lists, total
		}
	}
	if bestTotal < 0 {
		// No anchor. A selector of exclusions only (NotIn, DoesNotExist) is
		// decided by the postings too: yes but for the sets carrying an
		// excluded label.
		var excluded [][]int32
		exact := false
		if len(ms) == 1 {
			excluded, exact = x.view.SetExclusions(&ms[0].Matcher, nil)
		}
		for id := range sets {
			switch {
			case !nsOK[sets[id].NamespaceID]:
				mm[id] = 2
			case exact:
				mm[id] = 1
			}
		}
		for _, l := range excluded {
			for _, id := range l {
				mm[id] = 2
			}
		}
		return mm, nil
	}
	for i := range mm {
		mm[i] = 2
	}
	var yes int8 // unknown: the full match decides
	if len(ms) == 1 && ms[0].SingleAnchor() {
		yes = 1
	}
	for _, l := range best {
		for _, id := range l {
			if nsOK[sets[id].NamespaceID] {
				mm[id] = yes
			}
		}
	}
	if best == nil {
		best = cands{} // nothing can match: no list, but not "every set"
	}
	return mm, best
}

// setMatches reports whether the label set with the given ID matches m,
// within the namespace rule mm was made for (memoCands).
func (x *interned) setMatches(id int32, m *matcher, mm memo) bool {
	switch mm[id] {
	case 1:
		return true
	case 2:
		return false
	}
	ok := m.matches(x.view.Sets[id].Labels)
	if ok {
		mm[id] = 1
	} else {
		mm[id] = 2
	}
	return ok
}

// countSpread is upstream's countPodsMatchSelector on node n: pods of
// namespace ns, not being deleted, matching m (an empty selector counts
// nothing). mm must be made by memoCands for m and namespace ns.
func (x *interned) countSpread(n *cluster.NodeInfo, m *matcher, ns string, mm memo) int {
	if m.empty() || m.Nothing() {
		return 0
	}
	nl := x.nodeLabels(n)
	if nl == nil {
		return countMatching(n.Pods, m, ns)
	}
	c := 0
	for _, id := range nl.Sets {
		if id >= 0 && x.setMatches(id, m, mm) {
			c++
		}
	}
	return c
}

// spreadCounts returns, per node slot of the indexed snapshot, how many of
// its pods not being deleted match m within the namespace rule mm was made
// for (memoCands): countSpread for every node at once, visiting through the
// snapshot's cluster.Occurrences only the pods of the label sets that match.
func (x *interned) spreadCounts(m *matcher, mm memo, cs cands) []int32 {
	return x.spreadCountsInto(nil, m, mm, cs)
}

// spreadCountsInto is spreadCounts written into buf's array when it is
// large enough.
func (x *interned) spreadCountsInto(buf []int32, m *matcher, mm memo, cs cands) []int32 {
	counts := grow(buf, len(x.nodes))
	if m.empty() || m.Nothing() || x.snap == nil || x.view.NumNodes() == 0 {
		return counts
	}
	x.eachMatchingPod(x.snap.Occurrences(), cs,
		func(id int32) bool { return x.setMatches(id, m, mm) },
		func(i int32, deleting bool) {
			if !deleting {
				counts[i]++
			}
		})
	return counts
}

// spreadCountsTouched is spreadCountsInto, and also lists in touched (its
// array reused) the node slots whose count is above 0, in no particular
// order.
func (x *interned) spreadCountsTouched(buf, touched []int32, m *matcher, mm memo, cs cands) ([]int32, []int32) {
	counts := grow(buf, len(x.nodes))
	if m.empty() || m.Nothing() || x.snap == nil || x.view.NumNodes() == 0 {
		return counts, touched
	}
	x.eachMatchingPod(x.snap.Occurrences(), cs,
		func(id int32) bool { return x.setMatches(id, m, mm) },
		func(i int32, deleting bool) {
			if !deleting {
				if counts[i] == 0 {
					touched = append(touched, i)
				}
				counts[i]++
			}
		})
	return counts, touched
}

// eachMatchingPod calls fn with the node slot of every pod of the indexed
// snapshot whose label set match accepts (and whether the pod is being
// deleted), asking match once per set with pods among the candidates cs
// (every set when nil; match must say no outside them), plus once per pod
// of the nodes changed since occ's base. The order of the calls is not node
// order: callers only sum.
func (x *interned) eachMatchingPod(occ *cluster.Occurrences, cs cands, match func(id int32) bool, fn func(i int32, deleting bool)) {
	visit := func(id int32) {
		pods := occ.BasePods(id)
		if len(pods) == 0 || !match(id) {
			return
		}
		for _, p := range pods {
			i, deleting := p, false
			if p < 0 {
				i, deleting = -1-p, true
			}
			if !occ.Stale(i) {
				fn(i, deleting)
			}
		}
	}
	if cs != nil {
		for _, l := range cs {
			for _, id := range l {
				visit(id)
			}
		}
	} else {
		// Base entries at or beyond the view's sets lie on changed nodes
		// (the base being a later view): the others are this snapshot's
		// pods.
		for id := range int32(min(occ.NumSets(), len(x.view.Sets))) {
			visit(id)
		}
	}
	x.view.EachNode(occ.Changed(), func(i int32, nl *cluster.NodeLabels) {
		for _, id := range nl.Sets {
			deleting := id < 0
			if deleting {
				id = -1 - id
			}
			if match(id) {
				fn(i, deleting)
			}
		}
	})
}

// eachMatchingUse calls fn with the term ID, node slot and weight of every
// use of a term of one kind on the indexed snapshot that match accepts,
// asking match once per term used on occ's base among the candidates cs
// (every term when nil; match must say no outside them) plus once per use
// on the changed nodes. The order of the calls is not node order: callers
// only sum.
func (x *interned) eachMatchingUse(occ *cluster.Occurrences, kind cluster.TermKind, cs cands, match func(id int32) bool, fn func(id, i, weight int32)) {
	t := occ.Terms(kind)
	visit := func(id int32) {
		nodes, weights := t.Uses(id)
		if len(nodes) == 0 || !match(id) {
			return
		}
		for u, i := range nodes {
			if !occ.Stale(i) {
				fn(id, i, weights[u])
			}
		}
	}
	x.eachCandidateTerm(t, cs, visit)
	x.view.EachNode(occ.Changed(), func(i int32, nl *cluster.NodeLabels) {
		for _, r := range kind.Refs(nl) {
			if match(r.Term) {
				fn(r.Term, i, r.Weight)
			}
		}
	})
}

// eachCandidateTerm calls visit with each term ID among the candidates cs,
// or, when cs is nil, with each term t has uses of within the view's
// tables.
func (x *interned) eachCandidateTerm(t *cluster.TermOccurrences, cs cands, visit func(id int32)) {
	if cs != nil {
		for _, l := range cs {
			for _, id := range l {
				visit(id)
			}
		}
		return
	}
	for id := range int32(min(t.NumTerms(), len(x.view.Terms))) {
		visit(id)
	}
}

// countAt is countSpread on node n read from counts (spreadCounts of the
// same matcher and memo) when n belongs to the indexed snapshot.
func (x *interned) countAt(counts []int32, n *cluster.NodeInfo, m *matcher, ns string, mm memo) int {
	if x.indexes(n) {
		return int(counts[n.Index])
	}
	return x.countSpread(n, m, ns, mm)
}

// Domain IDs returned by domainOf besides a column's value IDs.
const (
	noLabel      int32 = -1 // the node lacks the key
	unknownValue int32 = -2 // the node is not in the indexed snapshot and its value is not in the column
)

// column returns the snapshot's column for a node label key.
func (x *interned) column(key string) *cluster.Column {
	if x.snap == nil {
		return &cluster.Column{Key: key, ID: map[string]int32{}}
	}
	return x.snap.Column(key)
}

// domainOf returns node n's value ID in column c: an array load for a node
// of the indexed snapshot (or of any view of it: views keep the nodes and
// their slots), a label lookup otherwise.
func (x *interned) domainOf(c *cluster.Column, n *cluster.NodeInfo) int32 {
	if i := n.Index; i >= 0 && i < len(c.Of) && i < len(x.nodes) && x.nodes[i] != nil && (x.nodes[i] == n || x.nodes[i].Name == n.Name) {
		return c.Of[i]
	}
	v, ok := n.Node.Labels[c.Key]
	if !ok {
		return noLabel
	}
	if id, ok := c.ID[v]; ok {
		return id
	}
	return unknownValue
}
