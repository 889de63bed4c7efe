package placement_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/placement"
)

func exampleNode(name, cpu string, taints ...corev1.Taint) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.NodeSpec{Taints: taints},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("8Gi"),
			corev1.ResourcePods: resource.MustParse("110"),
		}},
	}
}

func examplePod(name, node, cpu string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "app",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}},
	}
}

// Evaluate answers where kube-scheduler would put a pod and why every other
// node was refused.
func ExampleEvaluate() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{
			exampleNode("a", "2"),
			exampleNode("b", "4"),
			exampleNode("c", "8", corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}),
		},
		Pods: []*corev1.Pod{examplePod("busy", "a", "1500m")},
	})
	if err != nil {
		panic(err)
	}
	res, err := placement.Evaluate(snap, examplePod("web", "", "1"), placement.Options{})
	if err != nil {
		panic(err)
	}
	for _, n := range res.Nodes {
		fmt.Printf("%s feasible=%v %s %v total=%d\n", n.Node, n.Feasible, n.Status.Code, n.Status.Reasons, n.Total())
	}
	fmt.Println("best:", res.BestNodes)
	// Output:
	// a feasible=false Unschedulable [Insufficient cpu] total=0
	// b feasible=true Success [] total=454
	// c feasible=false UnschedulableAndUnresolvable [node(s) had untolerated taint(s)] total=0
	// best: [b]
}

// When no node fits, Message is upstream's FitError text.
func ExampleEvaluate_unschedulable() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "2"), exampleNode("b", "1")}})
	res, _ := placement.Evaluate(snap, examplePod("big", "", "3"), placement.Options{})
	fmt.Println(res.Message)
	// Output:
	// 0/2 nodes are available: 2 Insufficient cpu.
}

// Compile once, then ask about views: what preemption does when it takes
// pods off a node.
func ExampleCompiled_On() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2")},
		Pods:  []*corev1.Pod{examplePod("low", "a", "1500m")},
	})
	c, _ := placement.Compile(snap, examplePod("high", "", "1"), placement.Options{})
	node, _ := snap.Node("a")
	fmt.Println("now:", c.Filter(node))
	view, _ := snap.WithoutPods("default/low")
	v, _ := c.On(view)
	node, _ = view.Node("a")
	fmt.Println("without low:", v.Filter(node))
	// Output:
	// now: Unschedulable (NodeResourcesFit): Insufficient cpu
	// without low: Success
}

// Schedule is one scheduling cycle without the per-node report.
func ExampleCompiled_Schedule() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("b", "4"), exampleNode("a", "4")}})
	c, _ := placement.Compile(snap, examplePod("web", "", "1"), placement.Options{})
	d := c.Schedule()
	fmt.Println(d.Node, d.Feasible, d.TotalScore)
	// Output:
	// a 2 454
}

// AdmitToNode is the kubelet's view of a pod that names its node: NoSchedule
// taints do not matter, resources do.
func ExampleAdmitToNode() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2", corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule})},
		Pods:  []*corev1.Pod{examplePod("busy", "a", "1500m")},
	})
	ok, _ := placement.AdmitToNode(snap, examplePod("small", "a", "500m"))
	fmt.Println(ok.Admit)
	no, _ := placement.AdmitToNode(snap, examplePod("big", "a", "1"))
	fmt.Println(no.Admit, no.Reason, no.Message)
	// Output:
	// true
	// false OutOfcpu Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000
}

// Why renders the per-node, per-plugin report as text.
func ExampleResult_Why() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{
			exampleNode("a", "1", corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule}),
			exampleNode("b", "4"),
		},
	})
	res, _ := placement.Evaluate(snap, examplePod("web", "", "2"), placement.Options{})
	fmt.Print(res.Why())
	// Output:
	// default/web: 1/2 nodes feasible, best b
	//   a: rejected by TaintToleration (UnschedulableAndUnresolvable): node(s) had untolerated taint(s); also NodeResourcesFit: Insufficient cpu
	//   b: feasible, score 435 (TaintToleration 100×3, NodeResourcesFit 73×1, NodeResourcesBalancedAllocation 62×1)
}

// Prepare does the pod-only half of Compile once; a scheduling loop then
// compiles the prepared pod against the snapshot of its turn.
func ExamplePrepared_Compile() {
	p := placement.Prepare(examplePod("web", "", "1"), placement.Options{})
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "2"), exampleNode("b", "2")}})
	for range 3 {
		c, _ := p.Compile(snap)
		d := c.Decide()
		fmt.Println("bind to", d.Node)
		bound := examplePod(fmt.Sprintf("web-on-%s-%d", d.Node, snap.NumPods()), d.Node, "1")
		snap, _ = snap.WithPod(bound)
	}
	// Output:
	// bind to a
	// bind to b
	// bind to a
}

// A gated pod is answered by PreEnqueue before any snapshot is read.
func ExamplePrepared_Gated() {
	pod := examplePod("batch", "", "1")
	pod.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/quota"}}
	p := placement.Prepare(pod, placement.Options{})
	fmt.Println(p.Gated().Plugin, p.Gated().Reasons)
	fmt.Println(placement.Prepare(examplePod("web", "", "1"), placement.Options{}).Gated() == nil)
	// Output:
	// SchedulingGates [waiting for scheduling gates: [example.com/quota]]
	// true
}

// A Trial answers preemption's dry-run question: does the pod fit on a node
// once some of its pods are gone, without building a snapshot view.
func ExampleTrial_Filter() {
	snap, _, _ := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2")},
		Pods:  []*corev1.Pod{examplePod("low", "a", "1500m")},
	})
	c, _ := placement.Compile(snap, examplePod("high", "", "1"), placement.Options{})
	node, _ := snap.Node("a")
	low := node.Pods()[0]
	fmt.Println("without low:", c.NewTrial().Filter(node.Without(low), []*placement.PodInfo{low}))
	// Output:
	// without low: Success
}
