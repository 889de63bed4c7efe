package eviction

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/pdbmatch"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/preemption/whatif"
)

// PlanOptions configure PlanDrain. The zero value drains with kubectl's
// default flags and the default scheduler profile.
type PlanOptions struct {
	// Drain are kubectl drain's pod-selection flags (Drain.Now is also the
	// clock of the evictions).
	Drain DrainOptions
	// DaemonSets are the cluster's DaemonSets (to tell a live DaemonSet's
	// pods from orphans).
	DaemonSets []*appsv1.DaemonSet
	// Placement is the scheduler profile used to re-place evicted pods.
	Placement placement.Options
	// Scheduler places each evicted pod where kube-scheduler would: the
	// highest total score among the feasible remaining nodes (ties to the
	// lowest name), every earlier placement folded into the snapshot. The
	// default is cluster-autoscaler's first fit in node name order, which is
	// much cheaper.
	Scheduler bool
}

// PlannedEviction is one eviction of the plan, in the order the plan
// issues them.
type PlannedEviction struct {
	// Pod is the input pod evicted (not a copy; it must not be modified).
	Pod *corev1.Pod
	// From is the drained node the pod is evicted from.
	From string
	// PDB is the budget charged, "namespace/name"; "" when none was (no
	// budget, or a pod that bypasses budgets: terminal, Pending,
	// terminating, or unready under AlwaysAllow or a healthy budget).
	PDB string
	// To is the remaining node the pod fits on (first feasible node in name
	// order, cluster-autoscaler's question, or the scheduler's choice with
	// PlanOptions.Scheduler); "" when it fits nowhere.
	To string
	// Message is, when To is "", upstream's FitError text for the
	// re-created pod on the cluster with the drained nodes cordoned and
	// the pods placed before it, as kube-scheduler would report it
	// ("0/N nodes are available: ... preemption: not eligible due to
	// preemptionPolicy=Never.").
	Message string
}

// BlockedEviction is an eviction the Eviction API would refuse.
type BlockedEviction struct {
	// Pod is the input pod whose eviction is refused (not a copy).
	Pod *corev1.Pod
	// From is the drained node the pod stays on.
	From string
	// PDB is the refusing budget ("namespace/name"); "" for the 500 of a pod
	// under several budgets.
	PDB string
	// Status is what the Eviction API would answer (429, 403 or 500).
	Status metav1.Status
}

// NodeDrain is the plan for one node.
type NodeDrain struct {
	// Node is the drained node's name.
	Node string
	// Selection is kubectl drain's choice of pods on the node.
	Selection *DrainSelection
	// Refused: kubectl refuses to drain the node (Selection.Errors()), so
	// nothing is evicted from it.
	Refused bool
	// Evictions and Blocked count the node's planned and refused evictions;
	// Unplaced counts planned evictions that fit on no remaining node.
	Evictions, Blocked, Unplaced int
}

// Removable reports whether the node can be emptied: not refused, no
// eviction blocked, every evicted pod placed elsewhere (cluster-autoscaler's
// scale-down question; pods kubectl skips, such as mirror pods and, with
// IgnoreAllDaemonSets, DaemonSet pods, do not prevent it).
func (n NodeDrain) Removable() bool { return !n.Refused && n.Blocked == 0 && n.Unplaced == 0 }

// DrainPlan drains a set of nodes without breaking a budget.
type DrainPlan struct {
	// Nodes are the drained nodes in name order.
	Nodes []NodeDrain
	// Evictions in issue order: nodes in name order, pods in namespace/name
	// order within a node.
	Evictions []PlannedEviction
	// Blocked are the evictions the budgets refuse, in the same order.
	Blocked []BlockedEviction
	// PDBs are all input budgets after the planned evictions (new objects,
	// namespace/name order), as the eviction handler would leave them.
	PDBs []*policyv1.PodDisruptionBudget
}

// ErrInvalidPlan wraps PlanDrain's input errors.
var ErrInvalidPlan = errors.New("eviction: invalid drain plan request")

