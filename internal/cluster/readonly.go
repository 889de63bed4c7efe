package cluster

import (
	"maps"
	"slices"
	"strings"
)

// The snapshot's accessors for callers (Nodes, Node, Pod, NamespaceLabels)
// hand out copies: a NodeInfo or PodInfo is a struct of exported fields,
// so a caller holding the snapshot's own would change every later answer by
// assigning to one (swapping two nodes, appending a taint). The copies own
// every slice and map they hold; only the API objects (NodeInfo.Node,
// PodInfo.Pod), which are the caller's own inputs, and the compiled label
// selectors (immutable) are shared. Code inside schedkit reads the
// snapshot's own values through NodesOf, NodeOf and PodOf, which copy
// nothing.

// NodesOf returns s's nodes in name order, the snapshot's own slice and
// NodeInfos, for schedkit's packages: they must not be modified.
func NodesOf(s *Snapshot) []*NodeInfo { return s.nodes }

// SlotsOf returns s's nodes by slot (NodeInfo.Index), nil at a removed
// node's slot, for schedkit's packages that read per-node arrays
// (LabelView.Node, Column.Of, Occurrences) with a node's slot: they must
// not be modified. For a snapshot from New (and its pod views) it is
// NodesOf.
func SlotsOf(s *Snapshot) []*NodeInfo {
	if s.bySlot != nil {
		return s.bySlot
	}
	return s.nodes
}

// NodeOf returns s's own NodeInfo of the named node (see NodesOf).
func NodeOf(s *Snapshot, name string) (*NodeInfo, bool) {
	i, ok := s.nodeIndex(name)
	if !ok {
		return nil, false
	}
	return s.nodes[i], true
}

// nodeIndex returns the index of the named node: s.nodes is in name order.
func (s *Snapshot) nodeIndex(name string) (int, bool) {
	i, ok := slices.BinarySearchFunc(s.nodes, name, func(ni *NodeInfo, name string) int { return strings.Compare(ni.Name, name) })
	return i, ok
}

// PodOf returns s's own PodInfo of the bound pod of key (namespace/name)
// and its NodeInfo (see NodesOf).
func PodOf(s *Snapshot, key string) (*PodInfo, *NodeInfo, bool) {
	name, ok := s.recent.find(key)
	if !ok {
		name, ok = s.extraLoc[key]
	}
	if !ok {
		name, ok = s.podLoc[key]
	}
	if !ok || name == "" {
		return nil, nil, false
	}
	i, ok := s.nodeIndex(name)
	if !ok {
		return nil, nil, false
	}
	ni := s.nodes[i]
	if j, found := findPod(ni.Pods, key); found {
		return ni.Pods[j], ni, true
	}
	return nil, nil, false
}

// NamespaceLabelsOf returns s's own labels of a namespace (see NodesOf).
func NamespaceLabelsOf(s *Snapshot, ns string) map[string]string { return s.namespaces[ns] }

// Nodes returns a copy of the nodes, in name order: a new slice of new
// NodeInfos whose slices and maps (taints, pods, ports, resources, images)
// are the caller's to change without changing the snapshot; NodeInfo.Node
// and each PodInfo.Pod are the objects the snapshot was built from (see
// NodeInfo.Clone).
func (s *Snapshot) Nodes() []*NodeInfo {
	out := make([]*NodeInfo, len(s.nodes))
	for i, ni := range s.nodes {
		out[i] = s.cloneNode(ni)
	}
	return out
}

// cloneNode is ni.Clone with each image state's NumNodes filled in from
// the snapshot's counts (which the snapshot's own NodeInfos leave 0).
func (s *Snapshot) cloneNode(ni *NodeInfo) *NodeInfo {
	c := ni.Clone()
	for name, st := range c.ImageStates {
		st.NumNodes = s.imageNodes[name]
		c.ImageStates[name] = st
	}
	return c
}

// ImageNodesOf returns the number of s's nodes listing an image name
// (ImageState.NumNodes, which s's own NodeInfos leave 0), for schedkit's
// packages.
func ImageNodesOf(s *Snapshot, name string) int { return s.imageNodes[name] }

