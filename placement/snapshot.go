package placement

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/wrap"
)

// Snapshot is the indexed cluster every schedkit package reads: nodes in
// name order with their bound pods and summed requests, built once by
// NewSnapshot. It is immutable and safe for concurrent use. What-ifs
// (WithPod, WithoutPods, WithNode, WithNodes, WithoutNodes) return a new
// snapshot and leave the receiver valid; a view shares what did not change,
// so its cost grows with the change rather than with the cluster, and every
// answer on a view equals the answer on a snapshot built from scratch with
// the same objects.
type Snapshot struct{ s cluster.Snapshot }

// SnapshotInput is what NewSnapshot indexes: nodes and bound pods, plus
// namespaces (namespaceSelector), workloads (PodTopologySpread's system
// default constraints) and PDBs (preemption). The snapshot keeps the
// objects by reference: they must not be modified while it is in use.
type SnapshotInput struct {
	Nodes                  []*corev1.Node
	Pods                   []*corev1.Pod
	Namespaces             []*corev1.Namespace
	Services               []*corev1.Service
	ReplicaSets            []*appsv1.ReplicaSet
	StatefulSets           []*appsv1.StatefulSet
	ReplicationControllers []*corev1.ReplicationController
	PDBs                   []*policyv1.PodDisruptionBudget

	// WithoutPodLevelResize counts bound pods' pod-level requests as written
	// in spec.resources, ignoring status.resources and
	// status.allocatedResources: the rule before v1.36, whose
	// InPlacePodLevelResourcesVerticalScaling gate is off (set it to
	// !Version.UsesPodLevelResizeStatus()). Views keep it.
	WithoutPodLevelResize bool

	// Parallelism is the number of goroutines NewSnapshot may use (0 or 1:
	// the calling goroutine only; never more than GOMAXPROCS): from 2048
	// pods on, the pods are compiled in parallel and the label index is
	// built beside the nodes. Every goroutine exits before NewSnapshot
	// returns, and the snapshot does not depend on it. Views keep it.
	Parallelism int
}

// SnapshotWarning is an input object NewSnapshot left out, and why.
type SnapshotWarning struct {
	Object string // "pod ns/name" or "node name"
	Reason string
}

// The snapshot's what-if errors, for errors.Is.
var (
	// ErrInvalidView is wrapped by a what-if the snapshot cannot make: a pod
	// without a node name, bound to an unknown node or already bound; a nil
	// pod or node; an unknown or repeated pod key to remove.
	ErrInvalidView = errors.New("placement: invalid view change")
	// ErrUnknownNode is wrapped for a node name the snapshot does not hold
	// (node what-ifs, FilterNode).
	ErrUnknownNode = errors.New("placement: unknown node")
	// ErrDuplicateNode is wrapped by WithNodes for a node whose name the
	// snapshot, or an earlier node of the same call, already holds.
	ErrDuplicateNode = errors.New("placement: duplicate node")
)

// NewSnapshot indexes the input as the scheduler cache does:
// it validates every object and reports all problems at once as a
// field.ErrorList with paths (duplicate names, negative quantities,
// unparsable affinity selectors): the error wraps ErrInvalidSnapshot and a
// *ValidationError; pods without spec.nodeName,
// bound to an unknown node or in phase Succeeded/Failed are left out with a
// warning. Pods are read as the API server stores them (StoredPod). The
// input objects are not modified and must not be modified while the
// snapshot is in use.
func NewSnapshot(in SnapshotInput) (*Snapshot, []SnapshotWarning, error) {
	ci := in.internal()
	ci.Pods = storedPods(ci.Pods)
	snap, warnings, err := cluster.New(ci)
	var out []SnapshotWarning
	if warnings != nil {
		out = make([]SnapshotWarning, len(warnings))
		for i, w := range warnings {
			out[i] = SnapshotWarning(w)
		}
	}
	if err != nil {
		return nil, out, snapshotError(err)
	}
	return publicSnapshot(snap), out, nil
}

