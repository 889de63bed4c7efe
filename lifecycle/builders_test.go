package lifecycle_test

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Small builders for the table tests: a pod is a spec of containers plus
// their statuses.

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

type podB struct{ p *corev1.Pod }

func pod(policy corev1.RestartPolicy) *podB {
	return &podB{p: &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "uid-p", ResourceVersion: "7", Generation: 1},
		Spec:       corev1.PodSpec{RestartPolicy: policy, NodeName: "node-1"},
	}}
}

func ctr(name string) corev1.Container { return corev1.Container{Name: name, Image: "img"} }

func withPolicy(c corev1.Container, p corev1.ContainerRestartPolicy) corev1.Container {
	c.RestartPolicy = &p
	return c
}

func withRule(c corev1.Container, action corev1.ContainerRestartRuleAction, op corev1.ContainerRestartRuleOnExitCodesOperator, codes ...int32) corev1.Container {
	c.RestartPolicyRules = append(c.RestartPolicyRules, corev1.ContainerRestartRule{
		Action:    action,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: op, Values: codes},
	})
	return c
}

func sidecar(name string) corev1.Container {
	return withPolicy(ctr(name), corev1.ContainerRestartPolicyAlways)
}

func (b *podB) init(cs ...corev1.Container) *podB {
	b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, cs...)
	return b
}

func (b *podB) ctrs(cs ...corev1.Container) *podB {
	b.p.Spec.Containers = append(b.p.Spec.Containers, cs...)
	return b
}

func (b *podB) initStatus(ss ...corev1.ContainerStatus) *podB {
	b.p.Status.InitContainerStatuses = append(b.p.Status.InitContainerStatuses, ss...)
	return b
}

func (b *podB) status(ss ...corev1.ContainerStatus) *podB {
	b.p.Status.ContainerStatuses = append(b.p.Status.ContainerStatuses, ss...)
	return b
}

func (b *podB) cond(t corev1.PodConditionType, s corev1.ConditionStatus) *podB {
	b.p.Status.Conditions = append(b.p.Status.Conditions, corev1.PodCondition{Type: t, Status: s})
	return b
}

func (b *podB) gates(types ...corev1.PodConditionType) *podB {
	for _, t := range types {
		b.p.Spec.ReadinessGates = append(b.p.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: t})
	}
	return b
}

func (b *podB) pod() *corev1.Pod { return b.p }

func running(name string, ready bool) corev1.ContainerStatus {
	t := true
	return corev1.ContainerStatus{Name: name, Ready: ready, Started: &t, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func runningNotStarted(name string) corev1.ContainerStatus {
	f := false
	return corev1.ContainerStatus{Name: name, Started: &f, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func terminated(name string, code int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Ready: code == 0, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
}

func terminatedReason(name string, code int32, reason string) corev1.ContainerStatus {
	s := terminated(name, code)
	s.State.Terminated.Reason = reason
	return s
}

func waiting(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}
}

func crashLoop(name string, lastCode int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name,
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: lastCode}},
	}
}

func emptyState(name string) corev1.ContainerStatus { return corev1.ContainerStatus{Name: name} }

func ptr[T any](v T) *T { return &v }
