package preemption

import (
	"iter"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
)

// Options configures preemption. The zero value is DefaultPreemption as the
// conformance scenarios run it: every potential node dry-run, the
// scheduler's PDB selector rule, no nominated pods.
type Options struct {
	// Sampling, when non-nil, dry-runs only as many potential nodes as
	// upstream's DefaultPreemptionArgs ask for (see Sampling).
	Sampling *Sampling
	// PDBRule chooses how PDB selectors match pods (default: the scheduler's).
	PDBRule PDBSelectorRule
	// NominatedPods are pods waiting for a node they were nominated to
	// (status.nominatedNodeName): as RunFilterPluginsWithNominatedPods
	// does, the filters on that node first run with those of priority at
	// least the incoming pod's added, and the node fails if that pass
	// fails. Upstream always does this; the zero value has none.
	NominatedPods []*corev1.Pod
	// Parallelism is the number of goroutines the dry run may use, each
	// dry-running its own potential nodes (0 or 1: the calling goroutine
	// only). Results do not depend on it: each node's outcome is its own,
	// and they are taken in visiting order.
	Parallelism int
	// Workers, when set, lends its helpers to the dry runs (see
	// placement.Workers); nil: each call starts its own, which exit before
	// it returns. It changes no result.
	Workers *placement.Workers
	// Now is the start time of pods without status.startTime (upstream:
	// time.Now()). When zero such pods count as started after every pod
	// with a recorded start time.
	Now time.Time
}

// Sampling is upstream's candidate sampling (DefaultPreemptionArgs and
// GetOffsetAndNumCandidates): the dry run visits potential nodes starting at
// Offset (modulo their number; upstream draws it at random) and stops once it
// has at least one PDB-respecting candidate and
// max(n*MinCandidateNodesPercentage/100, MinCandidateNodesAbsolute) (at most
// n) candidates in all. Zero fields mean upstream's defaults, 10 and 100.
type Sampling struct {
	MinCandidateNodesPercentage int32 // percent of the potential nodes; 0: 10
	MinCandidateNodesAbsolute   int32 // lower bound of the count; 0: 100
	Offset                      int32 // first potential node visited
}

func (s *Sampling) numCandidates(n int32) int32 {
	pct, abs := s.MinCandidateNodesPercentage, s.MinCandidateNodesAbsolute
	if pct == 0 {
		pct = 10
	}
	if abs == 0 {
		abs = 100
	}
	c := int32(int64(n) * int64(pct) / 100)
	if c < abs {
		c = abs
	}
	if c > n {
		c = n
	}
	return c
}

// NodeStatus is a node's verdict with upstream's reasons.
type NodeStatus struct {
	Node   string           // the node's name
	Status framework.Status // its filter status
}

// NodeStatuses is every node's filter status for one pod, in node-name
// order (upstream's Diagnosis.NodeToStatus for a pod that found no
// feasible node). The zero value holds no node.
//
// The node names are shared by every pod of a queue and the statuses are
// the pod's own: a queue of failing pods on a large cluster keeps one
// status per node and pod, not a name beside each (at 5000 nodes, 48
// bytes per node instead of 112). Nodes with the same reasons share one
// copy of them.
type NodeStatuses struct {
	nodes    []string
	statuses []framework.Status
}

// Len is the number of nodes.
func (s NodeStatuses) Len() int { return len(s.statuses) }

// At returns the i-th node's name and status (0 <= i < Len()); the status's
// Reasons must not be modified.
func (s NodeStatuses) At(i int) NodeStatus {
	return NodeStatus{Node: s.nodes[i], Status: s.statuses[i]}
}

// All yields every node's name and status, in node-name order; the
// statuses' Reasons must not be modified.
func (s NodeStatuses) All() iter.Seq2[string, framework.Status] {
	return func(yield func(string, framework.Status) bool) {
		for i := range s.statuses {
			if !yield(s.nodes[i], s.statuses[i]) {
				return
			}
		}
	}
}

// Get returns the status of the named node and whether it is one of them.
func (s NodeStatuses) Get(node string) (framework.Status, bool) {
	i, ok := slices.BinarySearch(s.nodes, node)
	if !ok || i >= len(s.statuses) {
		return framework.Status{}, false
	}
	return s.statuses[i], true
}

