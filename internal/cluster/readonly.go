package cluster

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
)

// schedkit's packages read the snapshot's own values through NodesOf,
// SlotsOf, NodeOf and PodOf, which copy nothing: they must not modify
// them. Callers see them through package placement's read-only NodeInfo
// and PodInfo, whose methods return values and copies.

// NodesOf returns s's nodes in name order, the snapshot's own slice and
// NodeInfos, for schedkit's packages: they must not be modified.
func NodesOf(s *Snapshot) []*NodeInfo {
	s.mustBeLive()
	return s.nodes
}

// SlotsOf returns s's nodes by slot (NodeInfo.Index), nil at a removed
// node's slot, for schedkit's packages that read per-node arrays
// (LabelView.Node, Column.Of, Occurrences) with a node's slot: they must
// not be modified. For a snapshot from New (and its pod views) it is
// NodesOf.
func SlotsOf(s *Snapshot) []*NodeInfo {
	s.mustBeLive()
	if s.bySlot != nil {
		return s.bySlot
	}
	return s.nodes
}

// mustBeLive panics when s was retired (Retire): its node list belongs to
// another view now, so reading it would give that view's nodes.
func (s *Snapshot) mustBeLive() {
	if s.retired {
		panic("cluster: a retired snapshot view was read")
	}
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
		name, ok = s.extraLoc.find(key)
	}
	if !ok {
		name, ok = s.podLoc.find(key)
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

// ImageNodesOf returns the number of s's nodes listing an image name
// (ImageState.NumNodes, which s's own NodeInfos leave 0), for schedkit's
// packages.
func ImageNodesOf(s *Snapshot, name string) int { return s.imageNodes[name] }

// TaintSetsOf returns the distinct taint lists of s's nodes by
// NodeInfo.TaintSet (entry 0 is nil; a node whose TaintSet is 0 has its own
// list in Taints), for schedkit's packages. The lists are shared: never
// modified.
func TaintSetsOf(s *Snapshot) [][]corev1.Taint { return s.taintSets }

// ImageMemo returns the value fill returns for key, calling fill once per
// key among the snapshots that share s's image counts (New's snapshot and
// its views, until a node view changes which nodes list which images). It
// is for answers that depend on the nodes' images alone, which pods
// binding and leaving do not change: ImageLocality's per-node scores of
// one set of images. It returns nil, without calling fill, once
// maxImageMemo keys are held, so that a long run of varied pods does not
// grow it without bound. Safe for concurrent use.
func ImageMemo(s *Snapshot, key string, fill func() any) any {
	m := s.imageMemo
	if m == nil {
		return nil
	}
	if e, ok := m.entries.Load(key); ok {
		return e.(*imageMemoEntry).get(fill)
	}
	if m.size.Load() >= maxImageMemo {
		return nil
	}
	e, loaded := m.entries.LoadOrStore(key, &imageMemoEntry{})
	if !loaded {
		m.size.Add(1)
	}
	return e.(*imageMemoEntry).get(fill)
}

// maxImageMemo bounds the keys of one ImageMemo.
const maxImageMemo = 1024

type imageMemo struct {
	entries sync.Map // key -> *imageMemoEntry
	size    atomic.Int32
}

type imageMemoEntry struct {
	once sync.Once
	v    any
}

func (e *imageMemoEntry) get(fill func() any) any {
	e.once.Do(func() { e.v = fill() })
	return e.v
}

// NamespaceLabels returns a copy of a namespace's labels (with
// kubernetes.io/metadata.name), or nil when the namespace is unknown.
func (s *Snapshot) NamespaceLabels(ns string) map[string]string {
	return maps.Clone(s.namespaces[ns])
}
