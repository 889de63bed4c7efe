package whatif

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// NodeTemplate is a node group's node as a scale-up would create it.
type NodeTemplate struct {
	// Node is the template; every new node is a copy named NAME-e-I (I
	// from 0), with its kubernetes.io/hostname label set to that name.
	Node *corev1.Node
	// DaemonSetPods land on every new node before any pending pod (each a
	// copy named POD-NODE, bound to the new node).
	DaemonSetPods []*corev1.Pod
}

// EstimateMode selects how Estimate places the pending pods.
type EstimateMode int8

const (
	// FirstFit is cluster-autoscaler v1.36's BinpackingNodeEstimator with
	// its DecreasingPodOrderer, answered with the scheduler's exact
	// filters (no scores).
	FirstFit EstimateMode = iota
	// Scheduler is the fewest template nodes with which kube-scheduler
	// itself, placing the pending pods in queue order with its scores and
	// without preemption, places as many pods as with the most nodes
	// allowed. The count is not monotonic in the nodes added (spreading
	// can place fewer pods with one node more), so every count from 0 up
	// is tried: one scheduling run each.
	Scheduler
)

// String returns the mode's name.
func (m EstimateMode) String() string {
	if m == Scheduler {
		return "Scheduler"
	}
	return "FirstFit"
}

// EstimateOptions configures Estimate. The zero value is FirstFit with the
// default profile and no node limit.
type EstimateOptions struct {
	Options
	Mode EstimateMode
	// MaxNodes bounds the nodes added (0: no bound), as the estimator's
	// EstimationLimiter does; cluster-autoscaler's time limit has no
	// counterpart, as it would make answers depend on the machine.
	MaxNodes int
}

// UnplacedPod is a pending pod an estimate could not place, and why.
type UnplacedPod struct {
	Pod    string // namespace/name
	Reason string
}

// EstimateResult is the answer of Estimate.
type EstimateResult struct {
	// NodeCount is the number of new nodes needed (nodes that received a
	// pending pod, as the estimator counts).
	NodeCount int
	// NewNodes are the added nodes' names, in the order they were added.
	NewNodes []string
	// Placements are the placed pods, in the order they were placed.
	Placements []preemption.PodPlacement
	// Unplaced are the pods that found no node, in the order they were
	// tried.
	Unplaced []UnplacedPod
	// Final is the cluster with the new nodes and the placed pods.
	Final *placement.Snapshot
}

// Estimate answers "how many nodes of this template does this backlog
// need": the pending pods are placed on new nodes made from tmpl (FirstFit:
// only on new nodes, as the estimator tries them; Scheduler: wherever the
// scheduler puts them, existing nodes included). Neither snap nor any
// input object is modified. Gated pods are reported unplaced, as the
// autoscaler does not consider them.
//
// FirstFit mirrors BinpackingNodeEstimator.Estimate: pods sharing a
// controller and scheduling spec form one equivalence group; the groups are
// sorted by decreasing cpu/allocatable + memory/allocatable of the
// template (ties: input order, where upstream's sort is unstable); each pod
// is tried on the nodes already added, the last added first, then (when it
// fits none, and for the rest of its group) on the last added node, then
// on a fresh node. A pod that does not fit an empty fresh node is reported
// and skipped without adding another.
func Estimate(snap *placement.Snapshot, pending []*corev1.Pod, tmpl NodeTemplate, opts EstimateOptions) (*EstimateResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	}
	if tmpl.Node == nil {
		return nil, fmt.Errorf("%w: nil node template", ErrInvalidQuestion)
	}
	for i, p := range pending {
		if p == nil {
			return nil, fmt.Errorf("%w: pending[%d] is nil", ErrInvalidQuestion, i)
		}
	}
	if opts.Mode == Scheduler {
		return estimateScheduler(snap, pending, tmpl, opts)
	}
	return estimateFirstFit(snap, pending, tmpl, opts)
}

// newNode is the i-th node made from tmpl, with its DaemonSet pods.
func (tmpl NodeTemplate) newNode(i int) (*corev1.Node, []*corev1.Pod) {
	n := tmpl.Node.DeepCopy()
	n.Name = fmt.Sprintf("%s-e-%d", tmpl.Node.Name, i)
	n.UID = types.UID("uid-" + n.Name)
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[corev1.LabelHostname] = n.Name
	pods := make([]*corev1.Pod, len(tmpl.DaemonSetPods))
	for k, ds := range tmpl.DaemonSetPods {
		p := ds.DeepCopy()
		p.Name = ds.Name + "-" + n.Name
		p.UID = types.UID("uid-" + namespace(ds) + "-" + p.Name)
		p.Spec.NodeName = n.Name
		p.Status.Phase = corev1.PodRunning
		pods[k] = p
	}
	return n, pods
}

