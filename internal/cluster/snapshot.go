package cluster

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sync/errgroup"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/sched"
)

// ErrInvalidView is returned (wrapped) by WithPod for a pod that cannot be
// added: unknown node, no node name, or a key already bound. Its text names
// the public package callers meet it through (placement.ErrInvalidView).
var ErrInvalidView = errors.New("placement: invalid view change")

// FieldErrors is New's error: every problem of the input with its path. Its
// text is the list's aggregate text; placement turns it into its own
// ValidationError.
type FieldErrors struct{ List field.ErrorList }

// Error returns the problems' aggregate text.
func (e *FieldErrors) Error() string { return e.List.ToAggregate().Error() }

// compactThreshold bounds the overlay of pod locations a chain of WithPod
// views accumulates before it is folded into a fresh index.
const compactThreshold = 1024

// Snapshot is an immutable indexed cluster. Views made with WithPod and
// WithoutPods share every unchanged NodeInfo with their parent.
type Snapshot struct {
	// nodes is in name order (validateNodes), which nodeIndex searches:
	// a node view then needs no name map of its own.
	nodes []*NodeInfo
	// bySlot holds the nodes by NodeInfo.Index, nil at a removed node's
	// slot; nil when every node's slot is its position in nodes (a
	// snapshot from New and its pod views), which then serves for both.
	bySlot []*NodeInfo
	// retired is set by Retire: the view's node list went to another view.
	retired    bool
	namespaces map[string]map[string]string // namespace -> labels
	in         Input                        // workloads and PDBs, as given

	// podLoc gives a pod key's node name as of the last full index (New's
	// bound pods, or reindex's); extraLoc overrides it for pods bound by
	// WithPod since. Names, not node positions, so that a node view (which
	// moves nodes in name order) keeps them. Entries may be stale (the pod
	// or its node was removed): lookups confirm on the node itself.
	podLoc   *podIndex
	extraLoc *locLayer
	// recent holds the last bindings of a chain of WithPod views, newest
	// first, before they are folded into a new extraLoc (every
	// recentLimit bindings): a view then costs O(1) instead of a copy of
	// extraLoc. It overrides extraLoc; lookups confirm on the node.
	recent *recentLoc

	// labels interns pod labels and affinity terms for the topology
	// plugins (labelindex.go); shared by every view of the same nodes.
	labels *LabelIndex

	// imageNodes counts, by image name, the nodes listing it
	// (ImageState.NumNodes), kept here rather than in every node's
	// ImageStates so that adding or removing a node changes no other
	// node. Never modified: a node view that changes it makes a copy.
	imageNodes map[string]int
	// imageMemo holds what ImageMemo keeps for the snapshots sharing
	// imageNodes (a node view that makes a copy of it starts a new one).
	imageMemo *imageMemo
	// taintSets lists the distinct taint lists of New's nodes, by
	// NodeInfo.TaintSet (entry 0 unused); shared by every view of them.
	taintSets [][]corev1.Taint

	// podAffinity is false when no bound pod has a pod affinity or
	// anti-affinity term (no node has PodsWithAffinity): New decides it,
	// a view that binds such a pod sets it, and a view that only removes
	// pods or changes nodes keeps it (it may then be true with no such pod
	// left, which only costs InterPodAffinity its shortcut).
	podAffinity bool
	// scoredAffinity is false when no bound pod has a term that
	// InterPodAffinity's scoring counts for the pods already bound
	// (required affinity, preferred affinity or preferred anti-affinity;
	// interpodaffinity processExistingPod): kept as podAffinity is, so it
	// may be true with no such pod left, never false with one.
	scoredAffinity bool

	// id numbers the snapshot (0 for one not made by New or a view);
	// a view records its parent's id and the nodes it changed, so that
	// state kept for the parent can be moved to the view by those nodes
	// alone (ChangedFrom) without the view keeping the parent alive.
	id, parentID uint64
	changed      []int32
}

// snapshotIDs numbers snapshots and views (ids start at 1).
var snapshotIDs atomic.Uint64

// ChangedFrom returns the slots (NodeInfo.Index) of the nodes whose
// NodeInfo in s is not base's, in increasing order, when s is a view made
// from base by one WithPod or WithoutPods; ok is false for any other pair
// (the caller then compares the nodes itself). The slice is the caller's.
func (s *Snapshot) ChangedFrom(base *Snapshot) (changed []int32, ok bool) {
	changed, ok = ChangedFromOf(s, base)
	return slices.Clone(changed), ok
}

// ChangedFromOf is s.ChangedFrom(base) without the copy, for schedkit's
// packages: the slice must not be modified.
func ChangedFromOf(s, base *Snapshot) (changed []int32, ok bool) {
	if s == nil || base == nil || base.id == 0 || s.parentID != base.id {
		return nil, false
	}
	return s.changed, true
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

	// WithoutPodLevelResize counts bound pods' pod-level requests as written
	// in spec.resources, ignoring status.resources and
	// status.allocatedResources: the rule before v1.36, whose
	// InPlacePodLevelResourcesVerticalScaling gate is off (set it to
	// !placement.Version.UsesPodLevelResizeStatus()). Views keep it.
	WithoutPodLevelResize bool

	// Parallelism is the number of goroutines New may use (0 or 1: the
	// calling goroutine only; never more than GOMAXPROCS): from 2048 pods
	// on, the pods are compiled in parallel, and the label index is built
	// beside the nodes. Every goroutine exits before New returns, and the
	// snapshot does not depend on it. Views keep it.
	Parallelism int

	// workloads is the lazily built Workloads index of a snapshot's Input
	// (set by New, shared by views); nil for an Input the caller built.
	workloads *workloadsCache
}

// Warning is an input object left out of the snapshot, and why.
type Warning struct {
	Object string // "pod ns/name" or "node name"
	Reason string
}

