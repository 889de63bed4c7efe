package whatif_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption/whatif"
)

// exampleNode is a node with 2 CPUs in a zone.
func exampleNode(name, zone string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: testbuild.Labels("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", zone)},
		Status:     corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", "2", "memory", "4Gi", "pods", "110")},
	}
}

// examplePod is a pod of app web requesting cpu, bound to node when set.
func examplePod(name, node, cpu string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: testbuild.Labels("app", "web")},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", cpu)}}}},
	}
}

// How many replicas of a template fit, and where: each replica is placed as
// kube-scheduler would place it, seeing the replicas before it.
func ExampleReplicas() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z2")},
		Pods:  []*corev1.Pod{examplePod("old", "a", "1")},
	})
	if err != nil {
		panic(err)
	}
	r, err := whatif.Replicas(snap, examplePod("web", "", "500m"), 10, whatif.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Placed(), "of", r.Requested, "fit:", r.Nodes)
	fmt.Println(r.Message)
	// Output:
	// 6 of 10 fit: [b b a b a b]
	// 0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.
}

// Where the pods of a drained node go: the node is cordoned, its
// DaemonSet pods stay, the others are re-created and scheduled.
func ExampleDrain() {
	agent := examplePod("agent", "a", "100m")
	agent.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", UID: "u1"}}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z2"), exampleNode("c", "z2")},
		Pods: []*corev1.Pod{agent, examplePod("web-1", "a", "1500m"), examplePod("web-2", "a", "300m"),
			examplePod("db", "b", "1"), examplePod("cache", "c", "1")},
	})
	if err != nil {
		panic(err)
	}
	r, err := whatif.Drain(snap, []string{"a"}, whatif.Options{})
	if err != nil {
		panic(err)
	}
	for _, m := range r.Moved {
		if m.Node != "" {
			fmt.Printf("%s: %s -> %s\n", m.Pod, m.From, m.Node)
		} else {
			fmt.Printf("%s: %s\n", m.Pod, m.Message)
		}
	}
	fmt.Println("stayed:", r.Stayed, "drainable:", r.Drainable)
	// Output:
	// default/web-1: 0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.
	// default/web-2: a -> b
	// stayed: [default/agent] drainable: false
}

// How many nodes of a template a backlog needs, as cluster-autoscaler's
// binpacking estimator counts them (FirstFit) and as kube-scheduler itself
// would then place the pods (Scheduler).
func ExampleEstimate() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1")},
		Pods:  []*corev1.Pod{examplePod("old", "a", "2")},
	})
	if err != nil {
		panic(err)
	}
	var backlog []*corev1.Pod
	for i, cpu := range []string{"500m", "1500m", "1", "1", "500m"} {
		backlog = append(backlog, examplePod(fmt.Sprintf("job-%d", i), "", cpu))
	}
	agent := examplePod("agent", "", "100m")
	tmpl := whatif.NodeTemplate{Node: exampleNode("pool", "z2"), DaemonSetPods: []*corev1.Pod{agent}}
	for _, mode := range []whatif.EstimateMode{whatif.FirstFit, whatif.Scheduler} {
		r, err := whatif.Estimate(snap, backlog, tmpl, whatif.EstimateOptions{Mode: mode})
		if err != nil {
			panic(err)
		}
		fmt.Println(mode, r.NodeCount, "node(s):", r.Placements)
	}
	// Output:
	// FirstFit 3 node(s): [{default/job-1 pool-e-0} {default/job-2 pool-e-1} {default/job-3 pool-e-2} {default/job-0 pool-e-2} {default/job-4 pool-e-1}]
	// Scheduler 3 node(s): [{default/job-0 pool-e-0} {default/job-1 pool-e-1} {default/job-2 pool-e-2} {default/job-3 pool-e-0} {default/job-4 pool-e-2}]
}

