package whatif_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/preemption/whatif"
)

func oddInput(pods []*corev1.Pod, nodes []*corev1.Node, pdbs []*policyv1.PodDisruptionBudget) placement.SnapshotInput {
	in := placement.SnapshotInput{Nodes: []*corev1.Node{hostile.Node("a"), hostile.Node("b")},
		Pods: []*corev1.Pod{hostile.Pod("bound", "a")}, PDBs: pdbs}
	in.Nodes = append(in.Nodes, nodes...)
	in.Pods = append(in.Pods, pods...)
	return in
}

// askWhatif puts pod (pending) and tmpl to every what-if question over the
// cluster in, draining and removing node a.
func askWhatif(t *testing.T, in placement.SnapshotInput, pod *corev1.Pod, tmpl *corev1.Node) {
	var snap *placement.Snapshot
	require.NotPanics(t, func() { snap, _, _ = placement.NewSnapshot(in) }, "NewSnapshot")
	if snap == nil {
		return
	}
	pre := whatif.Options{Preemption: &preemption.Options{}}
	require.NotPanics(t, func() { _, _ = whatif.Replicas(snap, pod, 3, pre) }, "Replicas")
	require.NotPanics(t, func() { _, _ = whatif.Replicas(snap, pod, 0, whatif.Options{}) }, "Replicas 0")
	require.NotPanics(t, func() { whatif.Replica(pod, 1) }, "Replica")
	require.NotPanics(t, func() { _, _ = whatif.Drain(snap, []string{"a"}, pre) }, "Drain")
	require.NotPanics(t, func() { _, _ = whatif.Cordon(snap, "a", "b") }, "Cordon")
	require.NotPanics(t, func() { _, _ = whatif.Reschedule(snap, []string{"a"}, []*corev1.Pod{pod}, pre) }, "Reschedule")
	require.NotPanics(t, func() { _, _ = whatif.ScaleDown(snap, nil, whatif.ScaleDownOptions{}) }, "ScaleDown")
	for _, mode := range []whatif.EstimateMode{whatif.FirstFit, whatif.Scheduler} {
		require.NotPanics(t, func() {
			_, _ = whatif.Estimate(snap, []*corev1.Pod{pod, hostile.Pod("p", "")}, whatif.NodeTemplate{Node: tmpl, DaemonSetPods: []*corev1.Pod{pod}},
				whatif.EstimateOptions{Mode: mode, MaxNodes: 3})
		}, "Estimate")
		require.NotPanics(t, func() {
			_, _ = whatif.EstimateEach(snap, []*corev1.Pod{pod}, []whatif.NodeTemplate{{Node: tmpl}, {}}, whatif.EstimateOptions{Mode: mode, MaxNodes: 3})
		}, "EstimateEach")
	}
	name := "gang"
	group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	group.Spec.SchedulingPolicy.Gang = &schedulingv1alpha2.GangSchedulingPolicy{MinCount: 2}
	member := pod.DeepCopy()
	member.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: &name}
	require.NotPanics(t, func() { _, _ = whatif.Gang(snap, group, []*corev1.Pod{member, hostile.Pod("p", "")}, whatif.Options{}) }, "Gang")
	require.NotPanics(t, func() { _, _ = whatif.GangReplicas(snap, member, group, 2, whatif.Options{}) }, "GangReplicas")
	require.NotPanics(t, func() {
		_, _, _ = whatif.EstimateGang(snap, group, []*corev1.Pod{member}, whatif.NodeTemplate{Node: tmpl}, whatif.EstimateOptions{MaxNodes: 3})
	}, "EstimateGang")
}

