package placement

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/topo"
)

// A scheduling loop asks the same question again and again: the pods of a
// queue mostly come from a few templates (a Deployment's replicas), and
// between two of them only the node the first was bound to has changed. The
// node-local plugins (every Filter and Score plugin but PodTopologySpread
// and InterPodAffinity) read nothing but the pod's spec and the node, so
// their verdicts and raw scores for one template on an unchanged node are
// the ones already computed. This is the reason kube-scheduler once had an
// equivalence cache (pkg/scheduler/core/equivalence_cache.go, since
// removed) and v1.35's OpportunisticBatching reuses one pod's ranking for
// the next pod with the same signature.
//
// A memo holds those answers for one class of equivalent pods (equal local
// keys, podKeys) during one scheduling loop, per node slot
// (NodeInfo.Index). An entry records the node state it was computed on:
// snapshot views copy a node's NodeInfo when they change it and share it
// otherwise, so an entry is valid exactly while the node's NodeInfo pointer
// is the one recorded. The topology plugins run per pod (from a state
// carried from the class's previous pod, compileAfter); normalization and
// host selection run over the whole feasible list as before, so the
// decision is the one computed from scratch (preemption's property test
// compares the two).
//
// A memo is used by one goroutine at a time per node slot: Decide's
// parallel passes write disjoint slots. It belongs to one loop over one set
// of nodes (the image spread ImageLocality reads is the node set's).
type memo struct {
	// filterAt[i] is the node state the filter entry of slot i was
	// computed on (nil: none).
	filterAt []*cluster.NodeInfo
	// failed[i] is the first node-local filter (profile order) that fails
	// on slot i, memoPass when none does, memoUncached when its verdict
	// carries reasons built per node (an extended-resource shortfall);
	// code[i] is that filter's local code.
	failed []int8
	code   []uint8
	// scoreAt and raw are the same for the node-local Score plugins' raw
	// scores (localScores order).
	scoreAt []*cluster.NodeInfo
	raw     [][numLocalScores]int64

	// Per-pod buffers, reused pod after pod (the loop decides one pod at
	// a time): the feasible nodes, a pod's filter codes and, when it fits
	// nowhere, its statuses (Decision.Codes and Statuses: valid until the
	// class's next pod is decided) and the topology plugins' scores.
	feasible []*cluster.NodeInfo
	codes    []sched.Code
	statuses []sched.Status
	// statusAt[i] is the node state statuses[i] was computed on, when the
	// pod that computed it ran no topology filter (its status is then the
	// class's node-local answer, the same for the next pod on that state);
	// nil: recompute.
	statusAt []*cluster.NodeInfo
	spread   topo.SpreadScratch
	affinity topo.AffinityScratch
	// selectMemo's per-node raw TaintToleration and NodeAffinity scores
	// and weighted sums of the other node-local plugins.
	taintRaw, affinityRaw, localSum []int64
	// fitNowhere records that the class's last pod fit on no node (see
	// setMemo).
	fitNowhere bool
}

const (
	memoPass     = -1
	memoUncached = -2
)

// localScores are the node-local Score plugins, in score order: the order
// of a memo's raw scores and of the scores made ahead (aheadScores).
var localScores = [...]int{sTaintToleration, sNodeAffinity, sNodeResourcesFit, sBalancedAllocation, sImageLocality}

const numLocalScores = len(localScores)

// newMemo sizes a memo for the node slots of nodes.
func newMemo(nodes []*cluster.NodeInfo) *memo {
	size := 0
	for _, n := range nodes {
		size = max(size, n.Index+1)
	}
	return &memo{
		filterAt: make([]*cluster.NodeInfo, size),
		failed:   make([]int8, size),
		code:     make([]uint8, size),
		scoreAt:  make([]*cluster.NodeInfo, size),
		raw:      make([][numLocalScores]int64, size),
	}
}

