package whatif

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// ErrInvalidQuestion is returned (wrapped) for a question that cannot be
// asked: a nil snapshot or template, a negative replica count, an unknown
// or repeated node to drain.
var ErrInvalidQuestion = errors.New("whatif: invalid question")

// Options configures a question. The zero value schedules with the v1.36
// default profile and without preemption.
type Options struct {
	// Placement is the profile every pod is scheduled with.
	Placement placement.Options
	// Preemption, when non-nil, lets the question's pods preempt
	// lower-priority pods as kube-scheduler's PostFilter would (each pod's
	// own preemptionPolicy then applies); nil gives every pod
	// preemptionPolicy Never, so nothing is evicted.
	Preemption *preemption.Options
	// StartClock is the queue's start clock (preemption.QueueOptions).
	StartClock time.Time
}

// queueOptions are the preemption.QueueOptions of a question.
func (o Options) queueOptions() preemption.QueueOptions {
	q := preemption.QueueOptions{Placement: o.Placement, StartClock: o.StartClock}
	if o.Preemption != nil {
		q.Preemption = *o.Preemption
	}
	return q
}

// prepare is the copy of pod a question schedules: preemptionPolicy Never
// unless the question may preempt. pod is not modified (it may be returned
// as is).
func (o Options) prepare(pod *corev1.Pod) *corev1.Pod {
	if o.Preemption != nil {
		return pod
	}
	never := corev1.PreemptNever
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == never {
		return pod
	}
	c := *pod
	c.Spec.PreemptionPolicy = &never
	return &c
}

// Replica returns replica i of template: a deep copy named NAME-i, with uid
// uid-NS-NAME-i (NS is the template's namespace, "default" when empty).
// Everything else, creationTimestamp included, is the template's. A nil
// template gives nil.
func Replica(template *corev1.Pod, i int) *corev1.Pod {
	if template == nil {
		return nil
	}
	p := template.DeepCopy()
	p.Name = fmt.Sprintf("%s-%d", template.Name, i)
	p.UID = types.UID("uid-" + namespace(template) + "-" + p.Name)
	return p
}

// ReplicasResult is the answer of Replicas.
type ReplicasResult struct {
	// Requested is the number of replicas asked for.
	Requested int
	// Nodes are the placed replicas' nodes, in replica order (replica i on
	// Nodes[i]); len(Nodes) replicas were placed.
	Nodes []string
	// Outcome is that of the first replica not placed (Unschedulable,
	// Gated, Error), "" when every requested replica was placed.
	Outcome preemption.Outcome
	// Message is the first unplaced replica's message: upstream's FitError
	// text with its PostFilter part, or the error of outcome Error; ""
	// when all were placed or the template is gated (the scheduler reports
	// a gated pod without a message).
	Message string
	// Replicas are the outcomes of every replica attempted, in order.
	Replicas []preemption.PodOutcome
	// Evicted are the pods the replicas preempted (only with
	// Options.Preemption), in eviction order.
	Evicted []string
	// Final is the cluster with the placed replicas bound.
	Final *placement.Snapshot
}

// Placed returns the number of replicas placed.
func (r *ReplicasResult) Placed() int { return len(r.Nodes) }

// Replicas places up to n replicas of template (Replica(template, i)) on
// snap one after another, as kube-scheduler would schedule them: each goes
// through the scheduling cycle against the cluster with the replicas before
// it bound, and the run stops at the first replica not placed. A replica
// is placed when it is Scheduled, or PreemptionNominated when
// opts.Preemption lets it preempt.
//
// The template is what the API server would store (priority resolved,
// defaults applied). Neither snap nor template is modified. An error wraps
// ErrInvalidQuestion, or is preemption's for invalid options.
func Replicas(snap *placement.Snapshot, template *corev1.Pod, n int, opts Options) (*ReplicasResult, error) {
	switch {
	case snap == nil:
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	case template == nil:
		return nil, fmt.Errorf("%w: nil template", ErrInvalidQuestion)
	case n < 0:
		return nil, fmt.Errorf("%w: pod %s/%s: negative replica count %d", ErrInvalidQuestion, namespace(template), template.Name, n)
	}
	base := opts.prepare(template)
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		pods[i] = Replica(base, i)
	}
	qopts := opts.queueOptions()
	qopts.StopAtUnplaced = true
	qr, err := preemption.ScheduleQueue(snap, pods, qopts)
	if err != nil {
		return nil, err
	}
	res := &ReplicasResult{Requested: n, Nodes: []string{}, Replicas: qr.Results, Evicted: qr.Evicted, Final: qr.Final}
	for _, r := range qr.Results {
		if !placed(r.Outcome) {
			res.Outcome, res.Message = r.Outcome, r.Message
			if r.Outcome == preemption.Failed {
				res.Message = r.Error
			}
			break
		}
		res.Nodes = append(res.Nodes, r.Node)
	}
	return res, nil
}