// Result is the outcome of DefaultPreemption's PostFilter for one pod.
type Result struct {
	// Status is Success when a node was nominated; otherwise Unschedulable
	// (or Error) with plugin DefaultPreemption and the reason
	// "preemption: ..." that the scheduler appends to its FitError.
	Status framework.Status
	// NotEligible is PodEligibleToPreemptOthers' reason when the pod may not
	// preempt at all ("" when it may).
	NotEligible string
	// NominatedNode is the chosen node ("" when none).
	NominatedNode string
	// Victims are the chosen candidate's victims, most important first.
	Victims []Victim
	// NumPDBViolations is how many of Victims a PodDisruptionBudget does
	// not allow to be disrupted.
	NumPDBViolations int
	// PotentialNodes is the number of nodes whose filter status was
	// Unschedulable: only those are dry-run.
	PotentialNodes int
	// Candidates are every node where preemption would work, in node-name
	// order, each with the criterion it lost on. Within one ScheduleQueue
	// run, equivalent pods' candidates on an unchanged node may share their
	// Victims lists (a list's capacity ends with it, so an append copies):
	// read them, do not modify them in place.
	Candidates []Candidate
	// Rejected are the dry-run nodes that could not help, with the status
	// of the dry run, in node-name order.
	Rejected []NodeStatus
}

// Message returns the PostFilter message the scheduler appends to its
// FitError ("" after a successful preemption).
func (r *Result) Message() string {
	if r.Status.OK() {
		return ""
	}
	return strings.Join(r.Status.Reasons, ", ")
}

// preemptor is one pod's preemption state, reused across nodes.
type preemptor struct {
	pod      *corev1.Pod
	priority int32
	budgets  *budgets
	now      time.Time
	// Scratch buffers reused from node to node.
	scratch          []rankedPod
	below            []*cluster.PodInfo // selectVictims' pods below the priority
	violating, other []int
	broken           [][]string
	// victims is the chunk the candidates' victim lists are carved from
	// (victimSlots).
	victims []Victim
}

// victimChunk is how many victims one allocation holds: the dry run keeps
// a list for every candidate node, and most hold a few pods.
const victimChunk = 256

// victimSlots returns an empty list with room for n victims, carved from
// the current chunk (a new one when it is full), so that the candidates'
// lists share a few arrays instead of taking one allocation each. Each
// list's capacity ends where the next begins: appending to one never
// writes into another.
func (pr *preemptor) victimSlots(n int) []Victim {
	if cap(pr.victims)-len(pr.victims) < n {
		pr.victims = make([]Victim, 0, max(victimChunk, n))
	}
	k := len(pr.victims)
	pr.victims = pr.victims[:k+n]
	return pr.victims[k : k : k+n]
}

// startTime is util.GetPodStartTime for a compiled pod: status.startTime
// from the PodInfo's record (the dry run ranks every pod of every candidate
// node), else the preemption's "now".
func (pr *preemptor) startTime(pi *cluster.PodInfo) time.Time {
	if t, ok := pi.StartTime(); ok {
		return t
	}
	return pr.now
}

func (pr *preemptor) victim(n *cluster.NodeInfo, r *rankedPod, broken []string) Victim {
	return Victim{Pod: r.pi.Pod, Key: r.pi.Key, Node: n.Name, Priority: r.pi.Priority,
		StartTime: pr.startTime(r.pi), BrokenPDBs: broken}
}

// Eligible mirrors DefaultPreemption.PodEligibleToPreemptOthers (v1.36): a
// pod with preemptionPolicy Never may not preempt; nor may a pod whose
// status.nominatedNodeName names a node that still has a lower-priority pod
// terminating because of preemption (deletionTimestamp set and a
// DisruptionTarget condition with reason PreemptionByScheduler), unless the
// filters found that node UnschedulableAndUnresolvable (nominatedCode). It
// returns upstream's reason when the pod is not eligible.
func Eligible(snap *placement.Snapshot, pod *corev1.Pod, nominatedCode framework.Code) (bool, string) {
	if snap == nil || pod == nil {
		return false, "no pod or snapshot"
	}
	return eligible(cluster.NodesOf(snapshotOf(snap)), pod, nominatedCode)
}

