package placement

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// filterOn compiles pod against the nodes (and bound pods) and returns the
// named plugin's own verdict on node "n1" as "Code: reason, reason".
func filterOn(t *testing.T, plugin string, nodes []*corev1.Node, bound []*corev1.Pod, pod *corev1.Pod, opts Options) string {
	t.Helper()
	snap := snapshotOf(t, nodes, bound...)
	c, err := Compile(snap, pod, opts)
	require.NoError(t, err)
	n, ok := snap.Node("n1")
	require.True(t, ok)
	for _, st := range c.FilterEach(n) {
		if st.Plugin == plugin {
			st.Plugin = ""
			return st.String()
		}
	}
	t.Fatalf("no plugin %s", plugin)
	return ""
}

func n1(opts ...nodeOpt) []*corev1.Node { return []*corev1.Node{mkNode("n1", "4", "8Gi", opts...)} }

// TestNodeUnschedulableFilter mirrors nodeunschedulable.Filter.
func TestNodeUnschedulableFilter(t *testing.T) {
	tests := []struct {
		name  string
		nodes []*corev1.Node
		pod   *corev1.Pod
		want  string
	}{
		{"schedulable node", n1(), mkPod("p"), "Success"},
		{"unschedulable node", n1(unschedulable()), mkPod("p"), "UnschedulableAndUnresolvable: node(s) were unschedulable"},
		{"tolerates the unschedulable taint", n1(unschedulable()),
			mkPod("p", tolerate(corev1.TaintNodeUnschedulable, "", corev1.TolerationOpExists, corev1.TaintEffectNoSchedule)), "Success"},
		{"toleration of another effect does not count", n1(unschedulable()),
			mkPod("p", tolerate(corev1.TaintNodeUnschedulable, "", corev1.TolerationOpExists, corev1.TaintEffectNoExecute)),
			"UnschedulableAndUnresolvable: node(s) were unschedulable"},
		{"tolerate everything", n1(unschedulable()), mkPod("p", tolerate("", "", corev1.TolerationOpExists, "")), "Success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.NodeUnschedulable, tt.nodes, nil, tt.pod, Options{}))
		})
	}
}

// TestNodeNameFilter mirrors nodename.Fits.
func TestNodeNameFilter(t *testing.T) {
	assert.Equal(t, "Success", filterOn(t, sched.NodeName, n1(), nil, mkPod("p"), Options{}))
	assert.Equal(t, "Success", filterOn(t, sched.NodeName, n1(), nil, mkPod("p", onNode("n1")), Options{}))
	assert.Equal(t, "UnschedulableAndUnresolvable: node(s) didn't match the requested node name",
		filterOn(t, sched.NodeName, n1(), nil, mkPod("p", onNode("n2")), Options{}))
}

// TestTaintTolerationFilter mirrors tainttoleration.Filter and
// Toleration.ToleratesTaint (comparison operators gate off).
func TestTaintTolerationFilter(t *testing.T) {
	const untolerated = "UnschedulableAndUnresolvable: node(s) had untolerated taint(s)"
	tests := []struct {
		name string
		node []*corev1.Node
		pod  *corev1.Pod
		want string
	}{
		{"no taints", n1(), mkPod("p"), "Success"},
		{"NoSchedule untolerated", n1(withTaint("k", "v", corev1.TaintEffectNoSchedule)), mkPod("p"), untolerated},
		{"NoExecute untolerated", n1(withTaint("k", "v", corev1.TaintEffectNoExecute)), mkPod("p"), untolerated},
		{"PreferNoSchedule ignored", n1(withTaint("k", "v", corev1.TaintEffectPreferNoSchedule)), mkPod("p"), "Success"},
		{"Equal with value", n1(withTaint("k", "v", corev1.TaintEffectNoSchedule)),
			mkPod("p", tolerate("k", "v", corev1.TolerationOpEqual, corev1.TaintEffectNoSchedule)), "Success"},
		{"Equal with another value", n1(withTaint("k", "v", corev1.TaintEffectNoSchedule)),
			mkPod("p", tolerate("k", "w", corev1.TolerationOpEqual, corev1.TaintEffectNoSchedule)), untolerated},
		{"empty operator means Equal", n1(withTaint("k", "v", corev1.TaintEffectNoSchedule)),
			mkPod("p", tolerate("k", "v", "", "")), "Success"},
		{"Exists with empty effect", n1(withTaint("k", "v", corev1.TaintEffectNoExecute)),
			mkPod("p", tolerate("k", "", corev1.TolerationOpExists, "")), "Success"},
		{"Gt never matches with the gate off", n1(withTaint("k", "5", corev1.TaintEffectNoSchedule)),
			mkPod("p", tolerate("k", "1", corev1.TolerationOpGt, corev1.TaintEffectNoSchedule)), untolerated},
		{"one of two taints untolerated", n1(withTaint("a", "", corev1.TaintEffectNoSchedule), withTaint("b", "", corev1.TaintEffectNoSchedule)),
			mkPod("p", tolerate("a", "", corev1.TolerationOpExists, "")), untolerated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.TaintToleration, tt.node, nil, tt.pod, Options{}))
		})
	}
}