func (in *SnapshotInput) internal() cluster.Input {
	return cluster.Input{
		Nodes: in.Nodes, Pods: in.Pods, Namespaces: in.Namespaces, Services: in.Services,
		ReplicaSets: in.ReplicaSets, StatefulSets: in.StatefulSets,
		ReplicationControllers: in.ReplicationControllers, PDBs: in.PDBs,
		WithoutPodLevelResize: in.WithoutPodLevelResize, Parallelism: in.Parallelism,
	}
}

// snapshotOf presents an internal snapshot (nil stays nil).
func publicSnapshot(s *cluster.Snapshot) *Snapshot { return wrap.Cast[Snapshot](s) }

// snapshotError gives an error of the internal snapshot its public cause:
// the sentinel of this package (the text is unchanged) and, for invalid
// objects, ErrInvalidSnapshot with a *ValidationError.
func snapshotError(err error) error {
	var fe *cluster.FieldErrors
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		return fmt.Errorf("%w: %w", ErrInvalidSnapshot, &ValidationError{Errors: fe.List})
	case errors.Is(err, cluster.ErrUnknownNode):
		return &causeError{err: err, cause: ErrUnknownNode}
	case errors.Is(err, cluster.ErrDuplicateNode):
		return &causeError{err: err, cause: ErrDuplicateNode}
	case errors.Is(err, cluster.ErrInvalidView):
		return &causeError{err: err, cause: ErrInvalidView}
	}
	return err
}

// causeError is an error with the public sentinel of its cause.
type causeError struct{ err, cause error }

func (e *causeError) Error() string   { return e.err.Error() }
func (e *causeError) Unwrap() []error { return []error{e.cause, e.err} }

// Input returns the objects the snapshot indexes, in new slices (the
// objects themselves are shared: do not modify them).
func (s *Snapshot) Input() SnapshotInput {
	in := cluster.InputOf(&s.s)
	return SnapshotInput{
		Nodes: slices.Clone(in.Nodes), Pods: slices.Clone(in.Pods), Namespaces: slices.Clone(in.Namespaces),
		Services: slices.Clone(in.Services), ReplicaSets: slices.Clone(in.ReplicaSets),
		StatefulSets: slices.Clone(in.StatefulSets), ReplicationControllers: slices.Clone(in.ReplicationControllers),
		PDBs: slices.Clone(in.PDBs), WithoutPodLevelResize: in.WithoutPodLevelResize, Parallelism: in.Parallelism,
	}
}

// Nodes returns the snapshot's nodes in name order, in a new slice.
func (s *Snapshot) Nodes() []*NodeInfo {
	return wrap.Slice[NodeInfo](slices.Clone(cluster.NodesOf(&s.s)))
}

// NumNodes returns the number of nodes.
func (s *Snapshot) NumNodes() int { return len(cluster.NodesOf(&s.s)) }

// Node returns the named node, or false when the snapshot has none of
// that name.
func (s *Snapshot) Node(name string) (*NodeInfo, bool) {
	ni, ok := cluster.NodeOf(&s.s, name)
	return wrap.Cast[NodeInfo](ni), ok
}

// Pod returns the bound pod of the given key (namespace/name) and its
// node, or false when no pod of that key is bound.
func (s *Snapshot) Pod(key string) (*PodInfo, *NodeInfo, bool) {
	pi, ni, ok := cluster.PodOf(&s.s, key)
	return wrap.Cast[PodInfo](pi), wrap.Cast[NodeInfo](ni), ok
}

// NumPods returns the number of bound pods.
func (s *Snapshot) NumPods() int { return s.s.NumPods() }

// NodesWithImage returns the number of nodes that list the image name, the
// spread ImageLocality scales an image's score by.
func (s *Snapshot) NodesWithImage(name string) int { return cluster.ImageNodesOf(&s.s, name) }

