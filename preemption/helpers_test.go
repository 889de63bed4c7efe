package preemption

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/internal/testbuild"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

type podOpt func(*corev1.Pod)

func mkPod(name string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func prio(v int32) podOpt { return func(p *corev1.Pod) { p.Spec.Priority = &v } }
func className(n string) podOpt {
	return func(p *corev1.Pod) { p.Spec.PriorityClassName = n }
}
func policy(v corev1.PreemptionPolicy) podOpt {
	return func(p *corev1.Pod) { p.Spec.PreemptionPolicy = &v }
}
func onNode(n string) podOpt { return func(p *corev1.Pod) { p.Spec.NodeName = n } }
func started(min int) podOpt {
	return func(p *corev1.Pod) {
		t := metav1.NewTime(t0.Add(time.Duration(min) * time.Minute))
		p.Status.StartTime = &t
	}
}
func created(sec int) podOpt {
	return func(p *corev1.Pod) { p.CreationTimestamp = metav1.NewTime(t0.Add(time.Duration(sec) * time.Second)) }
}
func labelled(kv ...string) podOpt {
	return func(p *corev1.Pod) {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		testbuild.AddLabels(p.Labels, kv...)
	}
}
func cpu(milli int64) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{
			corev1.ResourceCPU: *resource.NewMilliQuantity(milli, resource.DecimalSI)}
	}
}

func mkNode(name string, milliCPU int64) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(milliCPU, resource.DecimalSI),
			corev1.ResourceMemory: resource.MustParse("64Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		}},
	}
}

func mkPDB(name string, allowed int32, sel *metav1.LabelSelector, disrupted ...string) *policyv1.PodDisruptionBudget {
	one := intstr.FromInt32(1)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: sel, MinAvailable: &one},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed},
	}
	if len(disrupted) > 0 {
		pdb.Status.DisruptedPods = map[string]metav1.Time{}
		for _, d := range disrupted {
			pdb.Status.DisruptedPods[d] = metav1.NewTime(t0)
		}
	}
	return pdb
}

func sel(kv ...string) *metav1.LabelSelector { return testbuild.Selector(kv...) }
