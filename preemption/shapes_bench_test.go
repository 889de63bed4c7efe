package preemption

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// shapeSize is the cluster of BenchmarkShapes: SHAPES_NODES, SHAPES_BOUND
// and SHAPES_PENDING, by default the speed issue's 1000 nodes, 5,000
// bound pods and 1,000 pending pods (5000 / 20,000 / 500 is its other
// size).
func shapeSize() (nodes, bound, pending int) {
	get := func(k string, d int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
			return v
		}
		return d
	}
	return get("SHAPES_NODES", 1000), get("SHAPES_BOUND", 5000), get("SHAPES_PENDING", 1000)
}

// BenchmarkShapes schedules the pending pods of every scheduler_perf shape
// (placementtest.Shape) as a queue with preemption: the decision phase
// (snapshot built outside the timed loop). Per shape it reports pods/s,
// ns per pod-node pair and allocations per pod; scripts/speed-shapes.sh
// prints them side by side.
func BenchmarkShapes(b *testing.B) {
	nodes, bound, pending := shapeSize()
	for _, shape := range placementtest.Shapes {
		b.Run(fmt.Sprintf("%s/nodes=%d", shape, nodes), func(b *testing.B) {
			c, err := placementtest.Shape(shape, nodes, bound, pending, 1)
			if err != nil {
				b.Fatal(err)
			}
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			if err != nil {
				b.Fatal(err)
			}
			opts := QueueOptions{Placement: placement.Options{Parallelism: runtime.GOMAXPROCS(0)}}
			b.ReportAllocs()
			var mallocs uint64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				if _, err := ScheduleQueue(snap, c.Pending, opts); err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				mallocs += after.Mallocs - before.Mallocs
			}
			perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(float64(len(c.Pending))/(perOp/1e9), "pods/s")
			b.ReportMetric(perOp/float64(len(c.Pending)*nodes), "ns/pod-node")
			b.ReportMetric(float64(mallocs)/float64(b.N)/float64(len(c.Pending)), "allocs/pod")
		})
	}
}

// BenchmarkShapeSnapshot builds the snapshot of a shape's cluster and
// reports the snapshot's own heap per bound pod (beyond the input objects).
func BenchmarkShapeSnapshot(b *testing.B) {
	nodes, bound, pending := shapeSize()
	c, err := placementtest.Shape("basic", nodes, bound, pending, 1)
	if err != nil {
		b.Fatal(err)
	}
	in := c.SnapshotInput()
	var perPod float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		snap, _, err := placement.NewSnapshot(in)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perPod = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(max(1, snap.NumPods()))
		runtime.KeepAlive(snap)
	}
	b.ReportMetric(perPod, "B/bound-pod")
}
