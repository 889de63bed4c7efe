package preemption

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

// world is a small random cluster where preemption is likely: few nodes,
// CPU nearly full, priorities from a small pool so ties on priority happen
// (start times are distinct).
type world struct {
	nodes   []*corev1.Node
	pods    []*corev1.Pod
	pdbs    []*policyv1.PodDisruptionBudget
	pending *corev1.Pod
}

func drawWorld(t *rapid.T, neverPolicy bool) world {
	var w world
	nNodes := rapid.IntRange(1, 5).Draw(t, "nodes")
	for i := 0; i < nNodes; i++ {
		w.nodes = append(w.nodes, mkNode(fmt.Sprintf("n%d", i), int64(rapid.SampledFrom([]int{1000, 2000}).Draw(t, "cap"))))
	}
	nPods := rapid.IntRange(2*nNodes, 4*nNodes).Draw(t, "pods")
	for i := 0; i < nPods; i++ {
		p := mkPod(fmt.Sprintf("b%d", i),
			onNode(fmt.Sprintf("n%d", (i+rapid.IntRange(0, 1).Draw(t, "node"))%nNodes)),
			prio(rapid.SampledFrom([]int32{0, 10, 100, 1000}).Draw(t, "prio")),
			// Distinct start times: among pods of equal priority and start,
			// upstream's (and schedkit's) choice follows the node's pod order,
			// i.e. the input order, which the order property permutes.
			started(2*i+rapid.IntRange(0, 1).Draw(t, "start")),
			cpu(int64(rapid.SampledFrom([]int{300, 500, 100, 1000}).Draw(t, "cpu"))),
			labelled("app", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "app")))
		w.pods = append(w.pods, p)
	}
	for i, app := range []string{"a", "b"} {
		if rapid.Bool().Draw(t, "pdb") {
			w.pdbs = append(w.pdbs, mkPDB(fmt.Sprintf("pdb%d", i), int32(rapid.IntRange(0, 2).Draw(t, "allowed")), sel("app", app)))
		}
	}
	opts := []podOpt{prio(rapid.SampledFrom([]int32{1000, 100, 10}).Draw(t, "pprio")),
		cpu(int64(rapid.SampledFrom([]int{1000, 500, 2000}).Draw(t, "pcpu")))}
	if neverPolicy {
		opts = append(opts, policy(corev1.PreemptNever))
	}
	// Sometimes topology constraints, so that the dry run must update
	// PodTopologySpread's and InterPodAffinity's state.
	switch rapid.IntRange(0, 3).Draw(t, "topology") {
	case 1:
		opts = append(opts, labelled("app", "a"), spreadOne("a"))
	case 2:
		opts = append(opts, labelled("app", "c"), antiAffinity("b"))
	}
	if len(w.pods) > 0 && rapid.Bool().Draw(t, "existingAnti") {
		// One bound pod refuses the incoming pod's app on its node.
		w.pods[0] = w.pods[0].DeepCopy()
		antiAffinity("c")(w.pods[0])
	}
	w.pending = mkPod("incoming", opts...)
	return w
}

func (w world) snapshot(t require.TestingT) *placement.Snapshot {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.pods, PDBs: w.pdbs})
	require.NoError(t, err)
	return snap
}

// preemptIn evaluates the pending pod and, when no node is feasible, preempts.
func preemptIn(t require.TestingT, snap *placement.Snapshot, pod *corev1.Pod, _ []*policyv1.PodDisruptionBudget) *Result {
	c, err := placement.Compile(snap, pod, placement.Options{})
	require.NoError(t, err)
	d := c.Schedule()
	if d.Feasible > 0 || d.Gated != nil {
		return nil
	}
	r, err := Preempt(c, d.Statuses, Options{})
	require.NoError(t, err)
	return r
}

func keysOf(vs []Victim) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Key
	}
	return out
}

