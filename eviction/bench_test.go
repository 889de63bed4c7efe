package eviction

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
)

// benchCluster builds nodes × podsPerNode pods of apps workloads (50
// namespaces), one budget per app, pods of an app spread over the nodes.
func benchCluster(b *testing.B, nodes, podsPerNode, apps int) (*placement.Snapshot, []*policyv1.PodDisruptionBudget) {
	var ns []*corev1.Node
	for i := range nodes {
		rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("128Gi"), corev1.ResourcePods: resource.MustParse("110")}
		name := fmt.Sprintf("node-%05d", i)
		ns = append(ns, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3)}},
			Status: corev1.NodeStatus{Allocatable: rl, Capacity: rl}})
	}
	tr := true
	grace := int64(30)
	var pods []*corev1.Pod
	perApp := map[int]int32{}
	for i := range nodes * podsPerNode {
		app := i % apps
		perApp[app]++
		namespace := fmt.Sprintf("team-%02d", app%50)
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: fmt.Sprintf("app-%04d-%d", app, i), UID: types.UID(fmt.Sprintf("u%d", i)), ResourceVersion: "1",
				Labels:          map[string]string{"app": fmt.Sprintf("app-%04d", app)},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: fmt.Sprintf("app-%04d", app), UID: types.UID(fmt.Sprintf("rs-%d", app)), Controller: &tr}}},
			Spec: corev1.PodSpec{NodeName: fmt.Sprintf("node-%05d", (i/apps*7919+i)%nodes), TerminationGracePeriodSeconds: &grace,
				Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}}}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
		})
	}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: ns, Pods: pods})
	require.NoError(b, err)
	var pdbs []*policyv1.PodDisruptionBudget
	for app := range apps {
		// half the budgets allow 10% (3 of 30), half a single pod
		mu, allowed := intstr.FromString("10%"), (perApp[app]+9)/10
		if app%2 == 1 {
			mu, allowed = intstr.FromInt32(1), 1
		}
		n := perApp[app]
		pdbs = append(pdbs, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("team-%02d", app%50), Name: fmt.Sprintf("app-%04d", app), Generation: 1},
			Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &mu, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("app-%04d", app)}}},
			Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, ExpectedPods: n, CurrentHealthy: n, DesiredHealthy: n - allowed, DisruptionsAllowed: allowed},
		})
	}
	return snap, pdbs
}

// BenchmarkPlanDrain drains 500 of 5000 nodes holding 150,000 pods under
// 5,000 budgets, re-placing every evicted pod on the remaining nodes.
func BenchmarkPlanDrain(b *testing.B) {
	snap, pdbs := benchCluster(b, 5000, 30, 5000)
	var drain []string
	for i := range 500 {
		drain = append(drain, fmt.Sprintf("node-%05d", i*10))
	}
	var plan *DrainPlan
	c0 := testbuild.CPUTime()
	for b.Loop() {
		var err error
		plan, err = PlanDrain(snap, drain, pdbs, PlanOptions{Drain: DrainOptions{Now: testNow}})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((testbuild.CPUTime()-c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	unplaced := 0
	for _, n := range plan.Nodes {
		unplaced += n.Unplaced
	}
	b.ReportMetric(float64(len(plan.Evictions)), "evictions")
	b.ReportMetric(float64(len(plan.Blocked)), "blocked")
	b.ReportMetric(float64(unplaced), "unplaced")
}
