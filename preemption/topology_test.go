package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

func antiAffinity(app string) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: sel("app", app), TopologyKey: "kubernetes.io/hostname"}}}}
	}
}

func spreadOne(app string) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.DoNotSchedule,
			LabelSelector: sel("app", app)}}
	}
}

// TestDryRunTopology: SelectVictimsOnNode with InterPodAffinity and
// PodTopologySpread state updated by RemovePod/AddPod (here recomputed).
func TestDryRunTopology(t *testing.T) {
	tainted := mkNode("n2", 4000)
	tainted.Spec.Taints = []corev1.Taint{{Key: "x", Effect: corev1.TaintEffectNoSchedule}}
	tests := []struct {
		name    string
		nodes   []*corev1.Node
		pods    []*corev1.Pod
		pod     *corev1.Pod
		node    string
		victims []string
		msg     string
	}{
		{
			name:  "an existing pod's anti-affinity is removed by evicting it",
			nodes: []*corev1.Node{mkNode("n1", 4000)},
			pods: []*corev1.Pod{
				mkPod("blocker", onNode("n1"), prio(1), labelled("app", "x"), antiAffinity("web"), started(0)),
				mkPod("bystander", onNode("n1"), prio(1), labelled("app", "y"), started(0)),
			},
			pod:  mkPod("web", prio(100), labelled("app", "web")),
			node: "n1", victims: []string{"default/blocker"},
		},
		{
			name:  "spread skew: matching pods are evicted until the skew fits, others stay",
			nodes: []*corev1.Node{mkNode("n1", 4000), tainted},
			pods: []*corev1.Pod{
				mkPod("web-0", onNode("n1"), prio(1), labelled("app", "web"), started(0)),
				mkPod("web-1", onNode("n1"), prio(1), labelled("app", "web"), started(1)),
				mkPod("other", onNode("n1"), prio(1), labelled("app", "y"), started(0)),
			},
			pod:  mkPod("web", prio(100), labelled("app", "web"), spreadOne("web")),
			node: "n1", victims: []string{"default/web-0", "default/web-1"},
		},
		{
			name:  "a higher-priority pod's anti-affinity cannot be preempted",
			nodes: []*corev1.Node{mkNode("n1", 4000)},
			pods: []*corev1.Pod{
				mkPod("blocker", onNode("n1"), prio(1000), labelled("app", "x"), antiAffinity("web"), started(0)),
				mkPod("low", onNode("n1"), prio(1), labelled("app", "y"), started(0)),
			},
			pod: mkPod("web", prio(100), labelled("app", "web")),
			msg: "preemption: 0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: tt.nodes, Pods: tt.pods})
			require.NoError(t, err)
			r := preemptIn(t, snap, tt.pod, nil)
			require.NotNil(t, r, "the pod must not fit anywhere")
			assert.Equal(t, tt.node, r.NominatedNode)
			var got []string
			for _, v := range r.Victims {
				got = append(got, v.Key)
			}
			assert.ElementsMatch(t, tt.victims, got)
			assert.Equal(t, tt.msg, r.Message())
		})
	}
}

// TestDryRunUnchangedFailure: a dry run whose removed pods cannot move the
// topology counts answers from the node as it is when the node fails at a
// topology filter (nodeTrial.unchangedFailure). These cases pin where that
// answer would differ from the dry run's: a node that first fails for room
// the removal frees, and a node whose nominated pod fails it first.
func TestDryRunUnchangedFailure(t *testing.T) {
	blocker := mkPod("blocker", onNode("n1"), prio(1000), cpu(200), labelled("app", "x"), antiAffinity("web"), started(0))
	web := mkPod("web", prio(100), cpu(1000), labelled("app", "web"))
	tests := []struct {
		name      string
		pods      []*corev1.Pod
		nominated []*corev1.Pod
		msg       string
	}{
		{
			name: "the node fails at InterPodAffinity as it is and without its lower-priority pods",
			pods: []*corev1.Pod{blocker, mkPod("low", onNode("n1"), prio(1), cpu(100), labelled("app", "y"), started(0))},
			msg:  "preemption: 0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.",
		},
		{
			name: "room first: the node fails for cpu as it is, at InterPodAffinity once the pods below are gone",
			pods: []*corev1.Pod{blocker, mkPod("low", onNode("n1"), prio(1), cpu(1500), labelled("app", "y"), started(0))},
			msg:  "preemption: 0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.",
		},
		{
			name:      "a nominated pod of higher priority takes the room the removal frees",
			pods:      []*corev1.Pod{blocker, mkPod("low", onNode("n1"), prio(1), cpu(100), labelled("app", "y"), started(0))},
			nominated: []*corev1.Pod{mkPod("nom", prio(200), cpu(1500), nominatedTo("n1"))},
			msg:       "preemption: 0/1 nodes are available: 1 Insufficient cpu.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{mkNode("n1", 2000)}, Pods: tt.pods})
			require.NoError(t, err)
			qr, err := ScheduleQueue(snap, []*corev1.Pod{web}, QueueOptions{Preemption: Options{NominatedPods: tt.nominated}})
			require.NoError(t, err)
			r := qr.Results[0]
			require.Equal(t, Unschedulable, r.Outcome)
			require.NotNil(t, r.Preemption)
			assert.Equal(t, tt.msg, r.Preemption.Message())
		})
	}
}
