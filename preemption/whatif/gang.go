package whatif

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// Messages of the GangScheduling plugin (v1.36.3,
// pkg/scheduler/framework/plugins/gangscheduling): PreEnqueue's while the
// gang has fewer pods than minCount, Permit's while fewer are scheduled.
const (
	GangWaitingForPods      = "waiting for minCount pods from a gang to appear in scheduling queue"
	GangWaitingForScheduled = "waiting for minCount pods from a gang to be scheduled"
)

// GangResult is the answer of Gang.
type GangResult struct {
	// Placed reports whether the gang was placed: at least minCount of its
	// pods (counting those already bound) found a node together.
	Placed bool
	// Pods are the gang's pods in the order the pod group cycle tried
	// them (priority, then creation time, then the order given), each
	// with its outcome: Scheduled when the gang was placed and the pod
	// found a node; otherwise Unschedulable with the pod's FitError, or,
	// for a pod that fitted in a gang that was not placed, the Permit
	// message GangWaitingForScheduled; Gated (with GangWaitingForPods)
	// when the gang has fewer pods than minCount.
	Pods []MovedPod
	// Final is the cluster with the gang's pods bound when it was placed,
	// the snapshot given otherwise.
	Final *placement.Snapshot
}

// Gang answers "does this gang fit": the pods of one pod group
// (spec.schedulingGroup.podGroupName naming group, in its namespace) are
// placed all together or not at all, as kube-scheduler v1.36 does with the
// GangScheduling feature on (off by default upstream):
//
//   - PreEnqueue (GangScheduling.PreEnqueue): with a gang policy and fewer
//     pods in the group than minCount (the pods given plus the group's
//     pods bound in snap), no pod is tried.
//   - The pod group cycle (podGroupSchedulingDefaultAlgorithm): the pods,
//     in priority then creation order, each go through the scheduling
//     cycle against the cluster with the group's earlier feasible pods
//     assumed; a pod that fits no node is skipped. Permit
//     (GangScheduling.Permit) succeeds once the group's scheduled pods
//     reach minCount; then every feasible pod is bound, otherwise none.
//   - A group with the basic policy places each pod on its own.
//
// The pods must be what the API server stores (priority resolved).
// Preemption is not modelled for gangs (upstream's workload-aware
// preemption is a separate feature): the pods get preemptionPolicy Never
// and opts.Preemption must be nil. Neither snap nor the objects are
// modified. An error wraps ErrInvalidQuestion.
func Gang(snap *placement.Snapshot, group *schedulingv1alpha2.PodGroup, pods []*corev1.Pod, opts Options) (*GangResult, error) {
	switch {
	case snap == nil:
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	case group == nil:
		return nil, fmt.Errorf("%w: nil pod group", ErrInvalidQuestion)
	case opts.Preemption != nil:
		return nil, fmt.Errorf("%w: preemption is not modelled for gangs", ErrInvalidQuestion)
	}
	ns := group.Namespace
	if ns == "" {
		ns = "default"
	}
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: pod %d of the gang is nil", ErrInvalidQuestion, i)
		}
		if !inGroup(p, ns, group.Name) {
			return nil, fmt.Errorf("%w: pod %s/%s: spec.schedulingGroup.podGroupName does not name pod group %s/%s",
				ErrInvalidQuestion, namespace(p), p.Name, ns, group.Name)
		}
	}
	order := preemption.SortQueue(pods)
	res := &GangResult{Final: snap}
	gang := group.Spec.SchedulingPolicy.Gang
	if gang == nil {
		// The basic policy: every pod on its own, in queue order.
		cur := snap
		for _, p := range order {
			out, next, err := scheduleOne(cur, p, opts)
			if err != nil {
				return nil, err
			}
			cur = next
			res.Pods = append(res.Pods, out)
			res.Placed = res.Placed || out.Outcome == preemption.Scheduled
		}
		res.Final = cur
		return res, nil
	}
	bound := 0
	for _, ni := range cluster.NodesOf(snapshotOf(snap)) {
		for _, pi := range ni.Pods {
			if inGroup(pi.Pod, ns, group.Name) {
				bound++
			}
		}
	}
	if len(pods)+bound < int(gang.MinCount) {
		for _, p := range order {
			res.Pods = append(res.Pods, MovedPod{Pod: namespace(p) + "/" + p.Name, Outcome: preemption.Gated, Message: GangWaitingForPods})
		}
		return res, nil
	}
	cur := snap
	scheduled := bound
	for _, p := range order {
		out, next, err := scheduleOne(cur, p, opts)
		if err != nil {
			return nil, err
		}
		res.Pods = append(res.Pods, out)
		if out.Outcome != preemption.Scheduled {
			continue
		}
		cur = next
		scheduled++
		res.Placed = res.Placed || scheduled >= int(gang.MinCount)
	}
	if res.Placed {
		res.Final = cur
		return res, nil
	}
	for i := range res.Pods {
		if res.Pods[i].Outcome == preemption.Scheduled {
			res.Pods[i].Outcome, res.Pods[i].Node, res.Pods[i].Message = preemption.Unschedulable, "", GangWaitingForScheduled
		}
	}
	return res, nil
}

