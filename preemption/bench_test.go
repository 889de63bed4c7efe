package preemption

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
)

// preemptionBasic builds scheduler_perf's PreemptionBasic workload
// (test/integration/scheduler_perf/misc/performance-config.yaml): nodes of
// 4 CPU / 32Gi / 110 pods, four low-priority pods of 900m / 500Mi on each,
// and high-priority (10) pods of 3000m / 500Mi that must each preempt three.
func preemptionBasic(b *testing.B, nodes, high int) (*placement.Snapshot, []*corev1.Pod) {
	b.Helper()
	req := func(cpu string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("500Mi")}
	}
	in := cluster.Input{}
	for i := 0; i < nodes; i++ {
		n := mkNode(fmt.Sprintf("node-%04d", i), 4000)
		n.Status.Allocatable[corev1.ResourceMemory] = resource.MustParse("32Gi")
		in.Nodes = append(in.Nodes, n)
		for j := 0; j < 4; j++ {
			p := mkPod(fmt.Sprintf("low-%04d-%d", i, j), onNode(n.Name), started(i*4+j))
			p.Spec.Containers[0].Resources.Requests = req("900m")
			in.Pods = append(in.Pods, p)
		}
	}
	snap, _, err := newTestSnapshot(in)
	if err != nil {
		b.Fatal(err)
	}
	var pending []*corev1.Pod
	for i := 0; i < high; i++ {
		p := mkPod(fmt.Sprintf("high-%04d", i), prio(10), created(i))
		p.Spec.Containers[0].Resources.Requests = req("3000m")
		pending = append(pending, p)
	}
	return snap, pending
}

// BenchmarkPreemptionBasic times one preempting pod on the 1000-node,
// 4000-pod cluster: the scheduling cycle that finds no node, then the dry
// run on every node and the node choice.
func BenchmarkPreemptionBasic(b *testing.B) {
	snap, pending := preemptionBasic(b, 1000, 1)
	pod := pending[0]
	benchPreempt(b, snap, pod, 1)
}

// BenchmarkPreemptionBasicParallel is PreemptionBasic with the dry run on
// two goroutines (Options.Parallelism 2) and the cycle's filter on two.
func BenchmarkPreemptionBasicParallel(b *testing.B) {
	snap, pending := preemptionBasic(b, 1000, 1)
	benchPreempt(b, snap, pending[0], 2)
}

// benchPreempt times one preemption cycle of pod: the scheduling cycle that
// finds no node, the dry run on every node and the node choice.
func benchPreempt(b *testing.B, snap *placement.Snapshot, pod *corev1.Pod, par int) {
	b.Helper()
	defer reportCPU(b, 1)()
	for b.Loop() {
		c, err := placement.Compile(snap, pod, placement.Options{Parallelism: par})
		if err != nil {
			b.Fatal(err)
		}
		d := c.Schedule()
		r, err := Preempt(c, d.Statuses, Options{Parallelism: par})
		if err != nil || r.NominatedNode == "" {
			b.Fatalf("no preemption: %v %+v", err, r)
		}
	}
}

// BenchmarkScheduleQueuePreemptionBasic schedules 1000 high-priority pods
// that each must preempt, one after the other, and reports the time per pod.
func BenchmarkScheduleQueuePreemptionBasic(b *testing.B) {
	snap, pending := preemptionBasic(b, 1000, 1000)
	defer reportCPU(b, len(pending))()
	for b.Loop() {
		qr, err := ScheduleQueue(snap, pending, QueueOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(qr.Evicted) != 3000 {
			b.Fatalf("evicted %d pods, want 3000", len(qr.Evicted))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pending)), "ns/pod")
}

// reportCPU reports the process CPU time (user + system, all threads) per
// pod as cpu-ns/pod: on a shared machine wall time mostly measures the
// other tenants. Call it before the loop and defer the returned function.
func reportCPU(b *testing.B, podsPerOp int) func() {
	start := testbuild.CPUTime()
	return func() {
		b.ReportMetric(float64((testbuild.CPUTime()-start).Nanoseconds())/float64(b.N)/float64(podsPerOp), "cpu-ns/pod")
	}
}

// BenchmarkPreemptionSpread is PreemptionBasic with a zone spread
// constraint (DoNotSchedule, maxSkew 1) whose selector matches the victims,
// so the dry run must update PodTopologySpread's counts on every node.
func BenchmarkPreemptionSpread(b *testing.B) {
	snap, pending := preemptionBasic(b, 1000, 1)
	in := *cluster.InputOf(snapshotOf(snap))
	in.Nodes = nil
	for i, n := range snap.Nodes() {
		nn := n.Node().DeepCopy()
		nn.Labels["topology.kubernetes.io/zone"] = fmt.Sprintf("zone-%d", i%10)
		in.Nodes = append(in.Nodes, nn)
	}
	in.Pods = nil
	for _, n := range snap.Nodes() {
		for _, pi := range n.Pods() {
			p := pi.Pod().DeepCopy()
			p.Labels = map[string]string{"app": "web"}
			in.Pods = append(in.Pods, p)
		}
	}
	snap, _, err := newTestSnapshot(in)
	if err != nil {
		b.Fatal(err)
	}
	pod := pending[0].DeepCopy()
	pod.Labels = map[string]string{"app": "web"}
	pod.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: sel("app", "web")}}
	benchPreempt(b, snap, pod, 1)
}
