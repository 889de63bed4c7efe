package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// TestCompiledSystemDefaults: the system defaults' cached compiled form is
// what compileConstraints makes of them for any pod (but for the selector,
// which spreadConstraints replaces), and a caller changing its copy leaves
// the cache alone.
func TestCompiledSystemDefaults(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}}}
	for _, a := range []corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway} {
		want, err := compileConstraints(systemDefaultConstraints, pod, a, nil)
		require.NoError(t, err)
		got, err := compileDefaults(systemDefaultConstraints, pod, a)
		require.NoError(t, err)
		require.Len(t, got, len(want), string(a))
		for i := range want {
			assert.Equal(t, want[i].key, got[i].key)
			assert.Equal(t, want[i].maxSkew, got[i].maxSkew)
			assert.Equal(t, want[i].minDomains, got[i].minDomains)
			assert.Equal(t, want[i].honorAffinity, got[i].honorAffinity)
			assert.Equal(t, want[i].honorTaints, got[i].honorTaints)
		}
		for i := range got {
			got[i].key, got[i].maxSkew = "changed", 99
		}
		again, err := compileDefaults(systemDefaultConstraints, pod, a)
		require.NoError(t, err)
		for i := range again {
			assert.Equal(t, want[i].key, again[i].key)
			assert.Equal(t, want[i].maxSkew, again[i].maxSkew)
		}
	}
	// Other defaults (a profile's) are compiled as given, errors included.
	bad := []corev1.TopologySpreadConstraint{{TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 0}}
	_, err := compileDefaults(bad, pod, corev1.ScheduleAnyway)
	assert.ErrorContains(t, err, "maxSkew")
	// A copy of the system defaults is compiled too (it is not the package's list).
	own := append([]corev1.TopologySpreadConstraint(nil), systemDefaultConstraints...)
	own[0].MaxSkew = 7
	got, err := compileDefaults(own, pod, corev1.ScheduleAnyway)
	require.NoError(t, err)
	assert.Equal(t, int32(7), got[0].maxSkew)
}

// TestAssignSelectorIDs: constraints given one compiled selector share an
// ID, as do separately compiled equal selectors; different selectors do
// not.
func TestAssignSelectorIDs(t *testing.T) {
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	shared := newMatcher(sel)
	other := labels.SelectorFromSet(labels.Set{"app": "db"})
	cs := []constraint{
		{key: "a", sel: sel, m: shared},
		{key: "b", sel: sel, m: shared},
		{key: "c", sel: other, m: newMatcher(other)},
		{key: "d", sel: labels.SelectorFromSet(labels.Set{"app": "web"}), m: newMatcher(labels.SelectorFromSet(labels.Set{"app": "web"}))},
		{key: "e", sel: labels.Nothing(), m: newMatcher(labels.Nothing())},
		{key: "f", sel: labels.Everything(), m: newMatcher(labels.Everything())},
	}
	n := assignSelectorIDs(cs)
	assert.Equal(t, 4, n)
	assert.Equal(t, cs[0].selID, cs[1].selID)
	assert.Equal(t, cs[0].selID, cs[3].selID)
	assert.NotEqual(t, cs[0].selID, cs[2].selID)
	assert.NotEqual(t, cs[4].selID, cs[5].selID)
	assert.NotEqual(t, cs[0].selID, cs[5].selID)
}