// withNewNodes is snap with k nodes of tmpl added (from index first), with
// their DaemonSet pods.
func withNewNodes(snap *placement.Snapshot, tmpl NodeTemplate, first, k int) (*placement.Snapshot, []string, error) {
	cur, names, err := withEmptyNodes(snap, tmpl, first, k)
	if err != nil {
		return nil, nil, err
	}
	for i := range names {
		if cur, err = withDaemonSetPods(cur, tmpl, first+i); err != nil {
			return nil, nil, err
		}
	}
	return cur, names, nil
}

// withEmptyNodes is snap with k nodes of tmpl added (from index first),
// without their DaemonSet pods: one node view for the k.
func withEmptyNodes(snap *placement.Snapshot, tmpl NodeTemplate, first, k int) (*placement.Snapshot, []string, error) {
	if k == 0 {
		return snap, nil, nil
	}
	nodes := make([]*corev1.Node, k)
	names := make([]string, k)
	for i := range nodes {
		n, _ := tmpl.newNode(first + i)
		nodes[i], names[i] = n, n.Name
	}
	cur, err := snap.WithNodes(nodes...)
	if err != nil {
		return nil, nil, fmt.Errorf("whatif: adding template nodes: %w", err)
	}
	return cur, names, nil
}

// withDaemonSetPods binds the DaemonSet pods of tmpl's i-th node (a view).
func withDaemonSetPods(cur *placement.Snapshot, tmpl NodeTemplate, i int) (*placement.Snapshot, error) {
	_, pods := tmpl.newNode(i)
	var err error
	for _, p := range pods {
		if cur, err = cur.WithPod(p); err != nil {
			return nil, fmt.Errorf("whatif: adding DaemonSet pod %s: %w", p.Name, err)
		}
	}
	return cur, nil
}

// readsDomains reports whether a pod's filters read the set of topology
// domains, not only the pods in them: a DoNotSchedule spread constraint of
// its own or of the profile's defaults (the skew is taken against the
// emptiest domain). Empty nodes added ahead would change its answers.
func readsDomains(p *corev1.Pod, opts placement.Options) bool {
	for _, c := range p.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable == corev1.DoNotSchedule {
			return true
		}
	}
	for _, c := range opts.DefaultSpreadConstraints {
		if c.WhenUnsatisfiable == corev1.DoNotSchedule {
			return true
		}
	}
	return false
}

// equivalenceGroup is pods the estimator treats as one (same controller,
// same scheduling spec), with their first pod prepared once.
type equivalenceGroup struct {
	pods     []*corev1.Pod
	prep     *placement.Prepared
	compiled *placement.Compiled // against the cluster of its last check
	score    float64
}

// equivalenceGroups groups pods as cluster-autoscaler's
// groupPodsBySchedulingProperties does: pods of one controller with equal
// labels and spec (spec.nodeName aside) share a group; a pod without a
// controller is a group of its own. Groups keep the order of their first
// pod.
func equivalenceGroups(pods []*corev1.Pod, opts placement.Options) []*equivalenceGroup {
	var groups []*equivalenceGroup
	byKey := map[string]*equivalenceGroup{}
	for _, p := range pods {
		key := ""
		for _, o := range p.OwnerReferences {
			if o.Controller != nil && *o.Controller {
				spec := p.Spec
				spec.NodeName = ""
				b, _ := json.Marshal(struct {
					UID    types.UID
					NS     string
					Labels map[string]string
					Spec   corev1.PodSpec
				}{o.UID, namespace(p), p.Labels, spec})
				key = string(b)
			}
		}
		if g, ok := byKey[key]; ok && key != "" {
			g.pods = append(g.pods, p)
			continue
		}
		g := &equivalenceGroup{pods: []*corev1.Pod{p}, prep: placement.Prepare(p, opts)}
		groups = append(groups, g)
		if key != "" {
			byKey[key] = g
		}
	}
	return groups
}