// decisionBuffers are the per-node arrays a scheduling loop's decisions
// without a memo fill, one pod after another: a large cluster's statuses
// are a quarter of a megabyte per unschedulable pod, and fresh memory costs
// a page fault per page on its first write.
type decisionBuffers struct {
	codes    []sched.Code
	statuses []sched.Status
	taints   taintMemo
	// The lookaheads of the pod being decided and of the next one
	// (startLookahead alternates between them).
	looks    [2]lookahead
	nextLook int
}

// taintMemo returns b's taint verdicts memo (nil for a nil b).
func (b *decisionBuffers) taintMemo() *taintMemo {
	if b == nil {
		return nil
	}
	return &b.taints
}

// withBuffers makes c's decisions without a memo fill b's arrays, and
// returns c, which must be its caller's own (as for setMemo). The
// Decision's Codes and Statuses are then valid until the next decision
// through b, and the statuses' reasons are the filters' shared texts (as a
// memo's are): a caller keeping them copies both.
func (c *Compiled) withBuffers(b *decisionBuffers) *Compiled {
	c.bufs = b
	return c
}

// anyNoState reports whether a Filter plugin of c runs without its
// PreFilter's state.
func (c *Compiled) anyNoState() bool {
	for _, ns := range c.noState {
		if ns {
			return true
		}
	}
	return false
}

// setMemo makes c answer Decide through m, and returns it. c must be its
// caller's own: a scheduling loop compiles each pod afresh, so that
// setting the memo in place spares a copy of the whole Compiled per pod (a
// pod carried from, compileAfter, lends only its topology states). A
// profile whose Filter plugins run without their PreFilter state (noState)
// is not memoized: its Error statuses come first on every node anyway.
func (c *Compiled) setMemo(m *memo) *Compiled {
	if c.anyNoState() {
		return c
	}
	c.memo = m
	if m.fitNowhere || atMostNodes(c.snap, maxSerialMemoNodes) {
		// Its node-local verdicts and scores are memo lookups, and on so
		// few nodes its topology filters and scores are short too:
		// handing a share of the nodes to another core costs more than it
		// takes over. A class whose last pod fit nowhere is decided here
		// too: its pods' decisions are mostly memo lookups, and a queue
		// follows each with a serial preemption dry run, through which
		// helpers woken for the decision would keep spinning on the core
		// the collector's idle worker would otherwise have (measured on
		// the preemption shape, where every pod preempts).
		c.opts.Parallelism, c.opts.Workers = 1, nil
	}
	return c
}

// maxSerialMemoNodes is the most nodes on which a memoized pod is decided
// on the calling goroutine alone: below 2*minChunk nodes forChunks does
// not split a pass anyway, and forking the decision's few tasks would cost
// more than they take. On more nodes the decision shares its work as the
// options say. Measured on 2 cores at 1000 nodes, against deciding every
// memoized pod serially up to 2048 nodes (whole queues of scheduler_perf
// shapes, 6 to 12 alternated pairs each; best times): spread 0.070 ->
// 0.062 s, preferred-affinity 0.084 -> 0.073, anti-affinity 0.133 ->
// 0.122, preferred-anti-affinity 0.086 -> 0.078, basic and mixed
// unchanged; preemption 0.214 -> 0.229, which the fitNowhere rule in
// setMemo takes back. Serial decisions won before idle helpers stopped
// yielding at every look for work (internal/par spinChecks): a fork's
// hand-over then cost more.
const maxSerialMemoNodes = 2*minChunk - 1

// maxShortPassNodes is the most nodes on which a memoized pod, and a pod
// without a required topology term of its own, is compiled (its PreFilters
// run) on the calling goroutine alone: their per-node work is a few
// nanoseconds, and a fork-join's hand-over costs microseconds. Measured on
// 2 cores (whole queues of scheduler_perf shapes): at 1000 nodes,
// compiling them with the options' parallelism instead is no faster
// (median ratios over 6 alternated pairs: spread 1.02, preferred-affinity
// 1.02, anti-affinity 1.03); at 5000 nodes the shares pay.
const maxShortPassNodes = 2048

