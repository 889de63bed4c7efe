package cluster

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Resource is a request or capacity vector, as framework.Resource.
// Scalar holds extended and hugepages resources (nil when none).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	Scalar           map[corev1.ResourceName]int64
}

// HostPort is one used host port on a node (IP "0.0.0.0" is the wildcard;
// Protocol defaults to TCP).
type HostPort struct {
	IP       string
	Protocol corev1.Protocol
	Port     int32
}

// ImageState is framework.ImageStateSummary: the image's size and on how many
// nodes of the cluster it is present. NumNodes is set in the copies
// Snapshot.Nodes, Node and Pod hand out; a snapshot's own NodeInfos leave
// it 0 (the count is the snapshot's, ImageNodesOf).
type ImageState struct {
	Size     int64
	NumNodes int
}

// AffinityTerm is a compiled pod (anti-)affinity term, as framework.AffinityTerm:
// the namespaces it selects (explicit names, plus NamespaceSelector), the
// label selector and the topology key.
type AffinityTerm struct {
	Namespaces        sets.Set[string]
	Selector          labels.Selector
	TopologyKey       string
	NamespaceSelector labels.Selector

	// internKey and nsRuleAt are termKey's result, set by compileTerm
	// (empty for a term built elsewhere: internTermByKey computes it).
	internKey string
	nsRuleAt  int
}

// WeightedAffinityTerm is a preferred term with its weight.
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

// PodInfo is a bound (or incoming) pod with everything computed once.
type PodInfo struct {
	// The fields are ordered by size, the small ones last, so that the
	// struct has no padding but its tail (bound pods take one each).
	Pod *corev1.Pod
	Key string // namespace/name
	// startNanos and startKind record status.startTime (see StartTime),
	// read with the rest of the pod when the PodInfo is built.
	startNanos int64

	// reqCPU, reqMemory, reqEphemeral and reqScalar are Requests' fields
	// but AllowedPodNumber, which a pod's request never sets.
	reqCPU, reqMemory, reqEphemeral int64
	reqScalar                       map[corev1.ResourceName]int64
	// nonZeroCPU and nonZeroMemory are NonZeroRequests' MilliCPU and
	// Memory, its only fields that can be set.
	nonZeroCPU, nonZeroMemory int64

	// extra holds the fields few pods set (host ports, pod affinity
	// terms, a start time startNanos cannot hold), nil when all are
	// empty: most bound pods then carry one pointer instead of five
	// slices. It is never written through once
	// the PodInfo is built, so copies of a PodInfo, and pods whose
	// affinity specs are equal (affinityCache), share it.
	extra *podExtras

	// Written once by New's label interning (LabelIndex.internPods) before
	// the snapshot is returned, never after: the pod's label-set ID in
	// labelIndex and whether it is being deleted (deleting, below), so
	// that indexing a node reads the PodInfos (one array) instead of every
	// pod object and a map. Pods compiled elsewhere leave labelIndex nil.
	labelIndex *labelTables
	labelSet   int32

	Priority int32 // spec.priority, 0 when unset

	startKind    uint8
	affinityKind uint8 // kind* bits recorded by NewPodInfo (affinityKinds)
	deleting     bool
}

// podExtras is the part of a PodInfo that most pods leave empty (see
// PodInfo.extra). Every slice is nil when empty.
type podExtras struct {
	// start is status.startTime when the PodInfo's startKind is
	// startExtra.
	start time.Time

	// hostPorts are the host ports the pod occupies (containers and
	// restartable init containers, schedutil.GetHostPorts), sanitized: IP ""
	// becomes "0.0.0.0" and protocol "" becomes TCP.
	hostPorts []HostPort

	requiredAffinity, requiredAntiAffinity   []AffinityTerm
	preferredAffinity, preferredAntiAffinity []WeightedAffinityTerm
}

// isEmpty reports whether e holds nothing (a PodInfo then keeps nil).
func (e *podExtras) isEmpty() bool {
	return e.start.IsZero() && e.hostPorts == nil && e.requiredAffinity == nil && e.requiredAntiAffinity == nil &&
		e.preferredAffinity == nil && e.preferredAntiAffinity == nil
}

// noExtras is the podExtras of a pod that needs none.
var noExtras podExtras

// extras returns the pod's podExtras, the empty one when it has none.
func (p *PodInfo) extras() *podExtras {
	if p.extra == nil {
		return &noExtras
	}
	return p.extra
}

