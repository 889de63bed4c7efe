package schedconfig_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/schedconfig"
)

// A bin-packing profile: MostAllocated sends the pod to the fuller node,
// where the default LeastAllocated would send it to the emptier one.
func ExampleRead() {
	prof, err := schedconfig.Read([]byte(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	node := func(name string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("10")}}}
	}
	pod := func(name, nodeName, cpu string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: corev1.PodSpec{NodeName: nodeName,
			Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("1Gi")}}}}}}
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{node("empty"), node("busy")},
		Pods:  []*corev1.Pod{pod("running", "busy", "2")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	incoming := pod("web", "", "1")
	for _, opts := range []placement.Options{{}, prof.Options} {
		res, err := placement.Evaluate(snap, incoming, opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(opts.ScoringStrategy.Type, "->", res.BestNodes)
	}
	fmt.Println("profile:", prof.SchedulerName, "handles the pod:", prof.Handles(incoming))
	// Output:
	//  -> [empty]
	// MostAllocated -> [busy]
	// profile: default-scheduler handles the pod: true
}

// Refusals name the field as upstream's validation does.
func ExampleRead_invalid() {
	_, err := schedconfig.Read([]byte(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 200
`))
	fmt.Println(err)
	// Output:
	// profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 200: not in valid range [0, 100]
}
