package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ownTopologyFilter: a DoNotSchedule spread constraint or a required pod
// (anti-)affinity term of the pod's own; soft constraints, preferred terms
// and node affinity are not.
func TestOwnTopologyFilter(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	term := corev1.PodAffinityTerm{LabelSelector: sel, TopologyKey: corev1.LabelHostname}
	spread := func(w corev1.UnsatisfiableConstraintAction) []corev1.TopologySpreadConstraint {
		return []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: w, LabelSelector: sel}}
	}
	tests := []struct {
		name string
		spec corev1.PodSpec
		want bool
	}{
		{"none", corev1.PodSpec{}, false},
		{"soft spread", corev1.PodSpec{TopologySpreadConstraints: spread(corev1.ScheduleAnyway)}, false},
		{"hard spread", corev1.PodSpec{TopologySpreadConstraints: spread(corev1.DoNotSchedule)}, true},
		{"node affinity only", corev1.PodSpec{Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}}}, false},
		{"preferred anti-affinity", corev1.PodSpec{Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: term}}}}}, false},
		{"required affinity", corev1.PodSpec{Affinity: &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}}, true},
		{"required anti-affinity", corev1.PodSpec{Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}, Spec: tt.spec}
			p := Prepare(pod, Options{})
			require.NoError(t, p.Err())
			assert.Equal(t, tt.want, p.c.ownTopologyFilter())
		})
	}
}
