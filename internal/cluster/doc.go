// Package cluster is the indexed, immutable cluster that every scheduling
// package reads: nodes in name order with their bound pods, summed requests,
// used host ports, image states and compiled pod affinity terms, built once
// and shared. It plays the role of kube-scheduler's framework.NodeInfo /
// PodInfo snapshot (pkg/scheduler/framework/types.go and the scheduler
// cache, v1.36), without generation counters and with copy-on-write views for
// what-if questions.
//
// # Model
//
// New validates its Input and reports every malformed object at once as a
// field.ErrorList aggregate (duplicate node names, duplicate pod keys,
// duplicate namespaces, missing names, unparsable label selectors in pod
// affinity terms), with paths such as pods[3].spec.affinity.podAffinity....
// Pods that are merely irrelevant to scheduling (no spec.nodeName, bound to a
// node that is not in the input, or in phase Succeeded/Failed) are left out
// with a Warning, as the scheduler cache never sees them.
//
// Per node, the snapshot keeps, as framework.NodeInfo does:
//
//	Allocatable      = status.allocatable, or status.capacity when allocatable is unset
//	Requested        = Σ PodRequests(pod) over the node's pods
//	NonZeroRequested = Σ requests with 100m cpu / 200Mi memory per container that names neither
//	UsedPorts        = ∪ host ports of the node's pods (a set)
//	ImageStates[n]   = {size on this node, number of nodes listing n}
//
// (the number of nodes is the snapshot's, ImageNodesOf, and filled in only
// in the copies Snapshot.Nodes hands out, so that a node view changes no
// other node)
//
// PodRequests mirrors resourcehelper.PodRequests (k8s.io/component-helpers,
// v0.36) with the v1.36 default gates: sidecars (restartable init
// containers) add to the steady state and to every later init container's
// peak, the request is the maximum of the sum and the peaks, pod-level
// requests for cpu, memory and hugepages replace the aggregate
// (PodLevelResources, beta and on), overhead is added, and for bound pods the
// in-place resize status counts (max of spec, actuated and allocated).
//
// Input.WithoutPodLevelResize selects the pre-v1.36 rule for bound pods'
// pod-level requests (status ignored), for the older version profiles.
//
// Besides the name-ordered Pods, each NodeInfo keeps Order, the same pods in
// framework.NodeInfo's slice order (input order, appends, swap-removes), on
// which upstream's unstable victim sort depends; and the topology plugins
// keep a LabelIndex (labelindex.go) of interned label sets and affinity
// terms, shared by a snapshot and all its views.
//
// # Views
//
// WithPod and WithoutPods return new snapshots that share every unchanged
// NodeInfo with the receiver: the cost is one copy of the node pointer slice
// plus the rebuilt NodeInfos, and a small overlay of pod locations that is
// folded into a fresh index every 1024 binds, so that a long chain of binds
// (bulk scheduling) stays linear. NodeInfo.WithPodInfo / WithoutPod do the
// same for one node (preemption's dry run). Removing a pod drops its host ports from the
// node's set even when another pod of the node declared the same port, as
// framework.NodeInfo.RemovePod does.
//
// WithNodes, WithoutNodes and a WithNode that changes what is indexed about
// the node make node views (nodeviews.go): the node list in name order with
// the changed nodes in or out, every other node shared at its slot
// (NodeInfo.Index, which indexes the per-node arrays: a removed node's slot
// left empty, an added node's slot new), pod locations kept by node name,
// the image counts changed by the changed nodes only, and a label index of
// their own that shares the interning tables, so that their cost is the
// nodes changed plus a copy of two pointer slices. Readers go through the
// nodes in name order (NodesOf) and read the per-node arrays by slot
// (SlotsOf), so that the answers are New's for the same objects.
//
// # Cost of New
//
// The per-pod work of New (requests, host ports, affinity terms, label-set
// keys, validation) is independent between pods: for a large input one
// goroutine per CPU takes chunks of pods in increasing order until none is
// left (so they finish together), each writing only its chunks, and an
// ordered pass then reports duplicates, errors and warnings in input order,
// so the result does not depend on the split. The work is bound by reading
// the decoded objects, which are cold in the caches, so New reads each one
// about once, allocates little, and touches the next pods' objects ahead of
// its work so that their cache misses overlap:
//
//   - Pods whose pod (anti-)affinity specs are equal (a workload's replicas)
//     share one compiled copy of their terms, as upstream's equivalence of
//     pods from one template would; compiled terms are immutable. A spec is
//     found by its key, an unambiguous encoding of what compileAffinity
//     reads (every string length-prefixed, matchLabels in key order), so
//     two specs share exactly when they are equal, without reading another
//     pod's spec; one table serves all goroutines, so a spec is compiled
//     about once per call. Each compiled term carries its LabelIndex key.
//   - A bound pod's (namespace, labels) is keyed the same way; a worker
//     that met the key before records the earlier pod (its exemplar), so
//     the LabelIndex looks up one pod per distinct set and copies the ID to
//     the others.
//   - A selector of plain matchLabels is built without labels.NewRequirement's
//     regular expressions, after a check that decides exactly as
//     apimachinery's label key and value validation (a property test and a
//     fuzz target compare them); anything else, every invalid selector
//     included, goes through metav1.LabelSelectorAsSelector and keeps its
//     errors.
//   - Requests that are exact in int64 units take an integer fast path
//     (fastrequests.go) that looks the three names up instead of iterating
//     the lists, checked against the Quantity arithmetic by a property test.
//   - PodInfos and keys are allocated per chunk of pods; a node's sums are
//     accumulated in place; one table serves duplicate detection and the
//     location index: the table of every named pod's input position
//     becomes, slot by slot, the bound pods' positions by node, without
//     hashing a key again (podIndexFrom).
//
// For a large input, New then prepares on two goroutines what the first
// topology question would otherwise build alone (LabelIndex.prewarm): one
// builds the workloads index, the nodes' image states and the node label
// columns, interns the label sets and posts them; the other, after the
// ordered pass and the nodes, interns every node's affinity terms and posts
// them. The two touch disjoint parts of the index, which nobody else can
// reach before New returns.
//
// What a small input's callers need is built on first use: Input.Workloads,
// the index of Services and controllers behind PodTopologySpread's default
// selector, once per snapshot and shared by its views (sync.Once), and the
// LabelIndex's nodes, postings and columns.
//
// # Determinism and concurrency
//
// Nodes are in name order, a node's pods in namespace/name order. A snapshot
// and its NodeInfos are never modified after construction, so any number of
// goroutines may read them and build views concurrently. Inputs are never
// modified; the snapshot keeps pointers to the caller's objects, which must
// not be changed while the snapshot is in use.
package cluster
