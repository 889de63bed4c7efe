package placement_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// Issue 21, inputs untouched: every entry point that takes API objects
// leaves them semantically equal to a deep copy taken before the call, and
// scrambling every slice and map of its answer changes neither the inputs
// nor a later answer.
func TestInputsUntouched(t *testing.T) {
	t.Run("no entry point of placement modifies its objects, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 4, MaxPods: 8, MaxPending: 2}).Draw(t, "cluster")
			frozen := hostile.FreezeCluster(c)
			opts := placement.Options{}
			snap, warnings, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)
			frozen.Scramble(warnings)

			for _, pod := range c.Pending {
				want, err := placement.Evaluate(snap, pod, opts)
				require.NoError(t, err)
				res, err := placement.Evaluate(snap, pod, opts)
				require.NoError(t, err)
				frozen.Scramble(res)

				compiled, err := placement.Compile(snap, pod, opts)
				require.NoError(t, err)
				frozen.Scramble(compiled.Evaluate())
				frozen.Scramble(compiled.Schedule())
				for _, n := range snap.Nodes() {
					compiled.Fits(n)
					frozen.Scramble(compiled.FilterEach(n))
				}
				prepared, err := placement.Prepare(pod, opts).Compile(snap)
				require.NoError(t, err)
				frozen.Scramble(prepared.Evaluate())

				st, err := placement.FilterNode(snap, pod, c.Nodes[0].Name, opts)
				require.NoError(t, err)
				frozen.Scramble(&st)
				bound := pod.DeepCopy()
				bound.Spec.NodeName = c.Nodes[0].Name
				frozen.Add(bound)
				adm, err := placement.AdmitToNode(snap, bound)
				require.NoError(t, err)
				frozen.Scramble(&adm)
				if s := placement.StoredPod(pod); s != pod {
					frozen.Scramble(s)
				}

				view, err := snap.WithPod(bound)
				require.NoError(t, err)
				frozen.Scramble(view.Nodes())
				again, err := placement.Evaluate(snap, pod, opts)
				require.NoError(t, err)
				require.Equal(t, want, again, "a scrambled answer or view changed a later answer")
			}

			var keys []string
			for _, p := range c.Pods {
				keys = append(keys, p.Namespace+"/"+p.Name)
			}
			without, err := snap.WithoutPods(keys...)
			require.NoError(t, err)
			frozen.Scramble(without.Nodes())
			cordoned := c.Nodes[0].DeepCopy()
			cordoned.Spec.Unschedulable = true
			extra := c.Nodes[0].DeepCopy()
			extra.Name, extra.Labels[corev1.LabelHostname] = "extra", "extra"
			frozen.Add(cordoned, extra)
			v1, err := snap.WithNode(cordoned)
			require.NoError(t, err)
			v2, err := snap.WithNodes(extra)
			require.NoError(t, err)
			v3, err := snap.WithoutNodes(c.Nodes[0].Name)
			require.NoError(t, err)
			for _, v := range []*placement.Snapshot{v1, v2, v3} {
				for _, pod := range c.Pending {
					res, err := placement.Evaluate(v, pod, opts)
					require.NoError(t, err)
					frozen.Scramble(res)
				}
				frozen.Scramble(v.Nodes())
			}
			for _, n := range c.Nodes {
				if s := placement.StoredNode(n); s != n {
					frozen.Scramble(s)
				}
			}
			require.Empty(t, frozen.Changed())
		})
	})
}

// Issue 21: a Result's reason texts are the caller's. Found by the property
// above: Result.Nodes[i].Status.Reasons was the package's shared constant,
// so changing one reason changed every later answer in the process.
func TestResultReasonsAreTheCallersToChange(t *testing.T) {
	taint := corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "2", taint)}})
	require.NoError(t, err)
	pod := examplePod("web", "", "1")
	want, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)
	got, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, got.Nodes[0].Status.Reasons)
	got.Nodes[0].Status.Reasons[0] = "changed"
	for _, f := range got.Nodes[0].Filters {
		for i := range f.Reasons {
			f.Reasons[i] = "changed"
		}
	}
	again, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)
	require.Equal(t, want, again)
}
