package whatif

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement"
)

// FuzzQuestions asks every question of a decoded scenario: no panic, no
// input object modified, and each answer's own invariants.
func FuzzQuestions(f *testing.F) {
	data, err := os.ReadFile("../../testdata/conformance/cases/tiny.json")
	require.NoError(f, err)
	f.Add(data, uint8(3), uint8(1), uint8(2))
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"1","pods":"10"}}}],"pods":[],"pending":[{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"600m"}}}]}}]}`),
		uint8(4), uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, n, drainIdx, maxNodes uint8) {
		sc, _, err := scenario.Load(data)
		if err != nil {
			return
		}
		in := sc.ClusterInput(false)
		snap, _, err := placement.NewSnapshot(publicInput(in))
		if err != nil || len(sc.Nodes) == 0 {
			return
		}
		before := sc.DeepCopy()
		var pending []*corev1.Pod
		for i := range sc.Pending {
			pending = append(pending, &sc.Pending[i])
		}
		count := int(n % 8)
		for _, p := range pending {
			r, err := Replicas(snap, p, count, Options{})
			require.NoError(t, err)
			require.LessOrEqual(t, r.Placed(), count)
			require.Equal(t, r.Placed() < count, r.Outcome != "")
		}
		node := sc.Nodes[int(drainIdx)%len(sc.Nodes)].Name
		d, err := Drain(snap, []string{node}, Options{})
		require.NoError(t, err)
		for _, m := range d.Moved {
			require.Equal(t, node, m.From)
		}
		tmpl := NodeTemplate{Node: sc.Nodes[0].DeepCopy()}
		tmpl.Node.Name = "tmpl"
		for _, mode := range []EstimateMode{FirstFit, Scheduler} {
			e, err := Estimate(snap, pending, tmpl, EstimateOptions{Mode: mode, MaxNodes: int(maxNodes%4) + 1})
			require.NoError(t, err)
			require.Equal(t, len(pending), len(e.Placements)+len(e.Unplaced))
		}
		s, err := ScaleDown(snap, []string{node}, ScaleDownOptions{})
		require.NoError(t, err)
		require.Len(t, s.Nodes, 1)
		_, err = Drain(snap, []string{strings.Repeat("x", 3)}, Options{})
		if _, ok := snap.Node("xxx"); !ok {
			require.ErrorIs(t, err, ErrInvalidQuestion)
		}
		require.True(t, equality.Semantic.DeepEqual(before, sc), "an input object changed")
	})
}

// publicInput is a scenario's cluster as placement.NewSnapshot takes it.
func publicInput(in cluster.Input) placement.SnapshotInput {
	return placement.SnapshotInput{Nodes: in.Nodes, Pods: in.Pods, Namespaces: in.Namespaces, Services: in.Services,
		ReplicaSets: in.ReplicaSets, StatefulSets: in.StatefulSets, ReplicationControllers: in.ReplicationControllers,
		PDBs: in.PDBs, WithoutPodLevelResize: in.WithoutPodLevelResize, Parallelism: in.Parallelism}
}