// New indexes nodes and bound pods. It validates every object and returns
// all problems at once (a field.ErrorList aggregate); pods that are merely
// irrelevant (no nodeName, unknown node, terminal phase) are left out with a
// warning, in input order. The input objects are not modified.
func New(in Input) (*Snapshot, []Warning, error) {
	var warnings []Warning

	// The nodes' quantities are checked by preparePods's goroutines, beside
	// the pods: here every named, first-of-its-name node is taken as valid.
	// A node with a negative quantity fails New; the nodes are then
	// validated again in full below (the rare error path), so that the
	// errors and the pods' node indexes are what a serial pass gives.
	nodeErrs, valid, byName := validateNodes(in.Nodes, false)
	var nsErrs field.ErrorList
	namespaces := make(map[string]map[string]string, len(in.Namespaces))
	nsPath := field.NewPath("namespaces")
	for i, ns := range in.Namespaces {
		var name string
		if ns != nil {
			name = ns.Name
		}
		_, taken := namespaces[name]
		if e := identityError(func() *field.Path { return nsPath.Index(i) }, "namespace", ns == nil, name, taken); e != nil {
			nsErrs = append(nsErrs, e)
			continue
		}
		// The API server always sets kubernetes.io/metadata.name.
		l := make(map[string]string, len(ns.Labels)+1)
		for k, v := range ns.Labels {
			l[k] = v
		}
		l[corev1.LabelMetadataName] = ns.Name
		namespaces[ns.Name] = l
	}

	// The per-pod work (requests, host ports, affinity terms, validation)
	// is independent and done ahead, in parallel for large inputs; the
	// pass below keeps input order for duplicates, errors and warnings.
	par := min(in.Parallelism, runtime.GOMAXPROCS(0))
	// The label index's interning of every bound pod's label set (what the
	// topology plugins' first walk would do) overlaps with the ordered pass
	// and the node building below, on another CPU; preparePods builds the
	// label sets' keys beforehand, in parallel.
	index := newLabelIndex()
	prep, negativeNode := preparePods(in.Pods, in.Nodes, in.WithoutPodLevelResize, byName, par)
	if negativeNode {
		// New fails; the pods' node indexes are redone for its warnings
		// (what is interned on the way is discarded with the snapshot).
		nodeErrs, valid, byName = validateNodes(in.Nodes, true)
		for i, pod := range in.Pods {
			if pod != nil && pod.Name != "" {
				prep[i].node = -1
				if ni, ok := byName[pod.Spec.NodeName]; ok {
					prep[i].node = ni
				}
			}
		}
	}
	errs := append(nodeErrs, nsErrs...)
	// images holds every node's image states by node index; a large input
	// has them built on the other goroutine too (the node building below
	// does not read them), before the label work.
	var images []map[string]ImageState
	var imageNodes map[string]int
	workloads := newWorkloadsCache(&in)
	// A large input has a second goroutine (the indexer) beside this one;
	// interned closes once its label work is done.
	var interned chan struct{}
	if largeInput(par, len(in.Pods)) {
		interned = make(chan struct{})
		go func() {
			defer close(interned)
			// The workloads index too, which system default spreading
			// asks for on a pod's first question.
			workloads.get(&in)
			images, imageNodes = imageStates(valid)
			index.buildColumns(valid)
			index.internPods(prep)
			index.postSets()
		}()
	}
	// joinIndexer ends the indexer early, when New fails.
	joinIndexer := func() {
		if interned != nil {
			<-interned
		}
	}
	// seen finds duplicates in input order among the named pods, by
	// input position; it becomes the location index of the bound pods
	// below (podIndexFrom), without hashing their keys again.
	seen := newKeyTable(len(in.Pods))
	keyAt := func(pos int32) string { return prep[pos].key }
	// bound lists the accepted pods' input positions; perNode counts them
	// per node, so that every node's lists are cut from one allocation.
	bound := make([]int32, 0, len(in.Pods))
	perNode := make([]int32, len(valid))
	// The pass reads what preparePods recorded, not the pods: their
	// objects are spread over the heap, and preparePods had each of them
	// in the cache once already.
	for i := range prep {
		pp := &prep[i]
		p := func() *field.Path { return podsPath.Index(i) }
		if pp.key == "" { // preparePods skips a nil or unnamed pod
			if in.Pods[i] == nil {
				errs = append(errs, field.Required(p(), "pod must not be null"))
			} else {
				errs = append(errs, field.Required(p().Child("metadata", "name"), ""))
			}
			continue
		}
		key := pp.key
		j, slot := seen.find(key, keyAt)
		if j >= 0 {
			errs = append(errs, field.Duplicate(p().Child("metadata", "name"), key))
			continue
		}
		seen.insert(slot, int32(i))
		ni := pp.node
		if pp.errs != nil {
			errs = append(errs, pp.errs...)
			continue
		}
		switch {
		case pp.unbound:
			warnings = append(warnings, Warning{Object: "pod " + key, Reason: "not bound to a node (no spec.nodeName); ignored"})
			continue
		case pp.terminal:
			warnings = append(warnings, Warning{Object: "pod " + key, Reason: fmt.Sprintf("terminal phase %s; ignored", in.Pods[i].Status.Phase)})
			continue
		}
		if ni < 0 {
			warnings = append(warnings, Warning{Object: "pod " + key, Reason: fmt.Sprintf("bound to unknown node %q; ignored", in.Pods[i].Spec.NodeName)})
			continue
		}
		bound = append(bound, int32(i))
		perNode[ni]++
	}
	if len(errs) > 0 {
		joinIndexer()
		return nil, warnings, &FieldErrors{List: errs}
	}

	s := &Snapshot{
		id:         snapshotIDs.Add(1),
		nodes:      make([]*NodeInfo, len(valid)),
		namespaces: namespaces,
		in:         in,
		labels:     index,
	}
	s.in.workloads = workloads
	// Each node's Order (input order) and Pods (name order) are cut from
	// one array each, capacity capped so that no append can reach the next
	// node's (views copy before changing them anyway).
	orders := make([]*PodInfo, len(bound))
	sorted := make([]*PodInfo, len(bound))
	next := make([]int32, len(valid))
	ends := make([]int32, len(valid))
	names := make([]string, len(valid))
	off := int32(0)
	for i, c := range perNode {
		next[i] = off
		off += c
		ends[i], names[i] = off, valid[i].Name
	}
	// orderOf is each bound pod's position in orders by input position
	// (-1 for the others), which turns seen into the location index.
	orderOf := make([]int32, len(prep))
	for i := range orderOf {
		orderOf[i] = -1
	}
	for _, i := range bound {
		ni := prep[i].node
		orders[next[ni]] = prep[i].pi
		orderOf[i] = next[ni]
		next[ni]++
	}
	copy(sorted, orders)
	s.podLoc = podIndexFrom(seen, orderOf, orders, ends, names)
	infos := make([]NodeInfo, len(valid))
	off = 0
	for i, n := range valid {
		end := off + perNode[i]
		var order, pods []*PodInfo // nil for a node without pods, as before
		if end > off {
			order, pods = orders[off:end:end], sorted[off:end:end]
		}
		off = end
		// Keys are unique, so any sort gives the one name order.
		slices.SortFunc(pods, func(a, b *PodInfo) int { return strings.Compare(a.Key, b.Key) })
		ni := &infos[i]
		fillNodeInfo(ni, i, n)
		scored := ni.setPods(pods)
		ni.Order = order
		s.nodes[i] = ni
		s.podAffinity = s.podAffinity || len(ni.PodsWithAffinity) > 0
		s.scoredAffinity = s.scoredAffinity || scored
	}
	s.taintSets = internTaints(s.nodes)
	if interned != nil {
		// A large input: index what the first topology question needs
		// while the other goroutine interns the label sets.
		index.prewarm(s, interned)
	} else {
		images, imageNodes = imageStates(valid)
	}
	for i, ni := range s.nodes {
		ni.ImageStates = images[i]
	}
	s.imageNodes, s.imageMemo = imageNodes, &imageMemo{}
	return s, warnings, nil
}

