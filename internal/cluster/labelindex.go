package cluster

import (
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/labelmatch"
	"github.com/schedkit/schedkit/internal/par"
)

// LabelIndex interns what the topology plugins match against, so that a
// selector is evaluated once per distinct (namespace, labels) pair and once
// per distinct affinity term instead of once per bound pod: bound pods with
// the same namespace and labels (a workload's replicas) share a label-set ID,
// and equal affinity terms (the same template's) share a term ID. Per node it
// keeps the IDs in arrays, so a walk over every bound pod reads contiguous
// int32s instead of chasing each pod's label map. Postings (postings.go)
// list the sets by label and the terms by an anchor of their selector, so
// that a selector or an incoming pod meets only its candidates, and
// Occurrences (occurrences.go) invert a snapshot's nodes, so that a walk
// visits only the pods and term uses that match.
//
// One LabelIndex is shared by a snapshot and all its views of the same
// nodes; it only grows. A view's node list is its base snapshot's patched
// where its NodeInfos differ. Per-node lists are by slot (NodeInfo.Index).
// A node view, which changes the nodes or what they index
// (Snapshot.WithNodes, WithoutNodes, WithNode), gets a LabelIndex of its
// own sharing the interning tables (labelTables, which do not depend on
// node slots), so that set and term IDs, and what was interned for each
// pod and node, carry over. It is safe for concurrent use.
type LabelIndex struct {
	*labelTables

	occ     [2]occCache // Occurrences of the most recent snapshots
	occBase *occBase    // the inversion the views' Occurrences extend
	columns map[string]*Column
	slots   [][2]slot // by node slot

	// The per-node list of a base snapshot, which the views asked for
	// afterwards patch with the nodes where they differ (no per-view array
	// of every node), and the nodes of the last snapshot asked for: a view
	// is usually asked many times in a row. baseSlots is the base's
	// NodeInfos by slot, a copy: a view's own list may be reused by a later
	// view once nothing reads the view (Retire).
	baseSlots []*NodeInfo
	baseNodes []*NodeLabels
	lastSnap  *Snapshot
	last      viewNodes
}

// labelTables is the part of a LabelIndex that does not depend on node
// positions: the interned label sets and terms, their postings, and each
// indexed NodeInfo's interned pods. mu guards it and every LabelIndex
// sharing it.
type labelTables struct {
	mu        par.Mutex        // see par.Mutex: the queue's goroutines meet here
	setByKey  map[string]int32 // keyBuf.appendLabelSet -> set ID
	kb        keyBuf           // internSet's key buffer
	sets      []LabelSet
	setKeys   []string         // by set ID: its setByKey key, which postSets reads instead of the label map
	nsNames   []string         // by namespace ID, in order of first appearance
	nsIDs     map[string]int32 // namespace -> ID
	topoKeys  []string         // by TermMatcher.KeyID
	topoIDs   map[string]int32
	nsRuleIDs map[string]int32 // namespace rule text -> TermMatcher.NamespaceRule
	termByKey map[string]int32
	termByPtr map[*AffinityTerm]int32 // terms shared by pods (New's affinity cache) are keyed once
	setOfPod  map[*PodInfo]int32      // a pod's label-set ID, for re-indexing a view's changed nodes
	terms     []AffinityTerm
	matchers  []TermMatcher // by term ID
	setPost   setPostings
	termPost  termPostings
	nodes     map[*NodeInfo]*NodeLabels
}

// viewNodes is a snapshot's interned nodes by slot: a base list patched at
// the ascending slots patched.
type viewNodes struct {
	nodes   []*NodeLabels
	patched []int32
	patch   []*NodeLabels
}

// LabelSet is one interned (namespace, labels) pair. Labels is shared with a
// bound pod: never modify it.
type LabelSet struct {
	Namespace string
	// NamespaceID is Namespace's index in LabelView.Namespaces, so that a
	// namespace rule is decided once per namespace instead of once per set.
	NamespaceID int32
	Labels      map[string]string
}

// TermRef is an interned affinity term with the weight it is used with
// (0 for required terms).
type TermRef struct {
	Term   int32
	Weight int32
}

// NodeLabels is one node's bound pods in interned form.
type NodeLabels struct {
	// Sets holds, for each pod of NodeInfo.Pods in order, its label-set ID,
	// or -1-ID when the pod is being deleted (deletionTimestamp set).
	Sets []int32
	// The terms of the node's pods with pod affinity (NodeInfo.PodsWithAffinity)
	// and required anti-affinity (PodsWithRequiredAntiAffinity), flattened
	// in pod order then term order.
	RequiredAffinity      []TermRef
	PreferredAffinity     []TermRef
	PreferredAntiAffinity []TermRef
	RequiredAntiAffinity  []TermRef
}

