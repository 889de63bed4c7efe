package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/testbuild"
)

// A pod compiled through compileSerial decides as CompileWith's does, and
// keeps the options' parallelism and the given workers for its decision,
// memoized or not, on a small snapshot (its PreFilters ran on the caller
// alone) and on a large one (it is CompileWith).
func TestCompileSerialKeepsDecisionOptions(t *testing.T) {
	w := NewWorkers()
	defer w.Close()
	for _, nodes := range []int{8, maxShortPassNodes + 1} {
		for _, memoized := range []bool{false, true} {
			snap := bigCluster(t, nodes, 1)
			pod := mkPod("p", requests("cpu", "100m"))
			pod.Namespace = "default"
			p := Prepare(pod, Options{Parallelism: 2})
			want, err := p.CompileWith(snap, w)
			require.NoError(t, err)
			got, err := p.compileSerial(internalOf(snap), w, memoized)
			require.NoError(t, err)
			require.Equal(t, 2, got.opts.Parallelism, "%d nodes", nodes)
			require.Same(t, w, got.opts.Workers, "%d nodes", nodes)
			require.Equal(t, want.Decide(), got.Decide(), "%d nodes", nodes)
			require.Equal(t, nodes <= maxShortPassNodes, atMostNodes(internalOf(snap), maxShortPassNodes))
		}
	}
	_, err := Prepare(mkPod("p"), Options{}).compileSerial(nil, nil, false)
	require.ErrorIs(t, err, ErrInvalidPod)
}

// A memoized pod is decided on the calling goroutine when the snapshot has
// at most maxSerialMemoNodes nodes, topology filters or not; on a larger
// one (also one whose PreFilters compileSerial runs serially) its options
// stay.
func TestSetMemoSerialOnFewNodes(t *testing.T) {
	spreadPod := func() *corev1.Pod {
		p := mkPod("p", requests("cpu", "100m"))
		p.Namespace = "default"
		p.Labels = map[string]string{"app": "a"}
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
		}}
		return p
	}
	tests := []struct {
		name    string
		nodes   int
		pod     *corev1.Pod
		wantPar int
	}{
		{"small, no topology filter", 8, mkPod("p", requests("cpu", "100m")), 1},
		{"small, spread filter", 8, spreadPod(), 1},
		{"at the bound", maxSerialMemoNodes, mkPod("p", requests("cpu", "100m")), 1},
		{"past the bound", maxSerialMemoNodes + 1, mkPod("p", requests("cpu", "100m")), 2},
		{"short pass, spread filter", maxShortPassNodes, spreadPod(), 2},
		{"large, spread filter", maxShortPassNodes + 1, spreadPod(), 2},
		{"large, no topology filter", maxShortPassNodes + 1, mkPod("p", requests("cpu", "100m")), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := bigCluster(t, tt.nodes, 0)
			if tt.pod.Namespace == "" {
				tt.pod.Namespace = "default"
			}
			c, err := Compile(snap, tt.pod, Options{Parallelism: 2})
			require.NoError(t, err)
			m := c.setMemo(newMemo(cluster.NodesOf(c.snap)))
			require.Equal(t, tt.wantPar, m.opts.Parallelism)
		})
	}
}

// A memoized pod without topology filters reads its filter codes from the
// memo (filterCodesMemo): the codes equal a decision without a memo, for
// the pod that fills the memo and for the next one, which reads it, with
// nodes failing for reasons of different codes (resources: Unschedulable;
// taint, node affinity: UnschedulableAndUnresolvable; host port:
// Unschedulable).
func TestMemoFilterCodes(t *testing.T) {
	nodes := []*corev1.Node{
		mkNode("a", "4", "8Gi"),
		mkNode("b", "1", "8Gi"),
		mkNode("c", "4", "8Gi", withTaint("k", "v", corev1.TaintEffectNoSchedule)),
		mkNode("d", "4", "8Gi", withLabels("zone", "z2")),
		mkNode("e", "4", "8Gi"),
	}
	for _, n := range nodes[:3] {
		testbuild.AddLabels(n.Labels, "zone", "z1")
	}
	testbuild.AddLabels(nodes[4].Labels, "zone", "z1")
	busy := mkPod("busy", onNode("e"), hostPort(80, "", corev1.ProtocolTCP))
	busy.Namespace = "default"
	full := mkPod("full", onNode("b"), requests("cpu", "800m"))
	full.Namespace = "default"
	snap := snapshotOf(t, nodes, busy, full)
	pod := func() *corev1.Pod {
		p := mkPod("p", requests("cpu", "500m"), hostPort(80, "", corev1.ProtocolTCP), withNodeSelector("zone", "z1"))
		p.Namespace = "default"
		return p
	}
	plain, err := Compile(snap, pod(), Options{})
	require.NoError(t, err)
	want := plain.Decide()
	require.Equal(t, []sched.Code{sched.Success, sched.Unschedulable, sched.UnschedulableAndUnresolvable,
		sched.UnschedulableAndUnresolvable, sched.Unschedulable}, want.Codes)
	m := newMemo(cluster.NodesOf(internalOf(snap)))
	for round := range 2 {
		c, err := Compile(snap, pod(), Options{})
		require.NoError(t, err)
		got := c.setMemo(m).Decide()
		require.Equal(t, want.Codes, got.Codes, "round %d", round)
		require.Equal(t, want.Node, got.Node, "round %d", round)
	}
}

// A class whose last pod fit on no node has its next pod decided on the
// calling goroutine, on any number of nodes; once a pod of the class fits,
// the next one shares its work again. The pods are of one class (one
// spec); they fit nowhere on nodes of 32 cpus and everywhere on nodes of
// 64. The decisions are the ones made without a memo either way.
func TestSetMemoSerialAfterFitNowhere(t *testing.T) {
	n := maxSerialMemoNodes + 1
	small := bigCluster(t, n, 0)
	in := bigInput(n, 0)
	for _, node := range in.Nodes {
		node.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse("64")
	}
	large, _, err := newTestSnapshot(in)
	require.NoError(t, err)
	pod := func() *corev1.Pod {
		p := mkPod("p", requests("cpu", "48"))
		p.Namespace = "default"
		return p
	}
	m := newMemo(cluster.NodesOf(internalOf(small)))
	steps := []struct {
		snap    *Snapshot
		wantPar int
		fits    bool
	}{
		{small, 2, false}, // the class's first pod: nothing recorded yet
		{small, 1, false}, // its last pod fit nowhere
		{large, 1, true},
		{large, 2, true}, // its last pod fit
		{small, 2, false},
	}
	for i, st := range steps {
		c, err := Compile(st.snap, pod(), Options{Parallelism: 2})
		require.NoError(t, err)
		plain, err := Compile(st.snap, pod(), Options{Parallelism: 2})
		require.NoError(t, err)
		mc := c.setMemo(m)
		require.Equal(t, st.wantPar, mc.opts.Parallelism, "step %d", i)
		got, want := mc.Decide(), plain.Decide()
		require.Equal(t, want.Node, got.Node, "step %d", i)
		require.Equal(t, want.Feasible, got.Feasible, "step %d", i)
		require.Equal(t, st.fits, got.Feasible > 0, "step %d", i)
		require.Equal(t, !st.fits, m.fitNowhere, "step %d", i)
	}
}
