package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestSamplingRules mirrors DryRunPreemption's visit order and early stop
// (from the offset, wrapping around; stop once at least one candidate
// violates no PDB and violating plus non-violating candidates reach
// GetOffsetAndNumCandidates' count), run sequentially; each of the two
// candidate lists keeps at most that count (candidateList.add).
func TestSamplingRules(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e"}
	nodes := func(guarded ...string) []fakeNode {
		var out []fakeNode
		for _, n := range names {
			opts := []podOpt{prio(1), cpu(1000)}
			for _, g := range guarded {
				if g == n {
					opts = append(opts, labelled("app", "x"))
				}
			}
			out = append(out, fakeNode{name: n, code: sched.Unschedulable, capacity: 1000, pods: []*corev1.Pod{mkPod("v-"+n, opts...)}})
		}
		return out
	}
	budget := []*policyv1.PodDisruptionBudget{mkPDB("x", 0, sel("app", "x"))}
	tests := []struct {
		name   string
		fns    []fakeNode
		pdbs   []*policyv1.PodDisruptionBudget
		s      Sampling
		want   []string
		chosen string
	}{
		{"visits wrap around from the offset", nodes(), nil, Sampling{MinCandidateNodesAbsolute: 2, Offset: 4}, []string{"a", "e"}, "a"},
		{"offset 0 takes the first nodes", nodes(), nil, Sampling{MinCandidateNodesAbsolute: 2}, []string{"a", "b"}, "a"},
		{"PDB-violating candidates do not stop the search", nodes("a", "b", "c"), budget, Sampling{MinCandidateNodesAbsolute: 2},
			[]string{"a", "b", "d"}, "d"}, // c is tried but the violating list is full (candidateList.add)
		{"all violating: only the first two are kept", nodes(names...), budget, Sampling{MinCandidateNodesAbsolute: 2},
			[]string{"a", "b"}, "a"},
		{"count above the node count: every node", nodes(), nil, Sampling{MinCandidateNodesAbsolute: 9, Offset: 2}, names, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runFake(mkPod("p", prio(10)), 500, tt.fns, tt.pdbs, Options{Sampling: &tt.s})
			var got []string
			for _, c := range r.Candidates {
				got = append(got, c.Node)
			}
			assert.ElementsMatch(t, tt.want, got)
			assert.Equal(t, tt.chosen, r.NominatedNode)
		})
	}
}