var podsPath = field.NewPath("pods")

// validateNodes returns the problems of the input nodes, in input order
// (nil, unnamed, a name seen before, and with quantities, a negative
// allocatable or capacity quantity), the valid nodes in name order and their
// indexes by name. A node left out is not a duplicate's first of its name.
func validateNodes(nodes []*corev1.Node, quantities bool) (field.ErrorList, []*corev1.Node, map[string]int) {
	var errs field.ErrorList
	nodesPath := field.NewPath("nodes")
	byName := make(map[string]int, len(nodes))
	valid := make([]*corev1.Node, 0, len(nodes))
	for i, n := range nodes {
		p := func() *field.Path { return nodesPath.Index(i) }
		var name string
		if n != nil {
			name = n.Name
		}
		_, taken := byName[name]
		if e := identityError(p, "node", n == nil, name, taken); e != nil {
			errs = append(errs, e)
			continue
		}
		if quantities {
			if e := negativeQuantities(n.Status.Allocatable, func() *field.Path { return p().Child("status", "allocatable") }); e != nil {
				errs = append(errs, e...)
				continue
			}
			if e := negativeQuantities(n.Status.Capacity, func() *field.Path { return p().Child("status", "capacity") }); e != nil {
				errs = append(errs, e...)
				continue
			}
		}
		byName[n.Name] = -1
		valid = append(valid, n)
	}
	sort.Slice(valid, func(i, j int) bool { return valid[i].Name < valid[j].Name })
	for i, n := range valid {
		byName[n.Name] = i
	}
	return errs, valid, byName
}

// identityError is New's check of an input node's or namespace's identity,
// with the API server's texts: absent (nil), unnamed, or its name taken by
// an earlier object of its kind. nil when none applies.
func identityError(p func() *field.Path, kind string, isNil bool, name string, taken bool) *field.Error {
	switch {
	case isNil:
		return field.Required(p(), kind+" must not be null")
	case name == "":
		return field.Required(p().Child("metadata", "name"), "")
	case taken:
		return field.Duplicate(p().Child("metadata", "name"), name)
	}
	return nil
}

// hasNegativeQuantity reports whether a node has a negative allocatable or
// capacity quantity (validateNodes with quantities then rejects it).
func hasNegativeQuantity(n *corev1.Node) bool {
	return hasNegative(n.Status.Allocatable) || hasNegative(n.Status.Capacity)
}

// podPrep is one input pod compiled ahead of New's ordered pass: its key,
// and its PodInfo or the errors that reject it (negative requests,
// unparsable affinity selectors), with paths under pods[i].
type podPrep struct {
	key  string
	pi   *PodInfo
	errs field.ErrorList
	node int // index of spec.nodeName among the valid nodes, -1 when unknown
	// unbound and terminal say that the pod has no spec.nodeName, and
	// that its phase is Succeeded or Failed (New leaves it out for either).
	unbound, terminal bool
	// interned says whether internPods interns the pod (set with pi: on a
	// known node, not terminal); sameAs is then the index of an earlier
	// such pod (compiled by the same goroutine) with an equal namespace and
	// labels, whose set ID it takes, or -1, and then labelKey is the key
	// of its label set (keyBuf.appendLabelSet).
	interned bool
	sameAs   int32
	labelKey string
}

// parallelPods is the input size from which preparePods splits the pods
// among goroutines.
const parallelPods = 2048

// largeInput reports whether New, with par CPUs, splits n pods among
// goroutines and interns their label sets on its second goroutine.
func largeInput(par, n int) bool { return par > 1 && n >= parallelPods }

// preparePods compiles every non-nil, named pod, with par goroutines for a
// large input; each writes only the chunks it takes, and a pod's result
// does not depend on which goroutine compiled it, so the result does not
// depend on par. Equal affinity specs share compiled terms (affinityCache,
// one table for all goroutines). The goroutines also check the non-nil
// nodes' quantities (a chunk of nodes is one more task, taken first):
// negativeNode reports whether one is negative.
func preparePods(pods []*corev1.Pod, nodes []*corev1.Node, withoutPodLevelResize bool, byName map[string]int, par int) (out []podPrep, negativeNode bool) {
	out = make([]podPrep, len(pods))
	shared := newSharedAffinities()
	// Each worker takes chunks of the input in increasing order until none
	// is left, so that the goroutines finish together; what a worker keeps
	// across its chunks (compiled affinity specs, label-set exemplars) only
	// saves work, and never changes a result. Task t < nodeTasks is the
	// t-th chunk of nodes, the others are chunks of pods.
	var next atomic.Int64
	var negative atomic.Bool
	nodeTasks := (len(nodes) + prepChunk - 1) / prepChunk
	tasks := nodeTasks + (len(pods)+prepChunk-1)/prepChunk
	large := largeInput(par, len(pods))
	worker := func() {
		w := prepWorker{affinities: affinityCache{shared: shared}, keyLabels: large, exemplars: map[string]int32{}}
		touched := 0
		for {
			t := int(next.Add(1)) - 1
			if t >= tasks {
				break
			}
			if t < nodeTasks {
				for _, n := range nodes[t*prepChunk : min((t+1)*prepChunk, len(nodes))] {
					if n != nil && hasNegativeQuantity(n) {
						negative.Store(true)
					}
				}
				continue
			}
			lo := (t - nodeTasks) * prepChunk
			hi := min(lo+prepChunk, len(pods))
			touched += w.prepareChunk(pods, out, lo, hi, withoutPodLevelResize, byName)
		}
		touchSink.Add(int64(touched))
	}
	if !large {
		worker()
		return out, negative.Load()
	}
	var g errgroup.Group
	for range par {
		g.Go(func() error { worker(); return nil })
	}
	_ = g.Wait()
	return out, negative.Load()
}

// prepChunk is the number of pods a preparePods worker takes at a time.
const prepChunk = 256

