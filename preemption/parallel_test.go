package preemption

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

// drawWideWorld is drawWorld with enough nodes (4 to 12) that the dry run
// has rounds worth several goroutines, zones for a zone spread constraint,
// and a queue of pending pods of mixed shapes.
func drawWideWorld(t *rapid.T) (nodes []*corev1.Node, pods []*corev1.Pod, pdbs []*policyv1.PodDisruptionBudget, pending []*corev1.Pod) {
	nNodes := rapid.IntRange(minParallelDryRuns, 12).Draw(t, "nodes")
	for i := range nNodes {
		n := mkNode(fmt.Sprintf("n%02d", i), int64(rapid.SampledFrom([]int{1000, 2000}).Draw(t, "cap")))
		n.Labels["topology.kubernetes.io/zone"] = rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "zone")
		nodes = append(nodes, n)
	}
	for i := range rapid.IntRange(3*nNodes, 5*nNodes).Draw(t, "pods") {
		p := mkPod(fmt.Sprintf("b%d", i),
			onNode(fmt.Sprintf("n%02d", rapid.IntRange(0, nNodes-1).Draw(t, "node"))),
			prio(rapid.SampledFrom([]int32{0, 10, 100, 1000}).Draw(t, "prio")),
			started(rapid.IntRange(0, 5).Draw(t, "start")), // ties on start happen
			cpu(int64(rapid.SampledFrom([]int{300, 500, 100, 1000}).Draw(t, "cpu"))),
			labelled("app", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "app")))
		if rapid.IntRange(0, 9).Draw(t, "anti") == 0 {
			antiAffinity(rapid.SampledFrom([]string{"a", "c"}).Draw(t, "antiApp"))(p)
		}
		pods = append(pods, p)
	}
	for i, app := range []string{"a", "b"} {
		if rapid.Bool().Draw(t, "pdb") {
			pdbs = append(pdbs, mkPDB(fmt.Sprintf("pdb%d", i), int32(rapid.IntRange(0, 2).Draw(t, "allowed")), sel("app", app)))
		}
	}
	for i := range rapid.IntRange(1, 4).Draw(t, "pending") {
		opts := []podOpt{prio(rapid.SampledFrom([]int32{1000, 100, 10}).Draw(t, "pprio")), created(i),
			cpu(int64(rapid.SampledFrom([]int{1000, 700, 2000}).Draw(t, "pcpu")))}
		switch rapid.IntRange(0, 4).Draw(t, "topology") {
		case 1:
			opts = append(opts, labelled("app", "a"), spreadOne("a"))
		case 2:
			opts = append(opts, labelled("app", "c"), antiAffinity("b"))
		case 3:
			opts = append(opts, labelled("app", "b"), func(p *corev1.Pod) {
				p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
					MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.DoNotSchedule,
					LabelSelector: sel("app", "b")}}
			})
		}
		pending = append(pending, mkPod(fmt.Sprintf("p%d", i), opts...))
	}
	return nodes, pods, pdbs, pending
}

// TestParallelDryRunProperties: the dry run, and a whole queue run, give
// the same result on one goroutine and on several (dryRuns: each node's
// outcome is its own and the candidate loop takes them in visiting order).
func TestParallelDryRunProperties(t *testing.T) {
	t.Run("Preempt gives the same result on any number of goroutines", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			nodes, pods, pdbs, pending := drawWideWorld(t)
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods, PDBs: pdbs})
			require.NoError(t, err)
			c, err := placement.Compile(snap, pending[0], placement.Options{})
			require.NoError(t, err)
			d := c.Schedule()
			if d.Feasible > 0 || d.Gated != nil || d.Statuses == nil {
				return
			}
			opts := Options{}
			if rapid.Bool().Draw(t, "sampled") {
				// Small bounds, so that the loop stops early and rounds are
				// cut short.
				opts.Sampling = &Sampling{MinCandidateNodesPercentage: 1,
					MinCandidateNodesAbsolute: rapid.Int32Range(1, 6).Draw(t, "abs"),
					Offset:                    rapid.Int32Range(0, 20).Draw(t, "offset")}
			}
			seq, err := Preempt(c, d.Statuses, opts)
			require.NoError(t, err)
			opts.Parallelism = rapid.IntRange(2, 4).Draw(t, "par")
			par, err := Preempt(c, d.Statuses, opts)
			require.NoError(t, err)
			require.Equal(t, seq, par)
		})
	})
	t.Run("ScheduleQueue gives the same result on any number of goroutines", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			nodes, pods, pdbs, pending := drawWideWorld(t)
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods, PDBs: pdbs})
			require.NoError(t, err)
			seq, err := ScheduleQueue(snap, pending, QueueOptions{})
			require.NoError(t, err)
			par, err := ScheduleQueue(snap, pending, QueueOptions{Placement: placement.Options{Parallelism: rapid.IntRange(2, 4).Draw(t, "par")}})
			require.NoError(t, err)
			require.Equal(t, finalPods(seq.Final), finalPods(par.Final))
			seq.Final, par.Final = nil, nil
			require.Equal(t, seq, par)
		})
	})
}

// finalPods lists each node's pods by key, in the snapshot's order.
func finalPods(ps *placement.Snapshot) [][]string {
	s := snapshotOf(ps)
	var out [][]string
	for _, n := range s.Nodes() {
		var keys []string
		for _, p := range n.Pods {
			keys = append(keys, p.Key)
		}
		out = append(out, keys)
	}
	return out
}
