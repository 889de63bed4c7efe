package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
)

const (
	ok   = "Success"
	no   = "Unschedulable"
	nope = "UnschedulableAndUnresolvable"
)

var fooSel = selector("foo", "")

func fourNodes() []*corev1.Node {
	return []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"), zoned("node-x", "zone2"), zoned("node-y", "zone2")}
}

// TestSpreadFilter mirrors podtopologyspread's TestSingleConstraint and
// TestMultipleConstraints (filtering_test.go, v1.36): PreFilter's counts and
// Filter's verdict per node.
func TestSpreadFilter(t *testing.T) {
	zone, host := corev1.LabelTopologyZone, corev1.LabelHostname
	hard := corev1.DoNotSchedule
	tests := []struct {
		name  string
		nodes []*corev1.Node
		pods  []*corev1.Pod
		pod   *corev1.Pod
		want  map[string]string
	}{
		{
			name:  "no existing pods: every node fits",
			nodes: fourNodes(),
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel)),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "pods of other namespaces do not count",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", ""), inNamespace("ns1")),
				mkPod("a2", "node-a", lbl("foo", ""), inNamespace("ns2")),
				mkPod("x1", "node-x", lbl("foo", "")),
				mkPod("y1", "node-y", lbl("foo", "")),
			},
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel)),
			want: map[string]string{"node-a": ok, "node-b": ok, "node-x": no, "node-y": no},
		},
		{
			name:  "terminating pods do not count",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", ""), terminating()),
				mkPod("x1", "node-x", lbl("foo", "")),
			},
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(0+1, zone, hard, fooSel)),
			want: map[string]string{"node-a": ok, "node-b": ok, "node-x": no, "node-y": no},
		},
		{
			name:  "a nil selector matches no pod, not even the incoming one",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("x1", "node-x", lbl("foo", "")), mkPod("y1", "node-y", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, nil)),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "an empty selector counts no existing pod but matches the incoming one",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("x1", "node-x", lbl("foo", "")), mkPod("x2", "node-x", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, &metav1.LabelSelector{})),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name: "a node without the key is unresolvable and leaves its pods out",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), mkNode("node-b", "zon", "zone1"),
				zoned("node-x", "zone2"), zoned("node-y", "zone2")},
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", "")), mkPod("b1", "node-b", lbl("foo", "")),
				mkPod("x1", "node-x", lbl("foo", "")), mkPod("y1", "node-y", lbl("foo", "")),
			},
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel)),
			want: map[string]string{"node-a": ok, "node-b": nope, "node-x": no, "node-y": no},
		},
		{
			name:  "an incoming pod that does not match itself adds nothing",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("x1", "node-x", lbl("foo", "")), mkPod("x2", "node-x", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("bar", ""), spreadOn(1, zone, hard, fooSel)),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "fewer eligible domains than minDomains: the global minimum is 0",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("x1", "node-x", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel, minDomains(3))),
			want:  map[string]string{"node-a": no, "node-b": no, "node-x": no, "node-y": no},
		},
		{
			name:  "minDomains reached: the real minimum",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("x1", "node-x", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel, minDomains(2))),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name: "nodeAffinityPolicy Honor (default) leaves nodes the pod cannot use out of the domains",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"),
				mkNode("node-x", corev1.LabelHostname, "node-x", zone, "zone2", "disk", "ssd")},
			pods: []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("b1", "node-b", lbl("foo", ""))},
			// Only zone2 is eligible (count 0, the minimum); zone1's pods are not
			// counted at all, so its nodes pass here (NodeAffinity rejects them).
			pod:  mkPod("p", "", lbl("foo", ""), nodeSelector("disk", "ssd"), spreadOn(1, zone, hard, fooSel)),
			want: map[string]string{"node-a": ok, "node-b": ok, "node-x": ok},
		},
		{
			name: "nodeAffinityPolicy Ignore counts every node",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"),
				mkNode("node-x", corev1.LabelHostname, "node-x", zone, "zone2", "disk", "ssd")},
			pods: []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("b1", "node-b", lbl("foo", ""))},
			pod: mkPod("p", "", lbl("foo", ""), nodeSelector("disk", "ssd"),
				spreadOn(1, zone, hard, fooSel, policies(corev1.NodeInclusionPolicyIgnore, ""))),
			want: map[string]string{"node-a": no, "node-b": no, "node-x": ok},
		},
		{
			name:  "nodeTaintsPolicy Ignore (default) counts tainted nodes",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), tainted(zoned("node-x", "zone2"), "dedicated")},
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel)),
			want:  map[string]string{"node-a": no, "node-x": ok},
		},
		{
			name:  "nodeTaintsPolicy Honor leaves untolerated tainted nodes out",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), tainted(zoned("node-x", "zone2"), "dedicated")},
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel, policies("", corev1.NodeInclusionPolicyHonor))),
			want:  map[string]string{"node-a": ok, "node-x": ok},
		},
		{
			name:  "nodeTaintsPolicy Honor keeps tolerated tainted nodes",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), tainted(zoned("node-x", "zone2"), "dedicated")},
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", ""))},
			pod: mkPod("p", "", lbl("foo", ""), tolerate("dedicated"),
				spreadOn(1, zone, hard, fooSel, policies("", corev1.NodeInclusionPolicyHonor))),
			want: map[string]string{"node-a": no, "node-x": ok},
		},
		{
			name:  "two constraints: zone passes everywhere, hostname fails on the busy node",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-a", lbl("foo", "")),
				mkPod("x1", "node-x", lbl("foo", "")), mkPod("y1", "node-y", lbl("foo", "")),
			},
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(2, zone, hard, fooSel), spreadOn(1, host, hard, fooSel)),
			want: map[string]string{"node-a": no, "node-b": ok, "node-x": no, "node-y": no},
		},
		{
			name:  "the first failing constraint decides the code",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), mkNode("node-b", corev1.LabelHostname, "node-b")},
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-a", lbl("foo", ""))},
			// node-b lacks zone: unresolvable even though hostname would also fail.
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, hard, fooSel), spreadOn(1, host, hard, fooSel)),
			want: map[string]string{"node-a": ok, "node-b": nope},
		},
		{
			name:  "matchLabelKeys narrows the selector to the pod's own value",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", "", "rev", "1")), mkPod("a2", "node-a", lbl("foo", "", "rev", "1")),
				mkPod("x1", "node-x", lbl("foo", "", "rev", "2")),
			},
			pod: mkPod("p", "", lbl("foo", "", "rev", "2"), spreadOn(1, zone, hard, fooSel, func(c *corev1.TopologySpreadConstraint) {
				c.MatchLabelKeys = []string{"rev"}
			})),
			want: map[string]string{"node-a": ok, "node-b": ok, "node-x": no, "node-y": no},
		},
		{
			name:  "ScheduleAnyway constraints are not filtered",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-a", lbl("foo", ""))},
			pod:   mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, corev1.ScheduleAnyway, fooSel)),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshotOf(t, cluster.Input{Nodes: tt.nodes, Pods: tt.pods})
			s, err := NewSpread(podInfo(t, tt.pod), snap, SpreadOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, codes(snap, s.Filter))
		})
	}
}

