package cluster

import "slices"

// Occurrences is a snapshot's LabelView inverted: for each label set and
// each interned affinity term, the nodes whose bound pods carry it. A
// selector (or an incoming pod against existing terms) then visits only
// the pods whose sets (terms) it matches, instead of every pod of every
// node: the topology plugins' PreFilter and PreScore walks become
// O(distinct sets + matching pods + changed nodes' pods).
//
// Nodes are named by slot (NodeInfo.Index). The inversion is built for one
// base snapshot of an index and shared by its views: a view's Occurrences
// is the base's plus the list of node slots whose NodeInfo differs from
// the base's (a bind, a dry run's
// removal). A reader skips the base entries of those nodes (Stale) and
// reads their current pods from the view's NodeLabels instead. When too
// many nodes have changed, the view becomes the new base. An Occurrences is
// immutable and safe for concurrent use.
type Occurrences struct {
	base    *occBase
	stale   []uint64 // bit i%64 of word i/64: node slot i changed; nil when nothing did
	changed []int32  // ascending node slots that differ from the base
}

// occBase is the inversion of one snapshot's LabelView.
type occBase struct {
	nodes    []*NodeInfo // by slot (SlotsOf)
	setStart []int32
	setNodes []int32 // node slot, -1-slot for a pod being deleted
	terms    [4]TermOccurrences
	labelled []bool // by node slot
}

// The four lists of NodeLabels, as TermKind.
const (
	RequiredAffinityTerms TermKind = iota
	PreferredAffinityTerms
	PreferredAntiAffinityTerms
	RequiredAntiAffinityTerms
)

// TermKind names one of NodeLabels' term lists.
type TermKind int

// Refs returns the node's list of that kind.
func (k TermKind) Refs(nl *NodeLabels) []TermRef {
	switch k {
	case RequiredAffinityTerms:
		return nl.RequiredAffinity
	case PreferredAffinityTerms:
		return nl.PreferredAffinity
	case PreferredAntiAffinityTerms:
		return nl.PreferredAntiAffinity
	default:
		return nl.RequiredAntiAffinity
	}
}

// TermOccurrences lists where each term is used on the base snapshot:
// Node[Start[id]:Start[id+1]] and Weight[...] are the node slot and
// weight (0 for required terms) of each use of term id, in node name order.
type TermOccurrences struct {
	Start  []int32
	Node   []int32
	Weight []int32
}

// NumTerms returns one more than the highest term ID used on the base.
func (t *TermOccurrences) NumTerms() int { return max(len(t.Start)-1, 0) }

// Uses returns the node slots and weights of term id's uses on the base
// snapshot (skip the Stale nodes).
func (t *TermOccurrences) Uses(id int32) (nodes, weights []int32) {
	if int(id)+1 >= len(t.Start) {
		return nil, nil
	}
	lo, hi := t.Start[id], t.Start[id+1]
	return t.Node[lo:hi], t.Weight[lo:hi]
}

// NumSets returns one more than the highest label-set ID with a pod on the
// base snapshot.
func (o *Occurrences) NumSets() int { return max(len(o.base.setStart)-1, 0) }

// BasePods returns the node slots of set id's pods on the base snapshot
// (-1-slot for a pod being deleted), in node name order; skip the Stale
// nodes.
func (o *Occurrences) BasePods(id int32) []int32 {
	s := o.base.setStart
	if int(id)+1 >= len(s) {
		return nil
	}
	return o.base.setNodes[s[id]:s[id+1]]
}

// Terms returns the base snapshot's uses of one kind of term.
func (o *Occurrences) Terms(k TermKind) *TermOccurrences { return &o.base.terms[k] }

// Stale reports whether node slot i differs from the base: its base
// entries must be skipped and its NodeLabels read instead.
func (o *Occurrences) Stale(i int32) bool {
	return o.stale != nil && o.stale[i>>6]&(1<<(i&63)) != 0
}

// Changed returns the node slots that differ from the base, ascending.
func (o *Occurrences) Changed() []int32 { return o.changed }

// Labelled reports whether node slot i has any label (upstream's
// processExistingPod skips the pods of an unlabelled node). Views never
// change a node's labels.
func (o *Occurrences) Labelled(i int32) bool { return o.base.labelled[i] }

