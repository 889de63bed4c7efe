package whatif

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
)

func podGroup(name string, minCount int32) *schedulingv1alpha2.PodGroup {
	g := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	if minCount > 0 {
		g.Spec.SchedulingPolicy.Gang = &schedulingv1alpha2.GangSchedulingPolicy{MinCount: minCount}
	} else {
		g.Spec.SchedulingPolicy.Basic = &schedulingv1alpha2.BasicSchedulingPolicy{}
	}
	return g
}

func TestGang(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNodeT("a"), exampleNodeT("b")}})
	require.NoError(t, err)
	// One worker per node (required anti-affinity on the hostname).
	worker := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "worker", Namespace: "default", Labels: testbuild.Labels("app", "train")},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "1")}}},
			Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey: "kubernetes.io/hostname", LabelSelector: testbuild.Selector("app", "train")}}}}}}
	for _, tc := range []struct {
		name     string
		minCount int32
		n        int
		placed   bool
		outcomes []string
	}{
		{"two of two fit", 2, 2, true, []string{"Scheduled a", "Scheduled b"}},
		{"three need three nodes: none placed", 3, 3, false, []string{"Unschedulable " + GangWaitingForScheduled, "Unschedulable " + GangWaitingForScheduled,
			"Unschedulable 0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: not eligible due to preemptionPolicy=Never."}},
		{"minCount two of three: two placed", 2, 3, true, []string{"Scheduled a", "Scheduled b",
			"Unschedulable 0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: not eligible due to preemptionPolicy=Never."}},
		{"fewer pods than minCount wait", 4, 3, false, []string{"Gated " + GangWaitingForPods, "Gated " + GangWaitingForPods, "Gated " + GangWaitingForPods}},
		{"basic policy: each on its own", 0, 3, true, []string{"Scheduled a", "Scheduled b",
			"Unschedulable 0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: not eligible due to preemptionPolicy=Never."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := GangReplicas(snap, worker, podGroup("train", tc.minCount), tc.n, Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.placed, r.Placed)
			var got []string
			for _, p := range r.Pods {
				detail := p.Node
				if detail == "" {
					detail = p.Message
				}
				got = append(got, string(p.Outcome)+" "+detail)
			}
			assert.Equal(t, tc.outcomes, got)
			if !r.Placed && tc.minCount > 0 {
				assert.Same(t, snap, r.Final)
			}
		})
	}

	_, err = Gang(snap, podGroup("train", 1), []*corev1.Pod{worker}, Options{})
	assert.ErrorIs(t, err, ErrInvalidQuestion, "a pod outside the group")
	_, err = GangReplicas(snap, worker, podGroup("train", 1), 1, Options{Preemption: &preemption.Options{}})
	assert.ErrorIs(t, err, ErrInvalidQuestion, "preemption")
}

func TestGangAllOrNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := worldOf(placementtest.ClusterOf(kit).Draw(t, "cluster"))
		snap := w.snapshot(t)
		tmpl := placementtest.PodOf(kit, "member").Draw(t, "member")
		minCount := rapid.Int32Range(1, 5).Draw(t, "minCount")
		n := rapid.IntRange(0, 6).Draw(t, "n")
		group := podGroup("g", minCount)
		group.Namespace = tmpl.Namespace
		r, err := GangReplicas(snap, tmpl, group, n, Options{})
		require.NoError(t, err)
		scheduled := 0
		for _, p := range r.Pods {
			if p.Outcome == preemption.Scheduled {
				scheduled++
				_, ni, ok := r.Final.Pod(p.Pod)
				require.True(t, ok)
				require.Equal(t, p.Node, ni.Name())
			}
		}
		if r.Placed {
			require.GreaterOrEqual(t, scheduled, int(minCount))
			require.Equal(t, snap.NumPods()+scheduled, r.Final.NumPods())
		} else {
			require.Zero(t, scheduled, "a gang not placed has no pod placed")
			require.Same(t, snap, r.Final)
		}
		require.Len(t, r.Pods, n, fmt.Sprint(r.Pods))
	})
}

func TestEstimateGang(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNodeT("a")}})
	require.NoError(t, err)
	worker := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "worker", Namespace: "default", Labels: testbuild.Labels("app", "train")},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "1500m")}}}}}
	group := podGroup("train", 4)
	var pods []*corev1.Pod
	name := group.Name
	for i := range 4 {
		p := Replica(worker, i)
		p.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: &name}
		pods = append(pods, p)
	}
	// One 1.5-cpu worker per 2-cpu node: a holds one, three more nodes.
	k, r, err := EstimateGang(snap, group, pods, NodeTemplate{Node: exampleNodeT("pool")}, EstimateOptions{})
	require.NoError(t, err)
	require.Equal(t, 3, k)
	require.True(t, r.Placed)
	k, r, err = EstimateGang(snap, group, pods, NodeTemplate{Node: exampleNodeT("pool")}, EstimateOptions{MaxNodes: 2})
	require.NoError(t, err)
	require.Zero(t, k)
	require.Nil(t, r, "two nodes are not enough for the gang")
}

// TestReplicasWithPreemption: with Options.Preemption replicas preempt
// lower-priority pods as the schedule mode does; without it they stop at
// the full node.
func TestReplicasWithPreemption(t *testing.T) {
	low := int32(0)
	var bound []*corev1.Pod
	for i := range 2 {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("low-%d", i), Namespace: "default"},
			Spec: corev1.PodSpec{NodeName: "a", Priority: &low, Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "1")}}}}}
		bound = append(bound, p)
	}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNodeT("a")}, Pods: bound})
	require.NoError(t, err)
	high := int32(100)
	tmpl := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "urgent", Namespace: "default"},
		Spec: corev1.PodSpec{Priority: &high, Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "1")}}}}}

	r, err := Replicas(snap, tmpl, 3, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, r.Placed())
	assert.Contains(t, r.Message, "preemption: not eligible due to preemptionPolicy=Never.")

	r, err = Replicas(snap, tmpl, 3, Options{Preemption: &preemption.Options{}})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "a"}, r.Nodes, "each replica evicts one low-priority pod")
	assert.ElementsMatch(t, []string{"default/low-0", "default/low-1"}, r.Evicted)
	assert.Equal(t, preemption.Unschedulable, r.Outcome, "the third finds nothing lower to evict")
	assert.Equal(t, preemption.PreemptionNominated, r.Replicas[0].Outcome)
}