func placed(o preemption.Outcome) bool {
	return o == preemption.Scheduled || o == preemption.PreemptionNominated
}

// MovedPod is a pod a drain evicted and its controller re-created, and
// where the scheduler put it.
type MovedPod struct {
	Pod     string             // namespace/name
	From    string             // the drained node it was bound to
	Outcome preemption.Outcome // Scheduled, Unschedulable, Gated, Error (PreemptionNominated with preemption)
	Node    string             // where it went ("" when nowhere)
	// Message is upstream's FitError text (with its PostFilter part) for an
	// unplaced pod, or the error of outcome Error.
	Message string
}

// DrainResult is the answer of Drain.
type DrainResult struct {
	// Drained are the drained nodes, as asked (repeats removed).
	Drained []string
	// Moved are the evicted and re-created pods, in queue order.
	Moved []MovedPod
	// Stayed are the pods left on the drained nodes (DaemonSet and mirror
	// pods), sorted by key.
	Stayed []string
	// Drainable reports whether every moved pod was placed (true when none
	// moved).
	Drainable bool
	// Evicted are the pods the moved pods preempted (only with
	// Options.Preemption), in eviction order.
	Evicted []string
	// Final is the cluster after the drain: the nodes cordoned, the moved
	// pods bound where they went.
	Final *placement.Snapshot
}

// Drain cordons the named nodes of snap, evicts their pods as kubectl
// drain --ignore-daemonsets --force does, and schedules the re-created pods
// in queue order (see the package documentation for the rules). Neither
// snap nor any pod is modified. Blank names are ignored and repeats count
// once; an unknown node is an error wrapping ErrInvalidQuestion.
func Drain(snap *placement.Snapshot, nodes []string, opts Options) (*DrainResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	}
	res := &DrainResult{Drained: []string{}, Moved: []MovedPod{}, Stayed: []string{}}
	seen := map[string]bool{}
	for _, name := range nodes {
		if name == "" || seen[name] {
			continue
		}
		if _, ok := cluster.NodeOf(snapshotOf(snap), name); !ok {
			return nil, fmt.Errorf("%w: node %q to drain is not in the snapshot", ErrInvalidQuestion, name)
		}
		seen[name] = true
		res.Drained = append(res.Drained, name)
	}

	var pods []*corev1.Pod
	from := map[string]string{}
	for _, name := range res.Drained {
		ni, _ := cluster.NodeOf(snapshotOf(snap), name)
		for _, pi := range ni.Order {
			if stays(pi.Pod) {
				res.Stayed = append(res.Stayed, pi.Key)
				continue
			}
			pods = append(pods, pi.Pod)
			from[pi.Key] = name
		}
	}
	sort.Strings(res.Stayed)
	qr, err := Reschedule(snap, res.Drained, pods, opts)
	if err != nil {
		return nil, err
	}
	res.Drainable = true
	for _, r := range qr.Results {
		mp := MovedPod{Pod: r.Pod, From: from[r.Pod], Outcome: r.Outcome, Node: r.Node, Message: r.Message}
		if r.Outcome == preemption.Failed {
			mp.Message = r.Error
		}
		if !placed(r.Outcome) {
			res.Drainable = false
		}
		res.Moved = append(res.Moved, mp)
	}
	// A pod a later one preempted lost its node.
	final := make(map[string]string, len(qr.Placements))
	for _, p := range qr.Placements {
		final[p.Pod] = p.Node
	}
	for i := range res.Moved {
		if res.Moved[i].Node != "" && final[res.Moved[i].Pod] == "" {
			res.Moved[i].Node = ""
			res.Drainable = false
		}
	}
	res.Evicted, res.Final = qr.Evicted, qr.Final
	return res, nil
}