// decreasingScore is DecreasingPodOrderer's calculatePodScore: the
// exemplar's container cpu requests over the template's allocatable cpu
// plus its memory requests over the allocatable memory.
func decreasingScore(p *corev1.Pod, node *corev1.Node) float64 {
	var cpu, mem int64
	for _, c := range p.Spec.Containers {
		if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
			cpu += q.MilliValue()
		}
		if q, ok := c.Resources.Requests[corev1.ResourceMemory]; ok {
			mem += q.Value()
		}
	}
	score := 0.0
	if q, ok := node.Status.Allocatable[corev1.ResourceCPU]; ok && q.MilliValue() > 0 {
		score += float64(cpu) / float64(q.MilliValue())
	}
	if q, ok := node.Status.Allocatable[corev1.ResourceMemory]; ok && q.Value() > 0 {
		score += float64(mem) / float64(q.Value())
	}
	return score
}

func estimateFirstFit(snap *placement.Snapshot, pending []*corev1.Pod, tmpl NodeTemplate, opts EstimateOptions) (*EstimateResult, error) {
	res := &EstimateResult{NewNodes: []string{}, Placements: []preemption.PodPlacement{}, Unplaced: []UnplacedPod{}}
	groups := equivalenceGroups(pending, opts.Placement)
	for _, g := range groups {
		g.score = decreasingScore(g.pods[0], tmpl.Node)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].score > groups[j].score })

	cur := snap
	withPods := map[string]bool{}
	last := ""
	// reserve are nodes added ahead and not yet used (see readsDomains).
	var reserve []string
	anyReadsDomains := false
	for _, g := range groups {
		anyReadsDomains = anyReadsDomains || readsDomains(g.pods[0], opts.Placement)
	}
	// fits compiles the group's exemplar against the current cluster and
	// checks the named nodes in order (CheckPredicates: PreFilter, then
	// Filter on the node).
	fits := func(g *equivalenceGroup, names ...string) (string, error) {
		// A view made by binding pods keeps the group's compiled form:
		// only its topology state is brought up to date (Compiled.On).
		var c *placement.Compiled
		var err error
		if g.compiled != nil {
			c, err = g.compiled.On(cur)
		}
		if c == nil || err != nil {
			if c, err = g.prep.Compile(cur); err != nil {
				return "", err
			}
		}
		g.compiled = c
		if c.Gated() != nil || !c.PreFilterStatus().Code.Passes() {
			return "", nil
		}
		for _, name := range names {
			if ni, ok := cluster.NodeOf(snapshotOf(cur), name); ok && c.Fits(publicNode(ni)) {
				return name, nil
			}
		}
		return "", nil
	}
	bind := func(p *corev1.Pod, node string) error {
		b := p.DeepCopy()
		b.Spec.NodeName = node
		b.Status.Phase = corev1.PodRunning
		next, err := cur.WithPod(b)
		if err != nil {
			return fmt.Errorf("whatif: binding %s/%s to %s: %w", namespace(p), p.Name, node, err)
		}
		cur = next
		withPods[node] = true
		res.Placements = append(res.Placements, preemption.PodPlacement{Pod: namespace(p) + "/" + p.Name, Node: node})
		return nil
	}
	unplaced := func(p *corev1.Pod, reason string) {
		res.Unplaced = append(res.Unplaced, UnplacedPod{Pod: namespace(p) + "/" + p.Name, Reason: reason})
	}
	for _, g := range groups {
		// tryToScheduleOnExistingNodes: the nodes added so far, the last
		// one first, until a pod of the group fits none.
		idx := 0
		for ; idx < len(g.pods) && len(res.NewNodes) > 0; idx++ {
			order := make([]string, 0, len(res.NewNodes))
			for k := len(res.NewNodes) - 1; k >= 0; k-- {
				order = append(order, res.NewNodes[k])
			}
			node, err := fits(g, order...)
			if err != nil {
				return nil, err
			}
			if node == "" {
				break
			}
			if err := bind(g.pods[idx], node); err != nil {
				return nil, err
			}
		}
		// tryToScheduleOnNewNodes.
		limited := false
		for _, p := range g.pods[idx:] {
			if limited {
				unplaced(p, "the node limit was reached")
				continue
			}
			if last != "" {
				node, err := fits(g, last)
				if err != nil {
					return nil, err
				}
				if node != "" {
					if err := bind(p, node); err != nil {
						return nil, err
					}
					continue
				}
				if !withPods[last] {
					unplaced(p, "does not fit an empty node of the template")
					continue
				}
			}
			if opts.MaxNodes > 0 && len(res.NewNodes) >= opts.MaxNodes {
				limited = true
				unplaced(p, "the node limit was reached")
				continue
			}
			// A node of the reserve is activated: its DaemonSet pods bound.
			// The reserve is refilled by doubling, one node view for many
			// nodes, unless some pod's filters read the domains.
			if len(reserve) == 0 {
				k := 1
				if !anyReadsDomains {
					k = max(1, len(res.NewNodes))
				}
				if opts.MaxNodes > 0 {
					k = min(k, opts.MaxNodes-len(res.NewNodes))
				}
				next, names, err := withEmptyNodes(cur, tmpl, len(res.NewNodes), k)
				if err != nil {
					return nil, err
				}
				cur, reserve = next, names
			}
			next, err := withDaemonSetPods(cur, tmpl, len(res.NewNodes))
			if err != nil {
				return nil, err
			}
			cur, last, reserve = next, reserve[0], reserve[1:]
			res.NewNodes = append(res.NewNodes, last)
			node, err := fits(g, last)
			if err != nil {
				return nil, err
			}
			if node == "" {
				unplaced(p, "does not fit an empty node of the template")
				continue
			}
			if err := bind(p, node); err != nil {
				return nil, err
			}
		}
	}
	res.NodeCount = len(withPods)
	if len(reserve) > 0 {
		var err error
		if cur, err = cur.WithoutNodes(reserve...); err != nil {
			return nil, err
		}
	}
	res.Final = cur
	return res, nil
}

