package preemption

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
)

// Outcome is what one scheduling attempt of a queued pod led to.
type Outcome string

// Outcomes of ScheduleQueue, as the conformance format names them.
const (
	Scheduled           Outcome = "Scheduled"
	PreemptionNominated Outcome = "PreemptionNominated"
	Unschedulable       Outcome = "Unschedulable"
	Gated               Outcome = "Gated"
	Failed              Outcome = "Error"
)

// QueueOptions configures ScheduleQueue. The zero value is the conformance
// scenarios' run: the default v1.36 profile, every potential node dry-run.
type QueueOptions struct {
	Placement  placement.Options // the profile each pod is scheduled with
	Preemption Options           // PostFilter's options for pods that find no node (Parallelism 0: Placement's)
	// StartClock is the earliest synthetic start time: a pod bound by the
	// run starts one minute after the previous one, the first one minute
	// after the latest of StartClock and every bound pod's
	// status.startTime. Zero means 2020-01-01T00:00:00Z.
	StartClock time.Time
	// KeepNodeStatuses keeps every node's filter status of the pods that
	// found no feasible node (PodOutcome.NodeStatuses).
	KeepNodeStatuses bool
	// StopAtUnplaced ends the run at the first pod whose outcome is neither
	// Scheduled nor PreemptionNominated: QueueResult.Results then end with
	// that pod, and the pods after it are not attempted (their Placements
	// stay ""). A capacity question ("how many of these fit") needs no
	// more.
	StopAtUnplaced bool
}

// DefaultStartClock returns the start time the conformance scenarios give
// bound pods that have neither status.startTime nor creationTimestamp,
// 2020-01-01T00:00:00Z (a function, so that no caller can change it for
// everyone).
func DefaultStartClock() time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC) }

// PodOutcome is the result of one pod's scheduling attempt.
type PodOutcome struct {
	Pod           string  // namespace/name
	Priority      int32   // the pod's priority
	QueuePosition int     // its position in QueueResult.QueueOrder
	Outcome       Outcome // what happened to it
	// Node is the chosen node, or the nominated node after preemption.
	Node string
	// FeasibleNodes is the number of nodes that passed every filter.
	FeasibleNodes int
	// TotalScore of the chosen node; nil when at most one node was feasible
	// (upstream does not score then).
	TotalScore *int64
	// Message is upstream's FitError text including the PostFilter part.
	Message string
	// Error is set for invalid input or a plugin Error status.
	Error string
	// Gated is SchedulingGates' rejection of a gated pod.
	Gated *framework.Status
	// PreFilter is the aggregated PreFilter status (zero for gated pods).
	PreFilter framework.Status
	// NodeStatuses are every node's filter status, in node-name order, for
	// a pod that found no feasible node (only with
	// QueueOptions.KeepNodeStatuses).
	NodeStatuses NodeStatuses
	// Preemption is set when the pod went through PostFilter.
	Preemption *Result
}

// PodPlacement is where a queued pod ended ("" when nowhere).
type PodPlacement struct {
	Pod  string // namespace/name
	Node string // where it was bound or nominated; "" if nowhere or evicted later
}

// QueueResult is the outcome of ScheduleQueue.
type QueueResult struct {
	// QueueOrder are the pods' keys in the order they were popped.
	QueueOrder []string
	// Results follow QueueOrder (up to the first unplaced pod with
	// QueueOptions.StopAtUnplaced).
	Results []PodOutcome
	// Placements of every queued pod, in queue order.
	Placements []PodPlacement
	// Evicted are the victims' keys in eviction order.
	Evicted []string
	// Final is the cluster after every binding and eviction. Like any
	// snapshot it keeps its objects by reference, the pending pods too (a
	// bound pod shares its pending pod's maps and slices): they must not
	// be modified while Final is in use.
	Final *placement.Snapshot
}

