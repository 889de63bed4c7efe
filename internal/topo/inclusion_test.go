package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/taints"
)

// TestRequiredNodeAffinity mirrors component-helpers' nodeaffinity
// GetRequiredNodeAffinity(...).Match (v0.36), which the node inclusion
// policy nodeAffinityPolicy: Honor uses.
func TestRequiredNodeAffinity(t *testing.T) {
	node := mkNode("n1", "zone", "z1", "gen", "5", "disk", "ssd")
	expr := func(key string, op corev1.NodeSelectorOperator, vals ...string) corev1.NodeSelectorRequirement {
		return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
	}
	withTerms := func(terms ...corev1.NodeSelectorTerm) podOpt {
		return func(p *corev1.Pod) {
			ensureAffinity(p).NodeAffinity = &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms}}
		}
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		want bool
	}{
		{"no selector and no affinity", mkPod("p", "", nil), true},
		{"nodeSelector matches", mkPod("p", "", nil, nodeSelector("zone", "z1")), true},
		{"nodeSelector does not match", mkPod("p", "", nil, nodeSelector("zone", "z2")), false},
		{"In", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "z1", "z2")}})), true},
		{"NotIn", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpNotIn, "z1")}})), false},
		{"Exists and DoesNotExist", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
			expr("disk", corev1.NodeSelectorOpExists), expr("gpu", corev1.NodeSelectorOpDoesNotExist)}})), true},
		{"Gt", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpGt, "4")}})), true},
		{"Lt", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("gen", corev1.NodeSelectorOpLt, "5")}})), false},
		{"terms are ORed", mkPod("p", "", nil, withTerms(
			corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "z9")}},
			corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("disk", corev1.NodeSelectorOpIn, "ssd")}})), true},
		{"matchFields metadata.name", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, "n1")}})), true},
		{"matchFields NotIn", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpNotIn, "n1")}})), false},
		{"an empty term matches nothing", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{})), false},
		{"no terms match nothing", mkPod("p", "", nil, withTerms()), false},
		{"a broken term never matches, the others still can", mkPod("p", "", nil, withTerms(
			corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", "Bogus", "z1")}},
			corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn, "z1")}})), true},
		{"In without values is broken", mkPod("p", "", nil, withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", corev1.NodeSelectorOpIn)}})), false},
		{"nodeSelector and affinity must both match", mkPod("p", "", nil, nodeSelector("zone", "z2"),
			withTerms(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("disk", corev1.NodeSelectorOpIn, "ssd")}})), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequiredNodeAffinity(tt.pod)
			assert.Equal(t, tt.want, r.matches(node))
		})
	}
}

// TestIndexedNodeAffinityAgrees is a reference-model property: the node
// inclusion policy's node affinity decided through the snapshot's label
// columns gives, on every node, what the map-based requiredNodeAffinity
// gives.
func TestIndexedNodeAffinityAgrees(t *testing.T) {
	t.Run("column verdicts equal map verdicts on every node", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := genWorld(t)
			pod := mkPod("in", "", lbl("app", "a"))
			genNodeAffinity(t, pod)
			if rapid.Bool().Draw(t, "hostSelector") {
				if pod.Spec.NodeSelector == nil {
					pod.Spec.NodeSelector = map[string]string{}
				}
				pod.Spec.NodeSelector[corev1.LabelHostname] = rapid.SampledFrom([]string{"n0", "n1", "n9"}).Draw(t, "host")
			}
			snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes})
			require.NoError(t, err)
			r := newRequiredNodeAffinity(pod)
			x := r.index(snap)
			for i, n := range cluster.NodesOf(snap) {
				if got, want := x.matches(i, n.Node), r.matches(n.Node); got != want {
					t.Fatalf("node %s %v: columns %v, map %v", n.Name, n.Node.Labels, got, want)
				}
			}
		})
	})
}

// The taint policy is decided once per distinct taint list of the
// snapshot (cluster.TaintSetsOf) and gives each node what its own taints
// give; a node a view replaces is decided from its own taints.
func TestInclusionTaintsPerList(t *testing.T) {
	var nodes []*corev1.Node
	for i, key := range []string{"dedicated", "dedicated", "gpu", "", "dedicated", ""} {
		n := mkNode(string(rune('a'+i)), corev1.LabelHostname, string(rune('a'+i)))
		if key != "" {
			tainted(n, key)
		}
		nodes = append(nodes, n)
	}
	snap, _, err := cluster.New(cluster.Input{Nodes: nodes})
	require.NoError(t, err)
	require.Len(t, cluster.TaintSetsOf(snap), 3)
	for _, tols := range [][]string{nil, {"dedicated"}, {"gpu"}, {"dedicated", "gpu"}} {
		opts := []podOpt{spreadOn(1, corev1.LabelHostname, corev1.DoNotSchedule, selector("app", "web"), policies("", corev1.NodeInclusionPolicyHonor))}
		for _, k := range tols {
			opts = append(opts, tolerate(k))
		}
		pod := mkPod("p", "", lbl("app", "web"), opts...)
		s, err := NewSpread(podInfo(t, pod), snap, SpreadOptions{})
		require.NoError(t, err)
		require.NotNil(t, s.incl.cache)
		c := &s.hard[0]
		for _, n := range cluster.NodesOf(snap) {
			want := !taints.Untolerated(n.Node.Spec.Taints, pod.Spec.Tolerations)
			assert.Equal(t, want, s.incl.includes(c, n.Index, n), "tolerations %v, node %s", tols, n.Name)
		}
		// Node a loses its taint in a view.
		view, err := snap.WithNode(mkNode("a", corev1.LabelHostname, "a"))
		require.NoError(t, err)
		a := cluster.NodesOf(view)[0]
		assert.True(t, s.incl.includes(c, a.Index, a), "tolerations %v", tols)
	}
}
