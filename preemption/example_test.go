package preemption_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/preemption"
)

func ExamplePriorityClasses_Resolve() {
	classes, err := preemption.NewPriorityClasses([]*schedulingv1.PriorityClass{
		{ObjectMeta: metav1.ObjectMeta{Name: "standard"}, Value: 1000, GlobalDefault: true},
	})
	if err != nil {
		panic(err)
	}
	for _, class := range []string{"", "system-node-critical", "missing"} {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
		pod.Spec.PriorityClassName = class
		r, err := classes.Resolve(pod)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(r.ClassName, r.Priority, r.PreemptionPolicy)
	}
	// Output:
	// standard 1000 PreemptLowerPriority
	// system-node-critical 2000001000 PreemptLowerPriority
	// pods "web" is forbidden: no PriorityClass with name missing was found
}

func ExampleSortQueue() {
	prio := func(v int32) *int32 { return &v }
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "batch"}, Spec: corev1.PodSpec{Priority: prio(100)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: corev1.PodSpec{Priority: prio(1000)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "cron"}, Spec: corev1.PodSpec{Priority: prio(100)}},
	}
	for _, p := range preemption.SortQueue(pods) {
		fmt.Println(p.Name)
	}
	// Output:
	// web
	// batch
	// cron
}

func ExamplePDBViolations() {
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "db"}}}
	}
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1},
	}
	broken := preemption.PDBViolations([]*corev1.Pod{pod("db-0"), pod("db-1")}, []*policyv1.PodDisruptionBudget{pdb}, preemption.PDBSelectorScheduler)
	fmt.Println(broken)
	// Output:
	// [[] [default/db]]
}