// Which nodes can go: each candidate is tried on the cluster the removals
// before it left, with cluster-autoscaler's drainability rules.
func ExampleScaleDown() {
	owned := func(p *corev1.Pod) *corev1.Pod {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs", Controller: ptr(true)}}
		return p
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z1"), exampleNode("c", "z1"), exampleNode("d", "z1")},
		Pods: []*corev1.Pod{owned(examplePod("web-1", "a", "1")), owned(examplePod("web-2", "b", "1")),
			owned(examplePod("web-3", "c", "1500m")), examplePod("bare", "d", "100m")},
	})
	if err != nil {
		panic(err)
	}
	r, err := whatif.ScaleDown(snap, nil, whatif.ScaleDownOptions{})
	if err != nil {
		panic(err)
	}
	for _, n := range r.Nodes {
		if n.Removable {
			fmt.Println(n.Node, "can go:", n.Moves)
		} else {
			fmt.Println(n.Node, "stays:", n.Blocker.Rule, n.Blocker.Pod)
		}
	}
	fmt.Println("removed together:", r.Removed)
	// Output:
	// a can go: [{default/web-1 d}]
	// b stays: NoPlaceToMovePods default/web-2
	// c stays: NoPlaceToMovePods default/web-3
	// d stays: NotReplicated default/bare
	// removed together: [a]
}

func ptr[T any](v T) *T { return &v }

// Does a gang of three training workers, one per node, fit? All of them
// or none: with two nodes, none is placed.
func ExampleGangReplicas() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z1")},
	})
	if err != nil {
		panic(err)
	}
	worker := examplePod("worker", "", "1")
	worker.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey: "kubernetes.io/hostname", LabelSelector: testbuild.Selector("app", "web")}}}}
	for _, minCount := range []int32{3, 2} {
		group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default"},
			Spec: schedulingv1alpha2.PodGroupSpec{SchedulingPolicy: schedulingv1alpha2.PodGroupSchedulingPolicy{
				Gang: &schedulingv1alpha2.GangSchedulingPolicy{MinCount: minCount}}}}
		r, err := whatif.GangReplicas(snap, worker, group, 3, whatif.Options{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("minCount %d: placed %v\n", minCount, r.Placed)
		for _, p := range r.Pods {
			if p.Node != "" {
				fmt.Printf("  %s: %s on %s\n", p.Pod, p.Outcome, p.Node)
			} else {
				fmt.Printf("  %s: %s\n", p.Pod, p.Outcome)
			}
		}
	}
	// Output:
	// minCount 3: placed false
	//   default/worker-0: Unschedulable
	//   default/worker-1: Unschedulable
	//   default/worker-2: Unschedulable
	// minCount 2: placed true
	//   default/worker-0: Scheduled on a
	//   default/worker-1: Scheduled on b
	//   default/worker-2: Unschedulable
}

// Cordon is the first half of a drain: the view refuses new pods on the
// node and keeps the ones it has, so replicas go elsewhere.
func ExampleCordon() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z2")},
		Pods:  []*corev1.Pod{examplePod("old", "a", "1")},
	})
	if err != nil {
		panic(err)
	}
	cordoned, err := whatif.Cordon(snap, "b")
	if err != nil {
		panic(err)
	}
	for _, s := range []*placement.Snapshot{snap, cordoned} {
		r, err := whatif.Replicas(s, examplePod("web", "", "500m"), 4, whatif.Options{})
		if err != nil {
			panic(err)
		}
		fmt.Println(r.Placed(), "fit:", r.Nodes, "pods bound:", s.NumPods())
	}
	// Output:
	// 4 fit: [b b a b] pods bound: 1
	// 2 fit: [a a] pods bound: 1
}

// Reschedule is what follows evicting chosen pods of cordoned nodes: they
// are re-created pending and scheduled in queue order on the rest.
func ExampleReschedule() {
	web1, web2 := examplePod("web-1", "a", "1500m"), examplePod("web-2", "a", "300m")
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z2")},
		Pods:  []*corev1.Pod{web1, web2, examplePod("db", "b", "1")},
	})
	if err != nil {
		panic(err)
	}
	r, err := whatif.Reschedule(snap, []string{"a"}, []*corev1.Pod{web2, web1}, whatif.Options{})
	if err != nil {
		panic(err)
	}
	for _, p := range r.Results {
		if p.Node != "" {
			fmt.Println(p.Pod, p.Outcome, "on", p.Node)
		} else {
			fmt.Println(p.Pod, p.Outcome+":", p.Message)
		}
	}
	// Output:
	// default/web-1 Unschedulable: 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. preemption: not eligible due to preemptionPolicy=Never.
	// default/web-2 Scheduled on b
}