// TestNodeAffinityFilter mirrors nodeaffinity Filter with
// RequiredNodeAffinity.Match and the nodeSelectorTerm matching of
// k8s.io/component-helpers nodeaffinity.
func TestNodeAffinityFilter(t *testing.T) {
	const mismatch = "UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector"
	node := n1(withLabels("zone", "a", "gen", "5", "disk", "ssd"))
	term := func(e ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchExpressions: e}
	}
	fields := func(op corev1.NodeSelectorOperator, v string) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", op, v)}}
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		opts Options
		want string
	}{
		{"no affinity: PreFilter Skip", mkPod("p"), Options{}, "Skip"},
		{"nodeSelector matches", mkPod("p", withNodeSelector("zone", "a")), Options{}, "Success"},
		{"nodeSelector mismatch", mkPod("p", withNodeSelector("zone", "b")), Options{}, mismatch},
		{"empty nodeSelector map is not nil: runs and passes", mkPod("p", withNodeSelector()), Options{}, "Success"},
		{"In", mkPod("p", nodeAffinity(requiredTerms(term(expr("zone", corev1.NodeSelectorOpIn, "a", "b"))))), Options{}, "Success"},
		{"NotIn", mkPod("p", nodeAffinity(requiredTerms(term(expr("zone", corev1.NodeSelectorOpNotIn, "a"))))), Options{}, mismatch},
		{"NotIn on a missing key", mkPod("p", nodeAffinity(requiredTerms(term(expr("rack", corev1.NodeSelectorOpNotIn, "a"))))), Options{}, "Success"},
		{"Exists", mkPod("p", nodeAffinity(requiredTerms(term(expr("disk", corev1.NodeSelectorOpExists))))), Options{}, "Success"},
		{"DoesNotExist", mkPod("p", nodeAffinity(requiredTerms(term(expr("disk", corev1.NodeSelectorOpDoesNotExist))))), Options{}, mismatch},
		{"Gt", mkPod("p", nodeAffinity(requiredTerms(term(expr("gen", corev1.NodeSelectorOpGt, "4"))))), Options{}, "Success"},
		{"Lt", mkPod("p", nodeAffinity(requiredTerms(term(expr("gen", corev1.NodeSelectorOpLt, "5"))))), Options{}, mismatch},
		{"Gt on a non-numeric label", mkPod("p", nodeAffinity(requiredTerms(term(expr("zone", corev1.NodeSelectorOpGt, "1"))))), Options{}, mismatch},
		{"terms are ORed", mkPod("p", nodeAffinity(requiredTerms(term(expr("zone", corev1.NodeSelectorOpIn, "x")), term(expr("disk", corev1.NodeSelectorOpIn, "ssd"))))), Options{}, "Success"},
		{"expressions are ANDed", mkPod("p", nodeAffinity(requiredTerms(term(expr("zone", corev1.NodeSelectorOpIn, "a"), expr("disk", corev1.NodeSelectorOpIn, "hdd"))))), Options{}, mismatch},
		{"only empty terms match nothing", mkPod("p", nodeAffinity(requiredTerms(corev1.NodeSelectorTerm{}))), Options{}, mismatch},
		{"nodeSelector AND affinity", mkPod("p", withNodeSelector("zone", "b"), nodeAffinity(requiredTerms(term(expr("disk", corev1.NodeSelectorOpExists))))), Options{}, mismatch},
		{"matchFields In", mkPod("p", nodeAffinity(requiredTerms(fields(corev1.NodeSelectorOpIn, "n1")))), Options{}, "Success"},
		{"matchFields NotIn", mkPod("p", nodeAffinity(requiredTerms(fields(corev1.NodeSelectorOpNotIn, "n1")))), Options{}, mismatch},
		{"added affinity enforced", mkPod("p"), Options{AddedAffinity: requiredTerms(term(expr("zone", corev1.NodeSelectorOpIn, "z")))},
			"UnschedulableAndUnresolvable: node(s) didn't match scheduler-enforced node affinity"},
		{"added affinity satisfied", mkPod("p"), Options{AddedAffinity: requiredTerms(term(expr("zone", corev1.NodeSelectorOpIn, "a")))}, "Success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.NodeAffinity, node, nil, tt.pod, tt.opts))
		})
	}
}

