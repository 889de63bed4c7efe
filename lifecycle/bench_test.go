package lifecycle_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

func benchPod() *corev1.Pod {
	return pod(never).
		init(ctr("init-0"), sidecar("proxy")).
		ctrs(ctr("app"), withRule(withPolicy(ctr("worker"), corev1.ContainerRestartPolicyNever), corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleOnExitCodesOpIn, 42), ctr("log")).
		initStatus(terminated("init-0", 0), running("proxy", true)).
		status(running("app", true), crashLoop("worker", 42), running("log", false)).
		gates("example.com/lb").cond("example.com/lb", corev1.ConditionTrue).
		pod()
}

func BenchmarkGenerateStatus(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lifecycle.GenerateStatus(p, lifecycle.StatusOptions{PodHasInitialized: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPhase(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lifecycle.Phase(p, lifecycle.StatusOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckTransition(b *testing.B) {
	p := benchPod()
	next := p.Status.DeepCopy()
	next.ContainerStatuses[1] = running("worker", false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lifecycle.CheckTransition(&p.Spec, &p.Status, next); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDelete(b *testing.B) {
	p := benchPod()
	opts := &metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](60)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lifecycle.Delete(p, opts, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCollectGarbage1000(b *testing.B) {
	in := lifecycle.GCInput{Now: t0, TerminatedPodThreshold: 100}
	for i := range 10 {
		in.Nodes = append(in.Nodes, gcNode(fmt.Sprintf("n%d", i), i != 3, corev1.TaintNodeOutOfService))
	}
	phases := []corev1.PodPhase{corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodPending}
	for i := range 1000 {
		p := gcPod(fmt.Sprintf("p%04d", i), fmt.Sprintf("n%d", i%12), phases[i%4], time.Duration(i%97)*time.Second)
		if i%7 == 0 {
			p = deleting(p)
		}
		in.Pods = append(in.Pods, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lifecycle.CollectGarbage(in); err != nil {
			b.Fatal(err)
		}
	}
}