// atMostNodes reports whether snap has at most n nodes (false for none).
func atMostNodes(snap *cluster.Snapshot, n int) bool {
	return snap != nil && len(cluster.NodesOf(snap)) <= n
}

// memoSlot returns n's slot in c.memo, or -1 when n has none (a node the
// memo was not sized for).
func (c *Compiled) memoSlot(n *cluster.NodeInfo) int {
	if c.memo == nil || n.Index < 0 || n.Index >= len(c.memo.failed) {
		return -1
	}
	return n.Index
}

// localVerdict returns the first failing node-local filter on n with its
// code (memoPass: none; memoUncached: compute the node's verdict in full),
// from the memo when its entry is for n's current state.
func (c *Compiled) localVerdict(n *cluster.NodeInfo) (int8, uint8) {
	i := c.memoSlot(n)
	m := c.memo
	if i >= 0 && m.filterAt[i] == n {
		return m.failed[i], m.code[i]
	}
	failed, code := int8(memoPass), uint8(0)
	for _, f := range c.active {
		p := int(f)
		if !isLocal(p) {
			continue
		}
		lc, ok := c.localCode(p, n)
		if !ok {
			failed = memoUncached
			break
		}
		if lc != 0 {
			failed, code = f, lc
			break
		}
	}
	if i >= 0 {
		m.filterAt[i], m.failed[i], m.code[i] = n, failed, code
	}
	return failed, code
}

// topologyFilters reports whether a topology filter runs for the pod.
func (c *Compiled) topologyFilters() bool {
	for _, f := range c.active {
		if !isLocal(int(f)) {
			return true
		}
	}
	return false
}

// filterCodesMemo writes every node's filter code for a pod with a memo and
// no topology filter: its verdict is the first failing node-local filter's,
// read straight from the memo's entry when that entry is for the node's
// current state (filterCodeMemo without the walk over the active filters),
// computed by filterCodeMemo otherwise. The preFilter has passed;
// inResult is its node restriction by slot (resultSlots).
func (c *Compiled) filterCodesMemo(nodes []*cluster.NodeInfo, codes []sched.Code, inResult []bool) {
	m := c.memo
	for i, n := range nodes {
		if inResult != nil && !inResult[n.Index] {
			codes[i] = c.absent.Code
			continue
		}
		if j := n.Index; j >= 0 && j < len(m.failed) && m.filterAt[j] == n {
			switch f := m.failed[j]; f {
			case memoPass:
				codes[i] = sched.Success
				continue
			case memoUncached:
			default:
				codes[i] = localStatusCode(int(f), m.code[j])
				continue
			}
		}
		codes[i] = c.filterCodeMemo(n)
	}
}

// filterCodeMemo is filterCode through the memo: the node-local filters'
// first failure comes from it, the topology filters before that failure in
// profile order are run. The preFilter has passed.
func (c *Compiled) filterCodeMemo(n *cluster.NodeInfo) sched.Code {
	failed, code := c.localVerdict(n)
	if failed == memoUncached {
		return c.filterCode(n)
	}
	for _, f := range c.active {
		switch p := int(f); {
		case f == failed:
			return localStatusCode(p, code)
		case p == fPodTopologySpread:
			if c.spread != nil {
				if code := c.spread.Filter(n).Code; !code.Passes() {
					return code
				}
			}
		case p == fInterPodAffinity:
			if c.ipa != nil {
				if code := c.ipa.FilterCode(n); !code.Passes() {
					return code
				}
			}
		}
	}
	return sched.Success
}