// ScheduleQueue schedules pending pods one at a time against snap, as
// kube-scheduler v1.36's scheduling loop would with each pod tried once:
// pods are popped in SortQueue order; a pod with scheduling gates keeps its
// place with outcome Gated; every other pod goes through the scheduling
// cycle (placement.Compile, Compiled.Schedule) and is bound at once to the best node (highest
// total score, then the lowest name; with one feasible node no scoring), or,
// when no node is feasible, through DefaultPreemption: its victims are
// evicted and the pod is bound to the nominated node (PreemptionNominated),
// so later pods see the new state (a profile without DefaultPreemption at
// PostFilter, see placement.Options.Preempts, leaves it Unschedulable with
// the fit error alone). A bound pod gets phase Running and a
// synthetic status.startTime (see QueueOptions.StartClock). PDB status is
// not changed by evictions.
//
// The pods must already carry their admitted priority (see
// PriorityClasses.Admit); spec.nodeName on a pending pod is treated as a
// constraint (NodeName filter), and status.nominatedNodeName is honoured
// by Eligible. Neither snap nor the pods are modified. An error means
// invalid input: a nil snapshot or pod (ErrInvalidInput), nominated pods that do not compile,
// or a snapshot built for another version than opts.Placement.Version
// (placement.ErrVersionMismatch); a pod's own invalid spec is its outcome
// Error instead.
func ScheduleQueue(snap *placement.Snapshot, pending []*corev1.Pod, opts QueueOptions) (*QueueResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidInput)
	}
	q, err := PrepareQueue(pending, opts)
	if err != nil {
		return nil, err
	}
	return q.Schedule(snap)
}

// Queue is a list of pending pods in queue order with what each pod's
// compilation reads from the pod and the options alone done ahead
// (placement.Prepare), so that the same queue can be scheduled against
// several snapshots (what-if clusters) without compiling its pods again,
// and prepared while a snapshot is being built. It is immutable and safe
// for concurrent use. It keeps the pods by reference, as a snapshot keeps
// its input objects: they must not change while it is used, nor while a
// snapshot one of its runs returned is (a bound pod there shares its
// pending pod's maps and slices).
type Queue struct {
	order    []*corev1.Pod
	keys     []string
	prepared []*placement.Prepared
	// stored are the pods as the API server stores them (StoredPod: the
	// pod itself when nothing changes). A binding copies one's Pod struct
	// and sets the copy's node, phase and start time, which are fields of
	// the struct's own Spec and Status values: the pod is never written,
	// and its maps and slices are shared, not copied (a deep copy per pod
	// was a fifth of a 1000-pod basic queue's time).
	stored []*corev1.Pod
	// class[i] is the class of pod i among pods with the same node-local
	// answers (fastpath.PodKeys); a run keeps one memo per class.
	class      []int
	numClasses int
	classSize  []int // pods per class: a small class keeps no memo (minMemoClass)
	// topoClass[i] is the class of pod i among pods with the same whole
	// scheduling input (fastpath.PodKeys): a pod is compiled from
	// the topology state of its class's previous pod, moved onto its own
	// snapshot.
	topoClass      []int
	numTopoClasses int
	opts           QueueOptions
	// noMemo schedules every pod from scratch (the tests' reference), and
	// noBuffers gives every decision arrays of its own.
	noMemo    bool
	noBuffers bool
	// carry, when set, replaces maxCarry (the tests draw shorter ones, so
	// that short queues retire views too).
	carry int
}

// carryLimit is the most queue positions over which a topology state is
// carried (maxCarry unless the tests set another).
func (q *Queue) carryLimit() int {
	if q.carry > 0 {
		return q.carry
	}
	return maxCarry
}

