package topology_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/topology"
)

// askTopology puts pod to every entry point of topology over the cluster in.
func askTopology(t *testing.T, in placement.SnapshotInput, pod *corev1.Pod) {
	var snap *placement.Snapshot
	require.NotPanics(t, func() { snap, _, _ = placement.NewSnapshot(in) }, "NewSnapshot")
	require.NotPanics(t, func() {
		topology.DefaultSelector(pod, &in)
		topology.DefaultSelector(pod, nil)
	}, "DefaultSelector")
	require.NotPanics(t, func() {
		if pod != nil {
			topology.ValidateSpreadConstraints(pod.Spec.TopologySpreadConstraints, field.NewPath("spec"))
			for i := range pod.Spec.TopologySpreadConstraints {
				topology.ValidateSpreadConstraint(&pod.Spec.TopologySpreadConstraints[i], nil)
			}
		}
	}, "validation")
	if snap == nil {
		return
	}
	require.NotPanics(t, func() {
		nodes := snap.Nodes()
		if s, err := topology.NewSpread(pod, snap, topology.SpreadOptions{}); err == nil {
			for _, n := range nodes {
				s.Filter(n)
			}
			s.Score(nodes)
			if v, err := snap.WithoutPods("default/bound"); err == nil {
				_, _ = s.On(v)
			}
		}
		if a, err := topology.NewInterPodAffinity(pod, snap, topology.AffinityOptions{}); err == nil {
			for _, n := range nodes {
				a.Filter(n)
			}
			a.Score(nodes)
			if v, err := snap.WithoutPods("default/bound"); err == nil {
				_, _ = a.On(v)
			}
		}
	}, "NewPodInfo, NewSpread, NewInterPodAffinity")
}

func topologyInput(pods []*corev1.Pod, nodes ...*corev1.Node) placement.SnapshotInput {
	return placement.SnapshotInput{Nodes: append([]*corev1.Node{hostile.Node("a"), hostile.Node("b")}, nodes...),
		Pods: append([]*corev1.Pod{hostile.Pod("bound", "a")}, pods...)}
}

// Issue 21, no panics on caller input.
func TestOddInputNeverPanics(t *testing.T) {
	spreading := func() *corev1.Pod { return hostile.OddPods("")[12].Obj } // "empty selectors everywhere"
	require.Equal(t, "empty selectors everywhere", hostile.OddPods("")[12].Name)
	for _, tc := range hostile.OddPods("") {
		t.Run("pending pod: "+tc.Name, func(t *testing.T) {
			askTopology(t, topologyInput(nil), tc.Obj)
		})
	}
	for _, tc := range hostile.OddPods("a") {
		t.Run("bound pod: "+tc.Name, func(t *testing.T) {
			askTopology(t, topologyInput([]*corev1.Pod{tc.Obj}), spreading())
		})
	}
	for _, tc := range hostile.OddNodes("c") {
		t.Run("node: "+tc.Name, func(t *testing.T) {
			askTopology(t, topologyInput(nil, tc.Obj), spreading())
		})
	}
	nils := []struct {
		name string
		ask  func(t *testing.T)
	}{
		{"nil pod", func(t *testing.T) { askTopology(t, topologyInput(nil), nil) }},
		// Found by this table: DefaultSelector and ValidateSpreadConstraint
		// dereferenced nil.
		{"DefaultSelector of a nil pod", func(t *testing.T) {
			in := topologyInput(nil)
			require.True(t, topology.DefaultSelector(nil, &in).Empty())
		}},
		{"ValidateSpreadConstraint of nil", func(t *testing.T) { require.NotEmpty(t, topology.ValidateSpreadConstraint(nil, nil)) }},
		// Found by this table: both dereferenced a nil PodInfo.
		{"NewSpread and NewInterPodAffinity of a nil pod", func(t *testing.T) {
			_, err := topology.NewSpread(nil, nil, topology.SpreadOptions{})
			require.Error(t, err)
			_, err = topology.NewInterPodAffinity(nil, nil, topology.AffinityOptions{})
			require.Error(t, err)
		}},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			require.NotPanics(t, func() { tc.ask(t) })
		})
	}
}