// PlanDrain plans draining nodes from the cluster snap, as `kubectl drain`
// on each node followed by cluster-autoscaler's re-placement check:
//
//  1. on each node (name order), SelectDrainPods chooses the pods; a node
//     with refusals is left alone;
//  2. each chosen pod (node order, then namespace/name order) is checked
//     against the budgets exactly as the Eviction API would check it
//     (Decide's rules: bypasses, several budgets, stale status, exhausted
//     budget...), with every earlier planned eviction already charged, so
//     no budget's disruptionsAllowed goes below zero and no budget loses
//     more healthy pods than it allows;
//  3. each planned eviction is placed on the first node, in name order, that
//     is not being drained and passes every Filter of the scheduler profile
//     (placement.Compiled.Fits) with the earlier evicted pods already placed.
//
// Budgets are taken with their current status and the plan never counts on
// a recovering pod: it is what can be evicted now. Neither snap nor pdbs is
// modified; a budget failing ValidatePDB or an unknown node is an error
// wrapping ErrInvalidPlan.
func PlanDrain(snap *placement.Snapshot, nodes []string, pdbs []*policyv1.PodDisruptionBudget, opts PlanOptions) (*DrainPlan, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPlan)
	}
	names := append([]string(nil), nodes...)
	sort.Strings(names)
	drained := make(map[string]bool, len(names))
	for _, n := range names {
		if _, ok := cluster.NodeOf(snapshotOf(snap), n); !ok {
			return nil, fmt.Errorf("%w: unknown node %q", ErrInvalidPlan, n)
		}
		drained[n] = true
	}
	budgets, err := newBudgetIndex(pdbs, opts.Drain.Now)
	if err != nil {
		return nil, err
	}

	plan := &DrainPlan{}
	var keys []string
	for _, name := range names {
		ni, _ := cluster.NodeOf(snapshotOf(snap), name)
		pods := make([]*corev1.Pod, len(ni.Pods))
		for i, p := range ni.Pods {
			pods[i] = p.Pod
		}
		sel, err := SelectDrainPods(name, pods, opts.DaemonSets, opts.Drain)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPlan, err)
		}
		nd := NodeDrain{Node: name, Selection: sel, Refused: len(sel.Errors()) > 0}
		if !nd.Refused {
			for _, p := range sel.Pods() {
				charged, st := budgets.evict(p)
				if st != nil {
					plan.Blocked = append(plan.Blocked, BlockedEviction{Pod: p, From: name, PDB: charged, Status: *st})
					nd.Blocked++
					continue
				}
				plan.Evictions = append(plan.Evictions, PlannedEviction{Pod: p, From: name, PDB: charged})
				keys = append(keys, p.Namespace+"/"+p.Name)
				nd.Evictions++
			}
		}
		plan.Nodes = append(plan.Nodes, nd)
	}
	plan.PDBs = budgets.result()

	place := placeEvicted
	if opts.Scheduler {
		place = placeScheduled
	}
	without, err := snap.WithoutPods(keys...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPlan, err)
	}
	unplaced, err := place(without, drained, plan.Evictions, opts.Placement)
	if err != nil {
		return nil, err
	}
	for i, n := range plan.Nodes {
		plan.Nodes[i].Unplaced = unplaced[n.Node]
	}
	return plan, nil
}