// PrepareQueue orders pending (SortQueue) and prepares every pod for
// Queue.Schedule, in parallel with opts.Placement.Parallelism goroutines.
// It returns an error for a nil pod; a pod's own invalid spec is its
// outcome Error when the queue is scheduled. The pods are not modified.
func PrepareQueue(pending []*corev1.Pod, opts QueueOptions) (*Queue, error) {
	for i, p := range pending {
		if p == nil {
			return nil, fmt.Errorf("%w: pending[%d] is nil", ErrInvalidInput, i)
		}
	}
	order := SortQueue(pending)
	q := &Queue{order: order, keys: make([]string, len(order)), prepared: make([]*placement.Prepared, len(order)),
		stored: make([]*corev1.Pod, len(order)), opts: opts}
	localKeys, topoKeys := make([]string, len(order)), make([]string, len(order))
	// Encoding a pod for its keys costs more than a small class saves:
	// only pods of a workload with enough pending pods (or of none), and
	// pods whose spec's cheap fingerprint enough pending pods share (many
	// small workloads of one template), are encoded; the others are
	// classes of their own.
	workload := make([]string, len(order))
	perWorkload := map[string]int{}
	for i, p := range order {
		workload[i] = workloadOf(p)
		perWorkload[workload[i]]++
	}
	encode := make([]bool, len(order))
	prints := map[uint64][]int{}
	for i, p := range order {
		if perWorkload[workload[i]] >= minMemoClass {
			encode[i] = true
			continue
		}
		f := specPrint(p)
		prints[f] = append(prints[f], i)
		if same := prints[f]; len(same) >= minMemoClass {
			for _, j := range same {
				encode[j] = true
			}
		}
	}
	opts.Placement.Workers.Run(opts.Placement.Parallelism, len(order), func(i int) {
		q.keys[i] = podNamespace(order[i]) + "/" + order[i].Name
		// Bindings hold the pod as the API server stores it (what Prepare
		// compiles too).
		stored := placement.StoredPod(order[i])
		q.prepared[i] = placement.Prepare(stored, opts.Placement)
		q.stored[i] = stored
		if encode[i] {
			localKeys[i], topoKeys[i] = fastpath.PodKeys(q.prepared[i])
		} else {
			localKeys[i] = "\x02" + strconv.Itoa(i)
			topoKeys[i] = localKeys[i]
		}
	})
	q.classify(localKeys, topoKeys)
	return q, nil
}

// specPrint is a cheap fingerprint of a pod's spec, from the fields that
// usually tell templates apart (containers' images and requests, node
// selector, tolerations, node affinity, priority class, scheduler):
// pods whose specs are equal get equal prints (it reads nothing else), so
// pods that could share a class are encoded together. Pods with equal
// prints may still differ (their keys tell): the print only decides which
// pods are worth encoding.
func specPrint(p *corev1.Pod) uint64 {
	h := uint64(fnvStart)
	str := func(v string) { h = fnvString(h, v) }
	num := func(v uint64) { h = fnvNum(h, v) }
	// Maps are summed per entry: iteration order does not matter.
	pairs := func(m map[string]string) uint64 {
		var sum uint64
		for k, v := range m {
			sum += fnvString(fnvString(fnvStart, k), v)
		}
		return sum
	}
	resources := func(l corev1.ResourceList) uint64 {
		var sum uint64
		for name, q := range l {
			sum += fnvNum(fnvString(fnvStart, string(name)), uint64(q.MilliValue()))
		}
		return sum
	}
	spec := &p.Spec
	for _, list := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		num(uint64(len(list)))
		for i := range list {
			c := &list[i]
			str(c.Image)
			num(resources(c.Resources.Requests))
			num(resources(c.Resources.Limits))
			num(uint64(len(c.Ports)))
		}
	}
	num(pairs(spec.NodeSelector))
	for _, t := range spec.Tolerations {
		str(t.Key)
		str(string(t.Operator))
		str(t.Value)
		str(string(t.Effect))
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		if r := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			for _, term := range r.NodeSelectorTerms {
				for _, e := range term.MatchExpressions {
					str(e.Key)
					str(string(e.Operator))
					for _, v := range e.Values {
						str(v)
					}
				}
			}
		}
		num(uint64(len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)))
	}
	str(spec.PriorityClassName)
	str(spec.SchedulerName)
	return h
}

