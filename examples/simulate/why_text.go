package main

// "Why is my pod pending": the parts of the text report that explain a
// verdict beyond upstream's FitError line: the nodes that came
// closest, with the resource shortfall on each; whether preemption could
// help; the Score plugins skipped at PreScore and why; and, with -explain,
// every node's verdict for one pod.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement"
)

// textContext is what the text report reads beside the results: the
// snapshot the pods were evaluated against (for resource shortfalls), the
// pending pods by key, and whether -explain asked for every node.
type textContext struct {
	snap    *placement.Snapshot
	pods    map[string]*corev1.Pod
	explain bool
}

// closestNodes is how many nodes "closest" lists.
const closestNodes = 3

func failing(code string) bool {
	return code == "Unschedulable" || code == "UnschedulableAndUnresolvable" || code == "Error"
}

// failures lists the plugins that reject n when each runs on its own,
// PreFilter's restriction first.
func failures(n *nodeResult) []pluginStatus {
	var out []pluginStatus
	if n.ExcludedByPreFilter {
		out = append(out, pluginStatus{Plugin: "PreFilter", Code: n.Status.Code, Reasons: n.Status.Reasons})
	}
	for _, f := range n.Filters {
		if failing(f.Code) {
			out = append(out, f)
		}
	}
	if len(out) == 0 && !n.Feasible {
		out = append(out, n.Status)
	}
	return out
}

// writeClosest lists the infeasible nodes with the fewest failing filters
// (each run on its own), then the lowest name, with every failure and, for
// resources, how much is missing.
func writeClosest(b *strings.Builder, r *podResult, ctx *textContext) {
	var nodes []*nodeResult
	for i := range r.Nodes {
		if !r.Nodes[i].Feasible {
			nodes = append(nodes, &r.Nodes[i])
		}
	}
	if len(nodes) == 0 || len(r.FeasibleNodes) > 0 {
		return
	}
	// Fewest failing filters, then fewest unresolvable ones (a node
	// preemption could free comes first), then fewest reasons, then the
	// smallest resource shortfall (as fractions of allocatable), then the
	// lowest name.
	type rank struct {
		failing, unresolvable, reasons int
		gap                            float64
	}
	ranks := make(map[*nodeResult]rank, len(nodes))
	for _, n := range nodes {
		var k rank
		for _, f := range failures(n) {
			k.failing++
			k.reasons += len(f.Reasons)
			if f.Code != "Unschedulable" {
				k.unresolvable++
			}
			if f.Plugin == "NodeResourcesFit" {
				for _, reason := range f.Reasons {
					if _, frac, ok := shortfall(reason, n.Node, r.Pod, ctx); ok {
						k.gap += frac
					}
				}
			}
		}
		ranks[n] = k
	}
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := ranks[nodes[i]], ranks[nodes[j]]
		switch {
		case a.failing != b.failing:
			return a.failing < b.failing
		case a.unresolvable != b.unresolvable:
			return a.unresolvable < b.unresolvable
		case a.reasons != b.reasons:
			return a.reasons < b.reasons
		case a.gap != b.gap:
			return a.gap < b.gap
		}
		return nodes[i].Node < nodes[j].Node
	})
	shown := nodes[:min(len(nodes), closestNodes)]
	b.WriteString("\n  closest node(s), fewest filters failing (each filter run on its own):\n")
	for _, n := range shown {
		fs := failures(n)
		fmt.Fprintf(b, "    %s: %d failing\n", n.Node, len(fs))
		for _, f := range fs {
			fmt.Fprintf(b, "      %s: %s\n", f.Plugin, strings.Join(describeReasons(f, n.Node, r.Pod, ctx), "; "))
		}
	}
}

// describeReasons returns f's reasons, with the shortfall added to
// NodeResourcesFit's "Insufficient X" and "Too many pods".
func describeReasons(f pluginStatus, node, pod string, ctx *textContext) []string {
	out := make([]string, len(f.Reasons))
	copy(out, f.Reasons)
	if f.Plugin != "NodeResourcesFit" {
		return out
	}
	for i, reason := range out {
		if text, _, ok := shortfall(reason, node, pod, ctx); ok {
			out[i] = reason + " (" + text + ")"
		}
	}
	return out
}