// TestSpreadFilterReasons checks upstream's reason texts and plugin name
// (podtopologyspread.Filter).
func TestSpreadFilterReasons(t *testing.T) {
	nodes := []*corev1.Node{zoned("node-a", "zone1"), zoned("node-x", "zone2"), mkNode("node-c")}
	pods := []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", ""))}
	snap := snapshotOf(t, cluster.Input{Nodes: nodes, Pods: pods})
	s, err := NewSpread(podInfo(t, mkPod("p", "", lbl("foo", ""), spreadOn(1, corev1.LabelTopologyZone, corev1.DoNotSchedule, fooSel))), snap, SpreadOptions{})
	require.NoError(t, err)
	require.False(t, s.FilterSkipped())
	byName := map[string]*cluster.NodeInfo{}
	for _, n := range cluster.NodesOf(snap) {
		byName[n.Name] = n
	}
	st := s.Filter(byName["node-a"])
	assert.Equal(t, "Unschedulable (PodTopologySpread): node(s) didn't match pod topology spread constraints", st.String())
	st = s.Filter(byName["node-c"])
	assert.Equal(t, "UnschedulableAndUnresolvable (PodTopologySpread): node(s) didn't match pod topology spread constraints (missing required label)", st.String())
	assert.True(t, s.Filter(byName["node-x"]).OK())
}

