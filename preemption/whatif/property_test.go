package whatif

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
)

// Small pools, so that constraints collide and scores tie.
var (
	zones = []string{"z1", "z2", "z3"}
	apps  = []string{"web", "db"}
	cpus  = []string{"100m", "300m", "500m", "1"}
)

func genNode(t *rapid.T, i int) *corev1.Node {
	name := fmt.Sprintf("n%d", i)
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: testbuild.Labels("kubernetes.io/hostname", name,
			"topology.kubernetes.io/zone", rapid.SampledFrom(zones).Draw(t, "zone"))},
		Status: corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "cpu"),
			"memory", "8Gi", "pods", "110")},
	}
	if rapid.IntRange(0, 5).Draw(t, "tainted") == 0 {
		n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Effect: corev1.TaintEffectNoSchedule}}
	}
	return n
}

func genPod(t *rapid.T, name string) *corev1.Pod {
	app := rapid.SampledFrom(apps).Draw(t, "app")
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Labels: testbuild.Labels("app", app)},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", rapid.SampledFrom(cpus).Draw(t, "podcpu"))}}}},
	}
	prio := rapid.SampledFrom([]int32{0, 100}).Draw(t, "prio")
	p.Spec.Priority = &prio
	switch rapid.IntRange(0, 3).Draw(t, "constraint") {
	case 1:
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1,
			TopologyKey:       rapid.SampledFrom([]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}).Draw(t, "spreadkey"),
			WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"),
			LabelSelector:     testbuild.Selector("app", app)}}
	case 2:
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey: "kubernetes.io/hostname", LabelSelector: testbuild.Selector("app", app)}}}}
	}
	if rapid.IntRange(0, 3).Draw(t, "tol") == 0 {
		p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}
	}
	if rapid.IntRange(0, 4).Draw(t, "ds") == 0 {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: "ds"}}
	}
	return p
}

type world struct {
	nodes []*corev1.Node
	pods  []*corev1.Pod
}

func genWorld(t *rapid.T) world {
	var w world
	nn := rapid.IntRange(1, 6).Draw(t, "nodes")
	for i := range nn {
		w.nodes = append(w.nodes, genNode(t, i))
	}
	for i := range rapid.IntRange(0, 12).Draw(t, "bound") {
		p := genPod(t, fmt.Sprintf("b%d", i))
		p.Spec.NodeName = w.nodes[rapid.IntRange(0, nn-1).Draw(t, "on")].Name
		w.pods = append(w.pods, p)
	}
	return w
}

func (w world) snapshot(t *rapid.T) *placement.Snapshot {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: w.nodes, Pods: w.pods})
	require.NoError(t, err)
	return snap
}

func TestProperties(t *testing.T) {
	t.Run("placing K replicas then asking for the rest gives the same nodes", rapid.MakeCheck(func(t *rapid.T) {
		w := genWorld(t)
		snap := w.snapshot(t)
		tmpl := genPod(t, "tmpl")
		n := rapid.IntRange(0, 12).Draw(t, "n")
		all, err := Replicas(snap, tmpl, n, Options{})
		require.NoError(t, err)
		k := rapid.IntRange(0, all.Placed()).Draw(t, "k")
		first, err := Replicas(snap, tmpl, k, Options{})
		require.NoError(t, err)
		require.Equal(t, all.Nodes[:k], first.Nodes)
		rest := tmpl.DeepCopy()
		rest.Name = "rest" // replicas tmpl-0.. are bound in first.Final
		second, err := Replicas(first.Final, rest, n-k, Options{})
		require.NoError(t, err)
		require.Equal(t, all.Nodes, append(slices.Clone(first.Nodes), second.Nodes...))
		require.Equal(t, all.Message, second.Message)
	}))

	t.Run("every placed replica passes every filter on the cluster it was placed in", rapid.MakeCheck(func(t *rapid.T) {
		w := genWorld(t)
		snap := w.snapshot(t)
		tmpl := genPod(t, "tmpl")
		r, err := Replicas(snap, tmpl, rapid.IntRange(1, 8).Draw(t, "n"), Options{})
		require.NoError(t, err)
		for i, node := range r.Nodes {
			before, err := Replicas(snap, tmpl, i, Options{})
			require.NoError(t, err)
			ev, err := placement.Evaluate(before.Final, Replica(tmpl, i), placement.Options{})
			require.NoError(t, err)
			feasible := false
			for _, nr := range ev.Nodes {
				if nr.Node == node {
					feasible = nr.Feasible
				}
			}
			require.True(t, feasible, "replica %d placed on %s, which it does not fit", i, node)
		}
		if r.Placed() < r.Requested && r.Outcome == "Unschedulable" {
			ev, err := placement.Evaluate(r.Final, Replica(tmpl, r.Placed()), placement.Options{})
			require.NoError(t, err)
			require.Empty(t, ev.FeasibleNodes, "the first unplaced replica fits somewhere")
		}
	}))

	t.Run("a drain leaves no moved pod on a drained node it does not tolerate, and keeps every other pod", rapid.MakeCheck(func(t *rapid.T) {
		w := genWorld(t)
		snap := w.snapshot(t)
		var drain []string
		for _, n := range w.nodes {
			if rapid.IntRange(0, 2).Draw(t, "drain") == 0 {
				drain = append(drain, n.Name)
			}
		}
		before := snap.NumPods()
		r, err := Drain(snap, drain, Options{})
		require.NoError(t, err)
		placedPods := 0
		for _, m := range r.Moved {
			require.Contains(t, drain, m.From)
			if m.Node != "" {
				placedPods++
				require.NotContains(t, drain, m.Node, "%s went back to a cordoned node", m.Pod)
			}
		}
		require.Equal(t, before-len(r.Moved)+placedPods, r.Final.NumPods())
		drainable := true
		for _, m := range r.Moved {
			drainable = drainable && m.Node != ""
		}
		require.Equal(t, drainable, r.Drainable)
		for _, name := range drain {
			ni, ok := r.Final.Node(name)
			require.True(t, ok)
			require.True(t, ni.Unschedulable)
			for _, pi := range ni.Pods {
				require.Contains(t, r.Stayed, pi.Key)
			}
		}
		require.Equal(t, snap.NumPods(), before, "the snapshot given changed")
	}))
}
