package cluster

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

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
// every other node, at a cost independent of the cluster's size. Any other
// change rebuilds the snapshot from its objects (New), whose answers a view
// must equal. The error wraps ErrUnknownNode, or is New's for an invalid
// node.
func (s *Snapshot) WithNode(node *corev1.Node) (*Snapshot, error) {
	if node == nil {
		return nil, fmt.Errorf("%w: nil node", ErrInvalidView)
	}
	i, ok := s.byName[node.Name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownNode, node.Name)
	}
	old := s.nodes[i]
	if !sameIndexedNode(old.Node, node) {
		nodes := s.nodeObjects()
		nodes[i] = node
		return s.rebuild(nodes, nil)
	}
	ni := *old
	ni.Node = node
	ni.Unschedulable = node.Spec.Unschedulable
	ni.Taints = slices.Clone(node.Spec.Taints)
	v := s.view()
	v.nodes[i] = &ni
	v.changed = []int32{int32(i)}
	return v, nil
}

// WithNodes returns a snapshot with nodes added (without pods). The receiver
// is unchanged. Adding nodes renumbers the nodes after them, so the
// snapshot is rebuilt from its objects. The error wraps ErrDuplicateNode, or
// is New's for an invalid node.
func (s *Snapshot) WithNodes(nodes ...*corev1.Node) (*Snapshot, error) {
	all := s.nodeObjects()
	seen := make(map[string]bool, len(nodes))
	for k, n := range nodes {
		if n == nil {
			return nil, fmt.Errorf("%w: node %d to add is nil", ErrInvalidView, k)
		}
		if _, ok := s.byName[n.Name]; ok || seen[n.Name] {
			return nil, fmt.Errorf("%w %q", ErrDuplicateNode, n.Name)
		}
		seen[n.Name] = true
		all = append(all, n)
	}
	if len(nodes) == 0 {
		return s, nil
	}
	return s.rebuild(all, nil)
}

// WithoutNodes returns a snapshot without the named nodes and the pods bound
// to them. The receiver is unchanged; the snapshot is rebuilt from its
// objects. The error wraps ErrUnknownNode.
func (s *Snapshot) WithoutNodes(names ...string) (*Snapshot, error) {
	drop := make(map[int]bool, len(names))
	for _, name := range names {
		i, ok := s.byName[name]
		if !ok {
			return nil, fmt.Errorf("%w %q", ErrUnknownNode, name)
		}
		drop[i] = true
	}
	if len(drop) == 0 {
		return s, nil
	}
	nodes := make([]*corev1.Node, 0, len(s.nodes)-len(drop))
	for i, ni := range s.nodes {
		if !drop[i] {
			nodes = append(nodes, ni.Node)
		}
	}
	return s.rebuild(nodes, drop)
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

// rebuild builds a snapshot from nodes and the bound pods of s, leaving out
// the pods of the node indexes in drop. Each node's pods are given in its
// framework order (NodeInfo.Order), so the rebuilt nodes keep that order;
// workloads, namespaces, PDBs and the request rule are s's.
func (s *Snapshot) rebuild(nodes []*corev1.Node, drop map[int]bool) (*Snapshot, error) {
	in := s.in
	in.Nodes = nodes
	in.workloads = nil
	in.Pods = make([]*corev1.Pod, 0, s.NumPods())
	for i, ni := range s.nodes {
		if drop[i] {
			continue
		}
		for _, p := range ni.Order {
			in.Pods = append(in.Pods, p.Pod)
		}
	}
	snap, _, err := New(in)
	return snap, err
}