// FNV-1a, 64 bits, over strings (each ended by a zero byte) and numbers
// (eight bytes, little end first).
const (
	fnvStart uint64 = 14695981039346656037
	fnvPrime uint64 = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h * fnvPrime // the zero byte
}

func fnvNum(h, v uint64) uint64 {
	for range 8 {
		h = (h ^ (v & 0xff)) * fnvPrime
		v >>= 8
	}
	return h
}

// workloadOf names the pod's controller (namespace and the controller
// reference's UID, else kind and name); "" for a pod without one.
func workloadOf(p *corev1.Pod) string {
	ref := metav1.GetControllerOfNoCopy(p)
	if ref == nil {
		return ""
	}
	if ref.UID != "" {
		return p.Namespace + "/" + string(ref.UID)
	}
	return p.Namespace + "/" + ref.Kind + "/" + ref.Name
}

// minMemoClass is the fewest pods a class needs for a memo: a memo costs
// arrays over every node slot, and its first pod fills them at full cost.
const minMemoClass = 4

// maxCarry is the most queue positions over which a pod's topology state is
// carried to the next pod of its class.
const maxCarry = 16

// viewChain is the views a run makes, oldest first, so that the node list
// of one far enough behind the newest can be reused by the next binding
// (cluster.Retire) instead of a fresh copy per binding. A view is read
// after the position that made it only through a carried topology state,
// over at most carry positions, and a position makes at most two views
// (its evictions, then its binding): a view 2*carry+4 views behind is read
// by nothing, neither by the current pod nor by any carried state.
type viewChain struct {
	views []*cluster.Snapshot
	keep  int
}

// made records a view the run made.
func (c *viewChain) made(v *cluster.Snapshot) { c.views = append(c.views, v) }

// spare retires the oldest view when it is far enough behind and returns
// its node list (nil when there is none to reuse).
func (c *viewChain) spare() []*cluster.NodeInfo {
	if len(c.views) <= c.keep {
		return nil
	}
	old := c.views[0]
	c.views[0] = nil
	c.views = c.views[1:]
	return cluster.Retire(old)
}

// classify numbers the classes of equivalent pods (fastpath.PodKeys):
// by their node-local answers (class) and by their whole scheduling input
// (topoClass).
func (q *Queue) classify(local, topology []string) {
	q.class, q.numClasses = classesOf(local)
	q.topoClass, q.numTopoClasses = classesOf(topology)
	q.classSize = make([]int, q.numClasses)
	for _, k := range q.class {
		q.classSize[k]++
	}
}

// classesOf numbers the distinct keys in order of first appearance.
func classesOf(keys []string) ([]int, int) {
	class := make([]int, len(keys))
	ids := map[string]int{}
	for i, k := range keys {
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		class[i] = id
	}
	return class, len(ids)
}

// Len returns the number of pods in the queue.
func (q *Queue) Len() int { return len(q.order) }