// placeEvicted sets To on every eviction: first fit over the nodes not
// being drained, earlier pods placed first. Pods compile against the view;
// placements are applied to per-node copies (cheap), and folded into the
// view only before a pod whose filters read other pods' placements (hard
// spread constraints, required pod (anti-)affinity) or after a placed pod
// that other pods' filters read (required anti-affinity).
//
// Pods of one controller with the same labels and spec share one compiled
// form, and such a pod's scan starts where the previous one of its template
// fitted: for pods that read no placements every filter is monotone (nodes
// only gain pods), so the earlier nodes cannot fit and first fit is kept
// (cluster-autoscaler's hinting, made exact).
func placeEvicted(snap *placement.Snapshot, drainedNames map[string]bool, evs []PlannedEviction, opts placement.Options) (map[string]int, error) {
	unplaced := map[string]int{}
	view := snapshotOf(snap)
	nodes := append([]*cluster.NodeInfo(nil), cluster.NodesOf(view)...)
	drainedList := make([]string, 0, len(drainedNames))
	for n := range drainedNames {
		drainedList = append(drainedList, n)
	}
	sort.Strings(drainedList)
	drained := make([]bool, len(nodes))
	for j, n := range nodes {
		drained[j] = drainedNames[n.Name]
	}
	var pending []*cluster.PodInfo
	antiPending := false
	type template struct {
		pod  *corev1.Pod
		c    *placement.Compiled
		from int // the scan may start here
	}
	templates := map[types.UID][]*template{}
	// fold binds the pending placements into the view; the templates were
	// compiled against the old one.
	fold := func() error {
		for _, pi := range pending {
			v, err := view.WithPodInfo(pi)
			if err != nil {
				return fmt.Errorf("%w: %w", ErrInvalidPlan, err)
			}
			view = v
		}
		pending, antiPending = pending[:0], false
		clear(templates)
		return nil
	}
	for i := range evs {
		src := evs[i].Pod
		pod := new(corev1.Pod)
		*pod = *src
		pod.Spec.NodeName = ""
		reads := readsPlacements(pod)
		if antiPending || reads {
			if err := fold(); err != nil {
				return nil, err
			}
		}
		var tpl *template
		ref := metav1.GetControllerOf(src)
		if ref != nil && !reads {
			for _, t := range templates[ref.UID] {
				if sameTemplate(t.pod, pod) {
					tpl = t
					break
				}
			}
		}
		if tpl == nil {
			c, err := placement.Compile(publicSnapshot(view), pod, opts)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidPlan, err)
			}
			tpl = &template{pod: pod, c: c}
			if ref != nil && !reads {
				templates[ref.UID] = append(templates[ref.UID], tpl)
			}
		}
		placed := false
		for j := tpl.from; j < len(nodes); j++ {
			n := nodes[j]
			if drained[j] || !tpl.c.Fits(publicNode(n)) {
				continue
			}
			bound := new(corev1.Pod)
			*bound = *pod
			bound.Spec.NodeName = n.Name
			pi := new(cluster.PodInfo)
			*pi = *podInfoOf(tpl.c)
			pi.Pod, pi.Key = bound, src.Namespace+"/"+src.Name
			nodes[j] = n.WithPodInfo(pi)
			pending = append(pending, pi)
			antiPending = antiPending || len(pi.RequiredAntiAffinityTerms()) > 0
			evs[i].To = n.Name
			if !reads {
				tpl.from = j
			}
			placed = true
			break
		}
		if !placed {
			unplaced[evs[i].From]++
			if !reads {
				tpl.from = len(nodes)
			}
			// The scheduler's own report for the pod, on the cluster as
			// the plan has it at this pod's turn.
			if err := fold(); err != nil {
				return nil, err
			}
			qr, err := whatif.Reschedule(publicSnapshot(view), drainedList, []*corev1.Pod{src}, whatif.Options{Placement: opts})
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidPlan, err)
			}
			evs[i].Message = qr.Results[0].Message
			if qr.Results[0].Outcome == preemption.Failed {
				evs[i].Message = qr.Results[0].Error
			}
		}
	}
	return unplaced, nil
}

// placeScheduled sets To (or Message) on every eviction as
// whatif.Reschedule schedules the re-created pods.
func placeScheduled(view *placement.Snapshot, drained map[string]bool, evs []PlannedEviction, opts placement.Options) (map[string]int, error) {
	names := make([]string, 0, len(drained))
	for n := range drained {
		names = append(names, n)
	}
	sort.Strings(names)
	pods := make([]*corev1.Pod, len(evs))
	at := make(map[string]int, len(evs))
	for i := range evs {
		pods[i] = evs[i].Pod
		at[evs[i].Pod.Namespace+"/"+evs[i].Pod.Name] = i
	}
	// view has the evicted pods removed already; Reschedule removes them
	// again (a no-op) and takes its queue's ties from view's input.
	qr, err := whatif.Reschedule(view, names, pods, whatif.Options{Placement: opts})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPlan, err)
	}
	unplaced := map[string]int{}
	for _, r := range qr.Results {
		i := at[r.Pod]
		if r.Outcome == preemption.Scheduled {
			evs[i].To = r.Node
			continue
		}
		unplaced[evs[i].From]++
		evs[i].Message = r.Message
		if r.Outcome == preemption.Failed {
			evs[i].Message = r.Error
		}
	}
	return unplaced, nil
}

// sameTemplate: two pods of one controller filter alike (labels and spec,
// the node name cleared in both).
func sameTemplate(a, b *corev1.Pod) bool {
	// reflect.DeepEqual is stricter than semantic equality (1Gi != 1024Mi),
	// which only costs a compilation, and much cheaper.
	return maps.Equal(a.Labels, b.Labels) && reflect.DeepEqual(a.Spec, b.Spec)
}

// readsPlacements: the pod's filters count other pods (hard topology spread,
// required pod affinity or anti-affinity).
func readsPlacements(p *corev1.Pod) bool {
	for _, c := range p.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable == corev1.DoNotSchedule {
			return true
		}
	}
	a := p.Spec.Affinity
	return a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0))
}

