package preemption

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
)

// Preempt runs DefaultPreemption's PostFilter (Evaluator.Preempt, v1.36) for
// a pod that found no feasible node: c is the pod compiled against the
// cluster (placement.Compile) and statuses its scheduling cycle's per-node
// statuses in snapshot node order (placement.Decision.Statuses). It checks
// eligibility, dry-runs every node whose status was Unschedulable, and
// chooses a node; the budgets are the snapshot's PDBs. Nothing is modified:
// the caller evicts the victims. An error means the dry run could not
// evaluate a filter, or invalid input (a nil pod, statuses not one per node:
// ErrInvalidInput).
func Preempt(c *placement.Compiled, statuses []framework.Status, opts Options) (*Result, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil compiled pod", ErrInvalidInput)
	}
	nm, err := newNominator(opts.NominatedPods)
	if err != nil {
		return nil, err
	}
	return preemptCompiled(c, statuses, opts, nm, compileBudgets(cluster.InputOf(snapshotOf(c.Snapshot())).PDBs, opts.PDBRule), nil)
}

// preemptCompiled is Preempt with the nominator and budgets compiled; memo,
// when not nil, holds the dry runs of earlier pods of c's class in the same
// scheduling loop (see dryRunMemo).
func preemptCompiled(c *placement.Compiled, statuses []sched.Status, opts Options, nm *nominator, b *budgets, memo *dryRunMemo) (*Result, error) {
	snap := snapshotOf(c.Snapshot())
	nodes := cluster.NodesOf(snap)
	if len(statuses) != len(nodes) {
		return nil, fmt.Errorf("%w: %d statuses for %d nodes", ErrInvalidInput, len(statuses), len(nodes))
	}
	codes := make([]sched.Code, len(nodes))
	for i, s := range statuses {
		codes[i] = s.Code
	}
	scope := newTopologyScope(c)
	scope.narrow(snap)
	if nm != nil || scope.spread || scope.affinity {
		// A node's dry run then reads more than the node.
		memo = nil
	}
	newTrials := func() func(n *cluster.NodeInfo) trial {
		// One trial at a time per worker: the scratch node is reused for
		// every node the worker dry-runs.
		t := &nodeTrial{c: c, trial: c.NewTrial(), node: &cluster.NodeInfo{}, scope: scope, memo: scopeMemo{scope: scope, snap: snap}, nm: nm}
		return func(n *cluster.NodeInfo) trial {
			// The copy is made on first use: a node without lower-priority
			// pods is rejected before any.
			t.src = n
			t.removed, t.failed, t.belowPending = t.removed[:0], nil, false
			return t
		}
	}
	res, err := preempt(nodes, c.Pod(), codes, newTrials, b, opts, memo)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// nodeTrial dry-runs one node: a private copy of its NodeInfo that pods
// leave and rejoin in place as in SelectVictimsOnNode. While a removed pod
// can move the counts of the pod's PodTopologySpread or InterPodAffinity
// PreFilter state (topologyScope), the topology filters read that state
// without those pods (placement.Trial), which gives the counts upstream's
// AddPod / RemovePod extensions keep; otherwise only the node itself
// matters and the compiled pod is reused as is.
type nodeTrial struct {
	c       *placement.Compiled
	trial   *placement.Trial // c's, this worker's own
	node    *cluster.NodeInfo
	buf     []*cluster.PodInfo
	scope   *topologyScope
	memo    scopeMemo // scope.affects by label set, this worker's own
	nm      *nominator
	removed []*cluster.PodInfo // removed pods within scope
	// src is the node to copy into node before the first change or filter
	// that needs the copy (nil once copied).
	src *cluster.NodeInfo
	// belowPending says that removeBelow's removal (of the pods below
	// below) is still to be made on the copy (see filter).
	belowPending bool
	below        int32
	// failed is the first error of this node's dry run (nil: none).
	failed error
}

func (t *nodeTrial) err() error { return t.failed }

// ready makes node the private copy of src, with removeBelow's removal
// made, if it is not yet.
func (t *nodeTrial) ready() {
	if t.src != nil {
		t.buf = t.src.CopyInto(t.node, t.buf)
		t.src = nil
	}
	if t.belowPending {
		t.node.RemoveBelowInPlace(t.below)
		t.belowPending = false
	}
}

func (t *nodeTrial) remove(p *cluster.PodInfo) {
	t.ready()
	t.node.RemovePodInPlace(p)
	if t.memo.affects(p) {
		t.removed = append(t.removed, p)
	}
}

// removeBelow records the removal; the copy and the removal itself wait
// for the first change or for a filter that needs them (see filter).
func (t *nodeTrial) removeBelow(priority int32, pods []*cluster.PodInfo) {
	if t.src != nil && !t.belowPending {
		t.below, t.belowPending = priority, true
	} else {
		t.ready()
		t.node.RemoveBelowInPlace(priority)
	}
	for _, p := range pods {
		if t.memo.affects(p) {
			t.removed = append(t.removed, p)
		}
	}
}

func (t *nodeTrial) add(p *cluster.PodInfo) {
	t.ready()
	t.node.AddPodInPlace(p)
	if len(t.removed) > 0 {
		if i := slices.IndexFunc(t.removed, func(q *cluster.PodInfo) bool { return q.Key == p.Key }); i >= 0 {
			t.removed = slices.Delete(t.removed, i, i+1)
		}
	}
}

func (t *nodeTrial) filter() sched.Status {
	c := t.c
	name := t.node.Name
	if t.src != nil { // not copied yet: node still holds the last node's copy
		name = t.src.Name
	}
	noms := t.nm.on(name, c.Pod())
	if len(noms) == 0 {
		if st, ok := t.unchangedFailure(); ok {
			return st
		}
	}
	t.ready()
	if len(noms) > 0 {
		// RunFilterPluginsWithNominatedPods: first with the nominated pods.
		st, err := firstPass(c, t.scope, t.node, noms, t.removed)
		if err != nil {
			if t.failed == nil {
				t.failed = fmt.Errorf("preemption: dry run on %s: %w", t.node.Name, err)
			}
			return sched.Status{Code: sched.Error, Reasons: []string{err.Error()}}
		}
		if !st.Code.Passes() {
			return st
		}
	}
	if len(t.removed) == 0 {
		return fastpath.Filter(c, t.node)
	}
	st := fastpath.TrialFilter(t.trial, t.node, t.removed)
	// A plugin's Error (e.g. a Filter without its PreFilter state) is a
	// node verdict, reported as DryRunPreemption reports it; an Error
	// without a plugin is a failure of the dry run itself.
	if st.Code == sched.Error && st.Plugin == "" && t.failed == nil {
		t.failed = fmt.Errorf("preemption: dry run on %s: %s", t.node.Name, strings.Join(st.Reasons, ", "))
	}
	return st
}

// unchangedFailure answers the first filter after removeBelow without the
// copy and the removal, where the answer cannot depend on them: no removed
// pod can move the topology plugins' counts (t.removed is empty), no
// nominated pod joins the node (filter asks only then), and the node as it
// is fails at
// PodTopologySpread or InterPodAffinity. Taking pods off a node then leaves
// every filter before that one passing (the node-local ones that read the
// node's pods, NodePorts and NodeResourcesFit, only gain room; the others
// read the node's labels, spec and the unchanged PreFilter states) and that
// one failing with the same status, so the status is the dry run's. Most
// nodes a preemptor without a candidate is dry-run on fail this way.
func (t *nodeTrial) unchangedFailure() (sched.Status, bool) {
	if t.src == nil || !t.belowPending || len(t.removed) > 0 {
		return sched.Status{}, false
	}
	st := fastpath.Filter(t.c, t.src)
	if (st.Code == sched.Unschedulable || st.Code == sched.UnschedulableAndUnresolvable) &&
		(st.Plugin == sched.PodTopologySpread || st.Plugin == sched.InterPodAffinity) {
		return st, true
	}
	return sched.Status{}, false
}
