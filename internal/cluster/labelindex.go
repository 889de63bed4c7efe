package cluster

// OWNERSHIP: this file belongs to the topology work.

import (
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
)

// LabelIndex interns what the topology plugins match against, so that a
// selector is evaluated once per distinct (namespace, labels) pair and once
// per distinct affinity term instead of once per bound pod: bound pods with
// the same namespace and labels (a workload's replicas) share a label-set ID,
// and equal affinity terms (the same template's) share a term ID. Per node it
// keeps the IDs in arrays, so a walk over every bound pod reads contiguous
// int32s instead of chasing each pod's label map.
//
// One LabelIndex is shared by a snapshot and all its views; it only grows.
// It is safe for concurrent use.
type LabelIndex struct {
	mu        sync.Mutex
	setByKey  map[string]int32
	sets      []LabelSet
	termByKey map[string]int32
	terms     []AffinityTerm
	nodes     map[*NodeInfo]*NodeLabels
	columns   map[string]*Column

	// The per-node lists of the last snapshot asked for: a view is usually
	// asked many times in a row.
	lastSnap  *Snapshot
	lastNodes []*NodeLabels
}

// LabelSet is one interned (namespace, labels) pair. Labels is shared with a
// bound pod: never modify it.
type LabelSet struct {
	Namespace string
	Labels    map[string]string
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
// Nodes[i] belongs to Snapshot.Nodes()[i]; every ID in it is below
// len(Sets) / len(Terms).
type LabelView struct {
	Sets  []LabelSet
	Terms []AffinityTerm
	Nodes []*NodeLabels
}

func newLabelIndex() *LabelIndex {
	return &LabelIndex{
		setByKey:  map[string]int32{},
		termByKey: map[string]int32{},
		nodes:     map[*NodeInfo]*NodeLabels{},
		columns:   map[string]*Column{},
	}
}

// Column is one node label key as a column over the snapshot's nodes: the
// distinct values get dense IDs, and Of gives each node's value ID by node
// index (-1 when the node lacks the key). Views share their parent's columns
// (they never change nodes). A Column is immutable: never modify it.
type Column struct {
	Key    string
	Values []string         // by ID, in order of first appearance by node index
	ID     map[string]int32 // value -> ID
	Of     []int32          // by node index
}

// Column returns the column of a node label key, building it on first use.
func (s *Snapshot) Column(key string) *Column {
	x := s.labels
	if x == nil {
		return buildColumn(s.nodes, key)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	c, ok := x.columns[key]
	if !ok {
		c = buildColumn(s.nodes, key)
		x.columns[key] = c
	}
	return c
}

func buildColumn(nodes []*NodeInfo, key string) *Column {
	c := &Column{Key: key, ID: map[string]int32{}, Of: make([]int32, len(nodes))}
	for i, ni := range nodes {
		v, ok := ni.Node.Labels[key]
		if !ok {
			c.Of[i] = -1
			continue
		}
		id, seen := c.ID[v]
		if !seen {
			id = int32(len(c.Values))
			c.Values = append(c.Values, v)
			c.ID[v] = id
		}
		c.Of[i] = id
	}
	return c
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
		if len(x.nodes) > 2*len(s.nodes)+1024 {
			// Forget nodes of older views; a view still in use re-indexes
			// only what it does not share with this one.
			x.nodes = make(map[*NodeInfo]*NodeLabels, len(s.nodes))
		}
		nodes := make([]*NodeLabels, len(s.nodes))
		for i, ni := range s.nodes {
			nl, ok := x.nodes[ni]
			if !ok {
				nl = x.indexNode(ni)
				x.nodes[ni] = nl
			}
			nodes[i] = nl
		}
		x.lastSnap, x.lastNodes = s, nodes
	}
	return LabelView{Sets: x.sets, Terms: x.terms, Nodes: x.lastNodes}
}

// indexNode interns one node's pods and terms; x.mu is held.
func (x *LabelIndex) indexNode(ni *NodeInfo) *NodeLabels {
	nl := &NodeLabels{Sets: make([]int32, len(ni.Pods))}
	for i, pi := range ni.Pods {
		id := x.internSet(pi.Pod.Namespace, pi.Pod.Labels)
		if pi.Pod.DeletionTimestamp != nil {
			id = -1 - id
		}
		nl.Sets[i] = id
	}
	for _, pi := range ni.PodsWithAffinity {
		for i := range pi.RequiredAffinityTerms {
			nl.RequiredAffinity = append(nl.RequiredAffinity, TermRef{Term: x.internTerm(&pi.RequiredAffinityTerms[i])})
		}
		for i := range pi.PreferredAffinityTerms {
			t := &pi.PreferredAffinityTerms[i]
			nl.PreferredAffinity = append(nl.PreferredAffinity, TermRef{Term: x.internTerm(&t.AffinityTerm), Weight: t.Weight})
		}
		for i := range pi.PreferredAntiAffinityTerms {
			t := &pi.PreferredAntiAffinityTerms[i]
			nl.PreferredAntiAffinity = append(nl.PreferredAntiAffinity, TermRef{Term: x.internTerm(&t.AffinityTerm), Weight: t.Weight})
		}
	}
	for _, pi := range ni.PodsWithRequiredAntiAffinity {
		for i := range pi.RequiredAntiAffinityTerms {
			nl.RequiredAntiAffinity = append(nl.RequiredAntiAffinity, TermRef{Term: x.internTerm(&pi.RequiredAntiAffinityTerms[i])})
		}
	}
	return nl
}

func (x *LabelIndex) internSet(ns string, l map[string]string) int32 {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(ns)
	for _, k := range keys {
		b.WriteByte(0)
		b.WriteString(k)
		b.WriteByte(1)
		b.WriteString(l[k])
	}
	key := b.String()
	if id, ok := x.setByKey[key]; ok {
		return id
	}
	id := int32(len(x.sets))
	x.sets = append(x.sets, LabelSet{Namespace: ns, Labels: l})
	x.setByKey[key] = id
	return id
}

func (x *LabelIndex) internTerm(t *AffinityTerm) int32 {
	ns := make([]string, 0, len(t.Namespaces))
	for n := range t.Namespaces {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	var b strings.Builder
	b.WriteString(t.TopologyKey)
	b.WriteByte(0)
	b.WriteString(strings.Join(ns, "\x01"))
	b.WriteByte(0)
	b.WriteString(selectorKey(t.NamespaceSelector))
	b.WriteByte(0)
	b.WriteString(selectorKey(t.Selector))
	key := b.String()
	if id, ok := x.termByKey[key]; ok {
		return id
	}
	id := int32(len(x.terms))
	x.terms = append(x.terms, *t)
	x.termByKey[key] = id
	return id
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
