package cluster

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// ErrUnknownNode is returned (wrapped) by the node what-ifs for a node name
// the snapshot does not hold.
// Its text names the public package (placement.ErrUnknownNode).
var ErrUnknownNode = errors.New("placement: unknown node")

// ErrDuplicateNode is returned (wrapped) by WithNodes for a node whose name
// the snapshot (or an earlier node of the same call) already holds.
// Its text names the public package (placement.ErrDuplicateNode).
var ErrDuplicateNode = errors.New("placement: duplicate node")

// WithNode returns a snapshot in which the node named node.Name is replaced
// by node, with the same bound pods. The receiver is unchanged.
//
// A change that leaves what the snapshot indexes about the node as it was
// (its labels, allocatable or capacity, images and declared features) -
// cordoning, uncordoning, tainting, annotating - makes a view that shares
// every other node and the label index (SharesIndex), at a cost
// independent of the cluster's size. Any other change makes a node view
// (reshape) with an index of its own. The error wraps ErrUnknownNode, or is
// New's for an invalid node.
func (s *Snapshot) WithNode(node *corev1.Node) (*Snapshot, error) {
	if node == nil {
		return nil, fmt.Errorf("%w: nil node", ErrInvalidView)
	}
	i, ok := s.nodeIndex(node.Name)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownNode, node.Name)
	}
	old := s.nodes[i]
	if !sameIndexedNode(old.Node, node) {
		if hasNegativeQuantity(node) {
			// New's error, with its paths.
			nodes := s.nodeObjects()
			nodes[i] = node
			return s.rebuild(nodes)
		}
		return s.reshape(nil, i, node, nil), nil
	}
	ni := *old
	ni.Node = node
	ni.Unschedulable = node.Spec.Unschedulable
	ni.Taints = slices.Clone(node.Spec.Taints)
	ni.TaintSet = 0 // read from Taints
	v := s.view()
	v.setNode(i, &ni)
	v.changed = []int32{int32(ni.Index)}
	return v, nil
}

