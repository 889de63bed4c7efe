package topology_test

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/topology"
)

func exampleNode(name, zone string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
		corev1.LabelHostname: name, corev1.LabelTopologyZone: zone}}}
}

func examplePod(name, node string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}
}

// A zone spread constraint with maxSkew 1: zone a already holds two web
// pods and zone b one, so only zone b's nodes accept a third.
func ExampleNewSpread() {
	web := map[string]string{"app": "web"}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a1", "a"), exampleNode("a2", "a"), exampleNode("b1", "b")},
		Pods:  []*corev1.Pod{examplePod("w1", "a1", web), examplePod("w2", "a2", web), examplePod("w3", "b1", web)},
	})
	if err != nil {
		panic(err)
	}
	pod := examplePod("w4", "", web)
	pod.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: web},
	}}
	spread, err := topology.NewSpread(pod, snap, topology.SpreadOptions{})
	if err != nil {
		panic(err)
	}
	for _, n := range snap.Nodes() {
		fmt.Printf("%s: %v\n", n.Name(), spread.Filter(n))
	}
	// Output:
	// a1: Unschedulable (PodTopologySpread): node(s) didn't match pod topology spread constraints
	// a2: Unschedulable (PodTopologySpread): node(s) didn't match pod topology spread constraints
	// b1: Success
}

// Required hostname anti-affinity keeps a second replica off the node that
// runs the first; a preferred zone affinity to a cache scores the cache's
// zone highest.
func ExampleNewInterPodAffinity() {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{
		Nodes: []*corev1.Node{exampleNode("a1", "a"), exampleNode("a2", "a"), exampleNode("b1", "b")},
		Pods: []*corev1.Pod{
			examplePod("web-1", "a1", map[string]string{"app": "web"}),
			examplePod("cache-1", "b1", map[string]string{"app": "cache"}),
		},
	})
	if err != nil {
		panic(err)
	}
	pod := examplePod("web-2", "", map[string]string{"app": "web"})
	pod.Spec.Affinity = &corev1.Affinity{
		PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		}}},
		PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 10, PodAffinityTerm: corev1.PodAffinityTerm{
				TopologyKey: corev1.LabelTopologyZone, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cache"}},
			},
		}}},
	}
	ipa, err := topology.NewInterPodAffinity(pod, snap, topology.AffinityOptions{})
	if err != nil {
		panic(err)
	}
	var feasible []*placement.NodeInfo
	for _, n := range snap.Nodes() {
		st := ipa.Filter(n)
		fmt.Printf("%s: %v\n", n.Name(), st)
		if st.OK() {
			feasible = append(feasible, n)
		}
	}
	raw, normalized, _ := ipa.Score(feasible)
	for i, n := range feasible {
		fmt.Printf("%s: raw %d, normalized %d\n", n.Name(), raw[i], normalized[i])
	}
	// Output:
	// a1: Unschedulable (InterPodAffinity): node(s) didn't match pod anti-affinity rules
	// a2: Success
	// b1: Success
	// a2: raw 0, normalized 0
	// b1: raw 10, normalized 100
}

// DefaultSelector is what PodTopologySpread's system default constraints
// spread by: here the selector of the Service that selects the pod plus the
// one of its ReplicaSet.
func ExampleDefaultSelector() {
	pod := examplePod("web-1", "", map[string]string{"app": "web", "tier": "front"})
	isController := true
	pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-rs", Controller: &isController}}
	in := &placement.SnapshotInput{
		Services: []*corev1.Service{{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "web"}},
		}},
	}
	in.ReplicaSets = append(in.ReplicaSets, exampleReplicaSet())
	fmt.Println(topology.DefaultSelector(pod, in))
	// Output:
	// app=web,tier in (front)
}

func exampleReplicaSet() *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-rs", Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"front"}},
		}}},
	}
}
