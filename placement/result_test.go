package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/placement/framework"
)

// TestResultListsAreNeverNil: a Result's lists are empty, not nil, when
// there is nothing to list (no feasible node, a gated pod, an invalid
// pod), so they serialize as [].
func TestResultListsAreNeverNil(t *testing.T) {
	snap := snapshotOf(t, []*corev1.Node{mkNode("a", "1", "1Gi")})
	gated := mkPod("gated")
	gated.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "g"}}
	invalid := mkPod("invalid")
	invalid.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Bogus"}}}},
	}}}
	for name, pod := range map[string]*corev1.Pod{
		"no feasible node": mkPod("big", requests("cpu", "2")),
		"gated":            gated,
		"invalid":          invalid,
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := Evaluate(snap, pod, Options{})
			require.NotNil(t, r)
			assert.NotNil(t, r.FeasibleNodes)
			assert.NotNil(t, r.Nodes)
			assert.Equal(t, []string{}, r.BestNodes)
		})
	}
}

// TestPublicStatusNames: the aliases and constants name what the internal
// vocabulary names, and FilterEach's array lines up with FilterPlugins.
func TestPublicStatusNames(t *testing.T) {
	assert.Equal(t, "UnschedulableAndUnresolvable", framework.UnschedulableAndUnresolvable.String())
	var st framework.Status = framework.Status{Code: framework.Unschedulable, Plugin: framework.NodeResourcesFit}
	assert.False(t, st.OK())
	snap := snapshotOf(t, []*corev1.Node{mkNode("a", "1", "1Gi")})
	c, err := Compile(snap, mkPod("p"), Options{})
	require.NoError(t, err)
	n, ok := snap.Node("a")
	require.True(t, ok)
	var each [NumFilters]framework.Status = c.FilterEach(n)
	names := FilterPlugins()
	for i := range each {
		assert.Equal(t, names[i], each[i].Plugin, "verdict %d", i)
	}
	assert.Equal(t, framework.NodeUnschedulable, names[0])
}
