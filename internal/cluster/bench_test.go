package cluster

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/testbuild"
)

// benchInput is a cluster shaped like the generated scenarios: 1000 nodes,
// 10 pods per node from 1000 workloads (five labels each, cpu and memory
// requests, some with an init container), two thirds of the workloads with
// pod affinity or anti-affinity on their own labels, and a Service and a
// ReplicaSet per workload. Pods are in shuffled order, as a listing gives them.
func benchInput() Input {
	const nodes, workloads, perWorkload = 1000, 1000, 10
	in := Input{}
	for i := range nodes {
		in.Nodes = append(in.Nodes, node(fmt.Sprintf("node-%d", i),
			testbuild.Labels("kubernetes.io/hostname", fmt.Sprintf("node-%d", i), "topology.kubernetes.io/zone", fmt.Sprintf("zone-%d", i%4)),
			rl("cpu", "64", "memory", "256Gi", "pods", "110")))
	}
	for w := range workloads {
		ns := fmt.Sprintf("team-%d", w%5)
		name := fmt.Sprintf("app-%d", w)
		lbls := testbuild.Labels("app", fmt.Sprintf("kind-%d", w%7), "workload", name, "tier", "t", "version", "v2", "pod-template-hash", fmt.Sprintf("h%d", w))
		in.Services = append(in.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: corev1.ServiceSpec{Selector: testbuild.Labels("workload", name)}})
		in.ReplicaSets = append(in.ReplicaSets, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: appsv1.ReplicaSetSpec{Selector: testbuild.Selector("workload", name)}})
		for r := range perWorkload {
			p := pod(ns, fmt.Sprintf("%s-%d", name, r), "", rl("cpu", "250m", "memory", "128Mi"))
			p.Labels = testbuild.Labels("app", lbls["app"], "workload", name, "tier", "t", "version", "v2", "pod-template-hash", lbls["pod-template-hash"])
			if w%3 == 0 {
				p.Spec.InitContainers = []corev1.Container{ctr("init", rl("memory", "64Mi"))}
			}
			switch w % 3 {
			case 1:
				p.Spec.Affinity = antiAffinity("workload", name, "kubernetes.io/hostname")
			case 2:
				p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
					Weight: 50, PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: testbuild.Selector("app", lbls["app"]), TopologyKey: "topology.kubernetes.io/zone"},
				}}}}
			}
			in.Pods = append(in.Pods, p)
		}
	}
	// A fixed permutation spreads each workload's replicas over the input
	// and the nodes.
	n := len(in.Pods)
	shuffled := make([]*corev1.Pod, n)
	for i, p := range in.Pods {
		j := (i * 7919) % n
		shuffled[j] = p
		p.Spec.NodeName = fmt.Sprintf("node-%d", j%nodes)
	}
	in.Pods = shuffled
	return in
}

// BenchmarkNew builds the snapshot of benchInput: what simulate's -timing
// counts before the first decision. cpu-ns/op counts every goroutine.
func BenchmarkNew(b *testing.B) {
	in := benchInput()
	b.ReportAllocs()
	c0 := testbuild.CPUTime()
	for b.Loop() {
		if _, _, err := New(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((testbuild.CPUTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkWorkloads is the default selector's lookups for 100 pods once
// the index is built (once per snapshot).
func BenchmarkWorkloads(b *testing.B) {
	in := benchInput()
	snap, _, err := New(in)
	if err != nil {
		b.Fatal(err)
	}
	pods := in.Pods[:100]
	for b.Loop() {
		w := snap.Input().Workloads()
		for _, p := range pods {
			_ = w.ServicesSelecting(p.Namespace, p.Labels)
			_ = w.ReplicaSet(p.Namespace, p.Name)
		}
	}
}
