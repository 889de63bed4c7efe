package preemption

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
)

// nominator holds the pods nominated to nodes (status.nominatedNodeName set,
// not bound), as the scheduler's pod nominator does.
type nominator struct {
	byNode map[string][]*cluster.PodInfo
	bound  map[string]bool // keys bound since: no longer nominated
}

// newNominator compiles the nominated pods; each counts on its nominated
// node. Pods without a nominated node are ignored.
func newNominator(pods []*corev1.Pod) (*nominator, error) {
	if len(pods) == 0 {
		return nil, nil
	}
	nm := &nominator{byNode: map[string][]*cluster.PodInfo{}, bound: map[string]bool{}}
	for _, p := range pods {
		node := p.Status.NominatedNodeName
		if node == "" {
			continue
		}
		cp := p.DeepCopy()
		cp.Spec.NodeName = node
		pi, err := cluster.NewPodInfo(cp)
		if err != nil {
			return nil, fmt.Errorf("preemption: nominated pod %s/%s: %w", podNamespace(p), p.Name, err)
		}
		nm.byNode[node] = append(nm.byNode[node], pi)
	}
	return nm, nil
}

// on returns the pods nominated to node that the first filter pass adds for
// pod: priority at least the pod's, the pod itself excluded
// (framework addGENominatedPods).
func (nm *nominator) on(node string, pod *corev1.Pod) []*cluster.PodInfo {
	if nm == nil {
		return nil
	}
	var out []*cluster.PodInfo
	prio := PodPriority(pod)
	key := podNamespace(pod) + "/" + pod.Name
	for _, pi := range nm.byNode[node] {
		if pi.Priority >= prio && pi.Key != key && (pod.UID == "" || pi.Pod.UID != pod.UID) && !nm.bound[pi.Key] {
			out = append(out, pi)
		}
	}
	return out
}

// firstPass runs the first pass of RunFilterPluginsWithNominatedPods: the
// filters on node n (a private node) with the nominated pods added, and, if
// one of them can move the topology state (scope), that state recomputed on
// the snapshot with those pods bound and the pods of removed taken off.
func firstPass(c *placement.Compiled, scope *topologyScope, n *cluster.NodeInfo, noms []*cluster.PodInfo, removed []*cluster.PodInfo) (sched.Status, error) {
	var node cluster.NodeInfo
	n.CopyInto(&node, nil)
	recompute := len(removed) > 0
	for _, pi := range noms {
		node.AddPodInPlace(pi)
		recompute = recompute || scope.affects(pi)
	}
	if recompute {
		view := snapshotOf(c.Snapshot())
		for _, pi := range noms {
			v, err := view.WithPodInfo(pi)
			if err != nil {
				return sched.Status{}, fmt.Errorf("preemption: nominated pod %s: %w", pi.Key, err)
			}
			view = v
		}
		keys := make([]string, len(removed))
		for i, p := range removed {
			keys[i] = p.Key
		}
		v, err := c.On(publicSnapshot(view.WithoutPods(keys...)))
		if err != nil {
			return sched.Status{}, err
		}
		c = v
	}
	return fastpath.Filter(c, &node), nil
}

// withNominated redoes the scheduling cycle's filter verdicts with the
// nominated pods, as RunFilterPluginsWithNominatedPods does for every node:
// a node where a pass with the nominated pods added fails takes that
// status; the feasible nodes left are scored again (normalization depends
// on the set) and the best is chosen (highest total, lowest name).
func withNominated(c *placement.Compiled, d placement.Decision, nm *nominator) (placement.Decision, error) {
	if nm == nil || d.Gated != nil || !d.PreFilter.Code.Passes() {
		return d, nil
	}
	nodes := cluster.NodesOf(snapshotOf(c.Snapshot()))
	scope := newTopologyScope(c)
	var changed []int
	var changedSt []sched.Status
	for i, n := range nodes {
		if !c.InPreFilterResult(n.Name) {
			continue
		}
		noms := nm.on(n.Name, c.Pod())
		if len(noms) == 0 {
			continue
		}
		st, err := firstPass(c, scope, n, noms, nil)
		if err != nil {
			return d, err
		}
		if !st.Code.Passes() {
			changed = append(changed, i)
			changedSt = append(changedSt, st)
		}
	}
	if len(changed) == 0 {
		return d, nil
	}
	out := d
	out.Codes = append([]sched.Code(nil), d.Codes...)
	for k, i := range changed {
		out.Codes[i] = changedSt[k].Code
	}
	var feasible []*cluster.NodeInfo
	for i, n := range nodes {
		if out.Codes[i].Passes() {
			feasible = append(feasible, n)
		}
	}
	out.Feasible = len(feasible)
	out.Node, out.TotalScore, out.Err = "", 0, nil
	if len(feasible) == 0 {
		out.Statuses = make([]sched.Status, len(nodes))
		var report *placement.Result
		if d.Statuses == nil {
			report = c.Evaluate() // every node's recorded status
		}
		k := 0
		for i := range nodes {
			switch {
			case k < len(changed) && changed[k] == i:
				out.Statuses[i] = changedSt[k]
				k++
			case d.Statuses != nil:
				out.Statuses[i] = d.Statuses[i]
			default:
				out.Statuses[i] = report.Nodes[i].Status
			}
		}
		counts := map[string]int{}
		for _, st := range out.Statuses {
			for _, r := range st.Reasons {
				counts[r]++
			}
		}
		out.Message = sched.FitErrorMessage(len(nodes), nil, counts)
		return out, nil
	}
	if len(feasible) == 1 {
		// As Decide: upstream does not score a lone feasible node.
		out.Node = feasible[0].Name
		return out, nil
	}
	s := c.Score(publicNodes(feasible))
	if s.Err != nil {
		out.Err = s.Err
		return out, nil
	}
	best := 0
	for k := 1; k < len(feasible); k++ {
		if s.Total[k] > s.Total[best] {
			best = k
		}
	}
	out.Node, out.TotalScore = feasible[best].Name, s.Total[best]
	return out, nil
}
