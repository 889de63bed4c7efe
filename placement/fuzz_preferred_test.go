package placement

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// FuzzPreferredNodeAffinity compiles an arbitrary preferred node-affinity
// term, alone or as Options.AddedAffinity, and checks it against upstream's
// rule (nodeaffinity.NewPreferredSchedulingTerms and NodeAffinity.Score):
// invalid terms are ErrInvalidPod naming the term's path; a valid term adds
// its weight to the raw score exactly when labels.Requirement.Matches says
// the node matches, and weight 0 terms are dropped (not even parsed).
func FuzzPreferredNodeAffinity(f *testing.F) {
	f.Add("zone", "In", "a,b", "zone", "a", int32(10), false)
	f.Add("gen", "Gt", "4", "gen", "5", int32(100), true)
	f.Add("bad key!", "Exists", "", "k", "v", int32(1), false)
	f.Add("k", "Lt", "x", "k", "1", int32(0), true)
	f.Add("k", "DoesNotExist", "", "k", "", int32(-5), false)
	f.Fuzz(func(t *testing.T, key, op, values, labelKey, labelValue string, weight int32, added bool) {
		var vals []string
		if values != "" {
			vals = strings.Split(values, ",")
		}
		aff := &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{
			Weight:     weight,
			Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOperator(op), Values: vals}}},
		}}}
		pod := mkPod("p")
		var opts Options
		if added {
			opts.AddedAffinity = aff
		} else {
			pod = mkPod("p", nodeAffinity(aff))
		}
		node := mkNode("n1", "4", "8Gi")
		node.Labels = map[string]string{labelKey: labelValue}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{node}})
		if err != nil {
			t.Fatal(err)
		}
		r, rerr := labels.NewRequirement(key, nodeSelectorOps[op], vals)
		_, opKnown := nodeSelectorOps[op]
		res, err := Evaluate(snap, pod, opts)
		if !opKnown || rerr != nil {
			if weight == 0 {
				// NewPreferredSchedulingTerms skips weight-0 terms before
				// parsing them, so an invalid weight-0 term is no error.
				if err != nil {
					t.Fatalf("weight-0 term parsed: %v", err)
				}
				return
			}
			if added {
				// AddedAffinity is the operator's configuration, not the
				// pod's: any error will do, but there must be one.
				if err == nil {
					t.Fatalf("invalid added affinity accepted: %+v", aff)
				}
				return
			}
			if !errors.Is(err, ErrInvalidPod) || !strings.Contains(err.Error(), "preferredDuringSchedulingIgnoredDuringExecution[0]") {
				t.Fatalf("invalid term: got %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid term rejected: %v", err)
		}
		var want int64
		if weight != 0 && r.Matches(labels.Set(node.Labels)) {
			want = int64(weight)
		}
		var got int64
		for _, s := range res.Nodes[0].Scores {
			if s.Plugin == sched.NodeAffinity {
				got = s.Raw
			}
		}
		if got != want {
			t.Fatalf("NodeAffinity raw score %d, want %d for %+v on %v", got, want, aff, node.Labels)
		}
	})
}