// Schedule is ScheduleQueue(snap, pending, opts) for the prepared pods and
// options: the same result, the pods' preparation not redone. Neither snap
// nor the queue is modified.
func (q *Queue) Schedule(snap *placement.Snapshot) (*QueueResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidInput)
	}
	opts, order := q.opts, q.order
	// Once for the run, rather than as every pod's Error outcome.
	if err := opts.Placement.Version.CheckSnapshot(snap); err != nil {
		return nil, fmt.Errorf("preemption: %w", err)
	}
	res := &QueueResult{QueueOrder: append([]string(nil), q.keys...), Evicted: []string{}}
	if len(q.keys) > 0 {
		res.Results = make([]PodOutcome, 0, len(q.keys)) // one array, not grown pod by pod
	}
	clock := opts.StartClock
	if clock.IsZero() {
		clock = DefaultStartClock()
	}
	// The clock starts after every bound pod's start time.
	for _, n := range cluster.NodesOf(snapshotOf(snap)) {
		for _, pi := range n.Pods {
			if t, ok := pi.StartTime(); ok && t.After(clock) {
				clock = t
			}
		}
	}
	placed := make(map[string]int, len(order))
	for i, key := range q.keys {
		placed[key] = i
		res.Placements = append(res.Placements, PodPlacement{Pod: key})
	}
	nm, err := newNominator(opts.Preemption.NominatedPods)
	if err != nil {
		return nil, err
	}
	popts := opts.Preemption
	if popts.Parallelism == 0 {
		// The dry run may use the goroutines the cycle's filter and score use.
		popts.Parallelism = opts.Placement.Parallelism
	}
	// The run is a chain of short fork-joins, one series per pod: unless
	// the caller lends its own, helpers are kept for the run (and only for
	// it) so that each fork finds them awake.
	workers := opts.Placement.Workers
	if workers == nil && max(opts.Placement.Parallelism, popts.Parallelism) > 1 {
		workers = placement.NewWorkers()
		defer workers.Close()
	}
	if popts.Workers == nil {
		popts.Workers = workers
	}
	// PDB status is static during the run: the budgets are compiled once.
	pdbs := compileBudgets(cluster.InputOf(snapshotOf(snap)).PDBs, opts.Preemption.PDBRule)
	prepared := q.prepared
	// One memo per class of equivalent pods, for this run only (a Queue
	// may be scheduled on several snapshots at once).
	memos := make([]any, q.numClasses)
	// The other pods' decisions share one set of per-node arrays, each
	// read before the next pod is decided.
	bufs := fastpath.NewBuffers()
	decision := new(placement.Decision) // CompileDecide's, copied out at once
	var names nodeNames
	dryRunMemos := make([]*dryRunMemo, q.numClasses)
	lastCompiled := make([]*placement.Compiled, q.numTopoClasses)
	lastPos := make([]int, q.numTopoClasses)
	// A bound pod's PodInfo is its compiled one (same spec) unless the
	// snapshot computes requests by the pre-v1.36 rule.
	reuseInfo := !cluster.InputOf(snapshotOf(snap)).WithoutPodLevelResize
	cur := snapshotOf(snap)
	chain := viewChain{keep: 2*q.carryLimit() + 4}
	bind := func(pos int, c *placement.Compiled, node string) error {
		pod := c.Pod()
		b := new(corev1.Pod)
		*b = *q.stored[pos]
		b.Spec.NodeName = node
		b.Status.Phase = corev1.PodRunning
		t := metav1.NewTime(clock.Add(time.Minute))
		b.Status.StartTime = &t
		var next *cluster.Snapshot
		var err error
		if reuseInfo {
			next, err = cur.WithPodInfoReusing(podInfoOf(c).Bound(b), chain.spare())
		} else {
			next, err = cur.WithPod(b)
		}
		if err != nil {
			return fmt.Errorf("preemption: binding %s/%s to %s: %w", podNamespace(pod), pod.Name, node, err)
		}
		chain.made(next)
		cur, clock = next, t.Time
		if nm != nil {
			nm.bound[podNamespace(pod)+"/"+pod.Name] = true
		}
		return nil
	}
	// The next pod's node-local work, started on idle helpers while this
	// one is decided (fastpath.StartLookahead) when the next one is
	// decided in one step too, whose decision ends it; EndLookaheads ends
	// the one a queue stopped early leaves.
	var ahead any
	defer fastpath.EndLookaheads(bufs)
	for pos, pod := range order {
		if opts.StopAtUnplaced && pos > 0 {
			if o := res.Results[pos-1].Outcome; o != Scheduled && o != PreemptionNominated {
				break
			}
		}
		out := PodOutcome{Pod: res.QueueOrder[pos], Priority: PodPriority(pod), QueuePosition: pos}
		if g := prepared[pos].Gated(); g != nil {
			// PreEnqueue rejects it: no PreFilter runs, nothing to compile.
			out.Outcome, out.Gated = Gated, g
			res.Results = append(res.Results, out)
			continue
		}
		var c *placement.Compiled
		var err error
		memoized := q.memoized(pos)
		var cc any
		// A state is carried over a few bindings only: past them, deriving
		// it from every changed node costs what building it does.
		var carried *placement.Compiled
		if prev := lastCompiled[q.topoClass[pos]]; prev != nil && !q.noMemo && pos-lastPos[q.topoClass[pos]] <= q.carryLimit() {
			carried = prev
		}
		// Without a memo, the pod is compiled and decided in one step that
		// overlaps its PreFilters with the decision's node-local work.
		decided := q.decidesPipelined(pos, workers)
		switch {
		case decided:
			la := ahead // this pod's, when the one before started it
			ahead = nil
			if next := pos + 1; next < len(order) && q.decidesPipelined(next, workers) {
				ahead = fastpath.StartLookahead(prepared[next], cur, workers, bufs)
			}
			cc, err = fastpath.CompileDecide(prepared[pos], cur, workers, bufs, carried, la, decision)
		case carried != nil:
			cc, err = fastpath.CompileAfter(prepared[pos], cur, workers, carried)
		default:
			// Short PreFilters run on this goroutine alone (placement
			// decides which); so does a memoized pod's decision on few
			// nodes (fastpath.WithMemo below).
			cc, err = fastpath.CompileSerial(prepared[pos], cur, workers, memoized)
		}
		if cc != nil {
			c = cc.(*placement.Compiled)
		}
		if err != nil {
			out.Outcome, out.Error = Failed, err.Error()
			res.Results = append(res.Results, out)
			continue
		}
		lastCompiled[q.topoClass[pos]], lastPos[q.topoClass[pos]] = c, pos
		var d placement.Decision // a single feasible node's score is not reported
		switch {
		case decided:
			d = *decision
		case memoized:
			if memos[q.class[pos]] == nil {
				memos[q.class[pos]] = fastpath.NewMemo(c)
			}
			d = fastpath.WithMemo(c, memos[q.class[pos]]).(*placement.Compiled).Decide()
		case !q.noBuffers:
			d = fastpath.WithBuffers(c, bufs).(*placement.Compiled).Decide()
		default:
			d = c.Decide()
		}
		if nm != nil {
			if d, err = withNominated(c, d, nm); err != nil {
				out.Outcome, out.Error = Failed, err.Error()
				res.Results = append(res.Results, out)
				continue
			}
		}
		if d.Gated != nil {
			out.Outcome, out.Gated = Gated, d.Gated
			res.Results = append(res.Results, out)
			continue
		}
		out.PreFilter = d.PreFilter
		out.FeasibleNodes = d.Feasible
		if msg, failed := cycleError(&d); failed {
			out.Outcome, out.Error = Failed, msg
			res.Results = append(res.Results, out)
			continue
		}
		if d.Feasible > 0 {
			if d.Feasible > 1 {
				total := d.TotalScore
				out.TotalScore = &total
			}
			if err := bind(pos, c, d.Node); err != nil {
				out.Outcome, out.Error = Failed, err.Error()
				res.Results = append(res.Results, out)
				continue
			}
			out.Outcome, out.Node = Scheduled, d.Node
			res.Placements[pos].Node = d.Node
			res.Results = append(res.Results, out)
			continue
		}
		if opts.KeepNodeStatuses {
			// A class's memo hands every pod of the class the same array
			// (valid until the class's next pod), and the buffers every
			// other pod theirs, with the filters' shared reason texts: the
			// kept statuses are a copy whose reasons are the pod's own
			// (one copy of each shared text, read-only as NodeStatuses
			// says).
			statuses := slices.Clone(d.Statuses)
			sched.OwnSharedReasons(len(statuses), func(i int) *sched.Status { return &statuses[i] })
			out.NodeStatuses = NodeStatuses{nodes: names.of(cur), statuses: statuses}
		}
		if !opts.Placement.Preempts() {
			// No PostFilter plugin: the fit error alone (RunPostFilterPlugins
			// returns an Unschedulable status without a message).
			out.Outcome, out.Message = Unschedulable, d.Message
			res.Results = append(res.Results, out)
			continue
		}
		var dm *dryRunMemo
		if q.memoized(pos) {
			if dryRunMemos[q.class[pos]] == nil {
				dryRunMemos[q.class[pos]] = &dryRunMemo{}
			}
			dm = dryRunMemos[q.class[pos]]
		}
		pre, err := preemptCompiled(c, d.Statuses, popts, nm, pdbs, dm)
		if err != nil {
			out.Outcome, out.Error = Failed, err.Error()
			res.Results = append(res.Results, out)
			continue
		}
		out.Preemption = pre
		out.Outcome = Unschedulable
		out.Message = d.Message
		if m := pre.Message(); m != "" {
			out.Message += " " + m
		}
		switch {
		case pre.Status.OK():
			keys := make([]string, len(pre.Victims))
			for i, v := range pre.Victims {
				keys[i] = v.Key
				res.Evicted = append(res.Evicted, v.Key)
				if j, ok := placed[v.Key]; ok {
					res.Placements[j].Node = ""
				}
			}
			if next := cur.WithoutPods(keys...); next != cur { // the same snapshot when no victim was bound
				chain.made(next)
				cur = next
			}
			if err := bind(pos, c, pre.NominatedNode); err != nil {
				// The victims are gone already, as upstream evicts them
				// before the pod is bound.
				out.Outcome, out.Error = Failed, err.Error()
				break
			}
			out.Outcome, out.Node = PreemptionNominated, pre.NominatedNode
			res.Placements[pos].Node = pre.NominatedNode
		case pre.Status.Code == sched.Error:
			out.Error = pre.Message()
		}
		res.Results = append(res.Results, out)
	}
	res.Final = publicSnapshot(cur)
	return res, nil
}