// shortfall describes how far node is from fitting pod for one of
// NodeResourcesFit's reasons, and the missing amount as a fraction of the
// node's allocatable; ok is false when the reason is not a resource's or
// the pod or node is unknown.
func shortfall(reason, node, pod string, ctx *textContext) (text string, frac float64, ok bool) {
	if ctx == nil || ctx.snap == nil {
		return "", 0, false
	}
	p := ctx.pods[pod]
	ni, found := ctx.snap.Node(node)
	if p == nil || !found {
		return "", 0, false
	}
	if reason == "Too many pods" {
		a, n := ni.Allocatable().AllowedPodNumber, len(ni.Pods())
		missing := int64(n) + 1 - a
		return fmt.Sprintf("needs 1, %d of %d used", n, a), fraction(missing, a), true
	}
	name, isRes := strings.CutPrefix(reason, "Insufficient ")
	if !isRes {
		return "", 0, false
	}
	req := placement.Resource(cluster.ResourceFromList(cluster.PodRequests(p, cluster.RequestOptions{})))
	need, alloc, used, known := amounts(corev1.ResourceName(name), req, ni.Allocatable(), ni.Requested())
	if !known {
		return "", 0, false
	}
	free := max(alloc-used, 0)
	text = fmt.Sprintf("requests %s, free %s of %s allocatable", quantity(name, need), quantity(name, free), quantity(name, alloc))
	if need > alloc {
		text += ": more than the node has, even empty"
	}
	return text, fraction(need-free, alloc), true
}

func fraction(missing, of int64) float64 {
	if of <= 0 {
		return float64(missing)
	}
	return float64(missing) / float64(of)
}

func amounts(name corev1.ResourceName, req, alloc, used placement.Resource) (r, a, u int64, ok bool) {
	switch name {
	case corev1.ResourceCPU:
		return req.MilliCPU, alloc.MilliCPU, used.MilliCPU, true
	case corev1.ResourceMemory:
		return req.Memory, alloc.Memory, used.Memory, true
	case corev1.ResourceEphemeralStorage:
		return req.EphemeralStorage, alloc.EphemeralStorage, used.EphemeralStorage, true
	}
	if _, known := req.Scalar[name]; known {
		return req.Scalar[name], alloc.Scalar[name], used.Scalar[name], true
	}
	return 0, 0, 0, false
}

func quantity(name string, v int64) string {
	switch corev1.ResourceName(name) {
	case corev1.ResourceCPU:
		return resource.NewMilliQuantity(v, resource.DecimalSI).String()
	case corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
		return resource.NewQuantity(v, resource.BinarySI).String()
	}
	if strings.HasPrefix(name, corev1.ResourceHugePagesPrefix) {
		return resource.NewQuantity(v, resource.BinarySI).String()
	}
	return strconv.FormatInt(v, 10)
}

// writePreemptionHint says whether preemption could help an unschedulable
// pod: only nodes whose status is Unschedulable (not Unresolvable) are
// candidates (DefaultPreemption's nodesWherePreemptionMightHelp).
func writePreemptionHint(b *strings.Builder, r *podResult, ctx *textContext) {
	if len(r.FeasibleNodes) > 0 || r.Gated != nil || len(r.Nodes) == 0 {
		return
	}
	if ctx != nil {
		if p := ctx.pods[r.Pod]; p != nil && p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy == corev1.PreemptNever {
			b.WriteString("  preemption will not be tried: the pod's preemptionPolicy is Never\n")
			return
		}
	}
	var may []string
	for _, n := range r.Nodes {
		if n.Status.Code == "Unschedulable" {
			may = append(may, n.Node)
		}
	}
	if len(may) == 0 {
		b.WriteString("  preemption cannot help: every node's rejection is unresolvable (removing pods would not change it)\n")
		return
	}
	fmt.Fprintf(b, "  preemption may help on %d node(s): %s (if it finds lower-priority victims; -mode schedule names them)\n",
		len(may), nameList(may, maxNamesPerReason))
}

// preScoreSkipReason says why a Score plugin's PreScore returned Skip for
// a pod, after each plugin's PreScore in v1.36.
var preScoreSkipReason = map[string]string{
	"NodeAffinity":                    "the pod has no preferred node affinity terms",
	"NodeResourcesBalancedAllocation": "the pod requests none of the scored resources (best-effort)",
	"PodTopologySpread":               "no ScheduleAnyway spread constraint applies (the pod's own, or the system defaults when a Service or controller selects it)",
	"InterPodAffinity":                "no inter-pod affinity term scores any node (the pod has no preferred terms, and no bound pod's term matches it)",
}

// writeSkipped lists the Score plugins skipped at PreScore, which give
// every node 0.
func writeSkipped(b *strings.Builder, r *podResult) {
	if len(r.FeasibleNodes) == 0 || len(r.PreScoreSkippedPlugins) == 0 {
		return
	}
	b.WriteString("\n  skipped at PreScore (0 on every node):\n")
	for _, p := range r.PreScoreSkippedPlugins {
		why := preScoreSkipReason[p]
		if why == "" {
			why = "nothing to score for this pod"
		}
		fmt.Fprintf(b, "    %s: %s\n", p, why)
	}
}