// Occurrences returns the inverted label view of the snapshot (see
// Occurrences), to be read with s.Labels(); the result must not be
// modified.
func (s *Snapshot) Occurrences() *Occurrences {
	x := s.labels
	var base *occBase
	// The cached Occurrences of s's parent on the base, if any, and the
	// slots s changed from it.
	var parent *Occurrences
	var direct []int32
	if x != nil {
		x.mu.Lock()
		for _, c := range x.occ {
			if c.snap == s {
				x.mu.Unlock()
				return c.occ
			}
			if c.occ != nil && c.occ.base == x.occBase {
				if d, ok := ChangedFromOf(s, c.snap); ok {
					parent, direct = c.occ, d
				}
			}
		}
		base = x.occBase
		x.mu.Unlock()
	}
	v := s.Labels()
	occ := &Occurrences{base: base}
	slots := SlotsOf(s)
	if base != nil && len(base.nodes) == len(slots) {
		if parent != nil {
			// A view made directly from a snapshot whose Occurrences are
			// at hand (a queue's binding): its changed slots are the
			// parent's and the view's own, no pass over every slot.
			occ.changed = mergeChanged(parent.changed, direct, slots, base.nodes)
		} else {
			for i, ni := range slots {
				if ni != base.nodes[i] {
					occ.changed = append(occ.changed, int32(i))
				}
			}
		}
	}
	// A view far from the base (or the first snapshot) becomes the base.
	if base == nil || len(base.nodes) != len(slots) || len(occ.changed) > len(slots)/16+8 {
		occ = &Occurrences{base: buildOccBase(s, &v)}
	}
	if len(occ.changed) > 0 {
		occ.stale = make([]uint64, (len(slots)+63)/64)
		for _, i := range occ.changed {
			occ.stale[i>>6] |= 1 << (i & 63)
		}
	}
	if x != nil {
		x.mu.Lock()
		if occ.base != base {
			x.occBase = occ.base
		}
		// The two most recent snapshots: schedule mode asks for a view
		// between the dry runs on others.
		x.occ[1] = x.occ[0]
		x.occ[0] = occCache{s, occ}
		x.mu.Unlock()
	}
	return occ
}

// mergeChanged returns the ascending union of the parent's changed slots
// and direct (the slots a view changed from its parent, ascending), less
// the direct slots whose node is the base's again.
func mergeChanged(parent, direct []int32, slots, base []*NodeInfo) []int32 {
	out := make([]int32, 0, len(parent)+len(direct))
	mergeSlots(parent, direct,
		func(i int) { out = append(out, parent[i]) },
		func(k int32) {
			if slots[k] != base[k] {
				out = append(out, k)
			}
		})
	return out
}

type occCache struct {
	snap *Snapshot
	occ  *Occurrences
}

// buildOccBase inverts s's label view v, visiting the nodes in name order
// (so that each list is in the order of a snapshot from New, whatever the
// slots).
func buildOccBase(s *Snapshot, v *LabelView) *occBase {
	slots := SlotsOf(s)
	// A copy: a view's own list may be reused once nothing reads it (Retire).
	o := &occBase{nodes: slices.Clone(slots), labelled: make([]bool, len(slots))}
	for _, ni := range s.nodes {
		o.labelled[ni.Index] = len(ni.Node.Labels) > 0
	}
	nls := v.bySlot()
	// Counting sort by set ID, then by term ID per kind.
	nSets, total := 0, 0
	var nTerms [4]int
	var totals [4]int
	for _, nl := range nls {
		for _, id := range nl.Sets {
			if id < 0 {
				id = -1 - id
			}
			nSets = max(nSets, int(id)+1)
		}
		total += len(nl.Sets)
		for k := range nTerms {
			refs := TermKind(k).Refs(nl)
			for _, r := range refs {
				nTerms[k] = max(nTerms[k], int(r.Term)+1)
			}
			totals[k] += len(refs)
		}
	}
	o.setStart = make([]int32, nSets+1)
	for k := range o.terms {
		o.terms[k] = TermOccurrences{Start: make([]int32, nTerms[k]+1), Node: make([]int32, totals[k]), Weight: make([]int32, totals[k])}
	}
	for _, nl := range nls {
		for _, id := range nl.Sets {
			if id < 0 {
				id = -1 - id
			}
			o.setStart[id+1]++
		}
		for k := range o.terms {
			for _, r := range TermKind(k).Refs(nl) {
				o.terms[k].Start[r.Term+1]++
			}
		}
	}
	prefix(o.setStart)
	for k := range o.terms {
		prefix(o.terms[k].Start)
	}
	o.setNodes = make([]int32, total)
	fill := append([]int32(nil), o.setStart...)
	var tfill [4][]int32
	for k := range o.terms {
		tfill[k] = append([]int32(nil), o.terms[k].Start...)
	}
	for _, ni := range s.nodes {
		i := ni.Index
		nl := nls[i]
		for _, id := range nl.Sets {
			n := int32(i)
			if id < 0 {
				id, n = -1-id, -1-n
			}
			o.setNodes[fill[id]] = n
			fill[id]++
		}
		for k := range o.terms {
			t := &o.terms[k]
			for _, r := range TermKind(k).Refs(nl) {
				t.Node[tfill[k][r.Term]] = int32(i)
				t.Weight[tfill[k][r.Term]] = r.Weight
				tfill[k][r.Term]++
			}
		}
	}
	return o
}

func prefix(s []int32) {
	for i := 1; i < len(s); i++ {
		s[i] += s[i-1]
	}
}
