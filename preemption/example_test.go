package preemption_test

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

func ExamplePriorityClasses_Resolve() {
	classes, err := preemption.NewPriorityClasses([]*schedulingv1.PriorityClass{
		{ObjectMeta: metav1.ObjectMeta{Name: "standard"}, Value: 1000, GlobalDefault: true},
	})
	if err != nil {
		panic(err)
	}
	for _, class := range []string{"", "system-node-critical", "missing"} {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
		pod.Spec.PriorityClassName = class
		r, err := classes.Resolve(pod)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(r.ClassName, r.Priority, r.PreemptionPolicy)
	}
	// Output:
	// standard 1000 PreemptLowerPriority
	// system-node-critical 2000001000 PreemptLowerPriority
	// pods "web" is forbidden: no PriorityClass with name missing was found
}

func ExampleSortQueue() {
	prio := func(v int32) *int32 { return &v }
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "batch"}, Spec: corev1.PodSpec{Priority: prio(100)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: corev1.PodSpec{Priority: prio(1000)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "cron"}, Spec: corev1.PodSpec{Priority: prio(100)}},
	}
	for _, p := range preemption.SortQueue(pods) {
		fmt.Println(p.Name)
	}
	// Output:
	// web
	// batch
	// cron
}

func ExamplePDBViolations() {
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "db"}}}
	}
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1},
	}
	broken := preemption.PDBViolations([]*corev1.Pod{pod("db-0"), pod("db-1")}, []*policyv1.PodDisruptionBudget{pdb}, preemption.PDBSelectorScheduler)
	fmt.Println(broken)
	// Output:
	// [[] [default/db]]
}

func ExampleScheduleQueue() {
	node := func(name string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourcePods: resource.MustParse("110")}}}
	}
	pod := func(name, nodeName string, priority int32, cpu string, started int) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: corev1.PodSpec{NodeName: nodeName, Priority: &priority, Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}}}
		if nodeName != "" {
			t := metav1.NewTime(time.Date(2025, 1, 1, 0, started, 0, 0, time.UTC))
			p.Status.StartTime = &t
		}
		return p
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{node("n1"), node("n2")},
		Pods:  []*corev1.Pod{pod("batch-1", "n1", 10, "1500m", 0), pod("batch-2", "n2", 10, "1500m", 5)},
	})
	if err != nil {
		panic(err)
	}
	res, err := preemption.ScheduleQueue(snap, []*corev1.Pod{
		pod("web", "", 1000, "1", 0),
		pod("cron", "", 10, "500m", 0),
	}, preemption.QueueOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Results {
		fmt.Println(strings.TrimSpace(fmt.Sprint(r.Pod, " ", r.Outcome, " ", r.Node, " ", r.Message)))
		if p := r.Preemption; p != nil {
			for _, c := range p.Candidates {
				if c.LostAt != preemption.ChosenNode {
					fmt.Printf("  %s lost: %s\n", c.Node, c.LostReason())
				}
			}
		}
	}
	fmt.Println("evicted:", res.Evicted)
	// Output:
	// default/web PreemptionNominated n2 0/2 nodes are available: 2 Insufficient cpu.
	//   n1 lost: its highest-priority victims started earlier (2025-01-01T00:00:00Z) than another candidate's (2025-01-01T00:05:00Z)
	// default/cron Scheduled n2
	// evicted: [default/batch-2]
}

// A capacity planner's what-if: the pending pods are prepared once and
// scheduled against the cluster as it is and as it would be with one node
// more.
func ExampleQueue_Schedule() {
	node := func(name string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourcePods: resource.MustParse("110")}}}
	}
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1500m")}}}}}}
	}
	q, err := preemption.PrepareQueue([]*corev1.Pod{pod("web-1"), pod("web-2")}, preemption.QueueOptions{})
	if err != nil {
		panic(err)
	}
	for _, nodes := range [][]*corev1.Node{{node("n1")}, {node("n1"), node("n2")}} {
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes})
		if err != nil {
			panic(err)
		}
		res, err := q.Schedule(snap)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d nodes:", len(nodes))
		for _, p := range res.Placements {
			fmt.Printf(" %s->%q", p.Pod, p.Node)
		}
		fmt.Println()
	}
	// Output:
	// 1 nodes: default/web-1->"n1" default/web-2->""
	// 2 nodes: default/web-1->"n1" default/web-2->"n2"
}

// Why a pod found no node: with KeepNodeStatuses, every node's filter
// status at the pod's turn, by name or in node-name order.
func ExampleNodeStatuses() {
	node := func(name, cpu string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourcePods: resource.MustParse("110")}}}
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{node("n2", "1"), node("n1", "500m")},
	})
	if err != nil {
		panic(err)
	}
	big := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "big", Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}}}
	res, err := preemption.ScheduleQueue(snap, []*corev1.Pod{big}, preemption.QueueOptions{KeepNodeStatuses: true})
	if err != nil {
		panic(err)
	}
	statuses := res.Results[0].NodeStatuses
	for node, st := range statuses.All() {
		fmt.Println(node, st.Code, st.Plugin, st.Reasons)
	}
	st, ok := statuses.Get("n2")
	fmt.Println(statuses.Len(), statuses.At(1).Node, st.Reasons, ok)
	// Output:
	// n1 UnschedulableAndUnresolvable NodeResourcesFit [Insufficient cpu]
	// n2 UnschedulableAndUnresolvable NodeResourcesFit [Insufficient cpu]
	// 2 n2 [Insufficient cpu] true
}
