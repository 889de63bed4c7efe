package placement

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// pluginsWith returns the default lists changed by f.
func pluginsWith(f func(p *Plugins)) *Plugins {
	p := DefaultPlugins()
	f(p)
	return p
}

func without(list []string, names ...string) []string {
	var out []string
	for _, n := range list {
		keep := true
		for _, x := range names {
			keep = keep && n != x
		}
		if keep {
			out = append(out, n)
		}
	}
	return out
}

// TestOptionsPlugins: each extension point's list changes the decisions as
// upstream's framework does (the conformance cases of
// testdata/conformance/profiles check the same against upstream).
func TestOptionsPlugins(t *testing.T) {
	tainted := mkNode("a-tainted", "1", "1Gi", withTaint("dedicated", "x", corev1.TaintEffectNoSchedule))
	small := mkNode("b-small", "1", "1Gi")
	snap := snapshotOf(t, []*corev1.Node{tainted, small})
	big := mkPod("big", requests("cpu", "2"))

	tests := []struct {
		name     string
		pod      *corev1.Pod
		plugins  *Plugins
		feasible []string
		status   map[string]string // node -> recorded status ("" = feasible)
		filters  int               // Filters listed per node
		gated    bool
		err      string
	}{
		{name: "default profile: the first failing filter in profile order", pod: big, plugins: DefaultPlugins(),
			feasible: []string{}, filters: 9,
			status: map[string]string{"a-tainted": "UnschedulableAndUnresolvable (TaintToleration): node(s) had untolerated taint(s)",
				"b-small": "UnschedulableAndUnresolvable (NodeResourcesFit): Insufficient cpu"}},
		{name: "filter order changes the recorded status", pod: big,
			plugins: pluginsWith(func(p *Plugins) {
				p.Filter = append([]string{sched.NodeResourcesFit}, without(p.Filter, sched.NodeResourcesFit)...)
			}),
			feasible: []string{}, filters: 9,
			status: map[string]string{"a-tainted": "UnschedulableAndUnresolvable (NodeResourcesFit): Insufficient cpu",
				"b-small": "UnschedulableAndUnresolvable (NodeResourcesFit): Insufficient cpu"}},
		{name: "a filter out of the profile accepts every node and is not listed", pod: mkPod("p", requests("cpu", "100m")),
			plugins:  pluginsWith(func(p *Plugins) { p.Filter = without(p.Filter, sched.TaintToleration) }),
			feasible: []string{"a-tainted", "b-small"}, filters: 8,
			status: map[string]string{"a-tainted": "", "b-small": ""}},
		{name: "without SchedulingGates a gated pod is evaluated", pod: mkPod("g", func(p *corev1.Pod) {
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "wait"}}
		}), plugins: pluginsWith(func(p *Plugins) { p.PreEnqueue = []string{sched.DefaultPreemption} }),
			feasible: []string{"b-small"}, filters: 9,
			status: map[string]string{"a-tainted": "UnschedulableAndUnresolvable (TaintToleration): node(s) had untolerated taint(s)", "b-small": ""}},
		{name: "with SchedulingGates the gated pod is not", pod: mkPod("g", func(p *corev1.Pod) {
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "wait"}}
		}), plugins: DefaultPlugins(), gated: true},
		{name: "NodeAffinity without PreFilter: no restriction, its Filter still rejects", pod: mkPod("named", nodeAffinity(requiredTerms(
			corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, "b-small")}}))),
			plugins:  pluginsWith(func(p *Plugins) { p.PreFilter = without(p.PreFilter, sched.NodeAffinity) }),
			feasible: []string{"b-small"}, filters: 9,
			status: map[string]string{"a-tainted": "UnschedulableAndUnresolvable (TaintToleration): node(s) had untolerated taint(s)", "b-small": ""}},
		{name: "NodePorts without PreFilter: an Error wherever it is reached", pod: mkPod("p"),
			plugins:  pluginsWith(func(p *Plugins) { p.PreFilter = without(p.PreFilter, sched.NodePorts) }),
			feasible: []string{}, filters: 9,
			status: map[string]string{"a-tainted": "UnschedulableAndUnresolvable (TaintToleration): node(s) had untolerated taint(s)",
				"b-small": `Error (NodePorts): running "NodePorts" filter plugin: reading "PreFilterNodePorts" from cycleState: not found`},
			err: `Error (NodePorts): running "NodePorts" filter plugin: reading "PreFilterNodePorts" from cycleState: not found`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Plugins: tc.plugins}
			r, err := Evaluate(snap, tc.pod, opts)
			require.NoError(t, err)
			if tc.gated {
				require.NotNil(t, r.Gated)
				return
			}
			require.Nil(t, r.Gated)
			assert.Equal(t, tc.feasible, r.FeasibleNodes)
			assert.Equal(t, tc.err, r.Error)
			c, err := Compile(snap, tc.pod, opts)
			require.NoError(t, err)
			for _, nr := range r.Nodes {
				assert.Len(t, nr.Filters, tc.filters, nr.Node)
				want := tc.status[nr.Node]
				ni, ok := snap.Node(nr.Node)
				require.True(t, ok)
				st := c.Filter(ni)
				if want == "" {
					assert.True(t, st.Code.Passes(), "%s: %s", nr.Node, st)
					continue
				}
				assert.Equal(t, want, st.String(), nr.Node)
				assert.Equal(t, st.Code, nr.Status.Code, nr.Node)
			}
			d := c.Schedule()
			assert.Equal(t, len(tc.feasible), d.Feasible)
		})
	}
}