// TestNodeAffinityPreFilter mirrors nodeaffinity PreFilter's node-name result
// and findNodesThatFitPod's absent-node status.
func TestNodeAffinityPreFilter(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n1", "4", "8Gi"), mkNode("n2", "4", "8Gi"), mkNode("n3", "4", "8Gi", unschedulable())}
	snap := snapshotOf(t, nodes)
	names := func(vals ...string) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, vals...)}}
	}
	t.Run("restricts to the named nodes", func(t *testing.T) {
		r, err := Evaluate(snap, mkPod("p", nodeAffinity(requiredTerms(names("n3")))), Options{})
		require.NoError(t, err)
		assert.Equal(t, []string{"n3"}, r.PreFilter.NodeNames)
		assert.Equal(t, []string{sched.NodeAffinity}, r.PreFilter.RestrictedBy)
		assert.True(t, r.Nodes[0].ExcludedByPreFilter)
		assert.Equal(t, framework.Status{Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}}, r.Nodes[0].Status)
		assert.Len(t, r.Nodes[0].Filters, 9, "every plugin still reported")
		assert.Equal(t, "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].", r.Message)
	})
	t.Run("a term without names lifts the restriction", func(t *testing.T) {
		r, err := Evaluate(snap, mkPod("p", nodeAffinity(requiredTerms(names("n1"), corev1.NodeSelectorTerm{
			MatchExpressions: []corev1.NodeSelectorRequirement{expr("kubernetes.io/hostname", corev1.NodeSelectorOpExists)}}))), Options{})
		require.NoError(t, err)
		assert.Nil(t, r.PreFilter.NodeNames)
		assert.Equal(t, []string{"n1", "n2"}, r.FeasibleNodes)
	})
	t.Run("intersection within a term, empty: conflict", func(t *testing.T) {
		term := names("n1")
		term.MatchFields = append(term.MatchFields, expr("metadata.name", corev1.NodeSelectorOpIn, "n2"))
		r, err := Evaluate(snap, mkPod("p", nodeAffinity(requiredTerms(term))), Options{})
		require.NoError(t, err)
		assert.Equal(t, framework.Status{Plugin: sched.NodeAffinity, Code: framework.UnschedulableAndUnresolvable, Reasons: []string{"pod affinity terms conflict"}}, r.PreFilter.Status)
		assert.Equal(t, "0/3 nodes are available: pod affinity terms conflict.", r.Message)
		assert.Nil(t, r.Nodes[0].Filters, "no Filter runs after a PreFilter rejection")
	})
	t.Run("a name not in the cluster", func(t *testing.T) {
		r, err := Evaluate(snap, mkPod("p", nodeAffinity(requiredTerms(names("ghost")))), Options{})
		require.NoError(t, err)
		assert.Empty(t, r.FeasibleNodes)
		assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [NodeAffinity].", r.Message)
	})
}

