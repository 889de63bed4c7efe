package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement/framework"
)

// TestPreparedErrors: an invalid pod is reported by Prepare and by each
// Compile of it with Compile's text, and a nil snapshot as Compile does.
func TestPreparedErrors(t *testing.T) {
	bad := &corev1.Pod{}
	bad.Name, bad.Namespace = "bad", "ns"
	bad.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Bogus", Values: []string{"a"}}},
		}}},
	}}
	snap, _, err := newTestSnapshot(cluster.Input{})
	require.NoError(t, err)
	_, want := Compile(snap, bad, Options{})
	require.Error(t, want)
	p := Prepare(bad, Options{})
	require.EqualError(t, p.Err(), want.Error())
	_, got := p.Compile(snap)
	require.EqualError(t, got, want.Error())

	_, want = Compile(nil, bad, Options{})
	_, got = Prepare(bad, Options{}).Compile(nil)
	require.EqualError(t, got, want.Error())
	_, want = Compile(snap, nil, Options{})
	_, got = Prepare(nil, Options{}).Compile(snap)
	require.EqualError(t, got, want.Error())
}

// TestPreparedGated: Prepared.Gated is the Gated status Compile's Decide
// gives; nil for a pod without gates, an invalid pod (whose error comes
// first) and a gate PreEnqueue does not run in the profile.
func TestPreparedGated(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{})
	require.NoError(t, err)
	gated := func(gates ...string) *corev1.Pod {
		p := &corev1.Pod{}
		p.Name, p.Namespace = "p", "ns"
		for _, g := range gates {
			p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, corev1.PodSchedulingGate{Name: g})
		}
		return p
	}
	invalid := gated("a")
	invalid.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")}}}}
	noPreEnqueue := Options{Plugins: &Plugins{PreEnqueue: []string{}}}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		opts Options
		want []string // the reasons; nil: not gated
	}{
		{"no gate", gated(), Options{}, nil},
		{"one gate", gated("a"), Options{}, []string{"waiting for scheduling gates: [a]"}},
		{"two gates", gated("a", "b"), Options{}, []string{"waiting for scheduling gates: [a b]"}},
		{"invalid pod", invalid, Options{}, nil},
		{"SchedulingGates not in the profile", gated("a"), noPreEnqueue, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Prepare(tc.pod, tc.opts)
			got := p.Gated()
			if tc.want == nil {
				require.Nil(t, got)
			} else {
				require.NotNil(t, got)
				require.Equal(t, tc.want, got.Reasons)
				require.Equal(t, framework.UnschedulableAndUnresolvable, got.Code)
			}
			if tc.pod == invalid {
				require.Error(t, p.Err())
				return
			}
			c, err := p.Compile(snap)
			require.NoError(t, err)
			require.Equal(t, c.Decide().Gated, got)
			if got != nil {
				got.Reasons[0] = "changed"
				require.Equal(t, tc.want, p.Gated().Reasons, "Gated returns a copy")
			}
		})
	}
}

// TestNilNodeIsAnError: the per-node questions answer a nil node (or a nil
// removed pod) with an Error status instead of a panic.
func TestNilNodeIsAnError(t *testing.T) {
	snap, _, err := newTestSnapshot(cluster.Input{})
	require.NoError(t, err)
	pod := &corev1.Pod{}
	pod.Name, pod.Namespace = "p", "ns"
	c, err := Compile(snap, pod, Options{})
	require.NoError(t, err)
	require.Equal(t, framework.Error, c.Filter(nil).Code)
	require.False(t, c.Fits(nil))
	for _, st := range c.FilterEach(nil) {
		require.Equal(t, framework.Error, st.Code)
	}
	require.Equal(t, framework.Error, c.NewTrial().Filter(nil, nil).Code)
	n := &cluster.NodeInfo{Name: "n", Node: &corev1.Node{}}
	require.Equal(t, framework.Error, c.NewTrial().filter(n, []*cluster.PodInfo{nil}).Code)
}
