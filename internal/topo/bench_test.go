package topo

import (
	"fmt"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// The benchmark cluster: 5000 nodes in 3 zones, 10 pods per node (50,000),
// 100 apps; every tenth pod carries a required hostname anti-affinity to its
// own app and every twentieth a preferred zone affinity, as templated
// workloads do.
var (
	benchOnce sync.Once
	benchSnap *cluster.Snapshot
)

func benchCluster(b *testing.B) *cluster.Snapshot {
	benchOnce.Do(func() {
		const nodes, perNode, nApps = 5000, 10, 100
		in := cluster.Input{}
		for i := 0; i < nodes; i++ {
			in.Nodes = append(in.Nodes, zoned(fmt.Sprintf("node-%05d", i), fmt.Sprintf("zone-%d", i%3)))
		}
		for i := 0; i < nodes*perNode; i++ {
			app := fmt.Sprintf("app-%d", i%nApps)
			var opts []podOpt
			if i%10 == 0 {
				opts = append(opts, requiredAntiAffinity(term(corev1.LabelHostname, selector("app", app))))
			}
			if i%20 == 5 {
				opts = append(opts, preferredAffinity(10, term(corev1.LabelTopologyZone, selector("app", app))))
			}
			in.Pods = append(in.Pods, mkPod(fmt.Sprintf("pod-%06d", i), in.Nodes[(i*7919)%nodes].Name, lbl("app", app, "tier", "web"), opts...))
		}
		s, _, err := cluster.New(in)
		if err != nil {
			panic(err)
		}
		benchSnap = s
	})
	return benchSnap
}

// evaluateBoth is what the placement pipeline does per pod with this
// package: compile both plugins, filter every node, score the feasible ones.
func evaluateBoth(b *testing.B, snap *cluster.Snapshot, pod *corev1.Pod, feasible []*cluster.NodeInfo) int {
	pi, err := cluster.NewPodInfo(pod)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSpread(pi, snap, SpreadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	a, err := NewInterPodAffinity(pi, snap, AffinityOptions{})
	if err != nil {
		b.Fatal(err)
	}
	feasible = feasible[:0]
	for _, n := range cluster.NodesOf(snap) {
		if s.Filter(n).OK() && a.Filter(n).OK() {
			feasible = append(feasible, n)
		}
	}
	s.Score(feasible)
	a.Score(feasible)
	return len(feasible)
}

func BenchmarkEvaluate(b *testing.B) {
	snap := benchCluster(b)
	cases := []struct {
		name string
		pod  *corev1.Pod
	}{
		{"a-plain", mkPod("p", "", lbl("app", "app-7"))},
		{"b-zone-spread", mkPod("p", "", lbl("app", "app-7"),
			spreadOn(1, corev1.LabelTopologyZone, corev1.DoNotSchedule, selector("app", "app-7")))},
		{"c-hostname-anti-affinity", mkPod("p", "", lbl("app", "app-7"),
			requiredAntiAffinity(term(corev1.LabelHostname, selector("app", "app-7"))))},
		{"d-zone-affinity", mkPod("p", "", lbl("app", "new"),
			requiredAffinity(term(corev1.LabelTopologyZone, selector("app", "app-7"))))},
		{"e-preferred-and-soft-spread", mkPod("p", "", lbl("app", "app-7"),
			spreadOn(1, corev1.LabelTopologyZone, corev1.ScheduleAnyway, selector("app", "app-7")),
			preferredAntiAffinity(50, term(corev1.LabelHostname, selector("app", "app-7"))))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			feasible := make([]*cluster.NodeInfo, 0, len(cluster.NodesOf(snap)))
			b.ReportAllocs()
			for b.Loop() {
				evaluateBoth(b, snap, c.pod, feasible)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(cluster.NodesOf(snap))), "ns/node")
		})
	}
}

// BenchmarkFilter measures Filter alone per node, after compilation.
func BenchmarkFilter(b *testing.B) {
	snap := benchCluster(b)
	pod := mkPod("p", "", lbl("app", "app-7"),
		spreadOn(1, corev1.LabelTopologyZone, corev1.DoNotSchedule, selector("app", "app-7")),
		requiredAntiAffinity(term(corev1.LabelHostname, selector("app", "app-7"))))
	pi, _ := cluster.NewPodInfo(pod)
	s, _ := NewSpread(pi, snap, SpreadOptions{})
	a, _ := NewInterPodAffinity(pi, snap, AffinityOptions{})
	nodes := cluster.NodesOf(snap)
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range nodes {
			s.Filter(n)
			a.Filter(n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(nodes)), "ns/node")
}
