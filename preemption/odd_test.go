package preemption_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
	"github.com/schedkit/schedkit/preemption"
)

// crowded is two full 1-cpu nodes of low-priority pods, so that a pending
// pod preempts.
func crowded(extraPods []*corev1.Pod, nodes []*corev1.Node, pdbs []*policyv1.PodDisruptionBudget) placement.SnapshotInput {
	in := placement.SnapshotInput{PDBs: pdbs}
	for _, name := range []string{"a", "b"} {
		n := hostile.Node(name)
		n.Status.Allocatable[corev1.ResourceCPU] = n.Status.Allocatable[corev1.ResourceCPU].DeepCopy()
		in.Nodes = append(in.Nodes, n)
		p := hostile.Pod("low-"+name, name)
		low := int32(1)
		p.Spec.Priority = &low
		p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = n.Status.Allocatable[corev1.ResourceCPU]
		in.Pods = append(in.Pods, p)
	}
	in.Nodes = append(in.Nodes, nodes...)
	in.Pods = append(in.Pods, extraPods...)
	return in
}

func highPod(name string) *corev1.Pod {
	p := hostile.Pod(name, "")
	high := int32(1000)
	p.Spec.Priority = &high
	p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = hostile.Node("x").Status.Allocatable[corev1.ResourceCPU]
	return p
}

// askPreemption puts pending to every entry point of preemption over the
// cluster in.
func askPreemption(t *testing.T, in placement.SnapshotInput, pending []*corev1.Pod, classes []*schedulingv1.PriorityClass) {
	var snap *placement.Snapshot
	require.NotPanics(t, func() { snap, _, _ = placement.NewSnapshot(in) }, "NewSnapshot")
	if snap == nil {
		return
	}
	require.NotPanics(t, func() {
		_, _ = preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{KeepNodeStatuses: true})
	}, "ScheduleQueue")
	require.NotPanics(t, func() {
		if q, err := preemption.PrepareQueue(pending, preemption.QueueOptions{}); err == nil {
			_, _ = q.Schedule(snap)
		}
	}, "PrepareQueue+Schedule")
	require.NotPanics(t, func() {
		for _, pod := range pending {
			c, err := placement.Compile(snap, pod, placement.Options{})
			if err != nil {
				continue
			}
			d := c.Schedule()
			_, _ = preemption.Preempt(c, d.Statuses, preemption.Options{})
			_, _ = preemption.Preempt(c, nil, preemption.Options{})
			preemption.Eligible(snap, pod, framework.Unschedulable)
		}
	}, "Preempt")
	require.NotPanics(t, func() {
		pcs, err := preemption.NewPriorityClasses(classes)
		if err != nil {
			return
		}
		for _, pod := range pending {
			_, _ = pcs.WithPriority(pod)
			_, _ = pcs.Resolve(pod)
			pcs.ResolveLenient(pod)
		}
	}, "PriorityClasses")
	require.NotPanics(t, func() {
		preemption.SortQueue(pending)
		for _, pod := range pending {
			preemption.PodPriority(pod)
			preemption.MatchingPDBs(pod, in.PDBs, preemption.PDBSelectorRule(0))
		}
		preemption.PDBViolations(pending, in.PDBs, preemption.PDBSelectorRule(0))
	}, "queue and budget helpers")
}

// Issue 21, no panics on caller input.
func TestOddInputNeverPanics(t *testing.T) {
	for _, tc := range hostile.OddPods("") {
		t.Run("pending pod: "+tc.Name, func(t *testing.T) {
			askPreemption(t, crowded(nil, nil, nil), []*corev1.Pod{tc.Obj, highPod("high")}, nil)
		})
	}
	for _, tc := range hostile.OddPods("a") {
		t.Run("bound pod: "+tc.Name, func(t *testing.T) {
			askPreemption(t, crowded([]*corev1.Pod{tc.Obj}, nil, nil), []*corev1.Pod{highPod("high")}, nil)
		})
	}
	for _, tc := range hostile.OddNodes("c") {
		t.Run("node: "+tc.Name, func(t *testing.T) {
			askPreemption(t, crowded(nil, []*corev1.Node{tc.Obj}, nil), []*corev1.Pod{highPod("high")}, nil)
		})
	}
	for _, tc := range hostile.OddPDBs() {
		t.Run("budget: "+tc.Name, func(t *testing.T) {
			askPreemption(t, crowded(nil, nil, []*policyv1.PodDisruptionBudget{tc.Obj}), []*corev1.Pod{highPod("high")}, nil)
		})
	}
	for _, tc := range hostile.OddPriorityClasses() {
		t.Run("priority class: "+tc.Name, func(t *testing.T) {
			p := highPod("high")
			p.Spec.PriorityClassName, p.Spec.Priority = tc.Obj.Name, nil
			askPreemption(t, crowded(nil, nil, nil), []*corev1.Pod{p}, []*schedulingv1.PriorityClass{tc.Obj})
		})
	}
	nils := []struct {
		name string
		ask  func(t *testing.T)
	}{
		{"nil pending pod and nil class", func(t *testing.T) {
			askPreemption(t, crowded(nil, nil, nil), []*corev1.Pod{nil, highPod("high")}, []*schedulingv1.PriorityClass{nil})
		}},
		{"nil snapshot", func(t *testing.T) {
			_, _ = preemption.ScheduleQueue(nil, []*corev1.Pod{highPod("high")}, preemption.QueueOptions{})
		}},
		{"nil compiled pod", func(t *testing.T) { _, _ = preemption.Preempt(nil, nil, preemption.Options{}) }},
		// Found by this table: PodPriority dereferenced a nil pod.
		{"PodPriority of a nil pod", func(t *testing.T) { require.Equal(t, int32(0), preemption.PodPriority(nil)) }},
		{"QueueLess of nil pods", func(t *testing.T) { preemption.QueueLess(nil, nil) }},
		// Found by this table: ValidatePriorityClass dereferenced a nil class.
		{"ValidatePriorityClass of a nil class", func(t *testing.T) { require.NotEmpty(t, preemption.ValidatePriorityClass(nil, nil)) }},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			require.NotPanics(t, func() { tc.ask(t) })
		})
	}
	t.Run("two pending pods of one name", func(t *testing.T) {
		askPreemption(t, crowded(nil, nil, nil), []*corev1.Pod{highPod("high"), highPod("high")}, nil)
	})
}
