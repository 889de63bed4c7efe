package cluster

// OWNERSHIP: this file belongs to the topology work.

// Occurrences is a snapshot's LabelView inverted: for each label set and
// each interned affinity term, the nodes whose bound pods carry it. A
// selector (or an incoming pod against existing terms) then visits only
// the pods whose sets (terms) it matches, instead of every pod of every
// node: the topology plugins' PreFilter and PreScore walks become
// O(distinct sets + matching pods + nodes). It is built once per snapshot
// on first use (Snapshot.Occurrences) and is immutable.
type Occurrences struct {
	// SetNodes[SetStart[id]:SetStart[id+1]] lists, for label set id, the
	// node index of each bound pod with that set, in node order and once
	// per pod; a pod being deleted is listed as -1-index. Sets at or beyond
	// len(SetStart)-1 have no pod on the snapshot.
	SetStart []int32
	SetNodes []int32
	// The terms of NodeLabels' four lists, by term ID.
	RequiredAffinity      TermOccurrences
	PreferredAffinity     TermOccurrences
	PreferredAntiAffinity TermOccurrences
	RequiredAntiAffinity  TermOccurrences
	// Labelled[i] reports whether node index i has any label (upstream's
	// processExistingPod skips the pods of an unlabelled node).
	Labelled []bool
}

// TermOccurrences lists where each term is used: Node[Start[id]:Start[id+1]]
// and Weight[...] are the node index and weight (0 for required terms) of
// each use of term id, in node order then NodeLabels' order.
type TermOccurrences struct {
	Start  []int32
	Node   []int32
	Weight []int32
}

// Occurrences returns the inverted label view of the snapshot (see
// Occurrences), built on first use; the result must not be modified.
func (s *Snapshot) Occurrences() *Occurrences {
	x := s.labels
	if x != nil {
		x.mu.Lock()
		for _, c := range x.occ {
			if c.snap == s {
				x.mu.Unlock()
				return c.occ
			}
		}
		x.mu.Unlock()
	}
	v := s.Labels()
	occ := buildOccurrences(s.nodes, &v)
	if x != nil {
		x.mu.Lock()
		// The two most recent snapshots: schedule mode asks for a view
		// between the dry runs on others.
		x.occ[1] = x.occ[0]
		x.occ[0] = occCache{s, occ}
		x.mu.Unlock()
	}
	return occ
}

type occCache struct {
	snap *Snapshot
	occ  *Occurrences
}

func buildOccurrences(nodes []*NodeInfo, v *LabelView) *Occurrences {
	o := &Occurrences{Labelled: make([]bool, len(nodes))}
	for i, ni := range nodes {
		o.Labelled[i] = len(ni.Node.Labels) > 0
	}
	nSets := 0
	for _, nl := range v.Nodes {
		for _, id := range nl.Sets {
			if id < 0 {
				id = -1 - id
			}
			nSets = max(nSets, int(id)+1)
		}
	}
	o.SetStart = make([]int32, nSets+1)
	for _, nl := range v.Nodes {
		for _, id := range nl.Sets {
			if id < 0 {
				id = -1 - id
			}
			o.SetStart[id+1]++
		}
	}
	for i := 1; i < len(o.SetStart); i++ {
		o.SetStart[i] += o.SetStart[i-1]
	}
	o.SetNodes = make([]int32, o.SetStart[nSets])
	fill := make([]int32, nSets)
	copy(fill, o.SetStart[:nSets])
	for i, nl := range v.Nodes {
		for _, id := range nl.Sets {
			n := int32(i)
			if id < 0 {
				id, n = -1-id, -1-n
			}
			o.SetNodes[fill[id]] = n
			fill[id]++
		}
	}
	o.RequiredAffinity = buildTermOccurrences(v.Nodes, func(nl *NodeLabels) []TermRef { return nl.RequiredAffinity })
	o.PreferredAffinity = buildTermOccurrences(v.Nodes, func(nl *NodeLabels) []TermRef { return nl.PreferredAffinity })
	o.PreferredAntiAffinity = buildTermOccurrences(v.Nodes, func(nl *NodeLabels) []TermRef { return nl.PreferredAntiAffinity })
	o.RequiredAntiAffinity = buildTermOccurrences(v.Nodes, func(nl *NodeLabels) []TermRef { return nl.RequiredAntiAffinity })
	return o
}

func buildTermOccurrences(nodes []*NodeLabels, refs func(*NodeLabels) []TermRef) TermOccurrences {
	nTerms, total := 0, 0
	for _, nl := range nodes {
		for _, r := range refs(nl) {
			nTerms = max(nTerms, int(r.Term)+1)
		}
		total += len(refs(nl))
	}
	t := TermOccurrences{Start: make([]int32, nTerms+1), Node: make([]int32, total), Weight: make([]int32, total)}
	for _, nl := range nodes {
		for _, r := range refs(nl) {
			t.Start[r.Term+1]++
		}
	}
	for i := 1; i < len(t.Start); i++ {
		t.Start[i] += t.Start[i-1]
	}
	fill := make([]int32, nTerms)
	copy(fill, t.Start[:nTerms])
	for i, nl := range nodes {
		for _, r := range refs(nl) {
			t.Node[fill[r.Term]] = int32(i)
			t.Weight[fill[r.Term]] = r.Weight
			fill[r.Term]++
		}
	}
	return t
}

// Uses returns the node indexes and weights of term id's uses.
func (t *TermOccurrences) Uses(id int32) (nodes, weights []int32) {
	if int(id)+1 >= len(t.Start) {
		return nil, nil
	}
	lo, hi := t.Start[id], t.Start[id+1]
	return t.Node[lo:hi], t.Weight[lo:hi]
}

// Pods returns the node indexes of set id's pods (-1-index for a pod being
// deleted).
func (o *Occurrences) Pods(id int32) []int32 {
	if int(id)+1 >= len(o.SetStart) {
		return nil
	}
	return o.SetNodes[o.SetStart[id]:o.SetStart[id+1]]
}