// HostPorts returns the host ports the pod occupies (containers and
// restartable init containers, schedutil.GetHostPorts), sanitized: IP ""
// becomes "0.0.0.0" and protocol "" becomes TCP. nil when none; the slice
// must not be modified.
func (p *PodInfo) HostPorts() []HostPort { return p.extras().hostPorts }

// HasPodAffinityTerms reports whether the pod has any pod affinity or
// anti-affinity term, required or preferred.
func (p *PodInfo) HasPodAffinityTerms() bool {
	e := p.extras()
	return len(e.requiredAffinity) > 0 || len(e.requiredAntiAffinity) > 0 ||
		len(e.preferredAffinity) > 0 || len(e.preferredAntiAffinity) > 0
}

// RequiredAffinityTerms returns the pod's compiled required pod affinity
// terms (nil when none); the slice must not be modified.
func (p *PodInfo) RequiredAffinityTerms() []AffinityTerm { return p.extras().requiredAffinity }

// RequiredAntiAffinityTerms returns the pod's compiled required pod
// anti-affinity terms (nil when none); the slice must not be modified.
func (p *PodInfo) RequiredAntiAffinityTerms() []AffinityTerm { return p.extras().requiredAntiAffinity }

// PreferredAffinityTerms returns the pod's compiled preferred pod affinity
// terms (nil when none); the slice must not be modified.
func (p *PodInfo) PreferredAffinityTerms() []WeightedAffinityTerm {
	return p.extras().preferredAffinity
}

// PreferredAntiAffinityTerms returns the pod's compiled preferred pod
// anti-affinity terms (nil when none); the slice must not be modified.
func (p *PodInfo) PreferredAntiAffinityTerms() []WeightedAffinityTerm {
	return p.extras().preferredAntiAffinity
}

// setHostPorts records the pod's host ports (PodHostPorts) next to the
// affinity terms already compiled, which may be shared: extra is copied,
// never written through.
func (p *PodInfo) setHostPorts(ports []HostPort) {
	if ports == nil {
		return
	}
	var e podExtras
	if p.extra != nil {
		e = *p.extra
	}
	e.hostPorts = ports
	p.extra = &e
}

// Requests returns the pod's effective request (init max vs sum, sidecars,
// overhead, pod-level resources), as resourcehelper.PodRequests:
// AllowedPodNumber is 0 (podResources). Scalar is the PodInfo's own (nil
// when none) and must not be modified.
func (p *PodInfo) Requests() Resource {
	return Resource{MilliCPU: p.reqCPU, Memory: p.reqMemory, EphemeralStorage: p.reqEphemeral, Scalar: p.reqScalar}
}

// setRequests records podResources' req, whose AllowedPodNumber is never
// set.
func (p *PodInfo) setRequests(r Resource) {
	p.reqCPU, p.reqMemory, p.reqEphemeral, p.reqScalar = r.MilliCPU, r.Memory, r.EphemeralStorage, r.Scalar
}

// NonZeroRequests returns Requests with cpu/memory defaulted (100m / 200Mi)
// where unset, as used by the scoring plugins: only MilliCPU and Memory,
// which are all they sum with defaults (podResources' nonZero; the other
// fields are zero and Scalar nil).
func (p *PodInfo) NonZeroRequests() Resource {
	return Resource{MilliCPU: p.nonZeroCPU, Memory: p.nonZeroMemory}
}

// setNonZeroRequests records podResources' nonZero, whose fields other than
// MilliCPU and Memory are never set.
func (p *PodInfo) setNonZeroRequests(r Resource) {
	p.nonZeroCPU, p.nonZeroMemory = r.MilliCPU, r.Memory
}

// How a PodInfo records status.startTime (startKind). A time that
// time.Unix(0, n) gives exactly, in Local (what decoding a metav1.Time
// gives: no monotonic clock reading) or in UTC, is kept as its Unix
// nanoseconds n; any other (another location, a monotonic reading, out of
// int64 nanoseconds' range) is kept whole in the PodInfo's extra.
const (
	startUnset uint8 = iota
	startLocal
	startUTC
	startExtra
)

