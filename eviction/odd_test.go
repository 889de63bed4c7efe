package eviction_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
)

func oddStats(pod *corev1.Pod) (eviction.PodStats, bool) {
	big := uint64(1) << 63
	return eviction.PodStats{MemoryWorkingSetBytes: &big, ProcessCount: &big, RootfsBytes: big, LogsBytes: big, LocalVolumeBytes: big}, pod != nil && pod.Name != ""
}

// askEviction puts pods, nodes and pdbs to every entry point of eviction:
// pods are bound to node a (or as they say).
func askEviction(t *testing.T, pods []*corev1.Pod, nodes []*corev1.Node, pdbs []*policyv1.PodDisruptionBudget) {
	ds := []*appsv1.DaemonSet{{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default"}}, nil}
	for _, pod := range pods {
		for _, dry := range []bool{false, true} {
			require.NotPanics(t, func() {
				_, _ = eviction.Decide(eviction.Request{Pod: pod, PDBs: pdbs, Now: now, DryRun: dry})
				_, _ = eviction.Decide(eviction.Request{Pod: pod, PDBs: pdbs, Now: now, DryRun: dry, Namespace: "other", Name: "x",
					DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: new(int64), Preconditions: &metav1.Preconditions{}}})
			}, "Decide")
		}
		require.NotPanics(t, func() {
			eviction.IsCriticalPod(pod)
			eviction.EvictedStatus(pod, "m", now)
			eviction.AdmitUnderPressure(pod, []corev1.NodeConditionType{corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure, ""})
			for _, n := range nodes {
				eviction.TaintEvictionTime(n, pod)
			}
		}, "pod helpers")
	}
	for _, pdb := range pdbs {
		require.NotPanics(t, func() {
			eviction.ValidatePDB(pdb)
			_, _ = eviction.PDBStatus(pdb, pods, eviction.Workloads{ReplicaSets: []*appsv1.ReplicaSet{nil, {}}}, now)
		}, "Status")
	}
	for _, n := range nodes {
		if n == nil {
			continue
		}
		require.NotPanics(t, func() {
			_, _ = eviction.SelectDrainPods(n.Name, pods, ds, eviction.DrainOptions{Now: now, SkipWaitForDeleteTimeoutSeconds: 1})
			_, _ = eviction.SelectDrainPods(n.Name, pods, ds, eviction.DrainOptions{Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true, PodSelector: "app=web"})
		}, "SelectDrainPods")
	}
	require.NotPanics(t, func() {
		eviction.RankMemory(pods, oddStats)
		eviction.RankPID(pods, oddStats)
		for _, sig := range []eviction.Signal{eviction.SignalNodeFsAvailable, eviction.SignalMemoryAvailable, "bogus"} {
			eviction.Rank(sig, eviction.FsLayout{ImageFs: true}, pods, oddStats)
			eviction.RankDisk(sig, eviction.FsLayout{ImageFs: true, SplitContainerFs: true}, pods, oddStats)
		}
		eviction.SelectVictim(eviction.DefaultHardThresholds(), pods, oddStats, eviction.PressureOptions{Now: now})
		eviction.SelectVictim(eviction.DefaultHardThresholds(), pods, func(*corev1.Pod) (eviction.PodStats, bool) { return eviction.PodStats{}, false }, eviction.PressureOptions{})
	}, "pressure ranking")
	require.NotPanics(t, func() {
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: pods, PDBs: pdbs})
		if err != nil {
			return
		}
		var names []string
		for _, n := range snap.Nodes() {
			names = append(names, n.Name())
		}
		_, _ = eviction.PlanDrain(snap, names, pdbs, eviction.PlanOptions{DaemonSets: ds, Drain: eviction.DrainOptions{Force: true}})
		_, _ = eviction.PlanDrain(snap, []string{"a", "", "zzz"}, pdbs, eviction.PlanOptions{})
	}, "PlanDrain")
}

func ordinaryPDB() *policyv1.PodDisruptionBudget { return hostile.OddPDBs()[1].Obj.DeepCopy() }

