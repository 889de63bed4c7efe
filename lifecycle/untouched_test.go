package lifecycle_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/lifecycle"
	"github.com/schedkit/schedkit/placement/placementtest"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// withStatuses gives pod a status for each of its containers, drawn.
func withStatuses(t *rapid.T, pod *corev1.Pod) {
	state := func(name string) corev1.ContainerStatus {
		cs := corev1.ContainerStatus{Name: name, RestartCount: rapid.Int32Range(0, 3).Draw(t, "restarts")}
		switch rapid.IntRange(0, 2).Draw(t, "state") {
		case 0:
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(now.Add(-time.Hour))}
			cs.Ready = rapid.Bool().Draw(t, "ready")
		case 1:
			cs.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: rapid.Int32Range(0, 1).Draw(t, "exit"),
				FinishedAt: metav1.NewTime(now.Add(-time.Minute))}
		default:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		}
		return cs
	}
	for _, c := range pod.Spec.InitContainers {
		pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, state(c.Name))
	}
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, state(c.Name))
	}
	pod.Spec.RestartPolicy = rapid.SampledFrom([]corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}).Draw(t, "restart policy")
	if rapid.Bool().Draw(t, "terminating") {
		ts, grace := metav1.NewTime(now.Add(-10*time.Second)), int64(30)
		pod.DeletionTimestamp, pod.DeletionGracePeriodSeconds = &ts, &grace
	}
}

// Issue 21, inputs untouched. BeforeDelete is left out: it is documented
// to apply the API server's pre-delete rules to its arguments in place.
func TestInputsUntouched(t *testing.T) {
	t.Run("no entry point of lifecycle modifies its pods, even when the caller scrambles the answers", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 3, MaxPods: 6, MaxPending: 2}).Draw(t, "cluster")
			pods := append(slices.Clone(c.Pods), c.Pending...)
			for _, p := range pods {
				withStatuses(t, p)
			}
			frozen := hostile.Freeze(hostile.Objects(pods)...)
			frozen.Add(hostile.Objects(c.Nodes)...)
			order := slices.Clone(pods)
			check := func(after string) { require.Empty(t, frozen.Changed(), "after %s", after) }
			grace := int64(5)
			del := &metav1.DeleteOptions{GracePeriodSeconds: &grace}
			for _, p := range pods {
				for _, opts := range []lifecycle.StatusOptions{{}, {PodIsTerminal: true, PodHasInitialized: true}} {
					st, err := lifecycle.GenerateStatus(p, opts)
					require.NoError(t, err)
					frozen.Scramble(&st)
					check("GenerateStatus")
					ph, err := lifecycle.Phase(p, opts)
					require.NoError(t, err)
					conds, err := lifecycle.GenerateConditions(p, ph, true)
					require.NoError(t, err)
					frozen.Scramble(conds)
					check("GenerateConditions")
					ready, err := lifecycle.ReadyCondition(p, ph, p.Status.Conditions)
					require.NoError(t, err)
					frozen.Scramble(&ready)
					check("ReadyCondition")
				}
				for _, o := range []*metav1.DeleteOptions{{}, del} {
					d, err := lifecycle.Delete(p, o, now)
					require.NoError(t, err)
					frozen.Scramble(&d)
					check("Delete")
				}
				k, err := lifecycle.PlanKill(p, p.Spec.Containers[0].Name, nil, now, time.Second)
				require.NoError(t, err)
				frozen.Scramble(&k)
				check("PlanKill")
				cond, err := lifecycle.DisruptionTargetCondition(p, lifecycle.DisruptionReason("EvictionByEvictionAPI"), "evicted")
				require.NoError(t, err)
				frozen.Scramble(&cond)
				check("DisruptionTargetCondition")
				next := p.Status.DeepCopy()
				next.Phase = corev1.PodSucceeded
				tr, err := lifecycle.CheckTransition(&p.Spec, &p.Status, next)
				if err == nil {
					frozen.Scramble(&tr)
				}
				check("CheckTransition")
				lifecycle.ShouldRestart(&p.Spec.Containers[0], &p.Spec, 1)
				lifecycle.AllContainersCouldRestart(&p.Spec)
			}
			gc, err := lifecycle.CollectGarbage(lifecycle.GCInput{Pods: pods, Nodes: c.Nodes[1:], TerminatedPodThreshold: 1, Now: now})
			require.NoError(t, err)
			frozen.Scramble(gc)
			check("CollectGarbage")
			require.True(t, slices.Equal(order, pods), "the pods' order changed")
			require.Empty(t, frozen.Changed())
		})
	})
}
