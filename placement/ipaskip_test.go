package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// TestIPAPreScoreSkipShortcut: the shortcut that skips InterPodAffinity's
// scoring walk answers Skip only where the walk itself would (interpodaffinity
// PreScore, v1.36: processExistingPod scores existing pods' required
// affinity, preferred affinity and preferred anti-affinity terms, never their
// required anti-affinity).
func TestIPAPreScoreSkipShortcut(t *testing.T) {
	term := corev1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
	weighted := []corev1.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: term}}
	withAffinity := func(a *corev1.Affinity) podOpt { return func(p *corev1.Pod) { p.Spec.Affinity = a } }
	labelled := func(p *corev1.Pod) { p.Labels = map[string]string{"app": "web"} }
	tests := []struct {
		name     string
		bound    *corev1.Affinity
		incoming *corev1.Affinity
		shortcut bool
	}{
		{"no affinity anywhere", nil, nil, true},
		{"bound required anti-affinity only", &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}, nil, true},
		{"bound required affinity", &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}, nil, false},
		{"bound preferred affinity", &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: weighted}}, nil, false},
		{"bound preferred anti-affinity", &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: weighted}}, nil, false},
		{"incoming preferred affinity", nil, &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: weighted}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := []*corev1.Node{mkNode("a", "4", "8Gi", withLabels("zone", "z1")), mkNode("b", "4", "8Gi", withLabels("zone", "z2"))}
			bound := mkPod("bound", onNode("a"), withAffinity(tt.bound), labelled)
			// The pod bound in the snapshot New builds, and bound by a
			// view of a snapshot without it (what a scheduling queue's
			// bindings make).
			built := snapshotOf(t, nodes, bound)
			viewed, err := snapshotOf(t, nodes, mkPod("other", onNode("b"))).WithPod(bound)
			require.NoError(t, err)
			for _, snap := range []*Snapshot{built, viewed} {
				c, err := Compile(snap, mkPod("incoming", withAffinity(tt.incoming), labelled), Options{})
				require.NoError(t, err)
				require.Equal(t, tt.shortcut, c.ipaPreScoreSkips())
				_, _, walkSkipped := c.ipa.Score(cluster.NodesOf(internalOf(snap)))
				if tt.shortcut {
					require.True(t, walkSkipped, "the shortcut skips only where the walk skips")
				} else {
					require.False(t, walkSkipped, "these cases count a topology pair")
				}
			}
		})
	}
}