// Cordon returns a view of snap with the named nodes cordoned as kubectl
// cordon and the node lifecycle controller leave them: spec.unschedulable
// and the taint node.kubernetes.io/unschedulable:NoSchedule (unless it is
// there). Each costs one node, not the cluster (Snapshot.WithNode). snap is
// unchanged; an unknown node or a nil snap is an error.
func Cordon(snap *placement.Snapshot, nodes ...string) (*placement.Snapshot, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	}
	cur := snap
	for _, name := range nodes {
		ni, ok := cluster.NodeOf(snapshotOf(cur), name)
		if !ok {
			return nil, fmt.Errorf("%w: node %q to cordon is not in the snapshot", ErrInvalidQuestion, name)
		}
		var err error
		if cur, err = cur.WithNode(cordoned(ni.Node)); err != nil {
			return nil, fmt.Errorf("whatif: cordoning %s: %w", name, err)
		}
	}
	return cur, nil
}

// Reschedule is what follows evicting pods from cordoned nodes: the nodes
// are cordoned (Cordon), the pods taken off the cluster and re-created by
// their controllers as the same objects, pending (spec.nodeName cleared,
// status {phase: Pending}; preemptionPolicy Never unless opts.Preemption),
// and scheduled in queue order (ties in the snapshot's input order, then
// the order given). The result's
// Final is the cluster after the run. Neither snap nor the pods are
// modified.
func Reschedule(snap *placement.Snapshot, nodes []string, pods []*corev1.Pod, opts Options) (*preemption.QueueResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	}
	cur, err := Cordon(snap, nodes...)
	if err != nil {
		return nil, err
	}
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: pod %d to reschedule is nil", ErrInvalidQuestion, i)
		}
	}
	// The queue's last tie-break is the order pods were created in: the
	// snapshot's input order here, then the order given for pods a view
	// added.
	inputPos := make(map[string]int, len(pods))
	for _, p := range pods {
		inputPos[namespace(p)+"/"+p.Name] = -1
	}
	for i, p := range cluster.InputOf(snapshotOf(snap)).Pods {
		if p == nil {
			continue
		}
		if _, ok := inputPos[namespace(p)+"/"+p.Name]; ok {
			inputPos[namespace(p)+"/"+p.Name] = i
		}
	}
	ordered := slices.Clone(pods)
	sort.SliceStable(ordered, func(i, j int) bool {
		a, b := inputPos[namespace(ordered[i])+"/"+ordered[i].Name], inputPos[namespace(ordered[j])+"/"+ordered[j].Name]
		return a >= 0 && (b < 0 || a < b)
	})
	var keys []string
	pending := make([]*corev1.Pod, len(ordered))
	for i, p := range ordered {
		// A pod the cluster does not hold (already evicted) is only
		// scheduled.
		if key := namespace(p) + "/" + p.Name; snapshotHas(cur, key) {
			keys = append(keys, key)
		}
		pending[i] = opts.prepare(recreated(p))
	}
	without, err := cur.WithoutPods(keys...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidQuestion, err)
	}
	return preemption.ScheduleQueue(without, pending, opts.queueOptions())
}

// stays reports whether kubectl drain --ignore-daemonsets leaves pod on its
// node: a DaemonSet's pod (drain's daemonSetFilter; the controller would
// re-create it there) or a mirror pod (mirrorPodFilter; the kubelet owns
// it).
func stays(pod *corev1.Pod) bool {
	if _, ok := pod.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		return true
	}
	for _, o := range pod.OwnerReferences {
		if o.Kind == "DaemonSet" {
			return true
		}
	}
	return false
}

// cordoned is a copy of node as kubectl cordon leaves it
// (spec.unschedulable) with the taint the node lifecycle controller adds
// to an unschedulable node (TaintNodeUnschedulable, NoSchedule) unless it is
// there already.
func cordoned(node *corev1.Node) *corev1.Node {
	c := node.DeepCopy() // a new object: the answer's snapshot shares nothing with the caller's
	c.Spec.Unschedulable = true
	for _, t := range node.Spec.Taints {
		if t.Key == corev1.TaintNodeUnschedulable && t.Effect == corev1.TaintEffectNoSchedule {
			return c
		}
	}
	c.Spec.Taints = append(c.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
	return c
}

// recreated is pod as its controller re-creates it after an eviction: the
// same object, unbound and pending.
func recreated(pod *corev1.Pod) *corev1.Pod {
	c := *pod
	c.Spec.NodeName = ""
	c.Status = corev1.PodStatus{Phase: corev1.PodPending}
	return &c
}

func namespace(pod *corev1.Pod) string {
	if pod.Namespace == "" {
		return "default"
	}
	return pod.Namespace
}

func snapshotHas(s *placement.Snapshot, key string) bool {
	_, _, ok := s.Pod(key)
	return ok
}