// Issue 21, no panics on caller input.
func TestOddInputNeverPanics(t *testing.T) {
	ordinaryNodes := func(extra ...*corev1.Node) []*corev1.Node {
		return append([]*corev1.Node{hostile.Node("a"), hostile.Node("b")}, extra...)
	}
	budget := func() []*policyv1.PodDisruptionBudget {
		b := ordinaryPDB()
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		return []*policyv1.PodDisruptionBudget{b}
	}
	for _, tc := range hostile.OddPods("a") {
		t.Run("pod: "+tc.Name, func(t *testing.T) {
			askEviction(t, []*corev1.Pod{tc.Obj, hostile.Pod("web", "a")}, ordinaryNodes(), budget())
		})
	}
	for _, tc := range hostile.OddNodes("a") {
		t.Run("node: "+tc.Name, func(t *testing.T) {
			askEviction(t, []*corev1.Pod{hostile.Pod("web", "a")}, []*corev1.Node{tc.Obj, hostile.Node("b")}, budget())
		})
	}
	for _, tc := range hostile.OddPDBs() {
		t.Run("budget: "+tc.Name, func(t *testing.T) {
			askEviction(t, []*corev1.Pod{hostile.Pod("web", "a"), hostile.Pod("web-2", "b")}, ordinaryNodes(), []*policyv1.PodDisruptionBudget{tc.Obj})
		})
	}
	nils := []struct {
		name string
		ask  func(t *testing.T)
	}{
		{"nil pod, node and budget entries", func(t *testing.T) {
			askEviction(t, []*corev1.Pod{nil, hostile.Pod("web", "a")}, ordinaryNodes(nil), append(budget(), nil))
		}},
		{"two pods of one name", func(t *testing.T) {
			askEviction(t, []*corev1.Pod{hostile.Pod("web", "a"), hostile.Pod("web", "a")}, ordinaryNodes(), budget())
		}},
		{"two budgets selecting one pod", func(t *testing.T) {
			askEviction(t, []*corev1.Pod{hostile.Pod("web", "a")}, ordinaryNodes(), append(budget(), budget()...))
		}},
		{"Decide with nil arguments", func(t *testing.T) { _, _ = eviction.Decide(eviction.Request{}) }},
		{"Status with nil arguments", func(t *testing.T) { _, _ = eviction.PDBStatus(nil, nil, eviction.Workloads{}, now) }},
		{"PlanDrain with nil arguments", func(t *testing.T) { _, _ = eviction.PlanDrain(nil, []string{"a"}, nil, eviction.PlanOptions{}) }},
		{"SelectDrainPods with nil arguments", func(t *testing.T) {
			_, _ = eviction.SelectDrainPods("", nil, nil, eviction.DrainOptions{PodSelector: "!!bogus"})
		}},
		// Found by this table (each of the next five panicked on nil).
		{"TaintEvictionTime with nil arguments", func(t *testing.T) {
			require.Equal(t, eviction.TaintNone, eviction.TaintEvictionTime(nil, nil).Decision)
		}},
		{"ToleratesTaint with nil arguments", func(t *testing.T) { require.False(t, eviction.ToleratesTaint(nil, nil)) }},
		{"IsCriticalPod with nil arguments", func(t *testing.T) { require.False(t, eviction.IsCriticalPod(nil)) }},
		{"EvictedStatus with nil arguments", func(t *testing.T) { require.Nil(t, eviction.EvictedStatus(nil, "", now)) }},
		{"Admit with nil arguments", func(t *testing.T) { eviction.AdmitUnderPressure(nil, nil) }},
		{"RankMemory with nil arguments", func(t *testing.T) { eviction.RankMemory(nil, nil) }},
		{"RankPID with nil arguments", func(t *testing.T) {
			web := hostile.Pod("web", "a")
			for _, rank := range []func([]*corev1.Pod, eviction.StatsFunc) []*corev1.Pod{eviction.RankPID, eviction.RankMemory,
				func(p []*corev1.Pod, s eviction.StatsFunc) []*corev1.Pod {
					return eviction.RankDisk(eviction.SignalNodeFsAvailable, eviction.FsLayout{}, p, s)
				}} {
				require.Equal(t, []*corev1.Pod{web}, rank([]*corev1.Pod{nil, web, nil}, oddStats))
			}
		}},
		{"ValidatePDB with nil arguments", func(t *testing.T) { require.NotEmpty(t, eviction.ValidatePDB(nil)) }},
		{"Observe with nil arguments", func(t *testing.T) { eviction.Observe(eviction.NodeStats{NodeFs: &eviction.FsStats{}}) }},
		{"ThresholdsMet with nil arguments", func(t *testing.T) { eviction.ThresholdsMet(nil, nil, true) }},
		{"GracePeriodMet with nil arguments", func(t *testing.T) { eviction.GracePeriodMet(eviction.DefaultHardThresholds(), nil, now) }},
		{"ReclaimThreshold with nil arguments", func(t *testing.T) { eviction.ReclaimThreshold(nil) }},
		{"NodeConditions with nil arguments", func(t *testing.T) { eviction.NodeConditions(nil) }},
		{"ParseThresholds with nil arguments", func(t *testing.T) {
			_, _ = eviction.ParseThresholds(map[string]string{"memory.available": "-1", "bogus": "1"}, map[string]string{"nodefs.available": "200%"}, nil, map[string]string{"": ""})
		}},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			require.NotPanics(t, func() { tc.ask(t) })
		})
	}
}
