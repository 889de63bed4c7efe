package whatif

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// benchCluster is nodes nodes in 3 zones (8 cpu each) with podsPerNode
// replicated pods of 10 apps bound to each.
func benchCluster(b *testing.B, nodes, podsPerNode int) *placement.Snapshot {
	return benchClusterT(b, nodes, podsPerNode)
}

// benchClusterT is benchCluster for any test.
func benchClusterT(b testing.TB, nodes, podsPerNode int) *placement.Snapshot {
	b.Helper()
	var ns []*corev1.Node
	var ps []*corev1.Pod
	for i := range nodes {
		name := fmt.Sprintf("node-%05d", i)
		ns = append(ns, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name,
			Labels: testbuild.Labels("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", placementtest.Zones[i%len(placementtest.Zones)])},
			Status: corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", "8", "memory", "32Gi", "pods", "110")}})
		for k := range podsPerNode {
			app := fmt.Sprintf("app-%d", (i+k)%10)
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d-%d", app, i, k), Namespace: "default",
				UID: types.UID(fmt.Sprintf("u-%d-%d", i, k)), Labels: testbuild.Labels("app", app),
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app, UID: types.UID(app), Controller: ptrTo(true)}}},
				Spec: corev1.PodSpec{NodeName: name, Containers: []corev1.Container{{Name: "c",
					Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "250m", "memory", "512Mi")}}}}}
			ps = append(ps, p)
		}
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: ns, Pods: ps})
	if err != nil {
		b.Fatal(err)
	}
	return snap
}

func benchTemplate(constraint string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: testbuild.Labels("app", "web")},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "100m", "memory", "128Mi")}}}}}
	switch constraint {
	case "anti-affinity":
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: "kubernetes.io/hostname", LabelSelector: testbuild.Selector("app", "web")}}}}
	case "spread":
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone",
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: testbuild.Selector("app", "web")}}
	}
	return p
}

// BenchmarkReplicas places 1000 replicas of a template on 5000 nodes with
// 4 pods each (reported per replica as well).
func BenchmarkReplicas(b *testing.B) {
	snap := benchCluster(b, 5000, 4)
	for _, c := range []string{"anti-affinity", "spread"} {
		b.Run(c, func(b *testing.B) {
			tmpl := benchTemplate(c)
			opts := Options{Placement: placement.Options{Parallelism: 2}}
			for b.Loop() {
				r, err := Replicas(snap, tmpl, 1000, opts)
				if err != nil || r.Placed() != 1000 {
					b.Fatal(err, r.Placed())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000/1e3, "us/replica")
		})
	}
}

// BenchmarkDrain drains one node of 5000 (4 pods each).
func BenchmarkDrain(b *testing.B) {
	snap := benchCluster(b, 5000, 4)
	opts := Options{Placement: placement.Options{Parallelism: 2}}
	for b.Loop() {
		if _, err := Drain(snap, []string{"node-02500"}, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScaleDown tries 100 candidates on 1000 nodes (4 pods each).
func BenchmarkScaleDown(b *testing.B) {
	snap := benchCluster(b, 1000, 4)
	var candidates []string
	for i := range 100 {
		candidates = append(candidates, fmt.Sprintf("node-%05d", i*10))
	}
	opts := ScaleDownOptions{Options: Options{Placement: placement.Options{Parallelism: 2}}}
	for b.Loop() {
		if _, err := ScaleDown(snap, candidates, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimateFirstFit estimates 10,000 pending pods of 20 templates
// against 1000 existing nodes.
func BenchmarkEstimateFirstFit(b *testing.B) {
	snap := benchCluster(b, 1000, 4)
	var pending []*corev1.Pod
	for i := range 10000 {
		t := i % 20
		p := benchTemplate("")
		p.Name, p.UID = fmt.Sprintf("job-%d-%d", t, i), types.UID(fmt.Sprintf("job-%d", i))
		p.Labels = testbuild.Labels("app", fmt.Sprintf("job-%d", t))
		p.Spec.Containers[0].Resources.Requests = testbuild.Resources("cpu", fmt.Sprintf("%dm", 100+50*t), "memory", "256Mi")
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: fmt.Sprintf("job-%d", t), UID: types.UID(fmt.Sprintf("job-%d", t)), Controller: ptrTo(true)}}
		pending = append(pending, p)
	}
	tmpl := NodeTemplate{Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "pool", Labels: testbuild.Labels("topology.kubernetes.io/zone", "z1")},
		Status: corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", "16", "memory", "64Gi", "pods", "110")}}}
	for b.Loop() {
		r, err := Estimate(snap, pending, tmpl, EstimateOptions{})
		if err != nil || len(r.Unplaced) > 0 {
			b.Fatal(err)
		}
	}
}