// TestSpreadSkips mirrors PreFilter's and PreScore's Skip conditions
// (TestPreScoreSkip in scoring_test.go).
func TestSpreadSkips(t *testing.T) {
	nodes := fourNodes()
	tests := []struct {
		name                      string
		in                        cluster.Input
		pod                       *corev1.Pod
		wantFilterSkip, wantScore bool
	}{
		{name: "no constraints, nothing selects the pod", pod: mkPod("p", "", lbl("foo", "")), wantFilterSkip: true, wantScore: true},
		{name: "only DoNotSchedule constraints", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", corev1.DoNotSchedule, fooSel)), wantScore: true},
		{name: "only ScheduleAnyway constraints", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", corev1.ScheduleAnyway, fooSel)), wantFilterSkip: true},
		{
			name:           "system defaults apply when a service selects the pod",
			in:             cluster.Input{Services: []*corev1.Service{service("default", "svc", "foo", "")}},
			pod:            mkPod("p", "", lbl("foo", "")),
			wantFilterSkip: true,
		},
		{
			name:           "a service of another namespace does not select the pod",
			in:             cluster.Input{Services: []*corev1.Service{service("other", "svc", "foo", "")}},
			pod:            mkPod("p", "", lbl("foo", "")),
			wantFilterSkip: true, wantScore: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.Nodes = nodes
			snap := snapshotOf(t, in)
			s, err := NewSpread(podInfo(t, tt.pod), snap, SpreadOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.wantFilterSkip, s.FilterSkipped())
			_, _, skipped := s.Score(cluster.NodesOf(snap))
			assert.Equal(t, tt.wantScore, skipped)
		})
	}
}

// TestSpreadRefusesInvalidConstraints: what the API server's
// ValidateTopologySpreadConstraints refuses is an error naming the field,
// every problem at once, for the pod's own constraints and for
// SpreadOptions.DefaultConstraints alike; a valid neighbour compiles.
func TestSpreadRefusesInvalidConstraints(t *testing.T) {
	snap := snapshotOf(t, cluster.Input{Nodes: fourNodes()})
	tests := []struct {
		name     string
		pod      *corev1.Pod
		defaults []corev1.TopologySpreadConstraint
		want     []string // substrings of the error; none: no error
	}{
		{name: "valid", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", corev1.DoNotSchedule, fooSel, minDomains(2)))},
		{name: "maxSkew 0", pod: mkPod("p", "", lbl("foo", ""), spreadOn(0, "zone", corev1.DoNotSchedule, fooSel)),
			want: []string{"spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"}},
		{name: "negative maxSkew of a ScheduleAnyway constraint", pod: mkPod("p", "", lbl("foo", ""), spreadOn(-1, "zone", corev1.ScheduleAnyway, fooSel)),
			want: []string{"spec.topologySpreadConstraints[0].maxSkew: Invalid value: -1"}},
		{name: "minDomains 0", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", corev1.DoNotSchedule, fooSel, minDomains(0))),
			want: []string{"spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero"}},
		{name: "no topologyKey", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "", corev1.DoNotSchedule, fooSel)),
			want: []string{"spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty"}},
		{name: "unknown action", pod: mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", "Sometimes", fooSel)),
			want: []string{`spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes"`}},
		{name: "every problem of every constraint at once",
			pod:  mkPod("p", "", lbl("foo", ""), spreadOn(1, "zone", corev1.DoNotSchedule, fooSel), spreadOn(0, "", corev1.ScheduleAnyway, fooSel)),
			want: []string{"spec.topologySpreadConstraints[1].maxSkew", "spec.topologySpreadConstraints[1].topologyKey"}},
		{name: "a repeated {topologyKey, whenUnsatisfiable}", pod: mkPod("p", "", lbl("foo", ""),
			spreadOn(1, "zone", corev1.DoNotSchedule, fooSel), spreadOn(2, "zone", corev1.ScheduleAnyway, fooSel), spreadOn(3, "zone", corev1.DoNotSchedule, nil)),
			want: []string{`spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`}},
		{name: "repeated default constraints", pod: mkPod("p", "", lbl("foo", "")),
			defaults: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway}, {MaxSkew: 2, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway}},
			want:     []string{`defaultConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"`}},
		{name: "invalid default constraints", pod: mkPod("p", "", lbl("foo", "")),
			defaults: []corev1.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway}},
			want:     []string{"default spread constraints", "defaultConstraints[0].maxSkew"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSpread(podInfo(t, tt.pod), snap, SpreadOptions{DefaultConstraints: tt.defaults})
			if len(tt.want) == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.ErrorIs(t, err, ErrInvalidConstraint)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.NotEmpty(t, ve.Errors)
		})
	}
}

func service(ns, name string, kv ...string) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: corev1.ServiceSpec{Selector: testbuild.Labels(kv...)}}
}