// WithNodes returns a snapshot with nodes added (without pods). The receiver
// is unchanged; the result is a node view (reshape). The error wraps
// ErrDuplicateNode, or is New's for an invalid node.
func (s *Snapshot) WithNodes(nodes ...*corev1.Node) (*Snapshot, error) {
	seen := make(map[string]bool, len(nodes))
	invalid := false
	for k, n := range nodes {
		if n == nil {
			return nil, fmt.Errorf("%w: node %d to add is nil", ErrInvalidView, k)
		}
		if _, ok := s.nodeIndex(n.Name); ok || seen[n.Name] {
			return nil, fmt.Errorf("%w %q", ErrDuplicateNode, n.Name)
		}
		seen[n.Name] = true
		invalid = invalid || n.Name == "" || hasNegativeQuantity(n)
	}
	if len(nodes) == 0 {
		return s, nil
	}
	if invalid {
		// New's errors, with their paths.
		return s.rebuild(append(s.nodeObjects(), nodes...))
	}
	added := slices.Clone(nodes)
	slices.SortFunc(added, func(a, b *corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	return s.reshape(nil, -1, nil, added), nil
}

// WithoutNodes returns a snapshot without the named nodes and the pods bound
// to them. The receiver is unchanged; the result is a node view (reshape).
// The error wraps ErrUnknownNode.
func (s *Snapshot) WithoutNodes(names ...string) (*Snapshot, error) {
	drop := make([]int, 0, len(names))
	for _, name := range names {
		i, ok := s.nodeIndex(name)
		if !ok {
			return nil, fmt.Errorf("%w %q", ErrUnknownNode, name)
		}
		drop = append(drop, i)
	}
	if len(drop) == 0 {
		return s, nil
	}
	slices.Sort(drop)
	return s.reshape(slices.Compact(drop), -1, nil, nil), nil
}

// reshape returns a node view of s: s without the nodes at the ascending
// positions drop (and their pods), the node at position at (if any)
// replaced by replacement (keeping its pods), and the nodes of added (in
// name order, without pods) inserted. The new nodes are valid (validateNodes) and their
// names are new.
//
// Its nodes are in name order, as New gives them, but keep their slots
// (NodeInfo.Index): a removed node's slot is left empty, a replacement
// takes its node's slot and an added node gets a new slot at the end. So
// every node not changed is shared, and the cost is a copy of the two
// pointer slices rather than a renumbered copy of every node after the
// first change. When empty slots would outnumber the nodes, the view is
// renumbered instead (slot = position, as New's), which a long chain of
// node views pays once per more changes than it has nodes. Pod locations
// are kept by node name, so they stay valid (a removed node's pods are not
// found). The node counts of images change only with the nodes changed.
// The view gets a LabelIndex of its own (its nodes index other labels)
// that shares s's interning tables and, when s's interned nodes are at
// hand, their per-slot list; the columns and occurrences are built for it
// on first use, as for a snapshot from New.
func (s *Snapshot) reshape(drop []int, at int, replacement *corev1.Node, added []*corev1.Node) *Snapshot {
	old := SlotsOf(s)
	nodes := make([]*NodeInfo, 0, len(s.nodes)-len(drop)+len(added))
	bySlot := make([]*NodeInfo, len(old), len(old)+len(added))
	copy(bySlot, old)
	imageNodes, copied := s.imageNodes, false
	images := func(m map[string]ImageState, d int) {
		if len(m) == 0 {
			return
		}
		if !copied {
			imageNodes = make(map[string]int, len(s.imageNodes)+len(m))
			maps.Copy(imageNodes, s.imageNodes)
			copied = true
		}
		for name := range m {
			if imageNodes[name] += d; imageNodes[name] == 0 {
				delete(imageNodes, name)
			}
		}
	}
	fresh := func(node *corev1.Node, slot int) *NodeInfo {
		ni := &NodeInfo{}
		fillNodeInfo(ni, slot, node)
		ni.ImageStates = nodeImages(node)
		images(ni.ImageStates, 1)
		return ni
	}
	add := func(node *corev1.Node) {
		ni := fresh(node, len(bySlot))
		nodes, bySlot = append(nodes, ni), append(bySlot, ni)
	}
	a := 0
	for i, ni := range s.nodes {
		for a < len(added) && added[a].Name < ni.Name {
			add(added[a])
			a++
		}
		if len(drop) > 0 && drop[0] == i {
			drop = drop[1:]
			images(ni.ImageStates, -1)
			bySlot[ni.Index] = nil
			continue
		}
		if i == at {
			images(ni.ImageStates, -1)
			r := fresh(replacement, ni.Index)
			r.Pods, r.Order = ni.Pods, ni.Order
			r.PodsWithAffinity, r.PodsWithRequiredAntiAffinity = ni.PodsWithAffinity, ni.PodsWithRequiredAntiAffinity
			r.Requested, r.NonZeroRequested, r.UsedPorts = ni.Requested, ni.NonZeroRequested, ni.UsedPorts
			bySlot[ni.Index] = r
			ni = r
		}
		nodes = append(nodes, ni)
	}
	for ; a < len(added); a++ {
		add(added[a])
	}
	v := &Snapshot{
		id:         snapshotIDs.Add(1),
		nodes:      nodes,
		bySlot:     bySlot,
		namespaces: s.namespaces,
		in:         s.in,
		podLoc:     s.podLoc,
		extraLoc:   s.extraLoc,
		recent:     s.recent,
		imageNodes: imageNodes,
		imageMemo:  s.imageMemo,
		taintSets:  s.taintSets,
		// The nodes keep their pods (a replaced node's are re-counted
		// on it, added nodes have none).
		podAffinity:    s.podAffinity,
		scoredAffinity: s.scoredAffinity,
	}
	if copied || v.imageMemo == nil {
		v.imageMemo = &imageMemo{}
	}
	v.in.Nodes = v.nodeObjects()
	if len(bySlot) > 2*len(nodes)+64 {
		v.renumber()
		v.labels = s.labels.tablesOnly()
		return v
	}
	v.labels = s.labels.reshaped(s, v)
	return v
}

// renumber gives every node of v, a node view being made, its position as
// its slot, as New numbers them: the nodes whose slot changes are copied
// (a shallow copy each, cut from one array: their pods and sums are
// shared).
func (v *Snapshot) renumber() {
	moved := 0
	for j, ni := range v.nodes {
		if ni.Index != j {
			moved++
		}
	}
	copies := make([]NodeInfo, 0, moved)
	for j, ni := range v.nodes {
		if ni.Index != j {
			copies = append(copies, *ni)
			c := &copies[len(copies)-1]
			c.Index = j
			v.nodes[j] = c
		}
	}
	v.bySlot = nil
}

// sameIndexedNode reports whether b carries everything New indexes about a
// node as a does, apart from spec.unschedulable and spec.taints (which
// NodeInfo copies and WithNode replaces).
func sameIndexedNode(a, b *corev1.Node) bool {
	return a.Name == b.Name &&
		maps.Equal(a.Labels, b.Labels) &&
		reflect.DeepEqual(allocatableOf(a), allocatableOf(b)) &&
		reflect.DeepEqual(a.Status.Images, b.Status.Images) &&
		slices.Equal(a.Status.DeclaredFeatures, b.Status.DeclaredFeatures)
}

// allocatableOf is what fillNodeInfo reads as the node's allocatable.
func allocatableOf(n *corev1.Node) Resource {
	alloc := n.Status.Allocatable
	if alloc == nil {
		alloc = n.Status.Capacity
	}
	return ResourceFromList(alloc)
}

// nodeObjects returns the snapshot's node objects in name order, in a new
// slice.
func (s *Snapshot) nodeObjects() []*corev1.Node {
	out := make([]*corev1.Node, len(s.nodes))
	for i, ni := range s.nodes {
		out[i] = ni.Node
	}
	return out
}

// rebuild builds a snapshot from nodes and the bound pods of s, for New's
// errors about an invalid node. Each node's pods are given in its framework
// order (NodeInfo.Order); workloads, namespaces, PDBs and the request rule
// are s's.
func (s *Snapshot) rebuild(nodes []*corev1.Node) (*Snapshot, error) {
	in := s.in
	in.Nodes = nodes
	in.workloads = nil
	in.Pods = make([]*corev1.Pod, 0, s.NumPods())
	for _, ni := range s.nodes {
		for _, p := range ni.Order {
			in.Pods = append(in.Pods, p.Pod)
		}
	}
	snap, _, err := New(in)
	return snap, err
}
