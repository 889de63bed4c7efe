package whatif_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/preemption/whatif"
)

// whatifAnswers asks every what-if question of c's snapshot and returns
// the answers without their snapshots; with frozen, it scrambles them
// instead.
func whatifAnswers(t *rapid.T, snap *placement.Snapshot, c *placementtest.Cluster, tmpl *corev1.Node, group *schedulingv1alpha2.PodGroup, gang []*corev1.Pod, frozen *hostile.Frozen) []any {
	var out []any
	record := func(v any, final **placement.Snapshot) {
		if frozen != nil {
			if *final != nil {
				frozen.Scramble((*final).Nodes())
			}
			frozen.Scramble(v)
			return
		}
		*final = nil
		out = append(out, v)
	}
	opts := whatif.Options{Preemption: &preemption.Options{}}
	rr, err := whatif.Replicas(snap, c.Pending[0], 3, opts)
	require.NoError(t, err)
	record(rr, &rr.Final)
	dr, err := whatif.Drain(snap, []string{c.Nodes[0].Name}, opts)
	require.NoError(t, err)
	record(dr, &dr.Final)
	var names []string
	for _, n := range c.Nodes {
		names = append(names, n.Name)
	}
	sd, err := whatif.ScaleDown(snap, names, whatif.ScaleDownOptions{})
	require.NoError(t, err)
	record(sd, &sd.Final)
	for _, mode := range []whatif.EstimateMode{whatif.FirstFit, whatif.Scheduler} {
		er, err := whatif.Estimate(snap, c.Pending, whatif.NodeTemplate{Node: tmpl}, whatif.EstimateOptions{Mode: mode, MaxNodes: 4})
		require.NoError(t, err)
		record(er, &er.Final)
	}
	gr, err := whatif.Gang(snap, group, gang, whatif.Options{})
	require.NoError(t, err)
	record(gr, &gr.Final)
	return out
}

// Issue 21, inputs untouched.
func TestInputsUntouched(t *testing.T) {
	t.Run("no what-if question modifies its objects, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 3, MaxPods: 8, MaxPending: 3, Preemption: true}).Draw(t, "cluster")
			tmpl := c.Nodes[0].DeepCopy()
			tmpl.Name = "pool"
			group := &schedulingv1alpha2.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "gang", Namespace: c.Pending[0].Namespace}}
			group.Spec.SchedulingPolicy.Gang = &schedulingv1alpha2.GangSchedulingPolicy{MinCount: 2}
			var gang []*corev1.Pod
			for i := range 2 {
				p := whatif.Replica(c.Pending[0], i)
				p.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: &group.Name}
				gang = append(gang, p)
			}
			frozen := hostile.FreezeCluster(c)
			frozen.Add(tmpl, group)
			frozen.Add(hostile.Objects(gang)...)
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)

			want := whatifAnswers(t, snap, c, tmpl, group, gang, nil)
			whatifAnswers(t, snap, c, tmpl, group, gang, frozen)
			again := whatifAnswers(t, snap, c, tmpl, group, gang, nil)
			require.Equal(t, want, again, "a scrambled answer changed a later answer")
			require.Empty(t, frozen.Changed())
		})
	})
}

// Issue 21: found by the property above. A drained or scaled-down node's
// cordoned copy in the answer's snapshot was a shallow copy of the caller's
// node: changing its labels through Final.Nodes() changed the caller's node.
func TestCordonedNodeSharesNothingWithTheInput(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"zone": "z"}}}
	want := node.DeepCopy()
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{node}})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		ask  func() (*placement.Snapshot, error)
	}{
		{"Cordon", func() (*placement.Snapshot, error) { return whatif.Cordon(snap, "a") }},
		{"Drain", func() (*placement.Snapshot, error) {
			r, err := whatif.Drain(snap, []string{"a"}, whatif.Options{})
			if err != nil {
				return nil, err
			}
			return r.Final, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			final, err := tc.ask()
			require.NoError(t, err)
			n, ok := final.Node("a")
			require.True(t, ok)
			require.True(t, n.Unschedulable())
			require.NotSame(t, node, n.Node())
			n.Node().Labels["zone"] = "changed"
			n.Node().Status.Allocatable = corev1.ResourceList{}
			require.Equal(t, want, node)
		})
	}
}