// TestNodePortsFilter mirrors nodeports.fitsPorts / HostPortInfo.CheckConflict.
func TestNodePortsFilter(t *testing.T) {
	const conflict = "Unschedulable: node(s) didn't have free ports for the requested pod ports"
	tests := []struct {
		name  string
		bound *corev1.Pod
		pod   *corev1.Pod
		want  string
	}{
		{"no host ports: Skip", mkPod("b", onNode("n1"), hostPort(80, "", "")), mkPod("p"), "Skip"},
		{"same port, both wildcard", mkPod("b", onNode("n1"), hostPort(80, "", "")), mkPod("p", hostPort(80, "", "")), conflict},
		{"default protocol is TCP", mkPod("b", onNode("n1"), hostPort(80, "", corev1.ProtocolTCP)), mkPod("p", hostPort(80, "", "")), conflict},
		{"other protocol", mkPod("b", onNode("n1"), hostPort(80, "", corev1.ProtocolUDP)), mkPod("p", hostPort(80, "", "")), "Success"},
		{"specific IPs differ", mkPod("b", onNode("n1"), hostPort(80, "10.0.0.1", "")), mkPod("p", hostPort(80, "10.0.0.2", "")), "Success"},
		{"wildcard wanted vs specific used", mkPod("b", onNode("n1"), hostPort(80, "10.0.0.1", "")), mkPod("p", hostPort(80, "0.0.0.0", "")), conflict},
		{"specific wanted vs wildcard used", mkPod("b", onNode("n1"), hostPort(80, "", "")), mkPod("p", hostPort(80, "10.0.0.2", "")), conflict},
		{"other port", mkPod("b", onNode("n1"), hostPort(80, "", "")), mkPod("p", hostPort(81, "", "")), "Success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.NodePorts, n1(), []*corev1.Pod{tt.bound}, tt.pod, Options{}))
		})
	}
	t.Run("restartable init container ports count, others not", func(t *testing.T) {
		always := corev1.ContainerRestartPolicyAlways
		pod := mkPod("p")
		pod.Spec.InitContainers = []corev1.Container{
			{Name: "init", Ports: []corev1.ContainerPort{{HostPort: 90}}},
			{Name: "side", RestartPolicy: &always, Ports: []corev1.ContainerPort{{HostPort: 80}}},
		}
		bound := []*corev1.Pod{mkPod("b", onNode("n1"), hostPort(80, "", ""))}
		assert.Equal(t, conflict, filterOn(t, sched.NodePorts, n1(), bound, pod, Options{}))
		pod.Spec.InitContainers = pod.Spec.InitContainers[:1]
		assert.Equal(t, "Skip", filterOn(t, sched.NodePorts, n1(), bound, pod, Options{}))
	})
}

// TestNodeResourcesFitFilter mirrors noderesources.fitsRequest and Fit.Filter
// (v1.36), including when a shortfall is UnschedulableAndUnresolvable.
func TestNodeResourcesFitFilter(t *testing.T) {
	bound := []*corev1.Pod{mkPod("b", onNode("n1"), requests("cpu", "3", "memory", "4Gi"))}
	gpuNode := n1(withAllocatable("example.com/gpu", "2"), withAllocatable("example.com/fpga", "1"))
	tests := []struct {
		name  string
		nodes []*corev1.Node
		pod   *corev1.Pod
		opts  Options
		want  string
	}{
		{"fits", n1(), mkPod("p", requests("cpu", "1", "memory", "4Gi")), Options{}, "Success"},
		{"insufficient cpu: preemption may help", n1(), mkPod("p", requests("cpu", "2")), Options{}, "Unschedulable: Insufficient cpu"},
		{"more cpu than the node has: unresolvable", n1(), mkPod("p", requests("cpu", "5")), Options{}, "UnschedulableAndUnresolvable: Insufficient cpu"},
		{"cpu and memory in order", n1(), mkPod("p", requests("memory", "5Gi", "cpu", "2")), Options{}, "Unschedulable: Insufficient cpu, Insufficient memory"},
		{"too many pods", n1(withAllocatable(corev1.ResourcePods, "1")), mkPod("p"), Options{}, "Unschedulable: Too many pods"},
		{"best effort checks the pod count only", n1(), mkPod("p"), Options{}, "Success"},
		{"ephemeral storage on a node without it", n1(), mkPod("p", requests("ephemeral-storage", "1Gi")), Options{},
			"UnschedulableAndUnresolvable: Insufficient ephemeral-storage"},
		{"extended resources sorted by name", gpuNode, mkPod("p", requests("example.com/gpu", "3", "example.com/fpga", "2")), Options{},
			"UnschedulableAndUnresolvable: Insufficient example.com/fpga, Insufficient example.com/gpu"},
		{"ignored extended resource", gpuNode, mkPod("p", requests("example.com/gpu", "3")), Options{IgnoredResources: []string{"example.com/gpu"}}, "Success"},
		{"ignored resource group", gpuNode, mkPod("p", requests("example.com/gpu", "3")), Options{IgnoredResourceGroups: []string{"example.com"}}, "Success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, filterOn(t, sched.NodeResourcesFit, tt.nodes, bound, tt.pod, tt.opts))
		})
	}
	t.Run("overhead and init containers count", func(t *testing.T) {
		pod := mkPod("p", requests("cpu", "500m"))
		pod.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("600m")}
		assert.Equal(t, "Unschedulable: Insufficient cpu", filterOn(t, sched.NodeResourcesFit, n1(), bound, pod, Options{}))
		pod = mkPod("p", requests("cpu", "100m"))
		pod.Spec.InitContainers = []corev1.Container{{Name: "i", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1500m")}}}}
		assert.Equal(t, "Unschedulable: Insufficient cpu", filterOn(t, sched.NodeResourcesFit, n1(), bound, pod, Options{}))
	})
}