// prepWorker is what one preparePods goroutine keeps across its chunks.
type prepWorker struct {
	affinities affinityCache
	// keyLabels says whether the label sets are keyed here for internPods
	// (a large input; a small one's are interned by the first topology
	// question).
	keyLabels bool
	// exemplars holds, by label-set key, the first interned pod of each
	// set the worker met: a pod whose set is there is matched while its
	// labels are in the cache, and internPods copies the exemplar's ID (an
	// earlier pod's) instead of looking the set up on its single goroutine.
	exemplars map[string]int32
	kb        keyBuf
	// infos is what is left of the worker's current block of PodInfos
	// (podInfo).
	infos []PodInfo
}

// podInfoBlock is the number of PodInfos a preparePods worker allocates at
// a time: as many as fit the runtime's largest small-object size class
// (32 KiB), which then wastes less than one PodInfo, where a larger block
// would be rounded up to whole 8 KiB pages.
const podInfoBlock = 32 << 10 / int(unsafe.Sizeof(PodInfo{}))

// podInfo returns a zero PodInfo from the worker's current block, which it
// allocates when empty, for at most left more pods (the input's pods from
// the current one on: a worker takes its chunks in increasing order). A
// block's PodInfos live as long as the snapshot: the collector tracks one
// object instead of one per pod.
func (w *prepWorker) podInfo(left int) *PodInfo {
	if len(w.infos) == 0 {
		w.infos = make([]PodInfo, min(podInfoBlock, left))
	}
	pi := &w.infos[0]
	w.infos = w.infos[1:]
	return pi
}

// prepareChunk compiles pods[lo:hi] into out[lo:hi]; it returns touchPods'
// sum.
func (w *prepWorker) prepareChunk(pods []*corev1.Pod, out []podPrep, lo, hi int, withoutPodLevelResize bool, byName map[string]int) int {
	// The PodInfos come from the worker's blocks (podInfo) and the keys
	// from one allocation per chunk, instead of two per pod: they live as
	// long as the snapshot, and the collector then tracks fewer, larger
	// objects.
	var keys keyArena
	touched := 0
	for i := lo; i < hi; i++ {
		if (i-lo)%touchAhead == 0 {
			touched += touchPods(pods[i:min(i+touchAhead, hi)])
		}
		pod := pods[i]
		if pod == nil || pod.Name == "" {
			continue
		}
		pp := &out[i]
		pp.key = keys.key(pods, i, hi)
		pp.node = -1
		if ni, ok := byName[pod.Spec.NodeName]; ok {
			pp.node = ni
		}
		ph := pod.Status.Phase
		pp.unbound, pp.terminal = pod.Spec.NodeName == "", ph == corev1.PodSucceeded || ph == corev1.PodFailed
		p := func() *field.Path { return podsPath.Index(i) }
		var res [2]Resource
		var fast bool
		res[0], res[1], fast = fastPodResources(pod)
		if resourceProblem(pod, fast) {
			pp.errs = PodResourceErrors(pod, p())
			continue
		}
		if !fast {
			res[0], res[1] = quantityPodResources(pod, withoutPodLevelResize)
		}
		pi := w.podInfo(len(pods) - i)
		if err := fillPodInfo(pi, pod, pp.key, withoutPodLevelResize, &w.affinities, &res); err != nil {
			pp.errs = prefixErrors(p(), err)
			continue
		}
		pp.pi = pi
		pp.sameAs = -1
		if pp.interned = pp.node >= 0 && !pp.terminal; pp.interned && w.keyLabels {
			w.kb.b = w.kb.appendLabelSet(w.kb.b[:0], pod.Namespace, pod.Labels)
			if j, ok := w.exemplars[string(w.kb.b)]; ok {
				pp.sameAs = j
			} else {
				pp.labelKey = string(w.kb.b)
				w.exemplars[pp.labelKey] = int32(i)
			}
		}
		pi.deleting = pod.DeletionTimestamp != nil
	}
	return touched
}

// keyArena builds pod keys (namespace/name) a chunk of pods at a time into
// one string, each key a substring of it.
type keyArena struct {
	chunk string
	off   []int // end of each key of the chunk in chunk, by pod index - first
	first int
}

// keyChunk is the number of pods whose keys share one allocation.
const keyChunk = 256

// key returns pods[i]'s key (pods[i] is not nil), building the keys of
// pods[i:min(i+keyChunk, hi)] when i is outside the current chunk.
func (a *keyArena) key(pods []*corev1.Pod, i, hi int) string {
	if a.off == nil || i < a.first || i >= a.first+len(a.off) {
		end := min(i+keyChunk, hi)
		n := 0
		for _, p := range pods[i:end] {
			if p != nil {
				n += len(p.Namespace) + 1 + len(p.Name)
			}
		}
		var b strings.Builder
		b.Grow(n)
		a.off = a.off[:0]
		for _, p := range pods[i:end] {
			if p != nil {
				b.WriteString(p.Namespace)
				b.WriteByte('/')
				b.WriteString(p.Name)
			}
			a.off = append(a.off, b.Len())
		}
		a.chunk, a.first = b.String(), i
	}
	j := i - a.first
	start := 0
	if j > 0 {
		start = a.off[j-1]
	}
	return a.chunk[start:a.off[j]]
}

// negativeQuantities reports every negative quantity of a list (the API
// server rejects them; requests and capacities are never negative).
func negativeQuantities(rl corev1.ResourceList, path func() *field.Path) field.ErrorList {
	var errs field.ErrorList
	for name, q := range rl {
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(path().Key(string(name)), q.String(), "must be greater than or equal to 0"))
		}
	}
	return errs
}

// resourceProblem reports whether PodResourceErrors has anything to say
// about pod, given whether fastPodResources accepted it. A pod the int64
// fast path accepts has no negative request or overhead (it checks every
// such list PodResourceErrors does), so only its containers' limits are
// read again, unless it has pod-level resources; a pod the fast path
// refused is walked in full.
func resourceProblem(pod *corev1.Pod, fast bool) bool {
	if !fast || pod.Spec.Resources != nil {
		return podResourceProblem(pod)
	}
	for i := range pod.Spec.Containers {
		if hasNegative(pod.Spec.Containers[i].Resources.Limits) {
			return true
		}
	}
	for i := range pod.Spec.InitContainers {
		if hasNegative(pod.Spec.InitContainers[i].Resources.Limits) {
			return true
		}
	}
	return false
}

// hasNegative reports whether a resource list has a negative quantity. A
// list naming only cpu and memory (the common one) is read by two lookups,
// which cost less than starting an iteration (see exactVec).
func hasNegative(rl corev1.ResourceList) bool {
	n := len(rl)
	if n == 0 {
		return false
	}
	if n <= 2 {
		found := 0
		for _, name := range [2]corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if q, ok := rl[name]; ok {
				if q.Sign() < 0 {
					return true
				}
				found++
			}
		}
		if found == n {
			return false
		}
	}
	for _, q := range rl {
		if q.Sign() < 0 {
			return true
		}
	}
	return false
}

