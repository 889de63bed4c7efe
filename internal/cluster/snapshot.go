package cluster

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
)

// Snapshot is an immutable indexed cluster. Views made with WithPod and
// WithoutPods share every unchanged NodeInfo with their parent.
type Snapshot struct {
	nodes      []*NodeInfo
	byName     map[string]int
	namespaces map[string]map[string]string // namespace -> labels
}

// Warning is an input object left out of the snapshot, and why.
type Warning struct {
	Object string // "pod ns/name" or "node name"
	Reason string
}

// New indexes nodes and bound pods. It validates every object and returns
// all problems at once; pods that are merely irrelevant (no nodeName, unknown
// node, terminal phase) are left out with a warning.
func New(nodes []*corev1.Node, pods []*corev1.Pod, namespaces []*corev1.Namespace) (*Snapshot, []Warning, error) {
	return nil, nil, errors.New("cluster: not implemented yet")
}

// Nodes returns the nodes in name order. The slice must not be modified.
func (s *Snapshot) Nodes() []*NodeInfo { return s.nodes }

// Node returns the named node.
func (s *Snapshot) Node(name string) (*NodeInfo, bool) {
	i, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	return s.nodes[i], true
}

// NamespaceLabels returns a namespace's labels (with kubernetes.io/metadata.name),
// or nil when the namespace is unknown.
func (s *Snapshot) NamespaceLabels(ns string) map[string]string { return s.namespaces[ns] }