func findNode(nodes []*cluster.NodeInfo, name string) (*cluster.NodeInfo, bool) {
	i, ok := slices.BinarySearchFunc(nodes, name, func(n *cluster.NodeInfo, name string) int { return strings.Compare(n.Name, name) })
	if !ok {
		return nil, false
	}
	return nodes[i], true
}

func eligible(nodes []*cluster.NodeInfo, pod *corev1.Pod, nominatedCode sched.Code) (bool, string) {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == corev1.PreemptNever {
		return false, "not eligible due to preemptionPolicy=Never."
	}
	nom := pod.Status.NominatedNodeName
	if nom == "" || nominatedCode == sched.UnschedulableAndUnresolvable {
		return true, ""
	}
	n, ok := findNode(nodes, nom)
	if !ok {
		return true, ""
	}
	prio := PodPriority(pod)
	for _, pi := range n.Pods {
		if pi.Priority < prio && terminatingByPreemption(pi.Pod) {
			return false, "not eligible due to a terminating pod on the nominated node."
		}
	}
	return true, ""
}

func terminatingByPreemption(p *corev1.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.DisruptionTarget {
			return c.Status == corev1.ConditionTrue && c.Reason == corev1.PodReasonPreemptionByScheduler
		}
	}
	return false
}

// preempt runs Evaluator.Preempt for DefaultPreemption (v1.36) after the
// scheduling cycle found no feasible node. nodes are in name order; codes[i]
// is the filter status code of nodes[i]; newTrials gives each dry-run
// worker its own maker of fresh dry-run views of one node. It returns the
// first error a visited node's dry run met, in visiting order.
func preempt(nodes []*cluster.NodeInfo, pod *corev1.Pod, codes []sched.Code, newTrials func() func(n *cluster.NodeInfo) trial,
	b *budgets, opts Options, memo *dryRunMemo) (*Result, error) {
	res := &Result{}
	nomCode := sched.UnschedulableAndUnresolvable
	if nom := pod.Status.NominatedNodeName; nom != "" {
		if i, ok := slices.BinarySearchFunc(nodes, nom, func(n *cluster.NodeInfo, name string) int { return strings.Compare(n.Name, name) }); ok {
			nomCode = codes[i]
		}
	}
	if ok, msg := eligible(nodes, pod, nomCode); !ok {
		res.NotEligible = msg
		res.Status = postFilterStatus(sched.Unschedulable, msg)
		return res, nil
	}
	numPotential := 0
	for _, code := range codes {
		if code == sched.Unschedulable {
			numPotential++
		}
	}
	potential := make([]*cluster.NodeInfo, 0, numPotential)
	for i, n := range nodes {
		if codes[i] == sched.Unschedulable {
			potential = append(potential, n)
		}
	}
	res.PotentialNodes = len(potential)
	pr := &preemptor{pod: pod, priority: PodPriority(pod), budgets: b, now: opts.Now}

	var cands []Candidate
	var keys []candidateKey // keys[i] is cands[i]'s ranking key
	var sc *pickScratch
	wrapAt := -1
	var errs []string
	var firstErr error
	if len(potential) > 0 {
		offset, limit := int32(0), int32(len(potential))
		if opts.Sampling != nil {
			limit = opts.Sampling.numCandidates(int32(len(potential)))
			offset = opts.Sampling.Offset % int32(len(potential))
			if offset < 0 {
				offset += int32(len(potential))
			}
		}
		dr := newDryRuns(pr, potential, int(offset), int(limit), opts.Sampling != nil, newTrials, opts.Parallelism, opts.Workers, memo)
		defer dr.release()
		// The nodes that cannot help are counted, then their statuses copied
		// out in one array of that size.
		visited, numRejected := 0, 0
		nonViolating, violating := int32(0), int32(0)
		// Each list at most once: no growing copies. keys[i] is cands[i]'s
		// ranking key, from its dry run (victimSet.key).
		cands = make([]Candidate, 0, min(len(potential), 2*int(limit)))
		sc = pickScratches.Get().(*pickScratch)
		defer pickScratches.Put(sc)
		keys = sc.keys[:0]
		// Nodes are visited from offset on, wrapping around: the
		// candidates found before the wrap follow, in node-name order,
		// those found after it (wrapAt is their count).
		for i := range potential {
			if i == len(potential)-int(offset) {
				wrapAt = len(cands)
			}
			visited = i + 1
			n, r := dr.at(i)
			if firstErr == nil {
				firstErr = r.err
			}
			vs := &r.vs
			if vs.status.OK() {
				// candidateList: each list holds at most limit entries.
				if vs.numViolations == 0 {
					if nonViolating < limit {
						cands = append(cands, Candidate{Node: n.Name, Victims: vs.victims})
						keys = append(keys, vs.key)
					}
					nonViolating++
				} else {
					if violating < limit {
						cands = append(cands, Candidate{Node: n.Name, Victims: vs.victims, NumPDBViolations: vs.numViolations})
						k := vs.key
						k.pdb = int64(vs.numViolations)
						keys = append(keys, k)
					}
					violating++
				}
				if nonViolating > 0 && min(nonViolating, limit)+min(violating, limit) >= limit {
					break
				}
				continue
			}
			if vs.status.Code == sched.Error {
				errs = append(errs, strings.Join(vs.status.Reasons, ", "))
			}
			numRejected++
		}
		if numRejected > 0 {
			// Rejected is in node-name order. potential is in that
			// order, so the positions visited after the wrap come first,
			// then those from offset on: two sorted runs, put in order
			// without a sort.
			res.Rejected = make([]NodeStatus, 0, numRejected)
			beforeWrap := min(visited, len(potential)-int(offset))
			for _, span := range [2][2]int{{beforeWrap, visited}, {0, beforeWrap}} {
				for i := span[0]; i < span[1]; i++ {
					if n, r := dr.at(i); !r.vs.status.OK() {
						res.Rejected = append(res.Rejected, NodeStatus{Node: n.Name, Status: r.vs.status})
					}
				}
			}
		}
	}
	sched.OwnReasons(len(res.Rejected), func(i int) *sched.Status { return &res.Rejected[i].Status })
	if len(cands) == 0 {
		if len(errs) > 0 {
			// DryRunPreemption keeps one error (its error channel holds
			// one and the first cancels the rest): the first visited.
			res.Status = postFilterStatus(sched.Error, errs[0])
			return res, firstErr
		}
		res.Status = postFilterStatus(sched.Unschedulable, noCandidateMessage(len(nodes), res.Rejected))
		return res, firstErr
	}
	// In node-name order (potential is): the candidates found after the
	// wrap first.
	if wrapAt >= 0 {
		rotate(cands, wrapAt)
		rotate(keys, wrapAt)
	}
	sc.keys = keys
	win := pickKeyed(cands, keys, sc)
	res.Candidates = cands
	res.NominatedNode = cands[win].Node
	res.Victims = cands[win].Victims
	res.NumPDBViolations = cands[win].NumPDBViolations
	res.Status = sched.Status{Code: sched.Success}
	return res, firstErr
}

// rotate moves s's first k elements to its end, in place.
func rotate[T any](s []T, k int) {
	slices.Reverse(s[:k])
	slices.Reverse(s[k:])
	slices.Reverse(s)
}

func postFilterStatus(code sched.Code, msg string) sched.Status {
	return sched.Status{Code: code, Plugin: sched.DefaultPreemption, Reasons: []string{"preemption: " + msg}}
}

// noCandidateMessage is the FitError preemption builds when no node can
// help: the dry-run statuses' reasons per node, every other node counted as
// "Preemption is not helpful for scheduling", as a sorted histogram.
func noCandidateMessage(numNodes int, rejected []NodeStatus) string {
	counts := map[string]int{}
	for _, r := range rejected {
		for _, reason := range r.Status.Reasons {
			counts[reason]++
		}
	}
	if absent := numNodes - len(rejected); absent > 0 {
		counts[ReasonNotHelpful] += absent
	}
	return sched.FitErrorMessage(numNodes, nil, counts)
}