// filterMemo is filter through the memo (shared reasons). The preFilter
// has passed.
func (c *Compiled) filterMemo(n *cluster.NodeInfo) sched.Status {
	failed, code := c.localVerdict(n)
	if failed == memoUncached {
		return c.filter(n)
	}
	for _, f := range c.active {
		p := int(f)
		if f == failed {
			st := localStatus(p, code)
			st.Plugin = filterNames[p]
			return st
		}
		if isLocal(p) {
			continue
		}
		if st := c.filterOne(p, n); !st.Code.Passes() {
			st.Plugin = filterNames[p]
			return st
		}
	}
	return sched.Status{}
}

// rawLocal returns the node-local Score plugins' raw scores on n
// (localScores order; a plugin want leaves out is 0), from the memo when its
// entry is for n's current state. want is the same for every pod of a
// memo's class (it follows the pod and the options).
func (c *Compiled) rawLocal(want *[numLocalScores]bool, n *cluster.NodeInfo, lc *localScorer) [numLocalScores]int64 {
	var tmp [numLocalScores]int64
	return *c.rawLocalIn(want, n, lc, &tmp)
}

// rawLocalIn is rawLocal without the copy: the memo's entry for n, or tmp
// filled when n has no slot in the memo.
func (c *Compiled) rawLocalIn(want *[numLocalScores]bool, n *cluster.NodeInfo, lc *localScorer, tmp *[numLocalScores]int64) *[numLocalScores]int64 {
	i := c.memoSlot(n)
	if i >= 0 && c.memo.scoreAt[i] == n {
		return &c.memo.raw[i]
	}
	out := tmp
	if i >= 0 {
		out = &c.memo.raw[i]
	}
	lc.raw(c, want, n, out)
	if i >= 0 {
		c.memo.scoreAt[i] = n
	}
	return out
}

