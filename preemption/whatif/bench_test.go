package whatif

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// benchClusterT is nodes nodes in 3 zones (8 cpu each) with podsPerNode
// replicated pods of 10 apps bound to each.
func benchClusterT(b testing.TB, nodes, podsPerNode int) *placement.Snapshot {
	b.Helper()
	ns, ps := benchObjects(nodes, podsPerNode)
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: ns, Pods: ps})
	if err != nil {
		b.Fatal(err)
	}
	return snap
}

// benchObjects are the objects of benchCluster, the pods of node i at
// ps[i*podsPerNode : (i+1)*podsPerNode].
func benchObjects(nodes, podsPerNode int) (ns []*corev1.Node, ps []*corev1.Pod) {
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
	return ns, ps
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

// The what-if benchmarks run each question at two cluster sizes,
// benchSizes nodes with benchPodsPerNode bound pods each (2.5 of 8 cpu
// used), so that how a question grows with the cluster shows. The
// clusters are built once per size, on first use, and only under -bench.
var benchSizes = []int{1000, 5000}

const benchPodsPerNode = 10

type benchWorld struct {
	snap *placement.Snapshot
	// pods are the bound pods in input order: node i holds
	// pods[i*benchPodsPerNode : (i+1)*benchPodsPerNode].
	pods []*corev1.Pod
}

var benchWorlds = map[int]*benchWorld{}

// benchWorldOf returns the cluster of nodes nodes, built on first use (building
// 5000 nodes and 50,000 pods is not part of any question).
func benchWorldOf(b *testing.B, nodes int) *benchWorld {
	b.Helper()
	if w, ok := benchWorlds[nodes]; ok {
		return w
	}
	ns, ps := benchObjects(nodes, benchPodsPerNode)
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: ns, Pods: ps})
	if err != nil {
		b.Fatal(err)
	}
	w := &benchWorld{snap: snap, pods: ps}
	benchWorlds[nodes] = w
	return w
}

// eachSize runs f as one sub-benchmark per cluster size, the timer reset
// after the cluster is built.
func eachSize(b *testing.B, f func(b *testing.B, w *benchWorld, nodes int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			w := benchWorldOf(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			f(b, w, n)
		})
	}
}

func benchNodeName(i int) string { return fmt.Sprintf("node-%05d", i) }

var benchOptions = Options{Placement: placement.Options{Parallelism: 2}}

