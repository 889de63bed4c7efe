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
	"github.com/schedkit/schedkit/placement/placementtest"
)

// world is a small cluster of the kit where preemption is likely: few
// nodes, full (Crowded), priorities spread out and budgets (Preemption),
// sometimes overcommitted; the kit's start times are distinct.
type world struct {
	nodes      []*corev1.Node
	pods       []*corev1.Pod
	pdbs       []*policyv1.PodDisruptionBudget
	namespaces []*corev1.Namespace
	pending    *corev1.Pod
}

// preemptive is the kit's configuration of world.
var preemptive = placementtest.Config{MaxNodes: 5, MaxPods: 20, MaxPending: 1, Crowded: true, Preemption: true}

// worldOf is the world of a kit cluster drawn with preemptive (or wider).
func worldOf(c *placementtest.Cluster) world {
	return world{nodes: c.Nodes, pods: c.Pods, pdbs: c.PDBs, namespaces: c.Namespaces, pending: c.Pending[0]}
}

// preemptiveConfig draws whether the world is overcommitted (bound pods
// on nodes they need not fit, as on a cluster whose nodes shrank).
func preemptiveConfig(t *rapid.T) placementtest.Config {
	cfg := preemptive
	cfg.Overcommit = rapid.Bool().Draw(t, "overcommit")
	return cfg
}

func (w world) snapshot(t require.TestingT) *placement.Snapshot {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.pods, PDBs: w.pdbs, Namespaces: w.namespaces})
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
			// Every pending pod of the cluster preempts in turn.
			cfg := preemptiveConfig(t)
			cfg.MaxPending = 4
			c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
			snap := worldOf(c).snapshot(t)
			for _, pending := range c.Pending {
				r := preemptIn(t, snap, pending, c.PDBs)
				if r == nil {
					continue
				}
				for _, c := range r.Candidates {
					for _, v := range c.Victims {
						if v.Priority >= PodPriority(pending) {
							t.Fatalf("victim %s priority %d >= %d", v.Key, v.Priority, PodPriority(pending))
						}
					}
				}
			}
		})
	})
	t.Run("the preemptor passes every filter on the chosen node once the victims are gone", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := worldOf(placementtest.ClusterOf(preemptiveConfig(t)).Draw(t, "cluster"))
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
	t.Run("returning any single victim makes the preemptor not fit (resources, ports, spread and anti-affinity are monotone)", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := worldOf(placementtest.ClusterOf(preemptiveConfig(t)).Draw(t, "cluster"))
			if a := w.pending.Spec.Affinity; a != nil && a.PodAffinity != nil && a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
				return // required pod affinity is not monotone: a victim returned may satisfy it
			}
			snap := w.snapshot(t)
			r := preemptIn(t, snap, w.pending, w.pdbs)
			if r == nil || r.NominatedNode == "" {
				return
			}
			if sharedHostPort(w.pods, r.NominatedNode) {
				// A node's used ports are a set (framework.NodeInfo's
				// UsedPorts; RemovePod deletes the port): when two bound
				// pods hold one host port, removing one frees it for the
				// other too, so returning that one alone is not monotone.
				// Only an overcommitted cluster has such a node (the
				// kubelet refuses the second pod).
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
	// (same priority and start time), which the kit never draws: upstream
	// then follows the node's pod order (see TestSelectVictimsTieOrder).
	t.Run("results do not depend on node, pod or PDB input order", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := worldOf(placementtest.ClusterOf(preemptiveConfig(t)).Draw(t, "cluster"))
			r1 := preemptIn(t, w.snapshot(t), w.pending, w.pdbs)
			w2 := w
			w2.nodes = rapid.Permutation(w.nodes).Draw(t, "nodeOrder")
			w2.pods = rapid.Permutation(w.pods).Draw(t, "podOrder")
			w2.pdbs = rapid.Permutation(w.pdbs).Draw(t, "pdbOrder")
			w2.namespaces = rapid.Permutation(w.namespaces).Draw(t, "namespaceOrder")
			r2 := preemptIn(t, w2.snapshot(t), w2.pending, w2.pdbs)
			require.Equal(t, r1, r2)
		})
	})
	t.Run("a pod with preemptionPolicy Never never evicts", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := worldOf(placementtest.ClusterOf(preemptiveConfig(t)).Draw(t, "cluster"))
			never := corev1.PreemptNever
			w.pending.Spec.PreemptionPolicy = &never
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

// sharedHostPort reports whether two pods bound to node hold the same host
// port, as the snapshot records them (cluster.PodHostPorts).
func sharedHostPort(pods []*corev1.Pod, node string) bool {
	seen := map[cluster.HostPort]bool{}
	for _, p := range pods {
		if p.Spec.NodeName != node {
			continue
		}
		for _, hp := range cluster.PodHostPorts(p) {
			if seen[hp] {
				return true
			}
			seen[hp] = true
		}
	}
	return false
}