// estimateScheduler finds the fewest template nodes with which the queue
// places as many pods as with the most nodes allowed (MaxNodes, else one
// per pending pod): the node counts are tried from 0 upwards, one
// scheduling run each.
func estimateScheduler(snap *placement.Snapshot, pending []*corev1.Pod, tmpl NodeTemplate, opts EstimateOptions) (*EstimateResult, error) {
	never := make([]*corev1.Pod, len(pending))
	for i, p := range pending {
		never[i] = opts.prepare(p)
	}
	q, err := preemption.PrepareQueue(never, opts.queueOptions())
	if err != nil {
		return nil, err
	}
	type run struct {
		placed int
		res    *EstimateResult
	}
	try := func(k int) (run, error) {
		cur, names, err := withNewNodes(snap, tmpl, 0, k)
		if err != nil {
			return run{}, err
		}
		qr, err := q.Schedule(cur)
		if err != nil {
			return run{}, err
		}
		res := &EstimateResult{NewNodes: append([]string{}, names...), Placements: []preemption.PodPlacement{}, Unplaced: []UnplacedPod{}, Final: qr.Final}
		placedPods := 0
		for _, r := range qr.Results {
			if placed(r.Outcome) {
				placedPods++
				res.Placements = append(res.Placements, preemption.PodPlacement{Pod: r.Pod, Node: r.Node})
				continue
			}
			reason := r.Message
			if r.Outcome == preemption.Failed {
				reason = r.Error
			} else if r.Outcome == preemption.Gated {
				reason = "gated"
			}
			res.Unplaced = append(res.Unplaced, UnplacedPod{Pod: r.Pod, Reason: reason})
		}
		res.NodeCount = k
		return run{placed: placedPods, res: res}, nil
	}
	hi := len(pending)
	if opts.MaxNodes > 0 && opts.MaxNodes < hi {
		hi = opts.MaxNodes
	}
	most, err := try(hi)
	if err != nil {
		return nil, err
	}
	// The scheduler's scores do not make the placed count monotonic in the
	// node count (spreading and anti-affinity can place fewer pods with one
	// node more), so no bisection: the counts are tried upwards.
	for k := 0; k < hi; k++ {
		r, err := try(k)
		if err != nil {
			return nil, err
		}
		if r.placed >= most.placed {
			return r.res, nil
		}
	}
	return most.res, nil
}

// EstimateEach is Estimate for each node group's template, against the
// same cluster: the per-template answers cluster-autoscaler's expander
// chooses among, in the order of templates.
func EstimateEach(snap *placement.Snapshot, pending []*corev1.Pod, templates []NodeTemplate, opts EstimateOptions) ([]*EstimateResult, error) {
	out := make([]*EstimateResult, len(templates))
	for i, tmpl := range templates {
		r, err := Estimate(snap, pending, tmpl, opts)
		if err != nil {
			return nil, fmt.Errorf("node template %d: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}
