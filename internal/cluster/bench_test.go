package cluster

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
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

// BenchmarkViews times one what-if of each kind at 1000 and 5000 nodes with
// 10 bound pods each (100 workloads' labels, three images per node), on a
// snapshot whose label index has been asked for once (as by a first
// placement question): bind one pod, remove one pod, cordon one node (spec
// only) and relabel one (indexed), add one node (sorting first: every
// node renumbered), remove one node (the eighth: nearly every node
// renumbered), the same removal followed by the indexes the first topology
// question on it builds (interned nodes, a label column, occurrences), and
// a chain of 1000 binds against building the bound cluster from scratch.
func BenchmarkViews(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		var nodes []*corev1.Node
		var pods []*corev1.Pod
		images := []corev1.ContainerImage{{Names: []string{"pause:3"}, SizeBytes: 1 << 20}, {Names: []string{"proxy:1"}, SizeBytes: 50 << 20}}
		for i := range n {
			nd := node(fmt.Sprintf("n%05d", i), map[string]string{"zone": fmt.Sprintf("z%d", i%3)}, nil)
			nd.Status.Images = append(slices.Clone(images), corev1.ContainerImage{Names: []string{fmt.Sprintf("app:%d", i%50)}, SizeBytes: 200 << 20})
			nodes = append(nodes, nd)
			for k := range 10 {
				p := pod("default", fmt.Sprintf("p%d-%d", i, k), nodes[i].Name, nil)
				p.Labels = map[string]string{"app": fmt.Sprintf("w%d", (i*10+k)%100)}
				pods = append(pods, p)
			}
		}
		snap, _, err := New(Input{Nodes: nodes, Pods: pods})
		require.NoError(b, err)
		snap.Labels()
		extra := pod("default", "extra", nodes[n/2].Name, nil)
		cordoned := nodes[n/2].DeepCopy()
		cordoned.Spec.Unschedulable = true
		relabelled := nodes[n/2].DeepCopy()
		relabelled.Labels = map[string]string{"zone": "z9"}
		added := node("a-new", nil, nil)
		chain := make([]*corev1.Pod, 1000)
		for i := range chain {
			chain[i] = pod("default", fmt.Sprintf("c%d", i), nodes[(i*7)%n].Name, nil)
		}
		all := Input{Nodes: nodes, Pods: append(slices.Clone(pods), chain...)}
		for _, bm := range []struct {
			name string
			f    func() error
		}{
			{"WithPod", func() error { _, err := snap.WithPod(extra); return err }},
			{"WithoutPods", func() error { snap.WithoutPods("default/p7-3"); return nil }},
			{"WithNode", func() error { _, err := snap.WithNode(cordoned); return err }},
			{"WithNodeLabels", func() error { _, err := snap.WithNode(relabelled); return err }},
			{"WithNodes", func() error { _, err := snap.WithNodes(added); return err }},
			{"WithoutNodes", func() error { _, err := snap.WithoutNodes(nodes[7].Name); return err }},
			{"WithoutNodesAsked", func() error {
				v, err := snap.WithoutNodes(nodes[7].Name)
				if err == nil {
					v.Labels()
					v.Column("zone")
					v.Occurrences()
				}
				return err
			}},
			{"WithPodChain1000", func() error {
				cur := snap
				for _, p := range chain {
					var err error
					if cur, err = cur.WithPod(p); err != nil {
						return err
					}
				}
				return nil
			}},
			{"NewWithChainPods", func() error { _, _, err := New(all); return err }},
		} {
			b.Run(fmt.Sprintf("%s/nodes=%d", bm.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := bm.f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