// selectMemo is Score followed by host selection for a pod with a memo:
// the index in feasible of the node with the highest weighted total (the
// first of equals) and that total, computed from the memo's raw scores
// without Score's per-plugin arrays. ok is false when scoring fails (a
// profile missing a PreScore, a score out of range): the caller then runs
// score for the exact error.
func (c *Compiled) selectMemo(feasible []*cluster.NodeInfo) (best int, total int64, ok bool) {
	var w [numScores]int64
	for p := range numScores {
		w[p] = c.opts.weight(scoreNames[p])
	}
	if pl := c.opts.Plugins; pl != nil {
		for p, reason := range preScoreStateErrors {
			if reason != "" && w[p] != 0 && !slices.Contains(pl.PreScore, scoreNames[p]) {
				return 0, 0, false
			}
		}
	}
	// The PreScore Skips of Score.
	if c.preferred == nil && c.addedPreferred == nil {
		w[sNodeAffinity] = 0
	}
	if !slices.ContainsFunc(c.balReqs, func(v int64) bool { return v != 0 }) {
		w[sBalancedAllocation] = 0
	}
	var want [numLocalScores]bool
	for k, p := range localScores {
		want[k] = w[p] != 0
	}
	// The topology plugins score as in Score; their results come
	// normalized.
	var spreadNorm, ipaNorm []int64
	spread := w[sPodTopologySpread] != 0 && c.spread != nil
	ipa := w[sInterPodAffinity] != 0 && c.ipa != nil && !c.ipaPreScoreSkips()
	topoScore := func(which int) {
		var norm []int64
		var skipped bool
		if which == sPodTopologySpread {
			_, norm, skipped = c.spread.ScoreWith(feasible, &c.memo.spread)
		} else {
			_, norm, skipped = c.ipa.ScoreWith(feasible, &c.memo.affinity)
		}
		if skipped {
			norm = nil
		}
		if which == sPodTopologySpread {
			spreadNorm = norm
		} else {
			ipaNorm = norm
		}
	}
	// The node-local plugins' pass runs beside the topology plugins' (with
	// Options.Parallelism above 1): it reads the memo's score entries and
	// writes them and the per-node buffers below, which the topology
	// plugins do not touch. It records each node's raw TaintToleration and
	// NodeAffinity scores, which normalize over the feasible nodes
	// (defaultNormalize: their tops), and the weighted sum of the others.
	m := c.memo
	m.taintRaw, m.affinityRaw, m.localSum = reuse(m.taintRaw, len(feasible)), reuse(m.affinityRaw, len(feasible)), reuse(m.localSum, len(feasible))
	taintRaw, affinityRaw, localSum := m.taintRaw, m.affinityRaw, m.localSum
	var topTaint, topAffinity int64
	localInRange := true
	// The weights of the summed plugins in memo order: a plugin want
	// leaves out has weight 0 and raw score 0 (rawLocal), which adds
	// nothing and is in range.
	var sumWeights [numLocalScores]int64
	for j := 2; j < numLocalScores; j++ {
		sumWeights[j] = w[localScores[j]]
	}
	local := func() {
		lc := c.newLocalScorer()
		// Kept in locals for the loop: the closure's captured variables
		// would be stored at every node.
		var tt, ta int64
		var tmp [numLocalScores]int64
		ok := true
		for k, n := range feasible {
			raw := c.rawLocalIn(&want, n, lc, &tmp)
			tt, ta = max(tt, raw[0]), max(ta, raw[1])
			taintRaw[k], affinityRaw[k] = raw[0], raw[1]
			var sum int64
			for j := 2; j < numLocalScores; j++ {
				v := raw[j]
				ok = ok && inRange(v)
				sum += v * sumWeights[j]
			}
			localSum[k] = sum
		}
		topTaint, topAffinity, localInRange = tt, ta, ok
	}
	var tasks [3]func()
	run := append(tasks[:0], local)
	if spread {
		run = append(run, func() { topoScore(sPodTopologySpread) })
	}
	if ipa {
		run = append(run, func() { topoScore(sInterPodAffinity) })
	}
	runAll(c.opts.runner(), run) // the local pass alone runs inline
	// Any score out of range sends the caller to score for the exact
	// error, whichever node it is on.
	if !localInRange {
		return 0, 0, false
	}
	wTaint, wAffinity, wSpread, wIPA := w[sTaintToleration], w[sNodeAffinity], w[sPodTopologySpread], w[sInterPodAffinity]
	for k := range feasible {
		sum := localSum[k]
		if want[0] {
			v := int64(sched.MaxNodeScore)
			if topTaint != 0 {
				v = sched.MaxNodeScore - sched.Quotient(sched.MaxNodeScore*taintRaw[k], topTaint)
			}
			if !inRange(v) {
				return 0, 0, false
			}
			sum += v * wTaint
		}
		if want[1] {
			var v int64
			if topAffinity != 0 {
				v = sched.Quotient(sched.MaxNodeScore*affinityRaw[k], topAffinity)
			}
			if !inRange(v) {
				return 0, 0, false
			}
			sum += v * wAffinity
		}
		if spreadNorm != nil {
			if !inRange(spreadNorm[k]) {
				return 0, 0, false
			}
			sum += spreadNorm[k] * wSpread
		}
		if ipaNorm != nil {
			if !inRange(ipaNorm[k]) {
				return 0, 0, false
			}
			sum += ipaNorm[k] * wIPA
		}
		if k == 0 || sum > total {
			best, total = k, sum
		}
	}
	return best, total, true
}