// budgetIndex holds the budgets with compiled selectors, by namespace, and
// charges evictions as the eviction handler does.
type budgetIndex struct {
	now     time.Time
	all     []*policyv1.PodDisruptionBudget // namespace/name order; replaced when charged
	sels    []pdbmatch.Selector             // the Eviction API's rule
	byNS    map[string][]int                // budgets without matchLabels
	byPair  map[string][]int                // namespace, first matchLabels key and value
	charged []bool
}

func newBudgetIndex(pdbs []*policyv1.PodDisruptionBudget, now time.Time) (*budgetIndex, error) {
	x := &budgetIndex{now: now, byNS: map[string][]int{}, byPair: map[string][]int{}}
	for i, p := range pdbs {
		if p == nil {
			return nil, fmt.Errorf("%w: pdbs[%d] is nil", ErrInvalidPlan, i)
		}
		if errs := ValidatePDB(p); len(errs) > 0 {
			return nil, fmt.Errorf("%w: PodDisruptionBudget %s/%s: %w", ErrInvalidPlan, p.Namespace, p.Name, &ValidationError{Errors: errs})
		}
		x.all = append(x.all, p)
	}
	sort.SliceStable(x.all, func(i, j int) bool {
		if x.all[i].Namespace != x.all[j].Namespace {
			return x.all[i].Namespace < x.all[j].Namespace
		}
		return x.all[i].Name < x.all[j].Name
	})
	x.sels = make([]pdbmatch.Selector, len(x.all))
	x.charged = make([]bool, len(x.all))
	for i, p := range x.all {
		sel, err := pdbmatch.Compile(p, pdbmatch.Eviction)
		if err != nil {
			return nil, fmt.Errorf("%w: PodDisruptionBudget %s/%s: %w", ErrInvalidPlan, p.Namespace, p.Name, err)
		}
		x.sels[i] = sel
		ns := pdbmatch.Namespace(p.Namespace)
		switch ml := p.Spec.Selector; {
		case sel.MatchesNothing():
		case ml != nil && len(ml.MatchLabels) > 0:
			// Every covered pod carries each matchLabels pair; the
			// smallest key is the index key.
			k := sortedStringKeys(ml.MatchLabels)[0]
			pk := pairKey(ns, k, ml.MatchLabels[k])
			x.byPair[pk] = append(x.byPair[pk], i)
		default:
			x.byNS[ns] = append(x.byNS[ns], i)
		}
	}
	return x, nil
}

// evict charges pod's eviction: the budget charged ("" none) and nil, or
// the refusing budget and the Eviction API's answer.
func (x *budgetIndex) evict(pod *corev1.Pod) (string, *metav1.Status) {
	if canIgnorePDB(pod) {
		return "", nil
	}
	match, several := -1, false
	consider := func(i int) {
		if !x.sels[i].Matches(pod) {
			return
		}
		if match >= 0 {
			several = true
		}
		match = i
	}
	ns := pdbmatch.Namespace(pod.Namespace)
	for _, i := range x.byNS[ns] {
		consider(i)
	}
	for k, v := range pod.Labels {
		for _, i := range x.byPair[pairKey(ns, k, v)] {
			consider(i)
		}
	}
	if several {
		return "", &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: MessageMultiplePDBs}
	}
	if match < 0 {
		return "", nil
	}
	pdb := x.all[match]
	if bypassesBudget(pod, pdb) {
		return "", nil
	}
	key := pdb.Namespace + "/" + pdb.Name
	out, err := chargeBudget(pdb, pod.Name, false, x.now)
	if err != nil {
		st := statusOf(err)
		return key, &st
	}
	x.all[match], x.charged[match] = out, true
	return key, nil
}

// result returns every budget, new objects.
func (x *budgetIndex) result() []*policyv1.PodDisruptionBudget {
	out := make([]*policyv1.PodDisruptionBudget, len(x.all))
	for i, p := range x.all {
		if x.charged[i] {
			out[i] = p // already a copy of our own
		} else {
			out[i] = p.DeepCopy()
		}
	}
	return out
}

// bypassesBudget: an unready pod is deleted without charging its budget
// under AlwaysAllow, or under IfHealthyBudget (the default) when the budget
// is currently healthy.
func bypassesBudget(pod *corev1.Pod, pdb *policyv1.PodDisruptionBudget) bool {
	if isPodReady(pod) {
		return false
	}
	if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil && *p == policyv1.AlwaysAllow {
		return true
	}
	return pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0
}

func pairKey(ns, k, v string) string { return ns + "\x00" + k + "\x00" + v }
