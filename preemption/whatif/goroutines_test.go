package whatif

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/placement"
)

// TestNothingLeftRunning: no question leaves a goroutine behind, at
// parallelism 1 and 4, on a cluster large enough for the parallel paths
// (the shapes' 300 nodes).
func TestNothingLeftRunning(t *testing.T) {
	settle := func(atMost int) int {
		n := runtime.NumGoroutine()
		for deadline := time.Now().Add(time.Second); n > atMost && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	for _, par := range []int{1, 4} {
		snap := benchClusterT(t, 300, 3)
		tmpl := benchTemplate("spread")
		opts := Options{Placement: placement.Options{Parallelism: par}}
		var pending []*corev1.Pod
		for i := range 20 {
			pending = append(pending, Replica(tmpl, i))
		}
		for name, f := range map[string]func() error{
			"Replicas": func() error { _, err := Replicas(snap, tmpl, 50, opts); return err },
			"Drain":    func() error { _, err := Drain(snap, []string{"node-00007"}, opts); return err },
			"ScaleDown": func() error {
				_, err := ScaleDown(snap, []string{"node-00001", "node-00002"}, ScaleDownOptions{Options: opts})
				return err
			},
			"Estimate": func() error {
				_, err := Estimate(snap, pending, NodeTemplate{Node: exampleNodeT("pool")}, EstimateOptions{Options: opts})
				return err
			},
			"Gang": func() error { _, err := GangReplicas(snap, tmpl, podGroup("g", 3), 3, opts); return err },
		} {
			before := settle(1 << 30)
			time.Sleep(5 * time.Millisecond)
			before = runtime.NumGoroutine()
			require.NoError(t, f(), name)
			require.LessOrEqual(t, settle(before), before, "%s (parallelism %d) left goroutines running", name, par)
		}
	}
}