// TestSpreadScore mirrors TestPodTopologySpreadScore (scoring_test.go):
// raw scores are sum(count * log(domains + 2) + maxSkew - 1), rounded, and
// normalized as 100 * (max + min - score) / max.
func TestSpreadScore(t *testing.T) {
	zone, host := corev1.LabelTopologyZone, corev1.LabelHostname
	soft := corev1.ScheduleAnyway
	tests := []struct {
		name     string
		nodes    []*corev1.Node
		pods     []*corev1.Pod
		pod      *corev1.Pod
		feasible []string // nil: every node
		wantRaw  []int64
		wantNorm []int64
	}{
		{
			name:     "one zone constraint: log(2+2) per matching pod",
			nodes:    []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"), zoned("node-x", "zone2")},
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-b", lbl("foo", "")), mkPod("x1", "node-x", lbl("foo", ""))},
			pod:      mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, soft, fooSel)),
			wantRaw:  []int64{3, 3, 1},     // 2*1.386=2.77, 1.386
			wantNorm: []int64{33, 33, 100}, // 100*(3+1-3)/3, 100*(3+1-1)/3
		},
		{
			name:     "hostname counts per node with log(feasible+2), maxSkew adds maxSkew-1",
			nodes:    []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"), zoned("node-x", "zone2")},
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-a", lbl("foo", ""))},
			pod:      mkPod("p", "", lbl("foo", ""), spreadOn(2, host, soft, fooSel)),
			wantRaw:  []int64{4, 1, 1}, // 2*log(5)=3.22+1, 0+1
			wantNorm: []int64{25, 100, 100},
		},
		{
			name:     "a feasible node without the key is ignored: score 0",
			nodes:    []*corev1.Node{zoned("node-a", "zone1"), mkNode("node-b"), zoned("node-x", "zone2")},
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", ""))},
			pod:      mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, soft, fooSel)),
			wantRaw:  []int64{1, 0, 0}, // log(4)=1.39
			wantNorm: []int64{0, 0, 100},
		},
		{
			name:     "only feasible nodes define the domains",
			nodes:    []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone2"), zoned("node-x", "zone3")},
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("foo", "")), mkPod("b1", "node-b", lbl("foo", "")), mkPod("b2", "node-b", lbl("foo", ""))},
			pod:      mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, soft, fooSel)),
			feasible: []string{"node-a", "node-b"},
			wantRaw:  []int64{1, 3}, // log(4)=1.39, 2.77
			wantNorm: []int64{100, 33},
		},
		{
			name:     "all counts zero: every node 100",
			nodes:    []*corev1.Node{zoned("node-a", "zone1"), zoned("node-x", "zone2")},
			pod:      mkPod("p", "", lbl("foo", ""), spreadOn(1, zone, soft, fooSel)),
			wantRaw:  []int64{0, 0},
			wantNorm: []int64{100, 100},
		},
		{
			name:  "system defaults: hostname maxSkew 3 and zone maxSkew 5 with the service's selector",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), zoned("node-b", "zone1"), mkNode("node-c", host, "node-c")},
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("foo", "")), mkPod("a2", "node-a", lbl("foo", "")),
				mkPod("c1", "node-c", lbl("foo", "")),
			},
			pod: mkPod("p", "", lbl("foo", "")),
			// hostname: log(3+2)=1.609, maxSkew-1 = 2; zone values among feasible:
			// zone1 and "" (node-c lacks it): log(4)=1.386, maxSkew-1 = 4.
			// a: 2*1.609+2 + 2*1.386+4 = 11.99 -> 12; b: 2 + 2.77+4 = 8.77 -> 9;
			// c: 1.609+2 (no zone label: no zone term) = 3.61 -> 4.
			wantRaw:  []int64{12, 9, 4},
			wantNorm: []int64{33, 58, 100},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := cluster.Input{Nodes: tt.nodes, Pods: tt.pods, Services: []*corev1.Service{service("default", "svc", "foo", "")}}
			snap := snapshotOf(t, in)
			s, err := NewSpread(podInfo(t, tt.pod), snap, SpreadOptions{})
			require.NoError(t, err)
			feasible := cluster.NodesOf(snap)
			if tt.feasible != nil {
				feasible = nil
				for _, name := range tt.feasible {
					n, found := cluster.NodeOf(snap, name)
					require.True(t, found)
					feasible = append(feasible, n)
				}
			}
			raw, norm, skipped := s.Score(feasible)
			require.False(t, skipped)
			assert.Equal(t, tt.wantRaw, raw, "raw")
			assert.Equal(t, tt.wantNorm, norm, "normalized")
		})
	}
}