// GangReplicas answers "does a gang of n replicas of template fit": the
// replicas (Replica) are made members of group and placed by Gang.
func GangReplicas(snap *placement.Snapshot, template *corev1.Pod, group *schedulingv1alpha2.PodGroup, n int, opts Options) (*GangResult, error) {
	if template == nil || group == nil || n < 0 {
		return nil, fmt.Errorf("%w: a gang needs a template, a pod group and a non-negative count", ErrInvalidQuestion)
	}
	pods := make([]*corev1.Pod, n)
	name := group.Name
	for i := range pods {
		p := Replica(template, i)
		p.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: &name}
		pods[i] = p
	}
	return Gang(snap, group, pods, opts)
}

// scheduleOne is one pod's scheduling cycle on cur (the queue with that pod
// alone): its outcome and the cluster with it bound when it was.
func scheduleOne(cur *placement.Snapshot, p *corev1.Pod, opts Options) (MovedPod, *placement.Snapshot, error) {
	qr, err := preemption.ScheduleQueue(cur, []*corev1.Pod{opts.prepare(p)}, opts.queueOptions())
	if err != nil {
		return MovedPod{}, nil, err
	}
	r := qr.Results[0]
	out := MovedPod{Pod: r.Pod, Outcome: r.Outcome, Node: r.Node, Message: r.Message}
	if r.Outcome == preemption.Failed {
		out.Message = r.Error
	}
	return out, qr.Final, nil
}

// inGroup reports whether pod belongs to the pod group ns/name.
func inGroup(pod *corev1.Pod, ns, name string) bool {
	g := pod.Spec.SchedulingGroup
	return g != nil && g.PodGroupName != nil && *g.PodGroupName == name && namespace(pod) == ns
}

// EstimateGang answers "how many nodes of this template does this gang
// need": the fewest template nodes (from 0, up to opts.MaxNodes, else one
// per pod) with which Gang places the gang, and that answer; nil when no
// count up to the bound places it. Counts are tried upwards, one pod group
// cycle each, as the placed count is not monotonic in the nodes added.
func EstimateGang(snap *placement.Snapshot, group *schedulingv1alpha2.PodGroup, pods []*corev1.Pod, tmpl NodeTemplate, opts EstimateOptions) (int, *GangResult, error) {
	if snap == nil || tmpl.Node == nil {
		return 0, nil, fmt.Errorf("%w: a gang estimate needs a snapshot and a node template", ErrInvalidQuestion)
	}
	hi := len(pods)
	if opts.MaxNodes > 0 {
		hi = opts.MaxNodes
	}
	for k := 0; k <= hi; k++ {
		cur, _, err := withNewNodes(snap, tmpl, 0, k)
		if err != nil {
			return 0, nil, err
		}
		r, err := Gang(cur, group, pods, opts.Options)
		if err != nil {
			return 0, nil, err
		}
		if r.Placed {
			return k, r, nil
		}
	}
	return 0, nil, nil
}