// decidesPipelined reports whether Schedule decides the pod at pos in one
// step with fastpath.CompileDecide (as the pods of no memo class are, when
// there are helpers), which is also when a lookahead serves it.
func (q *Queue) decidesPipelined(pos int, workers *placement.Workers) bool {
	return !q.memoized(pos) && !q.noBuffers && workers != nil && q.prepared[pos].Gated() == nil
}

// memoized reports whether the pod at pos belongs to a class big enough
// for a memo (its decision's and its dry run's).
func (q *Queue) memoized(pos int) bool {
	return !q.noMemo && q.classSize[q.class[pos]] >= minMemoClass
}

// cycleError reports a scheduling cycle that ended in an Error status: a
// failed PreFilter or a Filter plugin error on some node (upstream's
// findNodesThatPassFilters then aborts the cycle).
func cycleError(d *placement.Decision) (string, bool) {
	if d.Err != nil {
		return d.Err.Error(), true
	}
	if d.PreFilter.Code == sched.Error {
		return d.PreFilter.String(), true
	}
	for _, s := range d.Statuses {
		if s.Code == sched.Error {
			return s.String(), true
		}
	}
	return "", false
}

// nodeNames holds a queue's node names in node order, listed once: a queue
// binds and evicts pods but adds or removes no node, so the NodeStatuses
// of all its pods share one list.
type nodeNames struct{ list []string }

// of returns the names of snap's nodes. It lists them again when their
// number, first or last name differs from the list's (a queue's views all
// have the same nodes, so one check at each end is enough).
func (n *nodeNames) of(snap *cluster.Snapshot) []string {
	nodes := cluster.NodesOf(snap)
	same := len(n.list) == len(nodes)
	for i := 0; same && i < len(nodes); i += max(1, len(nodes)-1) {
		same = n.list[i] == nodes[i].Name
	}
	if !same {
		n.list = make([]string, len(nodes))
		for i, ni := range nodes {
			n.list[i] = ni.Name
		}
	}
	return n.list
}
