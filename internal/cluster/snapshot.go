package cluster

import (
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// Snapshot is an immutable indexed cluster. Views made with WithPod and
// WithoutPods share every unchanged NodeInfo with their parent.
type Snapshot struct {
	nodes      []*NodeInfo
	byName     map[string]int
	namespaces map[string]map[string]string // namespace -> labels
	in         Input                        // workloads and PDBs, as given
}

// Input is everything a snapshot indexes. Only Nodes and Pods are required.
// Services, ReplicaSets, StatefulSets and ReplicationControllers feed
// PodTopologySpread's system default constraints; PDBs feed preemption.
type Input struct {
	Nodes                  []*corev1.Node
	Pods                   []*corev1.Pod
	Namespaces             []*corev1.Namespace
	Services               []*corev1.Service
	ReplicaSets            []*appsv1.ReplicaSet
	StatefulSets           []*appsv1.StatefulSet
	ReplicationControllers []*corev1.ReplicationController
	PDBs                   []*policyv1.PodDisruptionBudget
}

// Warning is an input object left out of the snapshot, and why.
type Warning struct {
	Object string // "pod ns/name" or "node name"
	Reason string
}

// New indexes nodes and bound pods. It validates every object and returns
// all problems at once; pods that are merely irrelevant (no nodeName, unknown
// node, terminal phase) are left out with a warning.
func New(in Input) (*Snapshot, []Warning, error) {
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

// Input returns the objects the snapshot was built from (workloads, PDBs).
// Its slices must not be modified.
func (s *Snapshot) Input() *Input { return &s.in }

// NewPodInfo compiles a pod (requests, affinity terms) without adding it to
// any snapshot; use it for the incoming pod.
func NewPodInfo(pod *corev1.Pod) (*PodInfo, error) {
	return nil, errors.New("cluster: not implemented yet")
}

// WithPod returns a view with pod bound to pod.Spec.NodeName. The receiver is
// unchanged; unchanged nodes are shared.
func (s *Snapshot) WithPod(pod *corev1.Pod) (*Snapshot, error) {
	return nil, errors.New("cluster: not implemented yet")
}

// WithoutPods returns a view without the pods of the given keys
// (namespace/name); unknown keys are ignored.
func (s *Snapshot) WithoutPods(keys ...string) *Snapshot { return s }