// writeEveryNode is -explain's table: every node's verdict, the filters
// that reject it when run on their own, and its total score.
func writeEveryNode(b *strings.Builder, r *podResult, ctx *textContext) {
	if len(r.Nodes) == 0 {
		return
	}
	fmt.Fprintf(b, "\n  every node (%d):\n", len(r.Nodes))
	t := table{rightAligned: map[int]bool{1: true}}
	t.add("node", "score", "verdict (first failing filter)", "filters failing on their own")
	for i := range r.Nodes {
		n := &r.Nodes[i]
		score, verdict := "-", "feasible"
		if n.Feasible {
			score = strconv.FormatInt(n.Total(), 10)
		} else {
			who := n.Status.Plugin
			if who == "" {
				who = "PreFilter"
			}
			verdict = who + ": " + strings.Join(describeReasons(n.Status, n.Node, r.Pod, ctx), ", ")
		}
		var own []string
		for _, f := range failures(n) {
			own = append(own, f.Plugin)
		}
		t.add(n.Node, score, verdict, strings.Join(own, ", "))
	}
	t.write(b, "    ")
}

// setExplain checks that -explain names a pending pod and records it.
func setExplain(in *input, key string) error {
	if key == "" {
		return nil
	}
	if !strings.Contains(key, "/") {
		key = "default/" + key
	}
	var names []string
	for _, p := range in.pending {
		k := p.Namespace + "/" + p.Name
		if k == key {
			in.explain = key
			return nil
		}
		names = append(names, k)
	}
	return fmt.Errorf("-explain %s: no pending pod of that name (pending: %s)", key, nameList(names, 10))
}

// explained returns the pending pods named key (one, or none).
func explained(pending []*corev1.Pod, key string) []*corev1.Pod {
	for _, p := range pending {
		if p.Namespace+"/"+p.Name == key {
			return []*corev1.Pod{p}
		}
	}
	return nil
}

// onlyExplained limits the schedule report to -explain's pod; the queue
// itself ran whole, since every earlier pod changes what this one sees.
func onlyExplained(out *scheduleOutput, key string) *scheduleOutput {
	if key == "" {
		return out
	}
	c := *out
	c.Results = nil
	for _, r := range out.Results {
		if r.Pod == key {
			c.Results = append(c.Results, r)
		}
	}
	c.explain = true
	return &c
}

// writeNodeStatuses is -explain's list for the schedule mode: every
// node's filter status when the pod's turn came (after the earlier pods'
// bindings and evictions).
func writeNodeStatuses(b *strings.Builder, r scheduleResult) {
	if len(r.NodeStatuses) == 0 {
		return
	}
	fmt.Fprintf(b, "   every node at its turn (%d):\n", len(r.NodeStatuses))
	t := table{}
	for _, ns := range r.NodeStatuses {
		who := ns.Status.Plugin
		if who == "" && ns.Status.Code != "Success" {
			who = "PreFilter"
		}
		code, verdict := "feasible", ""
		if failing(ns.Status.Code) {
			code, verdict = shortCode(ns.Status.Code), who+": "+strings.Join(ns.Status.Reasons, ", ")
		}
		t.add(ns.Node, code, verdict)
	}
	t.write(b, "     ")
}

// explainAtTurn evaluates -explain's pod against the cluster as it was
// when its turn came in the schedule mode: the initial cluster, with every
// earlier pod's victims evicted and every earlier pod bound to its node
// (the queue binds a preemptor at once). Filters and scores read nothing
// else that the run changed (start times only order preemption victims),
// so this is the evaluation the queue made, with every node's filters and
// scores kept for the report.
func explainAtTurn(in *input, out *scheduleOutput) (*podResult, *textContext, error) {
	byKey := make(map[string]*corev1.Pod, len(in.pending))
	for _, p := range in.pending {
		byKey[scenario.PodKey(p)] = p
	}
	snap := in.snap
	for _, r := range out.Results {
		if r.Pod == in.explain {
			pod := byKey[r.Pod]
			res, err := placement.Evaluate(snap, pod, in.opts)
			if err != nil {
				return nil, nil, err
			}
			return resultOut(res), &textContext{snap: snap, pods: map[string]*corev1.Pod{r.Pod: pod}, explain: true}, nil
		}
		if p := r.Preemption; p != nil && len(p.Victims) > 0 {
			keys := make([]string, len(p.Victims))
			for i, v := range p.Victims {
				keys[i] = v.Pod
			}
			var err error
			if snap, err = snap.WithoutPods(keys...); err != nil {
				return nil, nil, err
			}
		}
		if (r.Outcome == "Scheduled" || r.Outcome == "PreemptionNominated") && r.Node != "" && byKey[r.Pod] != nil {
			bound := byKey[r.Pod].DeepCopy()
			bound.Spec.NodeName = r.Node
			var err error
			if snap, err = snap.WithPod(bound); err != nil {
				return nil, nil, err
			}
		}
	}
	return nil, nil, nil
}