// Gang with explicit pods: a gang of minCount 2 whose second worker fits
// nowhere binds neither; the one that fitted waits at Permit.
func ExampleGang() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "z1"), exampleNode("b", "z1")},
	})
	if err != nil {
		panic(err)
	}
	group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default"},
		Spec: schedulingv1alpha2.PodGroupSpec{SchedulingPolicy: schedulingv1alpha2.PodGroupSchedulingPolicy{
			Gang: &schedulingv1alpha2.GangSchedulingPolicy{MinCount: 2}}}}
	member := func(name, cpu string) *corev1.Pod {
		p := examplePod(name, "", cpu)
		p.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: ptr("train")}
		return p
	}
	for _, pods := range [][]*corev1.Pod{
		{member("small", "1"), member("huge", "3")},
		{member("small", "1"), member("large", "2")},
	} {
		r, err := whatif.Gang(snap, group, pods, whatif.Options{})
		if err != nil {
			panic(err)
		}
		fmt.Println("placed:", r.Placed, "bound:", r.Final.NumPods())
		for _, p := range r.Pods {
			if p.Node != "" {
				fmt.Printf("  %s: %s on %s\n", p.Pod, p.Outcome, p.Node)
			} else {
				fmt.Printf("  %s: %s: %s\n", p.Pod, p.Outcome, p.Message)
			}
		}
	}
	// Output:
	// placed: false bound: 0
	//   default/small: Unschedulable: waiting for minCount pods from a gang to be scheduled
	//   default/huge: Unschedulable: 0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.
	// placed: true bound: 2
	//   default/small: Scheduled on a
	//   default/large: Scheduled on b
}

// How many template nodes a gang needs: three workers that must not share
// a node, on a cluster with one node, need two more.
func ExampleEstimateGang() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "z1")}})
	if err != nil {
		panic(err)
	}
	group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default"},
		Spec: schedulingv1alpha2.PodGroupSpec{SchedulingPolicy: schedulingv1alpha2.PodGroupSchedulingPolicy{
			Gang: &schedulingv1alpha2.GangSchedulingPolicy{MinCount: 3}}}}
	var workers []*corev1.Pod
	for i := range 3 {
		w := examplePod(fmt.Sprintf("worker-%d", i), "", "1")
		w.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: ptr("train")}
		w.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: "kubernetes.io/hostname", LabelSelector: testbuild.Selector("app", "web")}}}}
		workers = append(workers, w)
	}
	n, r, err := whatif.EstimateGang(snap, group, workers, whatif.NodeTemplate{Node: exampleNode("pool", "z2")}, whatif.EstimateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(n, "node(s); placed:", r.Placed)
	for _, p := range r.Pods {
		fmt.Println(" ", p.Pod, "on", p.Node)
	}
	// Output:
	// 2 node(s); placed: true
	//   default/worker-0 on a
	//   default/worker-1 on pool-e-0
	//   default/worker-2 on pool-e-1
}

// EstimateEach answers Estimate for each node group's template, the
// choices cluster-autoscaler's expander picks among.
func ExampleEstimateEach() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "z1")},
		Pods: []*corev1.Pod{examplePod("old", "a", "2")}})
	if err != nil {
		panic(err)
	}
	backlog := []*corev1.Pod{examplePod("job-0", "", "1"), examplePod("job-1", "", "1"), examplePod("job-2", "", "1")}
	big := exampleNode("big", "z1")
	big.Status.Allocatable = testbuild.Resources("cpu", "4", "memory", "8Gi", "pods", "110")
	rs, err := whatif.EstimateEach(snap, backlog, []whatif.NodeTemplate{{Node: exampleNode("small", "z1")}, {Node: big}}, whatif.EstimateOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range rs {
		fmt.Println(r.NodeCount, "node(s):", r.Placements)
	}
	// Output:
	// 2 node(s): [{default/job-0 small-e-0} {default/job-1 small-e-0} {default/job-2 small-e-1}]
	// 1 node(s): [{default/job-0 big-e-0} {default/job-1 big-e-0} {default/job-2 big-e-0}]
}