func TestPreemptionProperties(t *testing.T) {
	t.Run("every victim has lower priority than the preemptor", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := drawWorld(t, false)
			r := preemptIn(t, w.snapshot(t), w.pending, w.pdbs)
			if r == nil {
				return
			}
			for _, c := range r.Candidates {
				for _, v := range c.Victims {
					if v.Priority >= PodPriority(w.pending) {
						t.Fatalf("victim %s priority %d >= %d", v.Key, v.Priority, PodPriority(w.pending))
					}
				}
			}
		})
	})
	t.Run("the preemptor passes every filter on the chosen node once the victims are gone", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := drawWorld(t, false)
			snap := w.snapshot(t)
			r := preemptIn(t, snap, w.pending, w.pdbs)
			if r == nil || r.NominatedNode == "" {
				return
			}
			without, err := snap.WithoutPods(keysOf(r.Victims)...)
			require.NoError(t, err)
			st, err := placement.FilterNode(without, w.pending, r.NominatedNode, placement.Options{})
			require.NoError(t, err)
			if !st.OK() {
				t.Fatalf("does not fit on %s after preemption: %s", r.NominatedNode, st)
			}
		})
	})
	t.Run("returning any single victim makes the preemptor not fit (resources, spread and anti-affinity are monotone)", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := drawWorld(t, false)
			snap := w.snapshot(t)
			r := preemptIn(t, snap, w.pending, w.pdbs)
			if r == nil || r.NominatedNode == "" {
				return
			}
			keys := keysOf(r.Victims)
			for i := range keys {
				rest := slices.Delete(slices.Clone(keys), i, i+1)
				without, err := snap.WithoutPods(rest...)
				require.NoError(t, err)
				st, err := placement.FilterNode(without, w.pending, r.NominatedNode, placement.Options{})
				require.NoError(t, err)
				if st.OK() {
					t.Fatalf("victim %s was not needed on %s", keys[i], r.NominatedNode)
				}
			}
		})
	})
	// Pod input order matters only between equally important victims
	// (same priority and start time), which the world never has: upstream
	// then follows the node's pod order (see TestSelectVictimsTieOrder).
	t.Run("results do not depend on node, pod or PDB input order", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := drawWorld(t, false)
			r1 := preemptIn(t, w.snapshot(t), w.pending, w.pdbs)
			w2 := w
			w2.nodes = rapid.Permutation(w.nodes).Draw(t, "nodeOrder")
			w2.pods = rapid.Permutation(w.pods).Draw(t, "podOrder")
			w2.pdbs = rapid.Permutation(w.pdbs).Draw(t, "pdbOrder")
			r2 := preemptIn(t, w2.snapshot(t), w2.pending, w2.pdbs)
			require.Equal(t, r1, r2)
		})
	})
	t.Run("a pod with preemptionPolicy Never never evicts", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := drawWorld(t, true)
			qr, err := ScheduleQueue(w.snapshot(t), []*corev1.Pod{w.pending}, QueueOptions{})
			require.NoError(t, err)
			require.Empty(t, qr.Evicted)
			if r := qr.Results[0].Preemption; r != nil {
				require.Equal(t, "preemption: not eligible due to preemptionPolicy=Never.", r.Message())
			}
		})
	})
}

// TestPickCandidateReference checks pickCandidate against an obvious model:
// the winner is the lexicographic minimum of (PDB violations, highest victim
// priority, priority sum, victim count, minus the latest start time), then
// the lowest name; every loser's LostAt is the first criterion where it is
// worse than the winner.
func TestPickCandidateReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "cands")
		var cands []Candidate
		for i := 0; i < n; i++ {
			c := Candidate{Node: fmt.Sprintf("n%d", i), NumPDBViolations: rapid.IntRange(0, 2).Draw(t, "pdb")}
			for j := rapid.IntRange(1, 3).Draw(t, "victims"); j > 0; j-- {
				v := Victim{Priority: rapid.SampledFrom([]int32{-5, 0, 10}).Draw(t, "prio")}
				if m := rapid.IntRange(-1, 2).Draw(t, "start"); m >= 0 {
					v.StartTime = t0.Add(time.Duration(m) * time.Minute)
				}
				c.Victims = append(c.Victims, v)
			}
			cands = append(cands, c)
		}
		vec := func(c *Candidate) [5]int64 {
			k := keyOf(c)
			return [5]int64{k.pdb, k.highest, k.sum, k.count, -k.latestStart}
		}
		win := pickCandidate(cands)
		w := vec(&cands[win])
		for i := range cands {
			if i == win {
				continue
			}
			v := vec(&cands[i])
			first := -1
			for k := range v {
				if v[k] != w[k] {
					first = k
					break
				}
			}
			switch {
			case first < 0:
				if cands[i].Node < cands[win].Node || cands[i].LostAt != LowestNodeName {
					t.Fatalf("tie: %s beat %s (%v)", cands[win].Node, cands[i].Node, cands[i].LostAt)
				}
			case v[first] < w[first]:
				t.Fatalf("%s is better than the winner %s on criterion %d", cands[i].Node, cands[win].Node, first+1)
			case cands[i].LostAt != Criterion(first+1):
				t.Fatalf("%s lost at %v, want criterion %d", cands[i].Node, cands[i].LostAt, first+1)
			}
		}
	})
}