// BenchmarkReplicas places 1000 replicas of a template (reported per
// replica as well): with hostname anti-affinity, one per node, and with a
// zone spread.
func BenchmarkReplicas(b *testing.B) {
	for _, c := range []string{"anti-affinity", "spread"} {
		b.Run(c, func(b *testing.B) {
			eachSize(b, func(b *testing.B, w *benchWorld, _ int) {
				tmpl := benchTemplate(c)
				for b.Loop() {
					r, err := Replicas(w.snap, tmpl, 1000, benchOptions)
					if err != nil || r.Placed() != 1000 {
						b.Fatal(err, r.Placed())
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000/1e3, "us/replica")
			})
		})
	}
}

// BenchmarkDrain drains the middle node: its 10 pods are re-created and
// scheduled on the others.
func BenchmarkDrain(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, nodes int) {
		node := benchNodeName(nodes / 2)
		for b.Loop() {
			r, err := Drain(w.snap, []string{node}, benchOptions)
			if err != nil || !r.Drainable {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCordon cordons 10 nodes spread over the cluster: one node view
// each (Snapshot.WithNode), not a rebuild.
func BenchmarkCordon(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, nodes int) {
		var names []string
		for i := range 10 {
			names = append(names, benchNodeName(i*nodes/10))
		}
		for b.Loop() {
			if _, err := Cordon(w.snap, names...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReschedule cordons the middle node and reschedules its 10 pods
// (Drain without the drainability rules).
func BenchmarkReschedule(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, nodes int) {
		i := nodes / 2
		pods := w.pods[i*benchPodsPerNode : (i+1)*benchPodsPerNode]
		for b.Loop() {
			r, err := Reschedule(w.snap, []string{benchNodeName(i)}, pods, benchOptions)
			if err != nil || len(r.Placements) != benchPodsPerNode {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScaleDown tries candidates spread over the cluster, each on the
// cluster the removals before it left: 100 of 1000 nodes, 10 of 5000 (each
// candidate is a drain simulation over the whole cluster); reported per
// candidate as well.
func BenchmarkScaleDown(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, nodes int) {
		count := 100
		if nodes > 1000 {
			count = 10
		}
		var candidates []string
		for i := range count {
			candidates = append(candidates, benchNodeName(i*nodes/count))
		}
		opts := ScaleDownOptions{Options: benchOptions}
		for b.Loop() {
			if _, err := ScaleDown(w.snap, candidates, opts); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(count)/1e3, "us/candidate")
	})
}

// benchBacklog is n pending pods of 20 Job templates, 100m to 1050m cpu.
func benchBacklog(n int) []*corev1.Pod {
	var pending []*corev1.Pod
	for i := range n {
		t := i % 20
		p := benchTemplate("")
		p.Name, p.UID = fmt.Sprintf("job-%d-%d", t, i), types.UID(fmt.Sprintf("job-%d", i))
		p.Labels = testbuild.Labels("app", fmt.Sprintf("job-%d", t))
		p.Spec.Containers[0].Resources.Requests = testbuild.Resources("cpu", fmt.Sprintf("%dm", 100+50*t), "memory", "256Mi")
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: fmt.Sprintf("job-%d", t), UID: types.UID(fmt.Sprintf("job-%d", t)), Controller: ptrTo(true)}}
		pending = append(pending, p)
	}
	return pending
}

func benchNodeTemplate() NodeTemplate {
	return NodeTemplate{Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "pool", Labels: testbuild.Labels("topology.kubernetes.io/zone", "z1")},
		Status: corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", "16", "memory", "64Gi", "pods", "110")}}}
}

// BenchmarkEstimateFirstFit estimates 10,000 pending pods of 20 templates
// (the estimator only tries new nodes; the existing ones are the snapshot
// the new nodes join).
func BenchmarkEstimateFirstFit(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, _ int) {
		pending, tmpl := benchBacklog(10000), benchNodeTemplate()
		for b.Loop() {
			r, err := Estimate(w.snap, pending, tmpl, EstimateOptions{})
			if err != nil || len(r.Unplaced) > 0 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEstimateScheduler estimates 20 pending pods of 6 cpu, which no
// existing node (5.5 cpu free) holds and a 16-cpu template node holds two
// of: 10 nodes, found by one scheduling run with 20 nodes and one per count
// from 0 to 10, each over the whole cluster.
func BenchmarkEstimateScheduler(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, _ int) {
		pending := benchBacklog(20)
		for _, p := range pending {
			p.Spec.Containers[0].Resources.Requests = testbuild.Resources("cpu", "6", "memory", "1Gi")
		}
		tmpl := benchNodeTemplate()
		for b.Loop() {
			r, err := Estimate(w.snap, pending, tmpl, EstimateOptions{Mode: Scheduler})
			if err != nil || len(r.Unplaced) > 0 || r.NodeCount != 10 {
				b.Fatal(err, r.NodeCount)
			}
		}
	})
}

// BenchmarkGang places a gang of 100 workers, one per node (hostname
// anti-affinity), all or nothing.
func BenchmarkGang(b *testing.B) {
	eachSize(b, func(b *testing.B, w *benchWorld, _ int) {
		worker := benchTemplate("anti-affinity")
		group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default"},
			Spec: schedulingv1alpha2.PodGroupSpec{SchedulingPolicy: schedulingv1alpha2.PodGroupSchedulingPolicy{
				Gang: &schedulingv1alpha2.GangSchedulingPolicy{MinCount: 100}}}}
		for b.Loop() {
			r, err := GangReplicas(w.snap, worker, group, 100, benchOptions)
			if err != nil || !r.Placed {
				b.Fatal(err)
			}
		}
	})
}
