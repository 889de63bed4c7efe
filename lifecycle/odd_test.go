package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/lifecycle"
)

// askLifecycle puts pod to every entry point of lifecycle that takes one.
func askLifecycle(t *testing.T, pod *corev1.Pod) {
	neg, huge := int64(-5), int64(1)<<62
	for _, opts := range []lifecycle.StatusOptions{{}, {PodIsTerminal: true, PodHasInitialized: true}} {
		require.NotPanics(t, func() {
			_, _ = lifecycle.GenerateStatus(pod, opts)
			ph, _ := lifecycle.Phase(pod, opts)
			_, _ = lifecycle.GenerateConditions(pod, ph, true)
			_, _ = lifecycle.ContainersReadyCondition(pod, ph)
			_, _ = lifecycle.InitializedCondition(pod, ph)
			_, _ = lifecycle.ReadyCondition(pod, ph, nil)
			_, _ = lifecycle.ReadyToStartContainersCondition(pod, false)
			_, _ = lifecycle.ScheduledCondition(pod, "m")
		}, "status")
	}
	for _, o := range []*metav1.DeleteOptions{nil, {}, {GracePeriodSeconds: &neg}, {GracePeriodSeconds: &huge, Preconditions: &metav1.Preconditions{}}} {
		require.NotPanics(t, func() {
			_, _ = lifecycle.Delete(pod, o, now)
			_, _, _ = lifecycle.GracePeriod(pod, o)
			if pod != nil && o != nil {
				_, _, _ = lifecycle.BeforeDelete(pod.DeepCopy(), o.DeepCopy(), now)
			}
		}, "Delete")
	}
	require.NotPanics(t, func() {
		for _, override := range []*int64{nil, &neg, &huge} {
			_, _ = lifecycle.KillGracePeriod(pod, override)
			_, _ = lifecycle.EffectiveGracePeriod(huge, pod, override)
			_, _ = lifecycle.PlanKill(pod, "c", override, now, time.Hour)
			_, _ = lifecycle.PlanKill(pod, "", override, now, -time.Hour)
		}
		_, _ = lifecycle.DisruptionTargetCondition(pod, "", "")
		lifecycle.IsStaticPod(pod)
	}, "kill")
	require.NotPanics(t, func() {
		if pod == nil {
			return
		}
		lifecycle.AllContainersCouldRestart(&pod.Spec)
		for i := range pod.Spec.Containers {
			lifecycle.ShouldRestart(&pod.Spec.Containers[i], &pod.Spec, 137)
			lifecycle.IsRestartableInitContainer(&pod.Spec.Containers[i])
		}
		next := pod.Status.DeepCopy()
		next.Phase = corev1.PodSucceeded
		_, _ = lifecycle.CheckTransition(&pod.Spec, &pod.Status, next)
		_, _ = lifecycle.CheckTransition(&pod.Spec, nil, nil)
	}, "transition")
	require.NotPanics(t, func() {
		_, _ = lifecycle.CollectGarbage(lifecycle.GCInput{Pods: []*corev1.Pod{pod, hostile.Pod("web", "a")}, Nodes: []*corev1.Node{hostile.Node("b"), nil},
			TerminatedPodThreshold: 1, MissingSince: []lifecycle.MissingNode{{}, {Name: "a"}}, Now: now})
	}, "CollectGarbage")
}

// Issue 21, no panics on caller input.
func TestOddInputNeverPanics(t *testing.T) {
	for _, tc := range hostile.OddPods("a") {
		t.Run("pod: "+tc.Name, func(t *testing.T) {
			askLifecycle(t, tc.Obj)
		})
	}
	nils := []struct {
		name string
		ask  func(t *testing.T)
	}{
		{"nil pod", func(t *testing.T) { askLifecycle(t, nil) }},
		// Found by this table: IsStaticPod and ShouldRestart dereferenced nil.
		{"IsStaticPod of a nil pod", func(t *testing.T) { require.False(t, lifecycle.IsStaticPod(nil)) }},
		{"ShouldRestart with a nil container and spec", func(t *testing.T) { require.True(t, lifecycle.ShouldRestart(nil, nil, 1)) }},
		{"nil specs and statuses", func(t *testing.T) {
			lifecycle.AllContainersCouldRestart(nil)
			lifecycle.IsRestartableInitContainer(nil)
			_, _ = lifecycle.CheckTransition(nil, nil, nil)
			_, _ = lifecycle.CollectGarbage(lifecycle.GCInput{})
		}},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			require.NotPanics(t, func() { tc.ask(t) })
		})
	}
}
