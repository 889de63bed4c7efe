package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The benchmark shape: 5000 nodes, 50,000 bound pods, 3 zones; one
// pending pod with requests only.
const (
	benchNodes       = 5000
	benchPodsPerNode = 10
)

var benchSnap *Snapshot

func benchSnapshot(b *testing.B) *Snapshot {
	if benchSnap == nil {
		benchSnap = bigCluster(b, benchNodes, benchPodsPerNode)
	}
	return benchSnap
}

// BenchmarkSchedule is Compile plus one scheduling cycle (every filter on
// every node, every score on the feasible ones, host selection).
func BenchmarkSchedule(b *testing.B) {
	snap := benchSnapshot(b)
	pod := mkPod("pending", requests("cpu", "500m", "memory", "2Gi"))
	for b.Loop() {
		c, err := Compile(snap, pod, Options{})
		if err != nil {
			b.Fatal(err)
		}
		d := c.Schedule()
		if d.Node == "" {
			b.Fatal("no node")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchNodes, "ns/node")
}

// BenchmarkFilter is one compiled pod's Filter on one node.
func BenchmarkFilter(b *testing.B) {
	snap := benchSnapshot(b)
	c, err := Compile(snap, mkPod("pending", requests("cpu", "500m", "memory", "2Gi")), Options{})
	require.NoError(b, err)
	nodes := snap.Nodes()
	i := 0
	for b.Loop() {
		if !c.Filter(nodes[i%len(nodes)]).Code.Passes() {
			b.Fatal("rejected")
		}
		i++
	}
}

// BenchmarkEvaluate is the full per-node, per-plugin report.
func BenchmarkEvaluate(b *testing.B) {
	snap := benchSnapshot(b)
	pod := mkPod("pending", requests("cpu", "500m", "memory", "2Gi"))
	for b.Loop() {
		if _, err := Evaluate(snap, pod, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshot is cluster.New on the benchmark cluster.
func BenchmarkSnapshot(b *testing.B) {
	in := bigInput(benchNodes, benchPodsPerNode)
	for b.Loop() {
		if _, _, err := newTestSnapshot(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWithPod is one copy-on-write bind.
func BenchmarkWithPod(b *testing.B) {
	snap := benchSnapshot(b)
	pod := mkPod("new", onNode("node-00042"), requests("cpu", "500m", "memory", "2Gi"))
	for b.Loop() {
		if _, err := snap.WithPod(pod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile is the per-pod work before any node is looked at.
func BenchmarkCompile(b *testing.B) {
	snap := benchSnapshot(b)
	pod := mkPod("pending", requests("cpu", "500m", "memory", "2Gi"))
	for b.Loop() {
		if _, err := Compile(snap, pod, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