// prefixErrors turns a field.ErrorList aggregate about one object into errors
// under that object's path.
func prefixErrors(p *field.Path, err error) field.ErrorList {
	var out field.ErrorList
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		for _, e := range agg.Errors() {
			var fe *field.Error
			if errors.As(e, &fe) {
				c := *fe
				c.Field = p.String() + "." + fe.Field
				out = append(out, &c)
				continue
			}
			out = append(out, field.Invalid(p, nil, e.Error()))
		}
		return out
	}
	return field.ErrorList{field.Invalid(p, nil, err.Error())}
}

// fillNodeInfo sets a zero NodeInfo to node n at index, without pods and
// image states.
func fillNodeInfo(ni *NodeInfo, index int, n *corev1.Node) {
	alloc := n.Status.Allocatable
	if alloc == nil {
		alloc = n.Status.Capacity
	}
	*ni = NodeInfo{Index: index, Node: n, Name: n.Name, Allocatable: ResourceFromList(alloc),
		Unschedulable: n.Spec.Unschedulable, Taints: n.Spec.Taints}
}

// internTaints gives each node with taints the ID of its list among the
// distinct lists (equal keys, values and effects in the same order), and
// returns the lists by ID. Nodes usually come in a few kinds (pools, GPU
// nodes, control planes): a filter then checks a pod's tolerations against
// each kind once, and reads no node's taints.
func internTaints(nodes []*NodeInfo) [][]corev1.Taint {
	sets := [][]corev1.Taint{nil}
	ids := map[string]int32{}
	var key []byte
	for _, ni := range nodes {
		if len(ni.Taints) == 0 {
			continue
		}
		key = key[:0]
		for i := range ni.Taints {
			t := &ni.Taints[i]
			key = append(key, t.Key...)
			key = append(key, 0)
			key = append(key, t.Value...)
			key = append(key, 0)
			key = append(key, t.Effect...)
			key = append(key, 0)
		}
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(sets))
			ids[string(key)] = id
			sets = append(sets, ni.Taints)
		}
		ni.TaintSet = id
	}
	return sets
}

// imageStates returns each node's image states, by index in nodes
// (getNodeImageStates: every name of every image, with the node's own
// size; nil for a node without images), and the number of nodes having
// each image name, as the scheduler cache counts image presence across the
// cluster (the NumNodes the node's states leave 0).
func imageStates(nodes []*corev1.Node) ([]map[string]ImageState, map[string]int) {
	imageNodes := map[string]int{}
	out := make([]map[string]ImageState, len(nodes))
	for i, n := range nodes {
		out[i] = nodeImages(n)
		for name := range out[i] {
			imageNodes[name]++
		}
	}
	return out, imageNodes
}

// nodeImages is one node's image states, NumNodes left 0 (imageStates).
func nodeImages(n *corev1.Node) map[string]ImageState {
	if len(n.Status.Images) == 0 {
		return nil
	}
	m := make(map[string]ImageState, len(n.Status.Images))
	for _, img := range n.Status.Images {
		for _, name := range img.Names {
			m[name] = ImageState{Size: img.SizeBytes}
		}
	}
	return m
}

// setPods sets the (sorted) pods and recomputes every sum from them; it
// reports whether one of them has a term that existing-pod scoring counts
// (PodInfo.scoredAsExisting).
func (ni *NodeInfo) setPods(pods []*PodInfo) (scored bool) {
	ni.Pods = pods
	ni.PodsWithAffinity = nil
	ni.PodsWithRequiredAntiAffinity = nil
	ni.Requested = Resource{}
	ni.NonZeroRequested = Resource{}
	ni.UsedPorts = nil
	var withAffinity, withRequiredAnti int
	for _, p := range pods {
		a, r := p.affinityKinds()
		if a {
			withAffinity++
		}
		if r {
			withRequiredAnti++
		}
	}
	if withAffinity > 0 {
		ni.PodsWithAffinity = make([]*PodInfo, 0, withAffinity)
	}
	if withRequiredAnti > 0 {
		ni.PodsWithRequiredAntiAffinity = make([]*PodInfo, 0, withRequiredAnti)
	}
	for _, p := range pods {
		// Summed in place: Requested is this node's own, so its Scalar map
		// is filled once instead of copied per pod (Resource.add's
		// copy-on-write is for the views).
		ni.Requested.MilliCPU += p.reqCPU
		ni.Requested.Memory += p.reqMemory
		ni.Requested.EphemeralStorage += p.reqEphemeral
		if len(p.reqScalar) > 0 {
			if ni.Requested.Scalar == nil {
				ni.Requested.Scalar = make(map[corev1.ResourceName]int64, len(p.reqScalar))
			}
			for k, v := range p.reqScalar {
				ni.Requested.Scalar[k] += v
			}
		}
		ni.NonZeroRequested.MilliCPU += p.nonZeroCPU
		ni.NonZeroRequested.Memory += p.nonZeroMemory
		ni.UsedPorts = addPorts(ni.UsedPorts, p.HostPorts())
		withAffinity, withRequiredAnti := p.affinityKinds()
		if withAffinity {
			ni.PodsWithAffinity = append(ni.PodsWithAffinity, p)
			scored = scored || p.scoredAsExisting()
		}
		if withRequiredAnti {
			ni.PodsWithRequiredAntiAffinity = append(ni.PodsWithRequiredAntiAffinity, p)
		}
	}
	return scored
}

// scoredAsExisting reports whether the pod, once bound, has a term that
// InterPodAffinity's scoring counts for existing pods: a required
// affinity, preferred affinity or preferred anti-affinity term (its
// required anti-affinity terms only filter; interpodaffinity
// processExistingPod).
func (p *PodInfo) scoredAsExisting() bool {
	return len(p.RequiredAffinityTerms()) > 0 || len(p.PreferredAffinityTerms()) > 0 || len(p.PreferredAntiAffinityTerms()) > 0
}

// affinityKinds is hasPodAffinity and hasRequiredAntiAffinity of the
// pod, as newPodInfoCached recorded them (no second read of the pod spec,
// which New's pass over every pod would pay as a cache miss per pod), or
// read from the pod for a PodInfo built otherwise.
func (p *PodInfo) affinityKinds() (withAffinity, withRequiredAnti bool) {
	if p.affinityKind&kindRecorded != 0 {
		return p.affinityKind&kindAffinity != 0, p.affinityKind&kindRequiredAnti != 0
	}
	return hasPodAffinity(p.Pod), hasRequiredAntiAffinity(p.Pod)
}