// TestNodeDeclaredFeaturesFilter mirrors the nodedeclaredfeatures plugin with
// the v1.36 feature registry.
func TestNodeDeclaredFeaturesFilter(t *testing.T) {
	pod := mkPod("p")
	pod.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestartAllContainers}}
	declared := func(f ...string) nodeOpt { return func(n *corev1.Node) { n.Status.DeclaredFeatures = f } }
	assert.Equal(t, "Skip", filterOn(t, sched.NodeDeclaredFeatures, n1(), nil, mkPod("q"), Options{}))
	assert.Equal(t, "UnschedulableAndUnresolvable: node(s) didn't match Pod's required features",
		filterOn(t, sched.NodeDeclaredFeatures, n1(), nil, pod, Options{}))
	assert.Equal(t, "Success", filterOn(t, sched.NodeDeclaredFeatures, n1(declared("RestartAllContainersOnContainerExits")), nil, pod, Options{}))
}

// TestSchedulingGates mirrors schedulinggates.PreEnqueue.
func TestSchedulingGates(t *testing.T) {
	pod := mkPod("p")
	pod.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "a"}, {Name: "b"}}
	r, err := Evaluate(snapshotOf(t, n1()), pod, Options{})
	require.NoError(t, err)
	require.NotNil(t, r.Gated)
	assert.Equal(t, framework.Status{Plugin: sched.SchedulingGates, Code: framework.UnschedulableAndUnresolvable,
		Reasons: []string{"waiting for scheduling gates: [a b]"}}, *r.Gated)
	assert.Empty(t, r.Nodes)
}

// TestFitErrorMessage mirrors FitError.Error: the sorted histogram of the
// recorded (first failing) reasons.
func TestFitErrorMessage(t *testing.T) {
	nodes := []*corev1.Node{
		mkNode("a", "1", "1Gi"), mkNode("b", "1", "1Gi"), mkNode("c", "8", "1Gi", withTaint("k", "", corev1.TaintEffectNoSchedule)),
		mkNode("d", "1", "1Gi", unschedulable()),
	}
	r, err := Evaluate(snapshotOf(t, nodes), mkPod("p", requests("cpu", "2")), Options{})
	require.NoError(t, err)
	assert.Equal(t, "0/4 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient cpu.", r.Message)
	assert.Equal(t, "0/0 nodes are available:", fitErrorMessage(0, nil, nil))
}

