package preemption

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
)

// parseCode maps the report's code names back to codes.
func parseCode(s string) sched.Code {
	switch s {
	case "", "Success":
		return sched.Success
	case "Unschedulable":
		return sched.Unschedulable
	case "UnschedulableAndUnresolvable":
		return sched.UnschedulableAndUnresolvable
	case "Skip":
		return sched.Skip
	}
	return sched.Error
}

// Preempt runs DefaultPreemption's PostFilter (Evaluator.Preempt, v1.36) for
// a pod that the scheduling cycle ev (placement.Evaluate of pod against
// snap) found no feasible node for: eligibility, the dry run on every node
// whose status was Unschedulable, and the node choice. pdbs are the cluster's
// budgets. Nothing is modified; the caller evicts the victims.
func Preempt(snap *cluster.Snapshot, pod *corev1.Pod, ev *placement.Result, pdbs []*policyv1.PodDisruptionBudget, opts Options, popts placement.Options) (*Result, error) {
	return preemptOn(snap, pod, ev, pdbs, QueueOptions{Preemption: opts, Placement: popts})
}

func preemptOn(snap *cluster.Snapshot, pod *corev1.Pod, ev *placement.Result, pdbs []*policyv1.PodDisruptionBudget, opts QueueOptions) (*Result, error) {
	nodes := snap.Nodes()
	codes := make([]sched.Code, len(nodes))
	for i := range codes {
		codes[i] = sched.UnschedulableAndUnresolvable
	}
	for _, nr := range ev.Nodes {
		n, ok := snap.Node(nr.Node)
		if !ok {
			return nil, fmt.Errorf("preemption: evaluation names unknown node %q", nr.Node)
		}
		codes[n.Index] = parseCode(nr.Status.Code)
	}
	var firstErr error
	newTrial := func(n *cluster.NodeInfo) trial {
		return &viewTrial{snap: snap, pod: pod, node: n.Name, opts: opts.Placement, err: &firstErr}
	}
	res := preempt(nodes, pod, codes, newTrial, pdbs, opts.Preemption)
	if firstErr != nil {
		return nil, firstErr
	}
	return res, nil
}

// viewTrial dry-runs one node on copy-on-write views of the snapshot: the
// pods taken off are left out of the view, and the filters run on it as the
// scheduler runs them on its cloned node and cycle state (the PreFilter
// state of PodTopologySpread and InterPodAffinity, which upstream updates
// pod by pod with its AddPod/RemovePod extensions, is recomputed on the view,
// which gives the same counts).
type viewTrial struct {
	snap    *cluster.Snapshot
	pod     *corev1.Pod
	node    string
	opts    placement.Options
	removed []string
	err     *error
}

func (t *viewTrial) remove(p *cluster.PodInfo) { t.removed = append(t.removed, p.Key) }
func (t *viewTrial) add(p *cluster.PodInfo) {
	if i := slices.Index(t.removed, p.Key); i >= 0 {
		t.removed = slices.Delete(t.removed, i, i+1)
	}
}

func (t *viewTrial) filter() sched.Status {
	view := t.snap.WithoutPods(t.removed...)
	st, err := placement.FilterNode(view, t.pod, t.node, t.opts)
	if err != nil {
		if *t.err == nil {
			*t.err = err
		}
		return sched.Status{Code: sched.Error, Reasons: []string{err.Error()}}
	}
	return st
}