// StartTime returns the pod's status.startTime and whether it is set, as
// recorded when the PodInfo was built: a scan of many pods' starts (the
// scheduling queue's clock, preemption's victim order) reads the PodInfos
// instead of chasing each pod's status. The time is the one recorded, to
// its location and monotonic reading.
func (p *PodInfo) StartTime() (time.Time, bool) {
	switch p.startKind {
	case startUnset:
		return time.Time{}, false
	case startLocal:
		return time.Unix(0, p.startNanos), true
	case startUTC:
		return time.Unix(0, p.startNanos).UTC(), true
	}
	return p.extra.start, true
}

// setStartTime records st (status.startTime, nil when unset) for
// StartTime. A time kept in extra gets a copy of it (see PodInfo.extra).
func (p *PodInfo) setStartTime(st *metav1.Time) {
	p.startNanos, p.startKind = 0, startUnset
	if st == nil {
		return
	}
	t := st.Time
	n := t.UnixNano()
	// == rather than Equal: the rebuilt time must be t itself, location
	// and monotonic reading included.
	switch u := time.Unix(0, n); {
	case u == t:
		p.startNanos, p.startKind = n, startLocal
	case u.UTC() == t:
		p.startNanos, p.startKind = n, startUTC
	default:
		var e podExtras
		if p.extra != nil {
			e = *p.extra
		}
		e.start = t
		p.extra, p.startKind = &e, startExtra
	}
}

// NodeInfo is one node with its bound pods, as framework.NodeInfo.
type NodeInfo struct {
	// Index is the node's slot in the snapshot's per-node arrays
	// (SlotsOf, LabelView.Node, Column.Of, Occurrences): its position in
	// name order in a snapshot from New. A node view keeps every other
	// node's slot, leaves a removed node's slot empty and gives an added
	// node a new slot at the end, so that it costs the nodes changed
	// rather than a renumbering of the nodes after them; the order every
	// reader sees is still NodesOf's name order.
	Index int
	Node  *corev1.Node
	Name  string
	// Unschedulable and Taints are copies of Node.Spec's, kept next to the
	// sums so that the per-node filters touch one object.
	Unschedulable bool
	Taints        []corev1.Taint
	// TaintSet is the ID of Taints among the snapshot's distinct taint
	// lists (TaintSetsOf), so that a pod's taint verdicts are computed once
	// per distinct list rather than once per node; 0 when the node has no
	// taint or its list is not interned (a node a view changed or added).
	TaintSet int32

	Pods                         []*PodInfo // ordered by Key; never modified in place
	PodsWithAffinity             []*PodInfo // pods with any pod affinity or anti-affinity
	PodsWithRequiredAntiAffinity []*PodInfo

	// Order holds the same pods in framework.NodeInfo's slice order, on
	// which upstream's tie-breaks depend (SelectVictimsOnNode sorts the
	// potential victims with the unstable sort.Slice): input order, bound
	// pods appended, a removed pod's slot taken by the last pod
	// (framework/types.go removeFromSlice). Snapshot views and
	// NodeInfo.WithPodInfo/WithoutPod maintain it; the in-place what-if
	// operations leave it as it was. Never modified in place.
	Order []*PodInfo

	Allocatable      Resource
	Requested        Resource
	NonZeroRequested Resource
	// UsedPorts is the set of host ports of the node's pods (no duplicates),
	// with framework.HostPortInfo's set semantics.
	UsedPorts []HostPort
	// ImageStates maps every image name the node lists (all names of each
	// image) to its state.
	ImageStates map[string]ImageState
}

// Bound returns the PodInfo of pod, a copy of p.Pod that a scheduler bound
// to a node: its spec.nodeName and status phase and start time may differ
// from p.Pod's, nothing else does. What p compiled from the rest of the pod
// (requests, host ports, affinity terms) is shared; the start time is read
// from pod. The result is what NewPodInfo(pod) gives when p came from
// NewPodInfo(p.Pod); p is not modified.
func (p *PodInfo) Bound(pod *corev1.Pod) *PodInfo {
	b := &PodInfo{
		Pod: pod, Key: p.Key, Priority: p.Priority,
		reqCPU: p.reqCPU, reqMemory: p.reqMemory, reqEphemeral: p.reqEphemeral, reqScalar: p.reqScalar,
		nonZeroCPU: p.nonZeroCPU, nonZeroMemory: p.nonZeroMemory,
		extra: p.extra, affinityKind: p.affinityKind,
	}
	b.setStartTime(pod.Status.StartTime)
	return b
}