// TestInvalidInput: unparsable selectors are errors with every path.
func TestInvalidInput(t *testing.T) {
	pod := mkPod("p", nodeAffinity(&corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{
			{MatchExpressions: []corev1.NodeSelectorRequirement{expr("zone", "Bogus", "a"), expr("gen", corev1.NodeSelectorOpGt, "x")}},
			{MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, "a", "b")}},
		}},
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 1, Preference: corev1.NodeSelectorTerm{
			MatchExpressions: []corev1.NodeSelectorRequirement{expr("bad key!", corev1.NodeSelectorOpExists)}}}},
	}))
	snap := snapshotOf(t, n1())
	_, err := Compile(snap, pod, Options{})
	require.ErrorIs(t, err, ErrInvalidPod)
	for _, want := range []string{
		"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
		"nodeSelectorTerms[0].matchExpressions[1]",
		"nodeSelectorTerms[1].matchFields[0].values",
		"preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key",
	} {
		assert.Contains(t, err.Error(), want)
	}
	r, err := Evaluate(snap, pod, Options{})
	require.ErrorIs(t, err, ErrInvalidPod)
	require.NotNil(t, r)
	assert.Equal(t, framework.Error, r.PreFilter.Status.Code)
	_, err = Evaluate(snap, nil, Options{})
	require.ErrorIs(t, err, ErrInvalidPod)
}

// TestCompiledAccessors covers the compile-once API preemption uses.
func TestCompiledAccessors(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n1", "2", "4Gi"), mkNode("n2", "2", "4Gi")}
	snap := snapshotOf(t, nodes, mkPod("low", onNode("n1"), requests("cpu", "1500m")))
	pod := mkPod("p", requests("cpu", "1"), nodeAffinity(requiredTerms(corev1.NodeSelectorTerm{
		MatchFields: []corev1.NodeSelectorRequirement{expr("metadata.name", corev1.NodeSelectorOpIn, "n1")}})))
	c, err := Compile(snap, pod, Options{})
	require.NoError(t, err)
	assert.Nil(t, c.Gated())
	assert.True(t, c.PreFilterStatus().OK())
	assert.True(t, c.FilterSkipped(sched.NodePorts))
	assert.False(t, c.FilterSkipped(sched.NodeAffinity))
	assert.True(t, c.InPreFilterResult("n1"))
	assert.False(t, c.InPreFilterResult("n2"))
	n1, _ := snap.Node("n1")
	n2, _ := snap.Node("n2")
	assert.False(t, c.Fits(n1))
	assert.False(t, c.Fits(n2), "outside the PreFilter result")
	st, err := FilterNode(snap, pod, "n1", Options{})
	require.NoError(t, err)
	assert.Equal(t, sched.Status{Code: sched.Unschedulable, Plugin: sched.NodeResourcesFit, Reasons: []string{"Insufficient cpu"}}, st)
	without, err := snap.WithoutPods("default/low")
	require.NoError(t, err)
	v, err := c.On(without)
	require.NoError(t, err)
	vn1, _ := v.Snapshot().Node("n1")
	assert.True(t, v.Fits(vn1))
	_, err = FilterNode(snap, pod, "nope", Options{})
	require.Error(t, err)
	d := c.Schedule()
	assert.Equal(t, []sched.Code{sched.Unschedulable, sched.UnschedulableAndUnresolvable}, d.Codes)
	assert.Equal(t, "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity].", d.Message)
}

// fitErrorMessage counts runs of statuses sharing one reasons slice at
// once; its message is the one counting every node's reasons gives.
func TestFitErrorMessageCountsRuns(t *testing.T) {
	shared := [][]string{{"Insufficient cpu"}, {"Insufficient cpu", "Insufficient memory"}, {"node(s) had untolerated taint(s)"}, {}}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "nodes")
		statuses := make([]sched.Status, n)
		want := map[string]int{}
		for i := range statuses {
			if rapid.IntRange(0, 4).Draw(t, "passes") == 0 {
				continue // Success
			}
			rs := rapid.SampledFrom(shared).Draw(t, "reasons")
			if rapid.Bool().Draw(t, "copied") {
				rs = slices.Clone(rs) // equal texts, another slice
			}
			statuses[i] = sched.Status{Code: sched.Unschedulable, Reasons: rs}
			for _, r := range rs {
				want[r]++
			}
		}
		require.Equal(t, sched.FitErrorMessage(n, nil, want), fitErrorMessage(n, nil, statuses))
	})
}