// Node returns a copy of the named node (see Nodes).
func (s *Snapshot) Node(name string) (*NodeInfo, bool) {
	ni, ok := NodeOf(s, name)
	if !ok {
		return nil, false
	}
	return s.cloneNode(ni), true
}

// Pod returns copies of the bound pod of the given key (namespace/name) and
// of its node (see Nodes; the node's copy holds the pod's copy).
func (s *Snapshot) Pod(key string) (*PodInfo, *NodeInfo, bool) {
	pi, ni, ok := PodOf(s, key)
	if !ok {
		return nil, nil, false
	}
	c := s.cloneNode(ni)
	j, _ := findPod(c.Pods, key)
	return c.Pods[j], c, pi != nil
}

// NamespaceLabels returns a copy of a namespace's labels (with
// kubernetes.io/metadata.name), or nil when the namespace is unknown.
func (s *Snapshot) NamespaceLabels(ns string) map[string]string {
	return maps.Clone(s.namespaces[ns])
}

// Clone returns a copy of ni that shares no slice or map with it: its pod
// lists hold copies of ni's PodInfos (a pod listed twice, in Pods and
// Order, is one copy). Only ni.Node, the pods' Pod objects and their
// compiled label selectors are shared. ni is not modified.
func (ni *NodeInfo) Clone() *NodeInfo {
	c := *ni
	c.Taints = slices.Clone(ni.Taints)
	c.UsedPorts = slices.Clone(ni.UsedPorts)
	c.Allocatable = ni.Allocatable.Clone()
	c.Requested = ni.Requested.Clone()
	c.NonZeroRequested = ni.NonZeroRequested.Clone()
	if ni.ImageStates != nil {
		c.ImageStates = maps.Clone(ni.ImageStates)
	}
	copies := make(map[*PodInfo]*PodInfo, len(ni.Pods))
	list := func(l []*PodInfo) []*PodInfo {
		if l == nil {
			return nil
		}
		out := make([]*PodInfo, len(l))
		for i, p := range l {
			q, ok := copies[p]
			if !ok {
				q = p.Clone()
				copies[p] = q
			}
			out[i] = q
		}
		return out
	}
	c.Pods = list(ni.Pods)
	c.Order = list(ni.Order)
	c.PodsWithAffinity = list(ni.PodsWithAffinity)
	c.PodsWithRequiredAntiAffinity = list(ni.PodsWithRequiredAntiAffinity)
	return &c
}

// Clone returns a copy of p that shares no slice or map with it, except
// p.Pod and the compiled label selectors of its affinity terms. p is not
// modified.
func (p *PodInfo) Clone() *PodInfo {
	c := *p
	c.Requests = p.Requests.Clone()
	c.NonZeroRequests = p.NonZeroRequests.Clone()
	c.HostPorts = slices.Clone(p.HostPorts)
	c.RequiredAffinityTerms = cloneTerms(p.RequiredAffinityTerms)
	c.RequiredAntiAffinityTerms = cloneTerms(p.RequiredAntiAffinityTerms)
	c.PreferredAffinityTerms = cloneWeightedTerms(p.PreferredAffinityTerms)
	c.PreferredAntiAffinityTerms = cloneWeightedTerms(p.PreferredAntiAffinityTerms)
	return &c
}

// Clone returns a copy of r with its own Scalar map.
func (r Resource) Clone() Resource {
	if r.Scalar != nil {
		r.Scalar = maps.Clone(r.Scalar)
	}
	return r
}

func cloneTerms(terms []AffinityTerm) []AffinityTerm {
	if terms == nil {
		return nil
	}
	out := make([]AffinityTerm, len(terms))
	for i, t := range terms {
		if t.Namespaces != nil {
			t.Namespaces = t.Namespaces.Clone()
		}
		out[i] = t
	}
	return out
}

func cloneWeightedTerms(terms []WeightedAffinityTerm) []WeightedAffinityTerm {
	if terms == nil {
		return nil
	}
	out := make([]WeightedAffinityTerm, len(terms))
	for i, t := range terms {
		if t.Namespaces != nil {
			t.Namespaces = t.Namespaces.Clone()
		}
		out[i] = t
	}
	return out
}