// LabelView is a consistent read-only view of the index for one snapshot:
// Node(i) belongs to the node of slot i (NodeInfo.Index; cluster.SlotsOf);
// every ID in it is below len(Sets) / len(Terms).
type LabelView struct {
	x    *LabelIndex // for the postings; nil for the zero view
	Sets []LabelSet
	// Namespaces lists the namespaces of Sets by ID (LabelSet.NamespaceID).
	Namespaces []string
	Terms      []AffinityTerm
	// TopologyKeys lists the topology keys of Terms by TermMatcher.KeyID.
	TopologyKeys []string
	// NamespaceRules is the number of distinct TermMatcher.NamespaceRule.
	NamespaceRules int
	// TermMatchers[i] is Terms[i] flattened for matching incoming pods.
	TermMatchers []TermMatcher
	viewNodes
}

// NumNodes returns the number of node slots of the view's snapshot
// (len(SlotsOf)): its number of nodes unless it is a node view.
func (v *LabelView) NumNodes() int { return len(v.nodes) }

// Node returns the interned pods of the node of slot i of the view's
// snapshot; an empty slot has none. The result must not be modified.
func (v *LabelView) Node(i int) *NodeLabels {
	if len(v.patched) > 0 {
		if k, ok := slices.BinarySearch(v.patched, int32(i)); ok {
			return v.patch[k]
		}
	}
	return v.nodes[i]
}

// bySlot returns Node(i) for every slot i: the base list itself when the
// view patches none, a patched copy otherwise.
func (v *LabelView) bySlot() []*NodeLabels {
	if len(v.patched) == 0 {
		return v.nodes
	}
	out := slices.Clone(v.nodes)
	for k, i := range v.patched {
		out[i] = v.patch[k]
	}
	return out
}

// EachNode calls fn with each slot of slots, which are ascending (as
// Occurrences.Changed lists them), and Node(slot): one walk along the
// view's patched slots instead of a search per slot.
func (v *LabelView) EachNode(slots []int32, fn func(i int32, nl *NodeLabels)) {
	k := 0
	for _, i := range slots {
		for k < len(v.patched) && v.patched[k] < i {
			k++
		}
		if k < len(v.patched) && v.patched[k] == i {
			fn(i, v.patch[k])
		} else {
			fn(i, v.nodes[i])
		}
	}
}

// TermMatcher is an interned affinity term flattened once per index for
// matching an incoming pod against it (fwk.AffinityTerm.Matches): the
// explicit namespaces as a short list and both selectors as
// labelmatch.Matchers, which decide exactly as the labels.Selectors (a nil
// selector matches nothing). It is immutable.
type TermMatcher struct {
	// KeyID is the term's topology key as an index in
	// LabelView.TopologyKeys, so that per-key state is found by an array
	// load instead of a string compare.
	KeyID int32
	// NamespaceRule identifies the term's namespace rule (explicit
	// namespaces and namespace selector) among the index's distinct rules,
	// below LabelView.NamespaceRules: terms with equal rules decide a
	// namespace alike, so a caller can decide it once per rule.
	NamespaceRule int32
	// SingleAnchor is Selector.SingleAnchor(): a term that TermCandidates
	// lists for a pod's labels then matches them.
	SingleAnchor      bool
	Namespaces        []string
	NamespaceSelector labelmatch.Matcher
	Selector          labelmatch.Matcher
}

func newTermMatcher(t *AffinityTerm, namespaces []string) TermMatcher {
	return TermMatcher{Namespaces: namespaces, NamespaceSelector: labelmatch.New(t.NamespaceSelector), Selector: labelmatch.New(t.Selector)}
}

// Matches reports whether the term selects a pod of namespace ns with the
// given labels, nsLabels being the namespace's labels (nil when unknown).
func (m *TermMatcher) Matches(ns string, podLabels, nsLabels map[string]string) bool {
	return m.MatchesNamespace(ns, nsLabels) && m.Selector.Matches(podLabels)
}

// MatchesNamespace is the namespace half of Matches.
func (m *TermMatcher) MatchesNamespace(ns string, nsLabels map[string]string) bool {
	return labelmatch.HasValue(m.Namespaces, ns) || m.NamespaceSelector.Matches(nsLabels)
}

