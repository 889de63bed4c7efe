package eviction_test

import (
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/placement"
)

func readyPod(name, node string, cpu string) *corev1.Pod {
	grace := int64(30)
	ctrl := true
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, UID: types.UID("uid-shop-" + name), ResourceVersion: "7",
			Labels:          map[string]string{"app": "web"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f", UID: "rs-uid", Controller: &ctrl}}},
		Spec: corev1.PodSpec{NodeName: node, TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{{Name: "web", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
}

func webBudget() *policyv1.PodDisruptionBudget {
	one := intstr.FromInt32(1)
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", Generation: 1},
		Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
	}
}

// Decide answers POST pods/web-0/eviction: the first eviction takes the
// budget's only disruption, the second is refused with 429 and the cause.
func ExampleDecide() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pods := []*corev1.Pod{readyPod("web-0", "a", "1"), readyPod("web-1", "a", "1"), readyPod("web-2", "b", "1")}
	// The disruption controller's view of the budget: 3 healthy, 1 may go.
	st, err := eviction.PDBStatus(webBudget(), pods, eviction.Workloads{}, now)
	if err != nil {
		panic(err)
	}
	fmt.Println("expected", st.PDB.Status.ExpectedPods, "error:", st.SyncErr)
	rs := eviction.Workloads{Scales: []eviction.Scale{{Group: "apps", Kind: "ReplicaSet", Namespace: "shop", Name: "web-5d8f", UID: "rs-uid", Replicas: 3}}}
	st, _ = eviction.PDBStatus(webBudget(), pods, rs, now)
	s := st.PDB.Status
	fmt.Println("healthy", s.CurrentHealthy, "desired", s.DesiredHealthy, "allowed", s.DisruptionsAllowed)

	d, _ := eviction.Decide(eviction.Request{Pod: pods[0], PDBs: []*policyv1.PodDisruptionBudget{st.PDB}, Now: now})
	fmt.Println(d.Status.Code, d.DisruptionTarget().Reason, "grace", *d.Delete.GracePeriodSeconds)
	after := d.PDBs[0].PDB
	fmt.Println("allowed now", after.Status.DisruptionsAllowed, "disrupted", len(after.Status.DisruptedPods))

	d, _ = eviction.Decide(eviction.Request{Pod: pods[1], PDBs: []*policyv1.PodDisruptionBudget{after}, Now: now})
	fmt.Println(d.Status.Code, d.Status.Message)
	fmt.Println(d.Status.Details.Causes[0].Message)
	// Output:
	// expected 0 error: found no controllers for pod "web-0"
	// healthy 3 desired 2 allowed 1
	// 201 EvictionByEvictionAPI grace 30
	// allowed now 0 disrupted 1
	// 429 Cannot evict pod as it would violate the pod's disruption budget.
	// The disruption budget web does not allow evicting pods currently
}

// PlanDrain drains node a: one pod may go under the budget and fits on b,
// the other is blocked by the budget.
func ExamplePlanDrain() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	node := func(name, cpu string) *corev1.Node {
		rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NodeStatus{Allocatable: rl, Capacity: rl}}
	}
	pods := []*corev1.Pod{readyPod("web-0", "a", "1"), readyPod("web-1", "a", "1"), readyPod("web-2", "b", "1")}
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{node("a", "2"), node("b", "2")}, Pods: pods})
	if err != nil {
		panic(err)
	}
	budget := webBudget()
	budget.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, ExpectedPods: 3, CurrentHealthy: 3, DesiredHealthy: 2, DisruptionsAllowed: 1}

	plan, err := eviction.PlanDrain(snap, []string{"a"}, []*policyv1.PodDisruptionBudget{budget}, eviction.PlanOptions{Drain: eviction.DrainOptions{Now: now}})
	if err != nil {
		panic(err)
	}
	for _, e := range plan.Evictions {
		fmt.Printf("evict %s from %s (budget %s), fits on %s\n", e.Pod.Name, e.From, e.PDB, e.To)
	}
	for _, b := range plan.Blocked {
		fmt.Printf("blocked %s by %s: %d\n", b.Pod.Name, b.PDB, b.Status.Code)
	}
	fmt.Println("node a removable:", plan.Nodes[0].Removable())
	// Output:
	// evict web-0 from a (budget shop/web), fits on b
	// blocked web-1 by shop/web: 429
	// node a removable: false
}