// Issue 21, no panics on caller input.
func TestOddInputNeverPanics(t *testing.T) {
	for _, tc := range hostile.OddPods("") {
		t.Run("pending pod: "+tc.Name, func(t *testing.T) {
			askWhatif(t, oddInput(nil, nil, nil), tc.Obj, hostile.Node("pool"))
		})
	}
	for _, tc := range hostile.OddPods("a") {
		t.Run("bound pod: "+tc.Name, func(t *testing.T) {
			askWhatif(t, oddInput([]*corev1.Pod{tc.Obj}, nil, nil), hostile.Pod("p", ""), hostile.Node("pool"))
		})
	}
	for _, tc := range hostile.OddNodes("pool") {
		t.Run("template: "+tc.Name, func(t *testing.T) {
			askWhatif(t, oddInput(nil, nil, nil), hostile.Pod("p", ""), tc.Obj)
		})
	}
	for _, tc := range hostile.OddNodes("c") {
		t.Run("node: "+tc.Name, func(t *testing.T) {
			askWhatif(t, oddInput(nil, []*corev1.Node{tc.Obj}, nil), hostile.Pod("p", ""), hostile.Node("pool"))
		})
	}
	for _, tc := range hostile.OddPDBs() {
		t.Run("budget: "+tc.Name, func(t *testing.T) {
			askWhatif(t, oddInput(nil, nil, []*policyv1.PodDisruptionBudget{tc.Obj}), hostile.Pod("p", ""), hostile.Node("pool"))
		})
	}
	nils := []struct {
		name string
		ask  func(t *testing.T, snap *placement.Snapshot)
	}{
		{"nil snapshot", func(t *testing.T, _ *placement.Snapshot) {
			_, _ = whatif.Replicas(nil, hostile.Pod("p", ""), 1, whatif.Options{})
			_, _ = whatif.Drain(nil, []string{"a"}, whatif.Options{})
			_, _ = whatif.ScaleDown(nil, nil, whatif.ScaleDownOptions{})
			_, _ = whatif.Estimate(nil, nil, whatif.NodeTemplate{Node: hostile.Node("pool")}, whatif.EstimateOptions{})
			_, _ = whatif.Gang(nil, nil, nil, whatif.Options{})
		}},
		// Found by this table: Cordon dereferenced a nil snapshot.
		{"Cordon of a nil snapshot", func(t *testing.T, _ *placement.Snapshot) {
			_, err := whatif.Cordon(nil, "a")
			require.ErrorIs(t, err, whatif.ErrInvalidQuestion)
		}},
		// Found by this table: Replica dereferenced a nil template.
		{"Replica of a nil template", func(t *testing.T, _ *placement.Snapshot) { require.Nil(t, whatif.Replica(nil, 0)) }},
		{"nil pods and template", func(t *testing.T, snap *placement.Snapshot) {
			_, _ = whatif.Replicas(snap, nil, 2, whatif.Options{})
			_, _ = whatif.Estimate(snap, []*corev1.Pod{nil}, whatif.NodeTemplate{}, whatif.EstimateOptions{})
			_, _ = whatif.Reschedule(snap, []string{"a"}, []*corev1.Pod{nil}, whatif.Options{})
			_, _ = whatif.GangReplicas(snap, nil, nil, 2, whatif.Options{})
		}},
		{"nil pod group", func(t *testing.T, snap *placement.Snapshot) {
			_, _ = whatif.Gang(snap, nil, []*corev1.Pod{hostile.Pod("p", ""), nil}, whatif.Options{})
			_, _, _ = whatif.EstimateGang(snap, nil, nil, whatif.NodeTemplate{Node: hostile.Node("pool")}, whatif.EstimateOptions{})
		}},
		{"unknown, empty and repeated node names", func(t *testing.T, snap *placement.Snapshot) {
			_, _ = whatif.Drain(snap, []string{"", "zzz", "a", "a"}, whatif.Options{})
			_, _ = whatif.ScaleDown(snap, []string{"a", "a", ""}, whatif.ScaleDownOptions{})
			_, _ = whatif.Cordon(snap, "")
		}},
		{"absurd counts", func(t *testing.T, snap *placement.Snapshot) {
			_, _ = whatif.Replicas(snap, hostile.Pod("p", ""), -5, whatif.Options{})
			_, _ = whatif.Estimate(snap, []*corev1.Pod{hostile.Pod("p", "")}, whatif.NodeTemplate{Node: hostile.Node("pool")}, whatif.EstimateOptions{MaxNodes: -1})
		}},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			snap, _, err := placement.NewSnapshot(oddInput(nil, nil, nil))
			require.NoError(t, err)
			require.NotPanics(t, func() { tc.ask(t, snap) })
		})
	}
}