// podKeys returns the pod's class keys: equal local keys mean the same
// node-local verdicts and raw scores on every node (equal specs but for
// the parts only the topology plugins read, spread constraints and pod
// (anti-)affinity; equal status fields that requests read: container
// statuses, pod-level resources and the resize condition, see
// cluster.PodRequests); equal topology keys mean the same whole scheduling
// input (also namespace, labels, owner references, which the default
// spread constraints' selectors come from, and the whole spec). Only
// names and UIDs may differ: no plugin reads a pending pod's name. The
// keys are SHA-256 digests of the objects' protobuf encodings (map keys
// sorted, each part length-prefixed), so equal keys are equal contents
// (short of a SHA-256 collision); equal contents spelled differently (a
// quantity written two ways) may get different keys, which only loses
// reuse. A pod that does not encode gets keys of its own.
func podKeys(pod *corev1.Pod) (local, topology string) {
	bp := keyBuffers.Get().(*[]byte)
	defer keyBuffers.Put(bp)
	b := (*bp)[:0]
	defer func() { *bp = b[:0] }()
	part := func(m interface {
		Size() int
		MarshalToSizedBuffer([]byte) (int, error)
	}) bool {
		n := m.Size()
		b = binary.AppendUvarint(b, uint64(n))
		b = slices.Grow(b, n)
		if _, err := m.MarshalToSizedBuffer(b[len(b) : len(b)+n]); err != nil {
			return false
		}
		b = b[:len(b)+n]
		return true
	}
	digest := func() string {
		sum := sha256.Sum256(b)
		return string(sum[:])
	}
	own := "\x00" + pod.Namespace + "/" + pod.Name + "/" + string(pod.UID)
	spec := localSpec(&pod.Spec)
	status := corev1.PodStatus{ContainerStatuses: pod.Status.ContainerStatuses, InitContainerStatuses: pod.Status.InitContainerStatuses,
		Resources: pod.Status.Resources, AllocatedResources: pod.Status.AllocatedResources}
	if isResizeInfeasible(pod) {
		status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Reason: corev1.PodReasonInfeasible}}
	}
	if !part(&spec) || !part(&status) {
		return own, own
	}
	local = digest()
	// The whole spec is the local one and the parts it leaves out.
	meta := metav1.ObjectMeta{Namespace: pod.Namespace, Labels: pod.Labels, OwnerReferences: pod.OwnerReferences}
	var podAffinity corev1.Affinity
	if a := pod.Spec.Affinity; a != nil {
		podAffinity = corev1.Affinity{PodAffinity: a.PodAffinity, PodAntiAffinity: a.PodAntiAffinity}
	}
	if !part(&meta) || !part(&podAffinity) {
		return local, own
	}
	for i := range pod.Spec.TopologySpreadConstraints {
		if !part(&pod.Spec.TopologySpreadConstraints[i]) {
			return local, own
		}
	}
	return local, digest()
}

// keyBuffers are podKeys' encoding buffers.
var keyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// isResizeInfeasible is cluster's rule (resource helpers'
// isResizeInfeasible): requests read the resize condition's reason.
func isResizeInfeasible(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodResizePending {
			return c.Reason == corev1.PodReasonInfeasible
		}
	}
	return false
}

// compileAfter is CompileWith for a pod with prev's topology key (podKeys): the
// topology plugins' PreFilter states are prev's moved onto snap (their
// On: derived from the nodes that changed between the two snapshots, as
// upstream's AddPod/RemovePod extensions update a state; a snapshot not
// derived from prev's is compiled afresh), which gives the states built
// from scratch: the plugins read the pod's namespace, labels, owners and
// spec, which are equal, never its name.
func (p *Prepared) compileAfter(snap *cluster.Snapshot, w *Workers, prev *Compiled) (*Compiled, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPod)
	}
	if p.err != nil {
		return nil, p.err
	}
	c := *p.c
	if w != nil {
		c.opts.Workers = w
	}
	if prev != nil && prev.preFilterErr == nil {
		c.spread, c.ipa = prev.spread, prev.ipa
	}
	return c.onSnapshot(snap)
}

// compileSerial is CompileWith(snap, w) with the PreFilters run on the
// calling goroutine alone when they are short: on a small snapshot
// (maxShortPassNodes), for a pod of a memo class or one without a required
// topology term of its own (ownTopologyFilter), they take less than a
// fork-join's hand-over. Its decision shares its work as the options say,
// unless a memo makes it serial (setMemo).
func (p *Prepared) compileSerial(snap *cluster.Snapshot, w *Workers, memoized bool) (*Compiled, error) {
	if snap == nil || p.err != nil || !atMostNodes(snap, maxShortPassNodes) || (!memoized && p.c.ownTopologyFilter()) {
		return p.compileWith(snap, w)
	}
	c := *p.c
	if w != nil {
		c.opts.Workers = w
	}
	par, workers := c.opts.Parallelism, c.opts.Workers
	c.opts.Parallelism, c.opts.Workers = 1, nil
	v, err := c.onSnapshot(snap)
	if err != nil {
		return nil, err
	}
	v.opts.Parallelism, v.opts.Workers = par, workers
	return v, nil
}