// NamespaceLabels returns a copy of a namespace's labels (with
// kubernetes.io/metadata.name), or nil when the namespace is unknown.
func (s *Snapshot) NamespaceLabels(ns string) map[string]string { return s.s.NamespaceLabels(ns) }

// WithPod returns a view with pod bound to the node its spec.nodeName
// names, as the scheduler cache's AssumePod does; an undefaulted pod is
// bound as the API server would store it (StoredPod). The error wraps
// ErrInvalidView for a pod without a node name, bound to an unknown node or
// already bound, or a pod the API server refuses.
func (s *Snapshot) WithPod(pod *corev1.Pod) (*Snapshot, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: nil pod", ErrInvalidView)
	}
	v, err := s.s.WithPod(pod)
	return publicSnapshot(v), snapshotError(err)
}

// WithoutPods returns a view without the bound pods of the given keys
// (namespace/name), as if they had been deleted. The error wraps
// ErrInvalidView and names every key the snapshot does not hold or that is
// given twice; the receiver is unchanged.
func (s *Snapshot) WithoutPods(keys ...string) (*Snapshot, error) {
	var bad []string
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if _, _, ok := cluster.PodOf(&s.s, k); !ok || seen[k] {
			bad = append(bad, k)
		}
		seen[k] = true
	}
	if bad != nil {
		return nil, fmt.Errorf("%w: pods to remove unknown or repeated: %q", ErrInvalidView, bad)
	}
	return publicSnapshot(s.s.WithoutPods(keys...)), nil
}

// WithNode returns a snapshot in which the node named node.Name is replaced
// by node, with the same bound pods: a cordon, a taint, new labels or a
// new allocatable. The error wraps ErrUnknownNode, or ErrInvalidSnapshot for
// a node NewSnapshot would refuse.
func (s *Snapshot) WithNode(node *corev1.Node) (*Snapshot, error) {
	v, err := s.s.WithNode(node)
	return publicSnapshot(v), snapshotError(err)
}

// WithNodes returns a snapshot with the nodes added, without pods. The
// error wraps ErrDuplicateNode for a name the snapshot, or an earlier node
// of the call, holds, or ErrInvalidSnapshot for a node NewSnapshot would
// refuse.
func (s *Snapshot) WithNodes(nodes ...*corev1.Node) (*Snapshot, error) {
	v, err := s.s.WithNodes(nodes...)
	return publicSnapshot(v), snapshotError(err)
}

// WithoutNodes returns a snapshot without the named nodes and the pods
// bound to them. The error wraps ErrUnknownNode.
func (s *Snapshot) WithoutNodes(names ...string) (*Snapshot, error) {
	v, err := s.s.WithoutNodes(names...)
	return publicSnapshot(v), snapshotError(err)
}

// NodeInfo is one node of a snapshot: the node object, its bound pods and
// the sums the filters read. It is read-only: every method returns a value
// or a copy the caller owns, except the API objects (Node, PodInfo.Pod),
// which are the snapshot's inputs and must not be modified.
type NodeInfo struct{ n cluster.NodeInfo }

// Name returns the node's name.
func (n *NodeInfo) Name() string { return n.n.Name }

// Node returns the node object.
func (n *NodeInfo) Node() *corev1.Node { return n.n.Node }

// Unschedulable reports spec.unschedulable.
func (n *NodeInfo) Unschedulable() bool { return n.n.Unschedulable }

// Taints returns a copy of spec.taints.
func (n *NodeInfo) Taints() []corev1.Taint { return slices.Clone(n.n.Taints) }

// Pods returns the node's bound pods ordered by key (namespace/name), in a
// new slice.
func (n *NodeInfo) Pods() []*PodInfo { return wrap.Slice[PodInfo](slices.Clone(n.n.Pods)) }

// Allocatable returns the node's allocatable resources (its capacity when
// status.allocatable is unset).
func (n *NodeInfo) Allocatable() Resource { return resourceOf(n.n.Allocatable) }