// RankMemory orders pods for eviction under memory pressure; SelectVictim
// takes the first that is not critical.
func ExampleRankMemory() {
	mib := func(v uint64) *uint64 { v <<= 20; return &v }
	pod := func(name string, priority int32, request string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Spec: corev1.PodSpec{Priority: &priority,
			Containers: []corev1.Container{{Name: "c"}}}}
		if request != "" {
			p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(request)}
		}
		return p
	}
	pods := []*corev1.Pod{
		pod("critical", eviction.SystemCriticalPriority, ""),
		pod("within-request", 0, "512Mi"),
		pod("over-request", 1000, "64Mi"),
		pod("best-effort", 0, ""),
	}
	usage := map[string]*uint64{"critical": mib(900), "within-request": mib(300), "over-request": mib(100), "best-effort": mib(50)}
	stats := func(p *corev1.Pod) (eviction.PodStats, bool) {
		return eviction.PodStats{MemoryWorkingSetBytes: usage[p.Name]}, true
	}
	for _, p := range eviction.RankMemory(pods, stats) {
		fmt.Println(p.Name)
	}
	v, _ := eviction.SelectVictim(eviction.DefaultHardThresholds()[2:3], pods, stats, eviction.PressureOptions{})
	fmt.Println("victim:", v.Pod.Name, "grace", v.GracePeriodSeconds)
	// Output:
	// best-effort
	// over-request
	// critical
	// within-request
	// victim: best-effort grace 1
}

// SelectDrainPods is kubectl drain's choice of pods, with its texts.
func ExampleSelectDrainPods() {
	ds := readyPod("agent-x1", "a", "100m")
	ds.OwnerReferences[0].Kind, ds.OwnerReferences[0].Name = "DaemonSet", "agent"
	bare := readyPod("debug", "a", "100m")
	bare.OwnerReferences = nil
	pods := []*corev1.Pod{readyPod("web-0", "a", "1"), ds, bare}

	sel, _ := eviction.SelectDrainPods("a", pods, nil, eviction.DrainOptions{})
	fmt.Println(len(sel.Pods()), sel.Errors())
	sel, _ = eviction.SelectDrainPods("a", pods, nil, eviction.DrainOptions{Force: true, IgnoreAllDaemonSets: true})
	for _, p := range sel.Pods() {
		fmt.Println("evict", p.Name)
	}
	fmt.Println(sel.Warnings())
	// Output:
	// 1 [cannot delete Pods that declare no controller (use --force to override): shop/debug cannot delete daemonsets.apps "agent" not found: shop/agent-x1]
	// evict agent-x1
	// evict debug
	// evict web-0
	// [deleting Pods that declare no controller: shop/debug]
}

// TaintEvictionTime: a pod tolerating not-ready for 300 s is evicted 300 s
// after the taint appears.
func ExampleTaintEvictionTime() {
	node := &corev1.Node{Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute}}}}
	pod := readyPod("web-0", "a", "1")
	secs := int64(300)
	pod.Spec.Tolerations = []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &secs}}
	te := eviction.TaintEvictionTime(node, pod)
	fmt.Println(te.Decision, te.EvictAfter)
	pod.Spec.Tolerations = nil
	fmt.Println(eviction.TaintEvictionTime(node, pod).Decision)
	// Output:
	// EvictAfter 5m0s
	// EvictNow
}

// Status is one sync of the disruption controller: a maxUnavailable of 30%
// over a Deployment of 5 replicas rounds up to 2 pods, so 3 must stay
// healthy; with one pod not Ready and one recently evicted, none may go.
func ExamplePDBStatus() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ctrl := true
	replicas := int32(5)
	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "deploy-uid"}, Spec: appsv1.DeploymentSpec{Replicas: &replicas}}
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-5d8f", UID: "rs-uid",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "deploy-uid", Controller: &ctrl}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas}}
	var pods []*corev1.Pod
	for i := range 5 {
		pods = append(pods, readyPod("web-"+strconv.Itoa(i), "a", "1"))
	}
	pods[4].Status.Conditions[0].Status = corev1.ConditionFalse // not Ready

	thirty := intstr.FromString("30%")
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", Generation: 2},
		Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &thirty, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		// web-0 was evicted 30 s ago: it counts as unhealthy for 2 minutes.
		Status: policyv1.PodDisruptionBudgetStatus{DisruptedPods: map[string]metav1.Time{"web-0": metav1.NewTime(now.Add(-30 * time.Second))}},
	}
	res, err := eviction.PDBStatus(pdb, pods, eviction.Workloads{Deployments: []*appsv1.Deployment{deploy}, ReplicaSets: []*appsv1.ReplicaSet{rs}}, now)
	if err != nil {
		panic(err)
	}
	s := res.PDB.Status
	fmt.Println("expected", s.ExpectedPods, "desired", s.DesiredHealthy, "healthy", s.CurrentHealthy, "allowed", s.DisruptionsAllowed)
	c := s.Conditions[0]
	fmt.Println(c.Type, c.Status, c.Reason, "observedGeneration", s.ObservedGeneration, "written", res.Updated)
	fmt.Println("input untouched:", pdb.Status.ObservedGeneration == 0)
	// Output:
	// expected 5 desired 3 healthy 3 allowed 0
	// DisruptionAllowed False InsufficientPods observedGeneration 2 written true
	// input untouched: true
}