func TestOptionsCheck(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{name: "default", opts: Options{}},
		{name: "default lists", opts: Options{Plugins: DefaultPlugins()}},
		{name: "empty lists", opts: Options{Plugins: &Plugins{}, ScoreWeights: map[string]int64{
			sched.TaintToleration: 0, sched.PodTopologySpread: 0, sched.InterPodAffinity: 0}}},
		{name: "unknown plugin", opts: Options{Plugins: pluginsWith(func(p *Plugins) { p.Filter = append(p.Filter, "VolumeZone") })},
			want: `Filter plugin "VolumeZone" is not modelled`},
		{name: "twice", opts: Options{Plugins: pluginsWith(func(p *Plugins) { p.PreScore = append(p.PreScore, sched.NodeAffinity) })},
			want: `PreScore plugin "NodeAffinity" listed twice`},
		{name: "scoring without PreScore", opts: Options{Plugins: pluginsWith(func(p *Plugins) { p.PreScore = nil })}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Check()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalidOptions))
			assert.Contains(t, err.Error(), tc.want)
			_, err = Compile(snapshotOf(t, []*corev1.Node{mkNode("n", "1", "1Gi")}), mkPod("p"), tc.opts)
			assert.ErrorIs(t, err, ErrInvalidOptions, "Compile refuses them too")
		})
	}
	assert.True(t, Options{}.Preempts())
	assert.False(t, Options{Plugins: &Plugins{}}.Preempts())
}

// TestScoringWithoutPreScore: TaintToleration, PodTopologySpread and
// InterPodAffinity scoring without their PreScore fail the scoring phase,
// the first in profile order reported; a lone feasible node is not scored.
func TestScoringWithoutPreScore(t *testing.T) {
	two := snapshotOf(t, []*corev1.Node{mkNode("a", "4", "8Gi"), mkNode("b", "4", "8Gi")})
	opts := Options{Plugins: pluginsWith(func(p *Plugins) { p.PreScore = without(p.PreScore, sched.PodTopologySpread, sched.TaintToleration) })}
	c, err := Compile(two, mkPod("p"), opts)
	require.NoError(t, err)
	d := c.Decide()
	var pe *ScorePluginError
	require.ErrorAs(t, d.Err, &pe)
	assert.Equal(t, sched.TaintToleration, pe.Plugin)
	assert.Equal(t, `plugin "TaintToleration" failed with: failed to read "PreScoreTaintToleration" from cycleState: not found`, d.Err.Error())
	assert.Empty(t, d.Node)
	r := c.Evaluate()
	assert.Equal(t, d.Err.Error(), r.Error)
	assert.Empty(t, r.BestNodes)
	for _, n := range r.Nodes {
		assert.Empty(t, n.Scores)
	}

	opts.ScoreWeights = map[string]int64{sched.TaintToleration: 0}
	c, err = Compile(two, mkPod("p"), opts)
	require.NoError(t, err)
	require.ErrorAs(t, c.Decide().Err, &pe)
	assert.Equal(t, sched.PodTopologySpread, pe.Plugin, "a plugin out of Score does not fail")

	one := snapshotOf(t, []*corev1.Node{mkNode("a", "4", "8Gi")})
	c, err = Compile(one, mkPod("p"), opts)
	require.NoError(t, err)
	d = c.Decide()
	assert.NoError(t, d.Err)
	assert.Equal(t, "a", d.Node, "a lone feasible node is chosen without scoring")
}
