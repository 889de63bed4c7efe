package placement

import (
	"fmt"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// The four shapes for one pod's filter and score through the whole
// pipeline (Compile, then Schedule: every filter on every node, every score
// on the feasible ones, host selection): 5000 nodes in 3 zones, each with a
// hostname label, and 50,000 bound pods of 100 apps, every tenth carrying a
// required hostname anti-affinity to its own app, as templated workloads do.
// Targets: under 1 ms (requests only) or 3 ms (the others), and no
// allocation per node (allocs/op far below the 5000 nodes).
var (
	shapesOnce sync.Once
	shapesSnap *Snapshot
)

const (
	shapesNodes = 5000
	shapesPods  = 50000
	shapesApps  = 100
)

func shapesSnapshot(b *testing.B) *Snapshot {
	shapesOnce.Do(func() {
		var in cluster.Input
		for i := range shapesNodes {
			name := fmt.Sprintf("node-%05d", i)
			in.Nodes = append(in.Nodes, mkNode(name, "32", "128Gi",
				withLabels(corev1.LabelTopologyZone, fmt.Sprintf("zone-%d", i%3), corev1.LabelHostname, name)))
		}
		for i := range shapesPods {
			app := fmt.Sprintf("app-%d", i%shapesApps)
			p := mkPod(fmt.Sprintf("p-%06d", i), onNode(in.Nodes[(i*7919)%shapesNodes].Name),
				requests("cpu", "250m", "memory", "1Gi"))
			p.Labels = map[string]string{"app": app, "tier": "web"}
			if i%10 == 0 {
				p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{appTerm(corev1.LabelHostname, app)}}}
			}
			in.Pods = append(in.Pods, p)
		}
		s, _, err := newTestSnapshot(in)
		if err != nil {
			panic(err)
		}
		shapesSnap = s
	})
	return shapesSnap
}

func appTerm(topologyKey, app string) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{TopologyKey: topologyKey,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}}
}

// shapePods are the four incoming pods: requests only; a zone spread
// constraint; a required hostname anti-affinity; a required zone pod
// affinity. The last three belong to app-7.
func shapePods() []struct {
	name string
	pod  *corev1.Pod
} {
	base := func() *corev1.Pod {
		p := mkPod("pending", requests("cpu", "500m", "memory", "2Gi"))
		p.Labels = map[string]string{"app": "app-7", "tier": "web"}
		return p
	}
	requestsOnly := mkPod("pending", requests("cpu", "500m", "memory", "2Gi"))
	spread := base()
	spread.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "app-7"}}}}
	anti := base()
	anti.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{appTerm(corev1.LabelHostname, "app-7")}}}
	aff := base()
	aff.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{appTerm(corev1.LabelTopologyZone, "app-7")}}}
	return []struct {
		name string
		pod  *corev1.Pod
	}{
		{"requests", requestsOnly},
		{"zone-spread", spread},
		{"hostname-anti-affinity", anti},
		{"zone-affinity", aff},
	}
}

// BenchmarkPodFilterScore is one pod's Compile and scheduling cycle for
// each shape; ns/pair is the time per (pod, node) pair.
func BenchmarkPodFilterScore(b *testing.B) {
	snap := shapesSnapshot(b)
	for _, tc := range shapePods() {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				c, err := Compile(snap, tc.pod, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if d := c.Schedule(); d.Node == "" {
					b.Fatal("no feasible node")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/shapesNodes, "ns/pair")
		})
	}
}
