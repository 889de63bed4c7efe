package preemption

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// wide is preemptive with enough nodes (4 to 12) that the dry run has
// rounds worth several goroutines, and a queue of up to 4 pending pods.
var wide = placementtest.Config{MinNodes: minParallelDryRuns, MaxNodes: 12, MaxPods: 40, MaxPending: 4, Crowded: true, Preemption: true}

// withStartTies gives the bound pods start times from a pool of six, so
// that victims tie on start (the kit's are distinct).
func withStartTies(t *rapid.T, c *placementtest.Cluster) {
	for _, p := range c.Pods {
		p.Status.StartTime = &metav1.Time{Time: t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "start")) * time.Minute)}
	}
}

// drawPreemptor draws a cluster and compiles its first pending pod; ok
// is false when the pod fits somewhere or is gated (nothing to preempt
// for).
func drawPreemptor(t *rapid.T) (*placement.Compiled, placement.Decision, bool) {
	cfg := wide
	cfg.Overcommit = rapid.Bool().Draw(t, "overcommit")
	kc := placementtest.ClusterOf(cfg).Draw(t, "cluster")
	withStartTies(t, kc)
	snap, _, err := placement.NewSnapshot(kc.SnapshotInput())
	require.NoError(t, err)
	c, err := placement.Compile(snap, kc.Pending[0], placement.Options{})
	require.NoError(t, err)
	d := c.Schedule()
	return c, d, d.Feasible == 0 && d.Gated == nil && d.Statuses != nil
}

// TestParallelDryRunProperties: the dry run, and a whole queue run, give
// the same result on one goroutine and on several (dryRuns: each node's
// outcome is its own and the candidate loop takes them in visiting order).
func TestParallelDryRunProperties(t *testing.T) {
	t.Run("Preempt gives the same result on any number of goroutines", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c, d, ok := drawPreemptor(t)
			if !ok {
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
	t.Run("candidates are in node-name order and ranked as pickCandidate ranks them", func(t *testing.T) {
		// preempt rotates the candidates of a sampled, wrapped visit into
		// node-name order and ranks them with their dry runs' keys; both
		// must give what sorting and keyOf give.
		rapid.Check(t, func(t *rapid.T) {
			c, d, ok := drawPreemptor(t)
			if !ok {
				return
			}
			opts := Options{Sampling: &Sampling{MinCandidateNodesPercentage: rapid.Int32Range(0, 100).Draw(t, "pct"),
				MinCandidateNodesAbsolute: rapid.Int32Range(1, 8).Draw(t, "abs"),
				Offset:                    rapid.Int32Range(0, 40).Draw(t, "offset")}}
			r, err := Preempt(c, d.Statuses, opts)
			require.NoError(t, err)
			if len(r.Candidates) == 0 {
				return
			}
			require.True(t, slices.IsSortedFunc(r.Candidates, func(a, b Candidate) int { return strings.Compare(a.Node, b.Node) }))
			again := slices.Clone(r.Candidates)
			win := pickCandidate(again)
			require.Equal(t, again[win].Node, r.NominatedNode)
			require.Equal(t, again, r.Candidates, "the same criteria and bests")
		})
	})
	t.Run("ScheduleQueue gives the same result on any number of goroutines", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			cfg := wide
			cfg.Overcommit = rapid.Bool().Draw(t, "overcommit")
			kc := placementtest.ClusterOf(cfg).Draw(t, "cluster")
			withStartTies(t, kc)
			pending := kc.Pending
			snap, _, err := placement.NewSnapshot(kc.SnapshotInput())
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
	for _, n := range cluster.NodesOf(s) {
		var keys []string
		for _, p := range n.Pods {
			keys = append(keys, p.Key)
		}
		out = append(out, keys)
	}
	return out
}