// PodInfo.affinityKind bits.
const (
	kindRecorded uint8 = 1 << iota
	kindAffinity
	kindRequiredAnti
)

func hasPodAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

func hasRequiredAntiAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil && len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
}

// addPorts adds ports to a port set (copy-on-write: used is never modified).
func addPorts(used, ports []HostPort) []HostPort {
	var out []HostPort
	for _, hp := range ports {
		if containsPort(used, hp) || containsPort(out, hp) {
			continue
		}
		if out == nil {
			out = make([]HostPort, len(used), len(used)+len(ports))
			copy(out, used)
		}
		out = append(out, hp)
	}
	if out == nil {
		return used
	}
	return out
}

func containsPort(set []HostPort, hp HostPort) bool {
	for _, u := range set {
		if u == hp {
			return true
		}
	}
	return false
}

// Input returns a copy of what the snapshot was built from (workloads,
// PDBs): new slices of the same objects, which the caller may change
// without changing the snapshot (see InputOf for schedkit's own reads).
// A view keeps its parent's, pods and input order included (New of it
// leaves out the pods a view removed, as bound to an unknown node); a
// node view's Nodes are its own nodes, in name order.
func (s *Snapshot) Input() *Input {
	c := s.in
	c.Nodes = slices.Clone(c.Nodes)
	c.Pods = slices.Clone(c.Pods)
	c.Namespaces = slices.Clone(c.Namespaces)
	c.Services = slices.Clone(c.Services)
	c.ReplicaSets = slices.Clone(c.ReplicaSets)
	c.StatefulSets = slices.Clone(c.StatefulSets)
	c.ReplicationControllers = slices.Clone(c.ReplicationControllers)
	c.PDBs = slices.Clone(c.PDBs)
	c.workloads = newWorkloadsCache(&c)
	return &c
}

// InputOf returns s's own Input, for schedkit's packages: it must not be
// modified.
func InputOf(s *Snapshot) *Input { return &s.in }

// MayHavePodAffinity reports whether a bound pod of s may have a pod
// affinity or anti-affinity term; false means that none has (New's count,
// kept by every view: only binding such a pod turns it on). The topology
// plugins then know, without a walk, that no existing pod's term can
// match or reject an incoming pod.
func MayHavePodAffinity(s *Snapshot) bool { return s.podAffinity }

// MayHaveScoredPodAffinity reports whether a bound pod of s may have a term
// that InterPodAffinity's scoring counts for existing pods (required
// affinity, preferred affinity or preferred anti-affinity): false means
// surely none, so that the scoring walk over every node's pods with
// affinity would find nothing to count.
func MayHaveScoredPodAffinity(s *Snapshot) bool { return s.scoredAffinity }

// NumPods returns the number of bound pods in the snapshot (or view).
func (s *Snapshot) NumPods() int {
	n := 0
	for _, ni := range s.nodes {
		n += len(ni.Pods)
	}
	return n
}

func findPod(pods []*PodInfo, key string) (int, bool) {
	j := sort.Search(len(pods), func(k int) bool { return pods[k].Key >= key })
	return j, j < len(pods) && pods[j].Key == key
}

// NewPodInfo compiles a pod (requests, host ports, affinity terms) without
// adding it to any snapshot; use it for the incoming pod. The pod is not
// modified. An error (a field.ErrorList aggregate with paths under spec)
// means an unparsable affinity selector.
func NewPodInfo(pod *corev1.Pod) (*PodInfo, error) { return newPodInfo(pod, false) }

// newPodInfo is NewPodInfo, with the pre-v1.36 pod-level request rule when
// withoutPodLevelResize (Input.WithoutPodLevelResize).
func newPodInfo(pod *corev1.Pod, withoutPodLevelResize bool) (*PodInfo, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: nil pod", ErrInvalidView)
	}
	return newPodInfoCached(pod, pod.Namespace+"/"+pod.Name, withoutPodLevelResize, nil, nil)
}

// newPodInfoCached is newPodInfo for a non-nil pod whose key is given,
// sharing compiled affinity terms through cache (nil: no sharing), with the
// pod's requests and non-zero requests when already computed (res, else nil).
func newPodInfoCached(pod *corev1.Pod, key string, withoutPodLevelResize bool, cache *affinityCache, res *[2]Resource) (*PodInfo, error) {
	pi := &PodInfo{}
	if err := fillPodInfo(pi, pod, key, withoutPodLevelResize, cache, res); err != nil {
		return nil, err
	}
	return pi, nil
}

// fillPodInfo is newPodInfoCached into a zero PodInfo the caller allocated.
func fillPodInfo(pi *PodInfo, pod *corev1.Pod, key string, withoutPodLevelResize bool, cache *affinityCache, res *[2]Resource) error {
	pi.Pod, pi.Key = pod, key
	pi.Priority = sched.PodPriority(pod)
	var req, nonZero Resource
	if res != nil {
		req, nonZero = res[0], res[1]
	} else {
		req, nonZero = podResourcesAt(pod, withoutPodLevelResize)
	}
	pi.setRequests(req)
	pi.setNonZeroRequests(nonZero)
	pi.affinityKind = kindRecorded
	if hasPodAffinity(pod) {
		pi.affinityKind |= kindAffinity
	}
	if hasRequiredAntiAffinity(pod) {
		pi.affinityKind |= kindRequiredAnti
	}
	// The affinity terms first: compile replaces pi.extra.
	err := cache.compile(pi, pod)
	pi.setHostPorts(PodHostPorts(pod))
	pi.setStartTime(pod.Status.StartTime)
	return err
}

// PodHostPorts returns the host ports a pod occupies, as schedutil.GetHostPorts
// (restartable init containers first, then containers; hostPort > 0 only),
// sanitized as framework.HostPortInfo does (IP "" is 0.0.0.0, protocol "" is
// TCP), in declaration order.
func PodHostPorts(pod *corev1.Pod) []HostPort {
	var out []HostPort
	add := func(c *corev1.Container) {
		for _, p := range c.Ports {
			if p.HostPort <= 0 {
				continue
			}
			hp := HostPort{IP: p.HostIP, Protocol: p.Protocol, Port: p.HostPort}
			if hp.IP == "" {
				hp.IP = "0.0.0.0"
			}
			if hp.Protocol == "" {
				hp.Protocol = corev1.ProtocolTCP
			}
			out = append(out, hp)
		}
	}
	for i := range pod.Spec.InitContainers {
		if isRestartable(&pod.Spec.InitContainers[i]) {
			add(&pod.Spec.InitContainers[i])
		}
	}
	for i := range pod.Spec.Containers {
		add(&pod.Spec.Containers[i])
	}
	return out
}

