package eviction

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

func testNode(name, cpu string) *corev1.Node {
	rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: corev1.NodeStatus{Allocatable: rl, Capacity: rl}}
}

func cpuPod(ns, name, node, cpu string) podB {
	b := newPod(ns, name).node(node).owner("apps/v1", "ReplicaSet", "rs", "rs-uid")
	b.p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
	return b
}

func TestPlanDrain(t *testing.T) {
	nodes := []*corev1.Node{testNode("a", "2"), testNode("b", "2"), testNode("c", "1"), testNode("d", "4")}
	pods := []*corev1.Pod{
		cpuPod("ns", "web-0", "a", "1").obj(),
		cpuPod("ns", "web-1", "a", "1").obj(),
		cpuPod("ns", "web-2", "b", "1").obj(),
		cpuPod("ns", "db-0", "a", "1500m").labels("app", "db").obj(),
		newPod("ns", "bare").node("c").obj(),
	}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	// web: 3 healthy, at most 1 unavailable -> 1 disruption allowed
	web := newPDB("ns", "web").maxUnavailable(intstr.FromInt32(1)).status(1, 3, 2, 3).obj()
	plan, err := PlanDrain(snap, []string{"c", "a"}, []*policyv1.PodDisruptionBudget{web}, PlanOptions{Drain: DrainOptions{Now: testNow}})
	require.NoError(t, err)

	require.Len(t, plan.Nodes, 2)
	assert.Equal(t, "a", plan.Nodes[0].Node)
	assert.Equal(t, "c", plan.Nodes[1].Node)
	assert.True(t, plan.Nodes[1].Refused, "an unmanaged pod refuses the drain without --force")
	assert.False(t, plan.Nodes[0].Removable())

	var evicted []string
	for _, e := range plan.Evictions {
		evicted = append(evicted, e.Pod.Name+"@"+e.PDB+"->"+e.To)
	}
	// db-0 has no budget; web-0 takes the only disruption; b has 1 cpu left
	// after web-2, so db-0 (1.5 cpu) goes to d and web-0 to b.
	assert.Equal(t, []string{"db-0@->d", "web-0@ns/web->b"}, evicted)
	require.Len(t, plan.Blocked, 1)
	assert.Equal(t, "web-1", plan.Blocked[0].Pod.Name)
	assert.Equal(t, int32(429), plan.Blocked[0].Status.Code)
	assert.Equal(t, "The disruption budget web does not allow evicting pods currently", plan.Blocked[0].Status.Details.Causes[0].Message)
	assert.Equal(t, int32(0), plan.PDBs[0].Status.DisruptionsAllowed)
	assert.Equal(t, int32(1), web.Status.DisruptionsAllowed, "input untouched")

	plan, err = PlanDrain(snap, []string{"a"}, nil, PlanOptions{Drain: DrainOptions{Now: testNow}})
	require.NoError(t, err)
	assert.Equal(t, 3, plan.Nodes[0].Evictions)
	assert.Equal(t, 0, plan.Nodes[0].Unplaced, "1.5 + 1 + 1 cpu fit on b (1) and d (4)")

	// The scheduler prefers the emptier node (LeastAllocated) where first
	// fit takes the first in name order.
	plan, err = PlanDrain(snap, []string{"c", "a"}, []*policyv1.PodDisruptionBudget{web}, PlanOptions{Drain: DrainOptions{Now: testNow}, Scheduler: true})
	require.NoError(t, err)
	evicted = nil
	for _, e := range plan.Evictions {
		evicted = append(evicted, e.Pod.Name+"->"+e.To)
	}
	assert.Equal(t, []string{"db-0->d", "web-0->d"}, evicted)

	_, err = PlanDrain(snap, []string{"zzz"}, nil, PlanOptions{})
	assert.ErrorIs(t, err, ErrInvalidPlan)
}

// drainKit is the clusters of the drain properties: up to 4 nodes and 10
// pods bound anywhere (the cluster may be overcommitted), one not Ready in
// five, constraints of several families (Mixed).
var drainKit = placementtest.Config{MaxNodes: 4, MaxPods: 10, MaxPending: 1, Overcommit: true, Mixed: true}

// ownedByReplicaSets makes every pod its namespace's ReplicaSet rs's (the
// workload budgets' statuses are computed from, replicaSetsOf).
func ownedByReplicaSets(pods []*corev1.Pod) []*corev1.Pod {
	for _, p := range pods {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs",
			UID: typesUID("rs-uid-" + p.Namespace), Controller: ptrBool(true)}}
	}
	return pods
}

// replicaSetsOf is the ReplicaSets of ownedByReplicaSets, each with as
// many replicas as pods.
func replicaSetsOf(pods []*corev1.Pod) Workloads {
	count := map[string]int32{}
	for _, p := range pods {
		count[p.Namespace]++
	}
	var w Workloads
	for _, ns := range placementtest.Namespaces {
		w.ReplicaSets = append(w.ReplicaSets, replicaSet(ns, "rs", typesUID("rs-uid-"+ns), count[ns]))
	}
	return w
}

func ptrBool(b bool) *bool { return &b }

