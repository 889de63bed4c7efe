package topology_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/topology"
)

// Every refusal names its cause (errors.Is) and, for an invalid object,
// carries the field paths (errors.As *topology.ValidationError), all at
// once.
func TestErrors(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"zone": "z1"}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourcePods: resource.MustParse("110")}}}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{node}})
	require.NoError(t, err)
	pod := func(mutate func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}}}
		mutate(p)
		return p
	}
	badSpread := pod(func(p *corev1.Pod) {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
			{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule},
			{MaxSkew: 1, TopologyKey: "", WhenUnsatisfiable: "Sometimes"},
		}
	})
	badTerm := pod(func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "zone",
				LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}}},
		}}
	})
	tests := []struct {
		name  string
		call  func() error
		cause error
		paths []string // the field paths reported, in order; nil: no ValidationError
	}{
		{"spread: constraints the API server refuses", func() error {
			_, err := topology.NewSpread(badSpread, snap, topology.SpreadOptions{})
			return err
		}, topology.ErrInvalidConstraint, []string{
			"spec.topologySpreadConstraints[0].maxSkew",
			"spec.topologySpreadConstraints[1].topologyKey",
			"spec.topologySpreadConstraints[1].whenUnsatisfiable",
		}},
		{"spread: nil pod", func() error {
			_, err := topology.NewSpread(nil, snap, topology.SpreadOptions{})
			return err
		}, topology.ErrInvalidPod, nil},
		{"affinity: nil snapshot", func() error {
			_, err := topology.NewInterPodAffinity(pod(func(*corev1.Pod) {}), nil, topology.AffinityOptions{})
			return err
		}, topology.ErrInvalidPod, nil},
		{"affinity: a selector that does not parse", func() error {
			_, err := topology.NewInterPodAffinity(badTerm, snap, topology.AffinityOptions{})
			return err
		}, topology.ErrInvalidPod, []string{
			"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.cause)
			assert.NotContains(t, err.Error(), "internal", "no internal package in the message")
			var ve *topology.ValidationError
			if tt.paths == nil {
				return
			}
			require.ErrorAs(t, err, &ve)
			var got []string
			for _, e := range ve.Errors {
				got = append(got, e.Field)
			}
			assert.Equal(t, tt.paths, got)
			assert.IsType(t, field.ErrorList{}, ve.Errors)
		})
	}
}
