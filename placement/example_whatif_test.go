package placement_test

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/placement"
)

// fits prints where kube-scheduler would put pod on snap: the feasible
// nodes, or upstream's FitError text when there are none.
func fits(label string, snap *placement.Snapshot, pod *corev1.Pod) {
	res, err := placement.Evaluate(snap, pod, placement.Options{})
	if err != nil {
		panic(err)
	}
	if len(res.FeasibleNodes) == 0 {
		fmt.Printf("%s: %s\n", label, res.Message)
		return
	}
	fmt.Printf("%s: feasible %v, best %v\n", label, res.FeasibleNodes, res.BestNodes)
}

func whatifSnapshot() *placement.Snapshot {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a", "2"), exampleNode("b", "2")},
		Pods:  []*corev1.Pod{examplePod("busy", "a", "1500m")},
	})
	if err != nil {
		panic(err)
	}
	return snap
}

// WithPod binds one more pod: the view sees it, the snapshot does not.
func ExampleSnapshot_WithPod() {
	snap := whatifSnapshot()
	view, err := snap.WithPod(examplePod("new", "b", "1500m"))
	if err != nil {
		panic(err)
	}
	web := examplePod("web", "", "1")
	fits("before", snap, web)
	fits("after", view, web)
	fmt.Println("pods:", snap.NumPods(), "->", view.NumPods())
	// Output:
	// before: feasible [b], best [b]
	// after: 0/2 nodes are available: 2 Insufficient cpu.
	// pods: 1 -> 2
}

// WithoutPods takes bound pods off (namespace/name keys), as an eviction
// would; a key the snapshot does not hold is an error naming it.
func ExampleSnapshot_WithoutPods() {
	snap := whatifSnapshot()
	view, _ := snap.WithoutPods("default/busy")
	big := examplePod("big", "", "2")
	fits("before", snap, big)
	fits("after", view, big)
	_, err := snap.WithoutPods("default/no-such-pod")
	fmt.Println(errors.Is(err, placement.ErrInvalidView), err)
	// Output:
	// before: feasible [b], best [b]
	// after: feasible [a b], best [a b]
	// true placement: invalid view change: pods to remove unknown or repeated: ["default/no-such-pod"]
}

// WithNode replaces a node's object: cordoning it (spec.unschedulable, as
// kubectl cordon) keeps its pods but refuses new ones.
func ExampleSnapshot_WithNode() {
	snap := whatifSnapshot()
	cordoned := exampleNode("b", "2")
	cordoned.Spec.Unschedulable = true
	view, err := snap.WithNode(cordoned)
	if err != nil {
		panic(err)
	}
	web := examplePod("web", "", "500m")
	fits("before", snap, web)
	fits("cordoned", view, web)
	// Output:
	// before: feasible [a b], best [b]
	// cordoned: feasible [a], best [a]
}

// Relabelling a node through WithNode changes what node affinity and
// selectors see.
func ExampleSnapshot_WithNode_relabel() {
	snap := whatifSnapshot()
	gpu := examplePod("trainer", "", "100m")
	gpu.Spec.NodeSelector = map[string]string{"accelerator": "gpu"}
	labelled := exampleNode("a", "2")
	labelled.Labels = map[string]string{"accelerator": "gpu"}
	view, err := snap.WithNode(labelled)
	if err != nil {
		panic(err)
	}
	fits("before", snap, gpu)
	fits("relabelled", view, gpu)
	// Output:
	// before: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.
	// relabelled: feasible [a], best [a]
}

// WithNodes adds empty nodes, as a scale-up would.
func ExampleSnapshot_WithNodes() {
	snap := whatifSnapshot()
	big := examplePod("big", "", "3")
	view, err := snap.WithNodes(exampleNode("c", "4"), exampleNode("d", "2"))
	if err != nil {
		panic(err)
	}
	fits("before", snap, big)
	fits("scaled up", view, big)
	fmt.Println("nodes:", len(snap.Nodes()), "->", len(view.Nodes()))
	// Output:
	// before: 0/2 nodes are available: 2 Insufficient cpu.
	// scaled up: feasible [c], best [c]
	// nodes: 2 -> 4
}

// WithoutNodes removes nodes and the pods bound to them, as a scale-down
// (or a lost machine) would; the pods are gone, not moved.
func ExampleSnapshot_WithoutNodes() {
	snap := whatifSnapshot()
	view, err := snap.WithoutNodes("a")
	if err != nil {
		panic(err)
	}
	_, _, busy := view.Pod("default/busy")
	fits("without a", view, examplePod("web", "", "1"))
	fmt.Println("pods:", snap.NumPods(), "->", view.NumPods(), "busy still bound:", busy)
	_, err = snap.WithoutNodes("z")
	fmt.Println(err)
	// Output:
	// without a: feasible [b], best [b]
	// pods: 1 -> 0 busy still bound: false
	// placement: unknown node "z"
}

// A template with limits only: the API server defaults each request to
// its limit, so the 2-cpu limit is a 2-cpu request and no longer fits a
// 1-cpu node. Every entry point answers about the stored pod; StoredPod
// shows what that is.
func ExampleStoredPod_fit() {
	tmpl := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}}}
	stored := placement.StoredPod(tmpl)
	fmt.Println("template requests:", len(tmpl.Spec.Containers[0].Resources.Requests))
	cpu := stored.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
	fmt.Println("stored request:", cpu.String())
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("small", "1")}})
	if err != nil {
		panic(err)
	}
	fits("template", snap, tmpl)
	// Output:
	// template requests: 0
	// stored request: 2
	// template: 0/1 nodes are available: 1 Insufficient cpu.
}

// A node with capacity only: the API server stores allocatable as its
// capacity, which is what the scheduler's resource fit reads.
func ExampleStoredNode() {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Status: corev1.NodeStatus{Capacity: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourcePods: resource.MustParse("110")}}}
	stored := placement.StoredNode(node)
	cpu := stored.Status.Allocatable[corev1.ResourceCPU]
	fmt.Println("allocatable before:", len(node.Status.Allocatable), "after: cpu", cpu.String())
	fmt.Println("stored again is itself:", placement.StoredNode(stored) == stored)
	// Output:
	// allocatable before: 0 after: cpu 1
	// stored again is itself: true
}