// WithPod returns a view with pod bound to pod.Spec.NodeName. The receiver is
// unchanged; unchanged nodes are shared. The error wraps ErrInvalidView
// (also for quantities the API server refuses, PodResourceErrors) or is
// NewPodInfo's.
func (s *Snapshot) WithPod(pod *corev1.Pod) (*Snapshot, error) {
	// An undefaulted pod is bound as the API server would store it.
	pod = StoredPod(pod)
	pi, err := newPodInfo(pod, s.in.WithoutPodLevelResize)
	if err != nil {
		return nil, err
	}
	if errs := PodResourceErrors(pod, nil); len(errs) > 0 {
		return nil, fmt.Errorf("%w: pod %s: %w", ErrInvalidView, pi.Key, errs.ToAggregate())
	}
	return s.WithPodInfo(pi)
}

// WithPodInfo is WithPod for an already compiled pod (its Pod's
// spec.nodeName names the node).
func (s *Snapshot) WithPodInfo(pi *PodInfo) (*Snapshot, error) {
	return s.WithPodInfoReusing(pi, nil)
}

// WithPodInfoReusing is WithPodInfo whose view copies its node list into
// spare's backing array when it is large enough (see Retire), instead of
// a fresh one.
func (s *Snapshot) WithPodInfoReusing(pi *PodInfo, spare []*NodeInfo) (*Snapshot, error) {
	nodeName := pi.Pod.Spec.NodeName
	if nodeName == "" {
		return nil, fmt.Errorf("%w: pod %s has no spec.nodeName", ErrInvalidView, pi.Key)
	}
	i, ok := s.nodeIndex(nodeName)
	if !ok {
		return nil, fmt.Errorf("%w: pod %s is bound to unknown node %q", ErrInvalidView, pi.Key, nodeName)
	}
	if _, _, dup := PodOf(s, pi.Key); dup {
		return nil, fmt.Errorf("%w: pod %s is already bound", ErrInvalidView, pi.Key)
	}
	old := s.nodes[i]
	j, _ := findPod(old.Pods, pi.Key)
	pods := make([]*PodInfo, 0, len(old.Pods)+1)
	pods = append(pods, old.Pods[:j]...)
	pods = append(pods, pi)
	pods = append(pods, old.Pods[j:]...)

	ni := *old
	ni.Pods = pods
	ni.Order = appendOrder(old.Order, pi)
	ni.Requested = old.Requested.add(pi.Requests(), 1)
	ni.NonZeroRequested.MilliCPU += pi.nonZeroCPU
	ni.NonZeroRequested.Memory += pi.nonZeroMemory
	ni.UsedPorts = addPorts(old.UsedPorts, pi.HostPorts())
	if hasPodAffinity(pi.Pod) {
		ni.PodsWithAffinity = insertSorted(old.PodsWithAffinity, pi)
	}
	if hasRequiredAntiAffinity(pi.Pod) {
		ni.PodsWithRequiredAntiAffinity = insertSorted(old.PodsWithRequiredAntiAffinity, pi)
	}

	v := s.viewReusing(spare)
	v.setNode(i, &ni)
	v.podAffinity = s.podAffinity || len(ni.PodsWithAffinity) > len(old.PodsWithAffinity)
	v.scoredAffinity = s.scoredAffinity || pi.scoredAsExisting()
	v.changed = []int32{int32(ni.Index)}
	v.recent = &recentLoc{next: s.recent, key: pi.Key, node: nodeName, n: s.recent.len() + 1}
	if v.recent.n >= recentLimit {
		if s.extraLoc.len()+v.recent.n >= compactThreshold {
			v.reindex()
		} else {
			extra := make(map[string]string, v.recent.n)
			// Oldest first, so that a key's newest binding wins.
			chain := make([]*recentLoc, 0, v.recent.n)
			for r := v.recent; r != nil; r = r.next {
				chain = append(chain, r)
			}
			for k := len(chain) - 1; k >= 0; k-- {
				extra[chain[k].key] = chain[k].node
			}
			v.extraLoc, v.recent = s.extraLoc.push(extra), nil
		}
	}
	return v, nil
}

// appendOrder is order with pi appended (framework.NodeInfo.AddPodInfo),
// in a new slice.
func appendOrder(order []*PodInfo, pi *PodInfo) []*PodInfo {
	out := make([]*PodInfo, 0, len(order)+1)
	out = append(out, order...)
	return append(out, pi)
}

// swapRemove takes the pod of key out of an order the caller owns as
// framework's removeFromSlice does: the last pod moves into its slot.
func swapRemove(order []*PodInfo, key string) []*PodInfo {
	for i, p := range order {
		if p.Key == key {
			last := len(order) - 1
			order[i] = order[last]
			order[last] = nil
			return order[:last]
		}
	}
	return order
}

func insertSorted(list []*PodInfo, pi *PodInfo) []*PodInfo {
	j, _ := findPod(list, pi.Key)
	out := make([]*PodInfo, 0, len(list)+1)
	out = append(out, list[:j]...)
	out = append(out, pi)
	return append(out, list[j:]...)
}

// locLayer is the overlay of pod locations bound since the last full
// index: layers of maps that are never modified, newest first, a key's
// newest binding in the newest layer that has it. A layer is merged into
// the next older one as soon as it is as large (a binary counter), so that
// a chain of n bindings copies each location O(log n) times and a lookup
// reads O(log n) maps; a single map copied at every fold copied O(n) per
// fold.
type locLayer struct {
	m     map[string]string
	older *locLayer
	n     int // locations in this layer and the older ones, repeats counted
}

// find returns the node name of key's newest binding in the overlay.
func (l *locLayer) find(key string) (string, bool) {
	for ; l != nil; l = l.older {
		if node, ok := l.m[key]; ok {
			return node, true
		}
	}
	return "", false
}

func (l *locLayer) len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// push returns the overlay with m (not modified afterwards) as its newest
// layer, merging layers no larger than it into it; l is not modified.
func (l *locLayer) push(m map[string]string) *locLayer {
	for l != nil && len(l.m) <= len(m) {
		merged := make(map[string]string, len(l.m)+len(m))
		maps.Copy(merged, l.m)
		maps.Copy(merged, m) // newer
		m, l = merged, l.older
	}
	return &locLayer{m: m, older: l, n: l.len() + len(m)}
}

// recentLimit is the number of bindings a chain of views keeps in its
// recent list before folding them into extraLoc.
const recentLimit = 32

// recentLoc is one binding of a view chain: pod key to node name.
type recentLoc struct {
	next *recentLoc
	key  string
	node string
	n    int // entries from here to the end of the list
}

