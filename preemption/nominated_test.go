package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

func nominatedTo(node string) podOpt {
	return func(p *corev1.Pod) { p.Status.NominatedNodeName = node }
}

// TestNominatedPods mirrors RunFilterPluginsWithNominatedPods /
// addGENominatedPods: pods nominated to a node with priority at least the
// incoming pod's count on that node in a first filter pass.
func TestNominatedPods(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n1", 2000), mkNode("n2", 2000)}
	bound := []*corev1.Pod{mkPod("b", onNode("n2"), cpu(1500), started(0))}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: bound})
	require.NoError(t, err)
	nom := mkPod("nom", prio(100), cpu(1500), nominatedTo("n1"))

	tests := []struct {
		name      string
		pod       *corev1.Pod
		nominated []*corev1.Pod
		outcome   Outcome
		node      string
		message   string
		evicted   []string
	}{
		{name: "without nominations the pod takes n1", pod: mkPod("p", prio(50), cpu(1000)),
			outcome: Scheduled, node: "n1", evicted: []string{}},
		{name: "a higher-priority nomination holds n1; preemption frees n2",
			pod: mkPod("p", prio(50), cpu(1000)), nominated: []*corev1.Pod{nom},
			outcome: PreemptionNominated, node: "n2", message: "0/2 nodes are available: 2 Insufficient cpu.",
			evicted: []string{"default/b"}},
		// addNominatedPods counts nominations with priority >= the pod's.
		{name: "an equal-priority nomination also holds n1",
			pod: mkPod("p", prio(100), cpu(1000)), nominated: []*corev1.Pod{nom},
			outcome: PreemptionNominated, node: "n2", message: "0/2 nodes are available: 2 Insufficient cpu.",
			evicted: []string{"default/b"}},
		{name: "a lower-priority nomination is ignored",
			pod: mkPod("p", prio(200), cpu(1000)), nominated: []*corev1.Pod{nom},
			outcome: Scheduled, node: "n1", evicted: []string{}},
		{name: "the pod's own nomination is ignored",
			pod: mkPod("nom", prio(100), cpu(1500)), nominated: []*corev1.Pod{nom},
			outcome: Scheduled, node: "n1", evicted: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qr, err := ScheduleQueue(snap, []*corev1.Pod{tt.pod}, QueueOptions{Preemption: Options{NominatedPods: tt.nominated}})
			require.NoError(t, err)
			r := qr.Results[0]
			assert.Equal(t, tt.outcome, r.Outcome)
			assert.Equal(t, tt.node, r.Node)
			assert.Equal(t, tt.message, r.Message)
			assert.Equal(t, tt.evicted, qr.Evicted)
		})
	}

	t.Run("the dry run keeps room for a nominated pod", func(t *testing.T) {
		// n1 holds two low pods; a nominated pod of equal priority also wants n1.
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: []*corev1.Node{mkNode("n1", 3000)}, Pods: []*corev1.Pod{
			mkPod("l1", onNode("n1"), prio(1), cpu(1000), started(0)),
			mkPod("l2", onNode("n1"), prio(1), cpu(1000), started(1)),
		}})
		require.NoError(t, err)
		pod := mkPod("p", prio(100), cpu(1000))
		qr, err := ScheduleQueue(snap, []*corev1.Pod{pod}, QueueOptions{})
		require.NoError(t, err)
		assert.Equal(t, Scheduled, qr.Results[0].Outcome, "fits without the nomination")
		other := mkPod("other", prio(100), cpu(1000), nominatedTo("n1"))
		qr, err = ScheduleQueue(snap, []*corev1.Pod{pod}, QueueOptions{Preemption: Options{NominatedPods: []*corev1.Pod{other}}})
		require.NoError(t, err)
		require.Equal(t, PreemptionNominated, qr.Results[0].Outcome)
		assert.Equal(t, []string{"default/l2"}, qr.Evicted, "one victim leaves room for both; the later-started one goes")
	})
}