// TestPlanDrainProperties: a plan replayed through Decide is accepted
// eviction by eviction, so it never breaks a budget; placements respect
// capacity.
func TestPlanDrainProperties(t *testing.T) {
	t.Run("a drain plan never breaks a budget and the Eviction API accepts it in order", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(drainKit).Draw(t, "cluster")
			nodes, pods := c.Nodes, ownedByReplicaSets(c.Pods)
			var nodeNames []string
			for _, n := range nodes {
				nodeNames = append(nodeNames, n.Name)
			}
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)
			var pdbs []*policyv1.PodDisruptionBudget
			for _, app := range placementtest.Apps {
				if !rapid.Bool().Draw(t, "has pdb") {
					continue
				}
				b := placementtest.EdgePDBOf(app, "default").Draw(t, "budget")
				b.Name, b.Namespace = app, rapid.SampledFrom(placementtest.Namespaces).Draw(t, "pdb namespace")
				switch rapid.IntRange(0, 3).Draw(t, "selector") {
				case 0:
					b.Spec.Selector = &metav1.LabelSelector{}
				case 1:
					b.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app}}}}
				default:
					b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
				}
				st, err := PDBStatus(b, pods, replicaSetsOf(pods), testNow)
				require.NoError(t, err)
				pdbs = append(pdbs, st.PDB)
			}
			drain := rapid.SliceOfNDistinct(rapid.SampledFrom(nodeNames), 1, min(3, len(nodeNames)), rapid.ID[string]).Draw(t, "drain")
			plan, err := PlanDrain(snap, drain, pdbs, PlanOptions{Drain: DrainOptions{Now: testNow}, Scheduler: rapid.Bool().Draw(t, "scheduler")})
			require.NoError(t, err)

			// Replay through Decide with the budgets it returns.
			cur := pdbs
			healthyLost := map[string]int32{}
			for _, e := range plan.Evictions {
				d, err := Decide(Request{Pod: e.Pod, PDBs: cur, Now: testNow})
				require.NoError(t, err)
				require.True(t, d.Allowed(), "%s: %s", e.Pod.Name, d.Status.Message)
				cur = cur[:0:0]
				for _, o := range d.PDBs {
					cur = append(cur, o.PDB)
				}
				if e.PDB != "" && isPodReady(e.Pod) {
					healthyLost[e.PDB]++
				}
				if e.To != "" {
					require.NotContains(t, drain, e.To)
				}
			}
			for _, b := range plan.Blocked {
				d, err := Decide(Request{Pod: b.Pod, PDBs: cur, Now: testNow})
				require.NoError(t, err)
				require.False(t, d.Allowed(), "blocked %s is refused by the Eviction API too", b.Pod.Name)
				require.Equal(t, b.Status.Code, d.Status.Code)
			}
			for _, p := range pdbs {
				key := p.Namespace + "/" + p.Name
				require.LessOrEqual(t, healthyLost[key], max(p.Status.DisruptionsAllowed, 0), "budget %s", key)
				require.GreaterOrEqual(t, p.Status.CurrentHealthy-healthyLost[key], min(p.Status.DesiredHealthy, p.Status.CurrentHealthy))
			}
			for _, p := range plan.PDBs {
				require.GreaterOrEqual(t, p.Status.DisruptionsAllowed, min(int32(0), minAllowed(pdbs)))
			}
			// Placements respect cpu capacity with the earlier pods placed.
			where := map[string]string{}
			for _, p := range pods {
				where[p.Name] = p.Spec.NodeName
			}
			// A pod requesting no cpu fits a node whatever its cpu use
			// (NodeResourcesFit checks a request only when it is set), and
			// the generated cluster may be overcommitted already: a node is
			// checked when a placed pod requests cpu, which it could only
			// take with room left.
			target := map[string]bool{}
			for _, e := range plan.Evictions {
				where[e.Pod.Name] = e.To
				if e.Pod.Spec.Containers[0].Resources.Requests.Cpu().MilliValue() > 0 {
					target[e.To] = true
				}
			}
			used := map[string]int64{}
			for _, p := range pods {
				used[where[p.Name]] += p.Spec.Containers[0].Resources.Requests.Cpu().MilliValue()
			}
			for _, n := range nodes {
				if target[n.Name] {
					require.LessOrEqual(t, used[n.Name], n.Status.Allocatable.Cpu().MilliValue(), "node %s", n.Name)
				}
			}
		})
	})
}

func minAllowed(pdbs []*policyv1.PodDisruptionBudget) int32 {
	m := int32(0)
	for _, p := range pdbs {
		m = min(m, p.Status.DisruptionsAllowed)
	}
	return m
}

// TestPlanDrainMetamorphic: the plan does not depend on the order of the
// nodes or the budgets given.
func TestPlanDrainMetamorphic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(drainKit).Draw(t, "cluster")
		var names []string
		for _, n := range c.Nodes {
			names = append(names, n.Name)
		}
		c.Pods = ownedByReplicaSets(c.Pods)
		snap, _, err := placement.NewSnapshot(c.SnapshotInput())
		require.NoError(t, err)
		web := newPDB("default", "web").selector(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}).status(1, 3, 2, 3).obj()
		db := newPDB("default", "db").selector(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}).status(2, 3, 1, 3).obj()
		drain := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, min(3, len(names)), rapid.ID[string]).Draw(t, "drain")
		rev := append([]string(nil), drain...)
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		a, err := PlanDrain(snap, drain, []*policyv1.PodDisruptionBudget{web, db}, PlanOptions{Drain: DrainOptions{Now: testNow}})
		require.NoError(t, err)
		b, err := PlanDrain(snap, rev, []*policyv1.PodDisruptionBudget{db, web}, PlanOptions{Drain: DrainOptions{Now: testNow}})
		require.NoError(t, err)
		require.Equal(t, a, b)
	})
}
