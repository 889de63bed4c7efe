package placement

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

var nodeSelectorOps = map[string]selection.Operator{
	"In": selection.In, "NotIn": selection.NotIn, "Exists": selection.Exists,
	"DoesNotExist": selection.DoesNotExist, "Gt": selection.GreaterThan, "Lt": selection.LessThan,
}

// FuzzNodeAffinity compiles arbitrary node affinity (a label expression, a
// field expression, a nodeSelector entry) and checks that Compile never
// panics, reports invalid input as ErrInvalidPod, and that a compiled pod's
// NodeAffinity verdict agrees with labels.Requirement.Matches and the
// metadata.name field rule (nodeaffinity.nodeSelectorTerm.match).
func FuzzNodeAffinity(f *testing.F) {
	f.Add("zone", "In", "a,b", "zone", "a", "In", "n1", "", "")
	f.Add("gen", "Gt", "4", "gen", "5", "NotIn", "n2", "disk", "ssd")
	f.Add("bad key!", "Exists", "", "k", "v", "Bogus", "x,y", "k", "")
	f.Add("k", "Lt", "x", "k", "1", "In", "", "", "")
	f.Fuzz(func(t *testing.T, key, op, values, labelKey, labelValue, fieldOp, fieldValues, selKey, selValue string) {
		var vals []string
		if values != "" {
			vals = strings.Split(values, ",")
		}
		var fvals []string
		if fieldValues != "" {
			fvals = strings.Split(fieldValues, ",")
		}
		term := corev1.NodeSelectorTerm{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOperator(op), Values: vals}},
			MatchFields:      []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOperator(fieldOp), Values: fvals}},
		}
		pod := mkPod("p", nodeAffinity(requiredTerms(term)))
		if selKey != "" {
			pod.Spec.NodeSelector = map[string]string{selKey: selValue}
		}
		node := mkNode("n1", "1", "1Gi")
		node.Labels = map[string]string{labelKey: labelValue}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{node}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compile(snap, pod, Options{})
		r, rerr := labels.NewRequirement(key, nodeSelectorOps[op], vals)
		_, opKnown := nodeSelectorOps[op]
		fieldValid := (fieldOp == "In" || fieldOp == "NotIn") && len(fvals) == 1
		if !opKnown || rerr != nil || !fieldValid {
			if err == nil {
				t.Fatalf("invalid term compiled: %+v", term)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid term rejected: %v", err)
		}
		want := r.Matches(labels.Set(node.Labels)) && ((fvals[0] == "n1") == (fieldOp == "In"))
		if selKey != "" {
			v, ok := node.Labels[selKey]
			want = want && ok && v == selValue
		}
		n, _ := snap.Node("n1")
		got := c.FilterEach(n)[fNodeAffinity]
		if got.Code.Passes() != want {
			t.Fatalf("NodeAffinity %v, want pass=%v for %+v on %v", got, want, term, node.Labels)
		}
		if !got.Code.Passes() && got.Code != sched.UnschedulableAndUnresolvable {
			t.Fatalf("unexpected code %v", got.Code)
		}
	})
}
