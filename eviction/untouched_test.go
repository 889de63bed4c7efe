package eviction_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// drainCluster draws a cluster with budgets whose bound pods are stored
// objects (a resourceVersion, Ready) and half of them owned by a ReplicaSet,
// so that drains and evictions get past kubectl's unreplicated filter.
func drainCluster(t *rapid.T) *placementtest.Cluster {
	c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 4, MaxPods: 10, Preemption: true}).Draw(t, "cluster")
	yes := true
	for i, p := range c.Pods {
		p.ResourceVersion = "1"
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		if i%2 == 0 {
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: &yes}}
		}
	}
	return c
}

func memoryStats(pod *corev1.Pod) (eviction.PodStats, bool) {
	v := uint64(len(pod.Name)) << 28
	return eviction.PodStats{MemoryWorkingSetBytes: &v, ProcessCount: &v, RootfsBytes: v, LogsBytes: v}, len(pod.Name)%3 != 0
}

// Issue 21, inputs untouched.
func TestInputsUntouched(t *testing.T) {
	t.Run("no entry point of eviction modifies its objects or the order of its slices, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := drainCluster(t)
			ds := []*appsv1.DaemonSet{{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default", UID: "ds-uid"}}}
			frozen := hostile.FreezeCluster(c)
			frozen.Add(hostile.Objects(ds)...)
			pods, pdbs := slices.Clone(c.Pods), slices.Clone(c.PDBs)
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)

			for _, pod := range c.Pods {
				d, err := eviction.Decide(eviction.Request{Pod: pod, PDBs: c.PDBs, Now: now})
				require.NoError(t, err)
				frozen.Scramble(d)
				d, err = eviction.Decide(eviction.Request{Pod: pod, PDBs: c.PDBs, Now: now, DryRun: true,
					DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: new(int64)}})
				require.NoError(t, err)
				frozen.Scramble(d)
			}
			for _, pdb := range c.PDBs {
				st, err := eviction.PDBStatus(pdb, c.Pods, eviction.Workloads{}, now)
				require.NoError(t, err)
				frozen.Scramble(st)
			}
			var names []string
			for _, n := range c.Nodes {
				names = append(names, n.Name)
				sel, err := eviction.SelectDrainPods(n.Name, c.Pods, ds, eviction.DrainOptions{Force: true, Now: now})
				require.NoError(t, err)
				frozen.Scramble(sel)
			}
			want, err := eviction.PlanDrain(snap, names[:1], c.PDBs, eviction.PlanOptions{DaemonSets: ds})
			require.NoError(t, err)
			plan, err := eviction.PlanDrain(snap, names, c.PDBs, eviction.PlanOptions{DaemonSets: ds, Drain: eviction.DrainOptions{Force: true}})
			require.NoError(t, err)
			frozen.Scramble(plan)

			frozen.Scramble(eviction.RankMemory(c.Pods, memoryStats))
			frozen.Scramble(eviction.RankPID(c.Pods, memoryStats))
			frozen.Scramble(eviction.Rank(eviction.SignalNodeFsAvailable, eviction.FsLayout{}, c.Pods, memoryStats))
			if v, ok := eviction.SelectVictim(eviction.DefaultHardThresholds(), c.Pods, memoryStats, eviction.PressureOptions{Now: now}); ok {
				frozen.Scramble(&v)
			}
			for _, pod := range c.Pods {
				for _, n := range c.Nodes {
					frozen.Scramble(eviction.TaintEvictionTime(n, pod))
				}
				frozen.Scramble(eviction.EvictedStatus(pod, "evicted", now))
				frozen.Scramble(eviction.AdmitUnderPressure(pod, []corev1.NodeConditionType{corev1.NodeMemoryPressure}))
			}

			again, err := eviction.PlanDrain(snap, names[:1], c.PDBs, eviction.PlanOptions{DaemonSets: ds})
			require.NoError(t, err)
			require.Equal(t, want, again, "a scrambled answer changed a later answer")
			require.True(t, slices.Equal(pods, c.Pods), "the pods' order changed")
			require.True(t, slices.Equal(pdbs, c.PDBs), "the budgets' order changed")
			require.Empty(t, frozen.Changed())
		})
	})
}

// Issue 21: found by the property above. With a zero clock (Now unset),
// meta.SetStatusCondition stamped a budget's new DisruptionAllowed
// condition with time.Now(), so two identical questions got different
// answers. Time is a parameter: the stamp stays the zero time given.
func TestZeroClockIsNotTheWallClock(t *testing.T) {
	pod := func() *corev1.Pod {
		p := hostile.Pod("web", "a")
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		return p
	}
	pdb := func() *policyv1.PodDisruptionBudget {
		b := hostile.OddPDBs()[1].Obj
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		return b
	}
	for _, tc := range []struct {
		name string
		ask  func() []metav1.Condition
	}{
		{"Decide", func() []metav1.Condition {
			d, err := eviction.Decide(eviction.Request{Pod: pod(), PDBs: []*policyv1.PodDisruptionBudget{pdb()}})
			require.NoError(t, err)
			require.NotEmpty(t, d.PDBs)
			return d.PDBs[0].PDB.Status.Conditions
		}},
		{"PlanDrain", func() []metav1.Condition {
			snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{hostile.Node("a"), hostile.Node("b")}, Pods: []*corev1.Pod{pod()}})
			require.NoError(t, err)
			plan, err := eviction.PlanDrain(snap, []string{"a"}, []*policyv1.PodDisruptionBudget{pdb()}, eviction.PlanOptions{Drain: eviction.DrainOptions{Force: true}})
			require.NoError(t, err)
			require.NotEmpty(t, plan.PDBs)
			return plan.PDBs[0].Status.Conditions
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conds := tc.ask()
			require.NotEmpty(t, conds)
			for _, c := range conds {
				require.True(t, c.LastTransitionTime.IsZero(), "%s stamped %v", c.Type, c.LastTransitionTime)
			}
		})
	}
}