// ownTopologyFilter reports whether the pod's own spec asks for a topology
// filter: a DoNotSchedule spread constraint or a required pod affinity or
// anti-affinity term. (Existing pods' required anti-affinity terms, or a
// profile's default constraints, may add one: this only chooses how the
// PreFilters are run, not what they decide.)
func (c *Compiled) ownTopologyFilter() bool {
	for _, sc := range c.pod.Spec.TopologySpreadConstraints {
		if sc.WhenUnsatisfiable == corev1.DoNotSchedule {
			return true
		}
	}
	return len(c.pi.RequiredAffinityTerms()) > 0 || len(c.pi.RequiredAntiAffinityTerms()) > 0
}

// localSpec is spec without what only the topology plugins read.
func localSpec(spec *corev1.PodSpec) corev1.PodSpec {
	s := *spec
	s.TopologySpreadConstraints = nil
	if s.Affinity != nil {
		na := s.Affinity.NodeAffinity
		s.Affinity = nil
		if na != nil {
			s.Affinity = &corev1.Affinity{NodeAffinity: na}
		}
	}
	return s
}

func init() {
	fastpath.PodKeys = func(p any) (string, string) {
		pp := p.(*Prepared)
		if pp.err != nil {
			// Scheduled as its own error: a class of its own.
			own := "\x01" + fmt.Sprintf("%p", pp)
			return own, own
		}
		return podKeys(pp.c.pod)
	}
	fastpath.NewMemo = func(c any) any { return newMemo(cluster.NodesOf(c.(*Compiled).snap)) }
	fastpath.WithMemo = func(c, m any) any { return c.(*Compiled).setMemo(m.(*memo)) }
	fastpath.NewBuffers = func() any { return &decisionBuffers{} }
	fastpath.WithBuffers = func(c, b any) any { return c.(*Compiled).withBuffers(b.(*decisionBuffers)) }
	fastpath.CompileSerial = func(p any, snap *cluster.Snapshot, w any, memoized bool) (any, error) {
		ww, _ := w.(*Workers)
		c, err := p.(*Prepared).compileSerial(snap, ww, memoized)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	fastpath.CompileDecide = func(p any, snap *cluster.Snapshot, w, bufs, prev, la, d any) (any, error) {
		pc, _ := prev.(*Compiled) // nil when prev is nil
		pl, _ := la.(*lookahead)  // likewise
		c, err := p.(*Prepared).compileDecide(snap, w.(*Workers), bufs.(*decisionBuffers), pc, pl, d.(*Decision))
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	fastpath.StartLookahead = func(p any, snap *cluster.Snapshot, w, bufs any) any {
		if la := bufs.(*decisionBuffers).startLookahead(p.(*Prepared), snap, w.(*Workers)); la != nil {
			return la
		}
		return nil
	}
	fastpath.EndLookaheads = func(bufs any) { bufs.(*decisionBuffers).endLookaheads() }
	fastpath.SetPipelineMinNodes = func(n int) int {
		old := pipelineMinNodes
		pipelineMinNodes = n
		return old
	}
	fastpath.CompileAfter = func(p any, snap *cluster.Snapshot, w any, prev any) (any, error) {
		c, err := p.(*Prepared).compileAfter(snap, w.(*Workers), prev.(*Compiled))
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// inRange reports whether a score is within [0, MaxNodeScore].
func inRange(v int64) bool { return v >= 0 && v <= sched.MaxNodeScore }