// find returns the node name of key's newest binding in the list.
func (r *recentLoc) find(key string) (string, bool) {
	for ; r != nil; r = r.next {
		if r.key == key {
			return r.node, true
		}
	}
	return "", false
}

func (r *recentLoc) len() int {
	if r == nil {
		return 0
	}
	return r.n
}

// view copies the node pointer slice; everything else is shared. The
// caller records the nodes it changes in v.changed.
func (s *Snapshot) view() *Snapshot { return s.viewReusing(nil) }

// viewReusing is view copying the node pointers into spare's backing
// array when it has room for them.
func (s *Snapshot) viewReusing(spare []*NodeInfo) *Snapshot {
	v := *s
	if cap(spare) >= len(s.nodes) {
		v.nodes = append(spare[:0], s.nodes...)
	} else {
		v.nodes = slices.Clone(s.nodes)
	}
	v.bySlot = slices.Clone(s.bySlot)
	v.id, v.parentID, v.changed = snapshotIDs.Add(1), s.id, nil
	return &v
}

// Retire ends the life of v, a view its caller made and that nothing
// reads any more, and returns its node list for WithPodInfoReusing, or nil
// when v's list cannot be reused (a node view's, whose slots differ from
// its positions). Each view owns its node list (view copies it), so a
// caller making a long chain of views, such as a scheduling queue binding
// pod after pod, can recycle the list of a view far enough behind it
// instead of allocating one per binding: on a virtual machine, where the
// first touch of a fresh page costs several microseconds, those copies
// were a fifth of a binding's cost. Reading v's nodes after Retire (NodesOf,
// SlotsOf) panics.
func Retire(v *Snapshot) []*NodeInfo {
	if v == nil || v.retired {
		return nil
	}
	nodes, reusable := v.nodes, v.bySlot == nil
	v.nodes, v.bySlot, v.retired = nil, nil, true
	if !reusable {
		return nil
	}
	return nodes
}

// setNode puts ni, a new NodeInfo of the node at position i of v (a view
// being made), in place of the old one.
func (v *Snapshot) setNode(i int, ni *NodeInfo) {
	v.nodes[i] = ni
	if v.bySlot != nil {
		v.bySlot[ni.Index] = ni
	}
}

// reindex folds the overlay into a fresh location index.
func (s *Snapshot) reindex() {
	pods := make([]*PodInfo, 0, s.NumPods())
	ends := make([]int32, len(s.nodes))
	names := make([]string, len(s.nodes))
	for k, ni := range s.nodes {
		pods = append(pods, ni.Pods...)
		ends[k], names[k] = int32(len(pods)), ni.Name
	}
	s.podLoc = newPodIndex(pods, ends, names)
	s.extraLoc, s.recent = nil, nil
}

// WithoutPods returns a view without the pods of the given keys
// (namespace/name); unknown keys are ignored. The receiver is unchanged;
// only the nodes that lose a pod are rebuilt.
func (s *Snapshot) WithoutPods(keys ...string) *Snapshot {
	// By position in s.nodes.
	drop := map[int]map[string]bool{}
	for _, k := range keys {
		_, ni, ok := PodOf(s, k)
		if !ok {
			continue
		}
		i, _ := s.nodeIndex(ni.Name)
		if drop[i] == nil {
			drop[i] = map[string]bool{}
		}
		drop[i][k] = true
	}
	if len(drop) == 0 {
		return s
	}
	v := s.view()
	for i := range drop {
		v.changed = append(v.changed, int32(s.nodes[i].Index))
	}
	slices.Sort(v.changed)
	for i, gone := range drop {
		old := s.nodes[i]
		ni := *old
		ni.Pods = make([]*PodInfo, 0, len(old.Pods)-len(gone))
		var removed []*PodInfo
		for _, p := range old.Pods {
			if gone[p.Key] {
				removed = append(removed, p)
			} else {
				ni.Pods = append(ni.Pods, p)
			}
		}
		ni.PodsWithAffinity = filterOut(old.PodsWithAffinity, gone)
		ni.PodsWithRequiredAntiAffinity = filterOut(old.PodsWithRequiredAntiAffinity, gone)
		for _, p := range removed {
			ni.Requested = ni.Requested.add(p.Requests(), -1)
			ni.NonZeroRequested.MilliCPU -= p.nonZeroCPU
			ni.NonZeroRequested.Memory -= p.nonZeroMemory
			ni.UsedPorts = removePorts(ni.UsedPorts, p.HostPorts())
		}
		ni.Order = append([]*PodInfo(nil), old.Order...)
		v.setNode(i, &ni)
	}
	// The scheduler removes the pods one at a time, in the order given.
	for _, k := range keys {
		if _, ni, ok := PodOf(s, k); ok {
			i, _ := s.nodeIndex(ni.Name)
			n := v.nodes[i]
			n.Order = swapRemove(n.Order, k)
		}
	}
	return v
}

func filterOut(list []*PodInfo, gone map[string]bool) []*PodInfo {
	var out []*PodInfo
	for _, p := range list {
		if !gone[p.Key] {
			out = append(out, p)
		}
	}
	return out
}

// removePorts drops ports from a port set (copy-on-write), as
// HostPortInfo.Remove: the entry goes even if another pod declared it too.
func removePorts(used, ports []HostPort) []HostPort {
	if len(ports) == 0 {
		return used
	}
	var out []HostPort
	for _, u := range used {
		if !containsPort(ports, u) {
			out = append(out, u)
		}
	}
	return out
}

// touchAhead is the number of pods preparePods touches ahead of its work.
const touchAhead = 16

// touchSink keeps touchPods' loads from being optimized away.
var touchSink atomic.Int64

// touchPods loads, for a few pods in a row, the first word of each object
// the per-pod work reads. The decoded pods are spread over a heap far larger
// than the caches, so the work waits on memory at every pointer; this short
// loop has no dependence between its iterations, so the processor has the
// loads of several pods in flight at once, and the work then finds them in
// the cache.
func touchPods(pods []*corev1.Pod) int {
	n := 0
	for _, pod := range pods {
		if pod == nil || pod.Name == "" {
			continue
		}
		n += int(pod.Name[0]) + len(pod.Labels)
		if len(pod.Namespace) > 0 {
			n += int(pod.Namespace[0])
		}
		if len(pod.Spec.NodeName) > 0 {
			n += int(pod.Spec.NodeName[0])
		}
		for i := range pod.Spec.Containers {
			n += len(pod.Spec.Containers[i].Resources.Requests)
		}
		for i := range pod.Spec.InitContainers {
			n += len(pod.Spec.InitContainers[i].Resources.Requests)
		}
		if a := pod.Spec.Affinity; a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil) {
			n++
		}
	}
	return n
}