// Requested returns the sum of the bound pods' requests, as
// NodeResourcesFit compares with Allocatable.
func (n *NodeInfo) Requested() Resource { return resourceOf(n.n.Requested) }

// NonZeroRequested returns the sum of the bound pods' requests with unset
// cpu and memory counted as 100m and 200Mi, as the scoring plugins read
// them.
func (n *NodeInfo) NonZeroRequested() Resource { return resourceOf(n.n.NonZeroRequested) }

// UsedPorts returns the host ports the bound pods occupy, as a set.
func (n *NodeInfo) UsedPorts() []HostPort { return hostPortsOf(n.n.UsedPorts) }

// Images returns every image name the node lists (all names of each
// image) with the image's size in bytes, as ImageLocality reads them
// (Snapshot.NodesWithImage counts the nodes that list a name).
func (n *NodeInfo) Images() map[string]int64 {
	if n.n.ImageStates == nil {
		return nil
	}
	out := make(map[string]int64, len(n.n.ImageStates))
	for k, v := range n.n.ImageStates {
		out[k] = v.Size
	}
	return out
}

// Without returns a copy of n with the given bound pods taken off, as
// preemption's dry run takes victims off a node (NodeInfo.RemovePod): the
// node Trial.Filter asks about. Pods that are not on n are ignored; n is
// unchanged.
func (n *NodeInfo) Without(pods ...*PodInfo) *NodeInfo {
	ni := &n.n
	for _, p := range pods {
		if p != nil {
			ni = ni.WithoutPod(&p.p)
		}
	}
	return wrap.Cast[NodeInfo](ni)
}

// PodInfo is a pod as the snapshot indexes it: the stored pod with its
// effective requests and host ports computed once. It is read-only (see
// NodeInfo).
type PodInfo struct{ p cluster.PodInfo }

// Pod returns the pod object.
func (p *PodInfo) Pod() *corev1.Pod { return p.p.Pod }

// Key returns namespace/name.
func (p *PodInfo) Key() string { return p.p.Key }

// Priority returns spec.priority, 0 when unset.
func (p *PodInfo) Priority() int32 { return p.p.Priority }

// Requests returns the pod's effective request (init containers' maximum
// against the sum of the others, sidecars, overhead, pod-level resources),
// as resourcehelper.PodRequests computes it.
func (p *PodInfo) Requests() Resource { return resourceOf(p.p.Requests()) }

// NonZeroRequests returns Requests with unset cpu and memory counted as
// 100m and 200Mi, as the scoring plugins read them.
func (p *PodInfo) NonZeroRequests() Resource { return resourceOf(p.p.NonZeroRequests()) }

// HostPorts returns the host ports the pod occupies (containers and
// restartable init containers), with IP "" read as 0.0.0.0 and protocol ""
// as TCP.
func (p *PodInfo) HostPorts() []HostPort { return hostPortsOf(p.p.HostPorts()) }

// Resource is a vector of resources: milli-CPU, bytes of memory and
// ephemeral storage, a pod count and extended or hugepages resources by
// name (Scalar).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	Scalar           map[corev1.ResourceName]int64
}

func resourceOf(r cluster.Resource) Resource {
	r.Scalar = maps.Clone(r.Scalar)
	return Resource(r)
}

// HostPort is a host port in use: IP, protocol and port.
type HostPort struct {
	IP       string
	Protocol corev1.Protocol
	Port     int32
}

func hostPortsOf(ps []cluster.HostPort) []HostPort {
	if ps == nil {
		return nil
	}
	out := make([]HostPort, len(ps))
	for i, p := range ps {
		out[i] = HostPort(p)
	}
	return out
}

// internalOf returns the internal snapshot s presents (nil stays nil).
func internalOf(s *Snapshot) *cluster.Snapshot { return wrap.Cast[cluster.Snapshot](s) }

// internalNode returns the internal node n presents (nil stays nil).
func internalNode(n *NodeInfo) *cluster.NodeInfo { return wrap.Cast[cluster.NodeInfo](n) }