func newLabelIndex() *LabelIndex {
	return &LabelIndex{labelTables: &labelTables{
		setByKey:  map[string]int32{},
		nsIDs:     map[string]int32{},
		topoIDs:   map[string]int32{},
		nsRuleIDs: map[string]int32{},
		termByKey: map[string]int32{},
		termByPtr: map[*AffinityTerm]int32{},
		setOfPod:  map[*PodInfo]int32{},
		nodes:     map[*NodeInfo]*NodeLabels{},
		setPost:   setPostings{keys: map[string]*keyPostings{}},
		termPost:  termPostings{byPair: map[labelPair][]int32{}, byKey: map[string][]int32{}},
	}, columns: map[string]*Column{}}
}

// Column is one node label key as a column over the snapshot's nodes: the
// distinct values get dense IDs, and Of gives each node's value ID by node
// slot (NodeInfo.Index; -1 when the node lacks the key, or for an empty
// slot). Views of the same nodes share their parent's columns; a node view
// builds its own. A Column is immutable: never modify it.
type Column struct {
	Key    string
	Values []string         // by ID, in order of first appearance in name order
	ID     map[string]int32 // value -> ID
	Of     []int32          // by node slot
}

// Column returns the column of a node label key, building it on first use.
func (s *Snapshot) Column(key string) *Column {
	x := s.labels
	if x == nil {
		return buildColumn(s, key)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	c, ok := x.columns[key]
	if !ok {
		c = buildColumn(s, key)
		x.columns[key] = c
	}
	return c
}

// buildColumn builds s's column of key, recording the nodes in name order
// (so that value IDs follow first appearance as in a snapshot from New,
// whatever the slots).
func buildColumn(s *Snapshot, key string) *Column {
	c := newColumn(key, len(SlotsOf(s)))
	for _, ni := range s.nodes {
		if v, ok := ni.Node.Labels[key]; ok {
			c.set(ni.Index, v)
		}
	}
	return c
}

// NewColumn builds the column of a label key over n label sets, labelsOf(i)
// giving the i-th, as Snapshot.Column does over a snapshot from New's
// nodes. Exported for
// callers that hold nodes outside a snapshot (tests of the column-based
// forms).
func NewColumn(key string, n int, labelsOf func(i int) map[string]string) *Column {
	c := newColumn(key, n)
	for i := range n {
		if v, ok := labelsOf(i)[key]; ok {
			c.set(i, v)
		}
	}
	return c
}

// newColumn is a column over n label sets none of which has the key.
func newColumn(key string, n int) *Column {
	c := &Column{Key: key, ID: map[string]int32{}, Of: make([]int32, n)}
	for i := range c.Of {
		c.Of[i] = -1
	}
	return c
}

// set records that label set i has value v, giving v the next ID when new
// (so IDs follow first appearance when sets are recorded in order).
func (c *Column) set(i int, v string) {
	id, seen := c.ID[v]
	if !seen {
		id = int32(len(c.Values))
		c.Values = append(c.Values, v)
		c.ID[v] = id
	}
	c.Of[i] = id
}

// Labels returns the interned view of the snapshot's bound pods, building
// what is missing (the first call on a snapshot walks every pod; a view
// made by WithPod or WithoutPods only rebuilds its changed nodes). The
// result must not be modified.
func (s *Snapshot) Labels() LabelView {
	x := s.labels
	if x == nil {
		// A snapshot not made by New (the zero value): index privately.
		x = newLabelIndex()
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.lastSnap != s {
		x.prepare(s)
		x.lastSnap, x.last = s, x.nodesOf(s)
	}
	return x.viewOf(x.last)
}

// prepare readies x to index s's nodes: it forgets the nodes of older
// views when they have piled up, keeping s's (a view still in use
// re-indexes only what it does not share with s), and sizes the slots.
// x.mu is held.
func (x *LabelIndex) prepare(s *Snapshot) {
	if len(x.nodes) > 2*len(s.nodes)+1024 {
		kept := make(map[*NodeInfo]*NodeLabels, len(s.nodes))
		for _, ni := range s.nodes {
			if nl, ok := x.nodes[ni]; ok {
				kept[ni] = nl
			}
		}
		x.nodes = kept
	}
	if n := len(SlotsOf(s)); len(x.slots) != n {
		x.slots = make([][2]slot, n)
	}
}

// viewOf is the LabelView of nodes with x's current tables. x.mu is held.
func (x *LabelIndex) viewOf(nodes viewNodes) LabelView {
	return LabelView{x: x, Sets: x.sets, Namespaces: x.nsNames, TopologyKeys: x.topoKeys, NamespaceRules: len(x.nsRuleIDs), Terms: x.terms, TermMatchers: x.matchers, viewNodes: nodes}
}

// Patched returns the label view of s, a view made directly from the
// snapshot v is the view of, given the nodes s changed (ChangedFrom): v
// with those nodes indexed anew. It costs the changed nodes and v's own
// patch instead of a pass over every node (preemption's dry run makes a
// view per node it tries), and leaves the index's cached view alone. ok is
// false when v is not an index's view.
func (v LabelView) Patched(s *Snapshot, changed []int32) (out LabelView, ok bool) {
	x := v.x
	if x == nil || s == nil || s.labels != x {
		return LabelView{}, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.prepare(s)
	return x.viewOf(x.patch(v.viewNodes, s, changed)), true
}

// patch returns vn with the slots changed (ascending) indexed anew from
// s's nodes. x.mu is held.
func (x *LabelIndex) patch(vn viewNodes, s *Snapshot, changed []int32) viewNodes {
	out := viewNodes{nodes: vn.nodes}
	if n := len(vn.patched) + len(changed); n > 0 {
		out.patched, out.patch = make([]int32, 0, n), make([]*NodeLabels, 0, n)
	}
	mergeSlots(vn.patched, changed,
		func(i int) {
			out.patched, out.patch = append(out.patched, vn.patched[i]), append(out.patch, vn.patch[i])
		},
		func(k int32) {
			out.patched, out.patch = append(out.patched, k), append(out.patch, x.lookup(int(k), SlotsOf(s)[k]))
		})
	return out
}

// mergeSlots walks two ascending lists of slots in order: keep(i) for
// old[i] when changed does not hold it, add(k) for each slot k of changed
// (which replaces an equal slot of old).
func mergeSlots(old, changed []int32, keep func(i int), add func(k int32)) {
	i, j := 0, 0
	for i < len(old) || j < len(changed) {
		if j == len(changed) || (i < len(old) && old[i] < changed[j]) {
			keep(i)
			i++
			continue
		}
		if i < len(old) && old[i] == changed[j] {
			i++
		}
		add(changed[j])
		j++
	}
}

// nodesOf returns the interned nodes of s: the base list patched where s's
// NodeInfos differ from the base snapshot's, or, for the first snapshot or
// one far from the base, a full list that becomes the base. x.mu is held.
func (x *LabelIndex) nodesOf(s *Snapshot) viewNodes {
	slots := SlotsOf(s)
	if base := x.baseSlots; base != nil && len(base) == len(slots) {
		limit := len(slots)/16 + 8
		// A view made directly from the last snapshot asked for (a queue's
		// binding) is that snapshot's nodes patched at the slots it
		// changed: no pass over every slot.
		if direct, ok := ChangedFromOf(s, x.lastSnap); ok && sameSlice(x.last.nodes, x.baseNodes) &&
			len(x.last.patched)+len(direct) <= limit {
			return x.patch(x.last, s, direct)
		}
		var out viewNodes
		// A view of a chain of bindings usually differs from the base at
		// one node more than the last view asked for: room for that many,
		// so that the lists are not grown step by step.
		if want := min(limit, len(x.last.patched)+2); want > 0 {
			out.patched, out.patch = make([]int32, 0, want), make([]*NodeLabels, 0, want)
		}
		far := false
		for i, ni := range slots {
			if ni == base[i] {
				continue
			}
			if len(out.patched) == limit {
				far = true
				break
			}
			out.patched = append(out.patched, int32(i))
			out.patch = append(out.patch, x.lookup(i, ni))
		}
		if !far {
			out.nodes = x.baseNodes
			return out
		}
	}
	nodes := make([]*NodeLabels, len(slots))
	for i, ni := range slots {
		nodes[i] = x.lookup(i, ni)
	}
	x.baseSlots, x.baseNodes = slices.Clone(slots), nodes
	return viewNodes{nodes: nodes}
}

// reshaped returns the LabelIndex of v, a node view of s
// (Snapshot.reshape) that keeps s's slots: an empty slot, a node of s (or
// its replacement, with the same pods) at its slot, or a new node without
// pods at a new slot. It shares x's tables; when x has s's interned nodes
// at hand (its base list, patched at few nodes), the new index's base list
// is that list with the changed slots, so that v's first topology question
// does not re-index every node. A nil x (a snapshot not made by New) gives
// a new index.
func (x *LabelIndex) reshaped(s, v *Snapshot) *LabelIndex {
	if x == nil {
		return newLabelIndex()
	}
	y := x.tablesOnly()
	x.mu.Lock()
	defer x.mu.Unlock()
	base := x.baseSlots
	old := SlotsOf(s)
	if base == nil || len(base) != len(old) {
		return y
	}
	x.prepare(s)
	limit := len(old)/16 + 8
	nls := make([]*NodeLabels, len(v.bySlot))
	copy(nls, x.baseNodes)
	for j, ni := range v.bySlot {
		switch {
		case ni == nil:
			nls[j] = noPods
		case j >= len(old):
			nls[j] = x.indexNode(ni)
		case old[j] == base[j]:
		case limit == 0:
			// s is far from the base: v indexes its nodes itself on
			// first use.
			return y
		default:
			limit--
			nls[j] = x.lookup(j, old[j])
		}
	}
	y.baseSlots, y.baseNodes = slices.Clone(SlotsOf(v)), nls
	return y
}

// tablesOnly returns a new LabelIndex sharing x's interning tables and
// nothing that depends on node slots (a nil x gives a new index).
func (x *LabelIndex) tablesOnly() *LabelIndex {
	if x == nil {
		return newLabelIndex()
	}
	return &LabelIndex{labelTables: x.labelTables, columns: map[string]*Column{}}
}

// noPods is the interned form of an empty slot.
var noPods = &NodeLabels{}

// slot remembers a recently indexed NodeInfo at a node index, so that a
// view, which shares all but a few NodeInfos with its parent, finds the
// others with a pointer compare instead of a map lookup.
type slot struct {
	ni *NodeInfo
	nl *NodeLabels
}

// lookup returns the index of node ni at slot i (noPods for an empty
// slot), indexing it when new; x.mu is held.
func (x *LabelIndex) lookup(i int, ni *NodeInfo) *NodeLabels {
	if ni == nil {
		return noPods
	}
	sl := &x.slots[i]
	if sl[0].ni == ni {
		return sl[0].nl
	}
	if sl[1].ni == ni {
		sl[0], sl[1] = sl[1], sl[0]
		return sl[0].nl
	}
	nl, ok := x.nodes[ni]
	if !ok {
		nl = x.indexNodeAfter(ni, sl[0].ni, sl[0].nl)
		x.nodes[ni] = nl
	}
	sl[1] = sl[0]
	sl[0] = slot{ni, nl}
	return nl
}

// indexNodeAfter is indexNode(ni) for a node whose slot last held prev,
// interned as prevNL: when ni is prev with one pod more (a binding), the
// new pod's label set is inserted into prev's and, unless the pod has pod
// affinity terms, prev's term lists are ni's. A queue's every binding
// re-indexes its node: this costs the new pod instead of the node's pods.
// x.mu is held.
func (x *LabelIndex) indexNodeAfter(ni, prev *NodeInfo, prevNL *NodeLabels) *NodeLabels {
	if prev == nil || prevNL == nil {
		return x.indexNode(ni)
	}
	j, ok := insertedAt(prev.Pods, ni.Pods)
	if !ok {
		return x.indexNode(ni)
	}
	var nl *NodeLabels
	if slices.Equal(prev.PodsWithAffinity, ni.PodsWithAffinity) && slices.Equal(prev.PodsWithRequiredAntiAffinity, ni.PodsWithRequiredAntiAffinity) {
		nl = &NodeLabels{RequiredAffinity: prevNL.RequiredAffinity, PreferredAffinity: prevNL.PreferredAffinity,
			PreferredAntiAffinity: prevNL.PreferredAntiAffinity, RequiredAntiAffinity: prevNL.RequiredAntiAffinity}
	} else {
		nl = x.nodeTerms(ni)
	}
	nl.Sets = make([]int32, len(ni.Pods))
	copy(nl.Sets, prevNL.Sets[:j])
	nl.Sets[j] = x.podSet(ni.Pods[j])
	copy(nl.Sets[j+1:], prevNL.Sets[j:])
	return nl
}

// insertedAt reports whether after is before with one pod inserted (the
// same PodInfos otherwise, in the same order), and where.
func insertedAt(before, after []*PodInfo) (int, bool) {
	if len(after) != len(before)+1 {
		return 0, false
	}
	j := 0
	for j < len(before) && before[j] == after[j] {
		j++
	}
	for k := j; k < len(before); k++ {
		if before[k] != after[k+1] {
			return 0, false
		}
	}
	return j, true
}

// indexNode interns one node's pods and terms; x.mu is held.
func (x *LabelIndex) indexNode(ni *NodeInfo) *NodeLabels {
	nl := x.nodeTerms(ni)
	x.nodeSets(nl, ni)
	return nl
}

// nodeSets fills nl.Sets with the label-set IDs of ni's pods. It touches
// only the set fields of x (see prewarm).
func (x *LabelIndex) nodeSets(nl *NodeLabels, ni *NodeInfo) {
	nl.Sets = make([]int32, len(ni.Pods))
	for i, pi := range ni.Pods {
		nl.Sets[i] = x.podSet(pi)
	}
}

// podSet returns pi's entry in NodeLabels.Sets: its label-set ID, or
// -1-ID when it is being deleted. It touches only the set fields of x.
func (x *LabelIndex) podSet(pi *PodInfo) int32 {
	var id int32
	var deleting bool
	if pi.labelIndex == x.labelTables {
		// Interned by New (internPods).
		id, deleting = pi.labelSet, pi.deleting
	} else {
		// A PodInfo is immutable: when a view re-indexes a changed node
		// (a bind, preemption's dry run), its other pods keep their IDs
		// without hashing their labels again.
		var ok bool
		id, ok = x.setOfPod[pi]
		if !ok {
			id = x.internSet(pi.Pod.Namespace, pi.Pod.Labels)
			x.setOfPod[pi] = id
		}
		deleting = pi.Pod.DeletionTimestamp != nil
	}
	if deleting {
		id = -1 - id
	}
	return id
}

// nodeTerms returns a node's interned affinity terms (Sets left nil). It
// touches only the term fields of x (see prewarm). The four lists are cut,
// capacity capped, from one array sized by a first count: growing each by
// appends was most of the allocations of New's prewarm.
func (x *LabelIndex) nodeTerms(ni *NodeInfo) *NodeLabels {
	var nReq, nPref, nPrefAnti, nAnti int
	for _, pi := range ni.PodsWithAffinity {
		e := pi.extras()
		nReq, nPref, nPrefAnti = nReq+len(e.requiredAffinity), nPref+len(e.preferredAffinity), nPrefAnti+len(e.preferredAntiAffinity)
	}
	for _, pi := range ni.PodsWithRequiredAntiAffinity {
		nAnti += len(pi.extras().requiredAntiAffinity)
	}
	nl := &NodeLabels{}
	total := nReq + nPref + nPrefAnti + nAnti
	if total == 0 {
		return nl
	}
	refs := make([]TermRef, 0, total)
	// cut returns the next n refs as an empty list of capacity n (nil when
	// n is 0, as a list nothing was appended to).
	cut := func(n int) []TermRef {
		if n == 0 {
			return nil
		}
		out := refs[len(refs) : len(refs) : len(refs)+n]
		refs = refs[:len(refs)+n]
		return out
	}
	nl.RequiredAffinity, nl.PreferredAffinity, nl.PreferredAntiAffinity, nl.RequiredAntiAffinity = cut(nReq), cut(nPref), cut(nPrefAnti), cut(nAnti)
	for _, pi := range ni.PodsWithAffinity {
		e := pi.extras()
		for i := range e.requiredAffinity {
			nl.RequiredAffinity = append(nl.RequiredAffinity, TermRef{Term: x.internTerm(&e.requiredAffinity[i])})
		}
		for i := range e.preferredAffinity {
			t := &e.preferredAffinity[i]
			nl.PreferredAffinity = append(nl.PreferredAffinity, TermRef{Term: x.internTerm(&t.AffinityTerm), Weight: t.Weight})
		}
		for i := range e.preferredAntiAffinity {
			t := &e.preferredAntiAffinity[i]
			nl.PreferredAntiAffinity = append(nl.PreferredAntiAffinity, TermRef{Term: x.internTerm(&t.AffinityTerm), Weight: t.Weight})
		}
	}
	for _, pi := range ni.PodsWithRequiredAntiAffinity {
		anti := pi.extras().requiredAntiAffinity
		for i := range anti {
			nl.RequiredAntiAffinity = append(nl.RequiredAntiAffinity, TermRef{Term: x.internTerm(&anti[i])})
		}
	}
	return nl
}

// prewarm does, while New builds the snapshot s, what the first topology
// question would otherwise do on its own: the interned form of every node,
// the postings and the columns of the common node label keys. New's second goroutine builds
// the columns, interns the label sets (internPods) and posts them
// (postSets), then closes interned; meanwhile prewarm interns every node's
// terms and posts them. This is safe without x.mu because New has not
// shared the index yet and the two halves touch disjoint fields of x:
// columns, sets, setByKey, kb, nsNames, nsIDs and setPost on one side;
// terms, matchers, termByKey, termByPtr, topoIDs, topoKeys, nsRuleIDs and
// termPost on the other. prewarm returns when s's nodes are indexed.
func (x *LabelIndex) prewarm(s *Snapshot, interned <-chan struct{}) {
	nls := make([]*NodeLabels, len(s.nodes))
	for i, ni := range s.nodes {
		nls[i] = x.nodeTerms(ni)
	}
	x.postTerms()
	<-interned
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, ni := range s.nodes {
		x.nodeSets(nls[i], ni)
		x.nodes[ni] = nls[i]
	}
	x.slots = make([][2]slot, len(s.nodes))
	x.baseSlots, x.baseNodes = slices.Clone(SlotsOf(s)), nls
	x.lastSnap, x.last = s, viewNodes{nodes: nls}
}

// buildColumns builds the columns of the node label keys that at least an
// eighth of the nodes carry (topology keys, node affinity keys), in one pass
// over the snapshot's nodes, in snapshot order (see prewarm). A key few
// nodes carry is left to Snapshot.Column: a cluster whose nodes each have
// keys of their own would otherwise get a column per node.
func (x *LabelIndex) buildColumns(nodes []*corev1.Node) {
	count := map[string]int{}
	for _, n := range nodes {
		for k := range n.Labels {
			count[k]++
		}
	}
	for i, n := range nodes {
		for k, v := range n.Labels {
			if 8*count[k] < len(nodes) {
				continue
			}
			c := x.columns[k]
			if c == nil {
				c = newColumn(k, len(nodes))
				x.columns[k] = c
			}
			c.set(i, v)
		}
	}
}

// internPods interns the label sets of the pods New will bind (compiled,
// on a known node, not terminal), so that the first walk finds their IDs
// by PodInfo. Set IDs are only ever used as indexes, so their order does
// not matter.
func (x *LabelIndex) internPods(prep []podPrep) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.setByKey) == 0 {
		// Each worker's first pod of a set brings its key: at most that
		// many sets, whose table then never grows by rehashing.
		keys := 0
		for i := range prep {
			if prep[i].labelKey != "" {
				keys++
			}
		}
		x.setByKey = make(map[string]int32, keys)
		x.sets, x.setKeys = slices.Grow(x.sets, keys), slices.Grow(x.setKeys, keys)
	}
	for i := range prep {
		pp := &prep[i]
		pi := pp.pi
		if pi == nil || !pp.interned || pi.labelIndex == x.labelTables {
			continue
		}
		// preparePods built the label set's key on its goroutines and
		// matched it to an earlier equal one where it could: only the table
		// lookup is left here, for the others. The ID is kept in the
		// PodInfo, which New has not published yet (New's own pass reads
		// other fields meanwhile).
		if j := pp.sameAs; j >= 0 {
			pi.labelSet = prep[j].pi.labelSet
		} else {
			pi.labelSet = x.internKeyed(pi.Pod.Namespace, pi.Pod.Labels, pp.labelKey)
		}
		pi.labelIndex = x.labelTables
	}
}

// internSet returns the ID of a (namespace, labels) pair, interning it
// when new.
func (x *LabelIndex) internSet(ns string, l map[string]string) int32 {
	x.kb.b = x.kb.appendLabelSet(x.kb.b[:0], ns, l)
	if id, ok := x.setByKey[string(x.kb.b)]; ok {
		return id
	}
	return x.internKeyed(ns, l, string(x.kb.b))
}

// internKeyed is internSet with the pair's key (keyBuf.appendLabelSet)
// already built.
func (x *LabelIndex) internKeyed(ns string, l map[string]string, key string) int32 {
	if id, ok := x.setByKey[key]; ok {
		return id
	}
	id := int32(len(x.sets))
	nsID, ok := x.nsIDs[ns]
	if !ok {
		nsID = int32(len(x.nsNames))
		x.nsNames = append(x.nsNames, ns)
		x.nsIDs[ns] = nsID
	}
	x.sets = append(x.sets, LabelSet{Namespace: ns, NamespaceID: nsID, Labels: l})
	x.setKeys = append(x.setKeys, key)
	x.setByKey[key] = id
	return id
}

func (x *LabelIndex) internTerm(t *AffinityTerm) int32 {
	// Compiled terms are immutable, so a term already seen at this address
	// has the same ID.
	if id, ok := x.termByPtr[t]; ok {
		return id
	}
	id := x.internTermByKey(t)
	x.termByPtr[t] = id
	return id
}

func (x *LabelIndex) internTermByKey(t *AffinityTerm) int32 {
	key, nsRuleAt := t.internKey, t.nsRuleAt
	if key == "" {
		key, nsRuleAt = termKey(t)
	}
	nsRule := key[len(t.TopologyKey)+1 : nsRuleAt]
	if id, ok := x.termByKey[key]; ok {
		return id
	}
	id := int32(len(x.terms))
	kid, ok := x.topoIDs[t.TopologyKey]
	if !ok {
		kid = int32(len(x.topoKeys))
		x.topoKeys = append(x.topoKeys, t.TopologyKey)
		x.topoIDs[t.TopologyKey] = kid
	}
	x.terms = append(x.terms, *t)
	rid, ok := x.nsRuleIDs[nsRule]
	if !ok {
		rid = int32(len(x.nsRuleIDs))
		x.nsRuleIDs[nsRule] = rid
	}
	m := newTermMatcher(t, sortedNamespaces(t))
	m.KeyID, m.NamespaceRule, m.SingleAnchor = kid, rid, m.Selector.SingleAnchor()
	x.matchers = append(x.matchers, m)
	x.termByKey[key] = id
	return id
}

// termKey is a term's interning key: topology key, sorted namespaces,
// namespace selector and pod selector, separated by zero bytes. The
// namespace rule (namespaces and namespace selector) is
// key[len(t.TopologyKey)+1:nsRuleAt]. compileTerm stores it in the term
// (AffinityTerm.internKey), so that New's goroutines build it once per
// distinct spec, in parallel.
func termKey(t *AffinityTerm) (key string, nsRuleAt int) {
	var b strings.Builder
	b.WriteString(t.TopologyKey)
	b.WriteByte(0)
	b.WriteString(strings.Join(sortedNamespaces(t), "\x01"))
	b.WriteByte(0)
	b.WriteString(selectorKey(t.NamespaceSelector))
	nsRuleAt = b.Len()
	b.WriteByte(0)
	b.WriteString(selectorKey(t.Selector))
	return b.String(), nsRuleAt
}

// sortedNamespaces lists a term's explicit namespaces in order.
func sortedNamespaces(t *AffinityTerm) []string {
	ns := make([]string, 0, len(t.Namespaces))
	for n := range t.Namespaces {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// selectorKey is a selector's canonical text; labels.Nothing and a nil
// selector (both match nothing) get their own marker, distinct from
// labels.Everything's empty text.
func selectorKey(s labels.Selector) string {
	if s == nil {
		return "\x02nothing"
	}
	if _, ok := s.Requirements(); !ok {
		return "\x02nothing"
	}
	return s.String()
}

// SharesIndex reports whether o is s or a view of the same snapshot (made
// with WithPod / WithoutPods / WithNode's view path, directly or not): the
// two then have the same nodes (labels included), in the same order and
// slots, and share one label index. A node view (WithNodes, WithoutNodes,
// WithNode changing what is indexed) has other nodes: it shares no index
// with its parent.
func (s *Snapshot) SharesIndex(o *Snapshot) bool {
	return s != nil && o != nil && s.labels != nil && s.labels == o.labels
}

// PodLabelSet returns the label-set ID that New gave pi in s's label index,
// so that a caller deciding something from a pod's namespace and labels
// alone can decide it once per set (pods with one ID have equal namespaces
// and labels). ok is false when pi was not interned by the New that made s
// (or the snapshot s is a view or node view of): the caller then reads the
// labels.
func (s *Snapshot) PodLabelSet(pi *PodInfo) (id int32, ok bool) {
	if s == nil || s.labels == nil || pi == nil || pi.labelIndex != s.labels.labelTables {
		return -1, false
	}
	return pi.labelSet, true
}

// HasRequiredAntiAffinity reports whether the pod has required pod
// anti-affinity terms in its spec (compiled or not), from the bits New
// recorded when it can, so that a per-pod check in a hot loop need not read
// the pod object.
func (p *PodInfo) HasRequiredAntiAffinity() bool {
	_, r := p.affinityKinds()
	return r
}
