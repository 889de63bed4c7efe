package lifecycle

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// MinimumKillGracePeriod is the shortest window the kubelet leaves a
// container between the termination signal and the kill, even when the grace
// period is used up (kuberuntime's minimumGracePeriodInSeconds).
const MinimumKillGracePeriod = 2 * time.Second

// KillPlan is the kubelet's kill sequence of one container, in time order:
// the preStop hook (if any) from Start until PreStopEnd, the termination
// signal (StopContainer with the remaining grace) at SignalAt, and the kill
// at KillAt if the container is still running.
type KillPlan struct {
	// GracePeriodSeconds is the budget the sequence started with.
	GracePeriodSeconds int64
	// Start is when the kubelet began killing the container.
	Start time.Time
	// PreStop: a preStop hook ran (the container has one and the budget is
	// positive).
	PreStop bool
	// PreStopEnd is when the hook finished or was abandoned (Start when no
	// hook ran).
	PreStopEnd time.Time
	// SignalAt is when the runtime sends the termination signal.
	SignalAt time.Time
	// StopGracePeriodSeconds is the grace the runtime gets: what is left of
	// the budget after the hook (whole seconds, truncated as the kubelet
	// counts), at least 2.
	StopGracePeriodSeconds int64
	// KillAt is when the runtime kills the container if it has not exited.
	KillAt time.Time
}

// KillGracePeriod returns the budget the kubelet uses to kill a container
// of pod: gracePeriodOverride if given (the pod worker always gives
// EffectiveGracePeriod when it terminates a pod),
// else metadata.deletionGracePeriodSeconds, else
// spec.terminationGracePeriodSeconds (unset = 30), else 2. Mirrors
// kuberuntime's setTerminationGracePeriod for a kill that is not caused by a
// failed probe, as of v1.36.
func KillGracePeriod(pod *corev1.Pod, gracePeriodOverride *int64) (int64, error) {
	if pod == nil {
		return 0, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	switch {
	case gracePeriodOverride != nil:
		return *gracePeriodOverride, nil
	case pod.DeletionGracePeriodSeconds != nil:
		return *pod.DeletionGracePeriodSeconds, nil
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		return *pod.Spec.TerminationGracePeriodSeconds, nil
	}
	return DefaultTerminationGracePeriodSeconds, nil
}

// EffectiveGracePeriod returns the grace period the kubelet's pod worker
// uses to terminate pod, given the value it used so far (previous, 0 when
// termination just began) and an optional kubelet override (eviction): the
// deletion grace period and the override may only shorten it, the pod's
// terminationGracePeriodSeconds (unset = 30) fills in when nothing else
// did, and it is at least 1. Mirrors pod_workers.go
// calculateEffectiveGracePeriod as of v1.36; the kubelet passes the result
// to every container kill as the override (see PlanKill). A kubelet restart
// forgets previous. The pod is not modified.
func EffectiveGracePeriod(previous int64, pod *corev1.Pod, override *int64) (int64, error) {
	if pod == nil {
		return 0, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	grace := previous
	overridden := false
	for _, o := range []*int64{pod.DeletionGracePeriodSeconds, override} {
		if o != nil && (grace == 0 || *o < grace) {
			grace, overridden = *o, true
		}
	}
	if !overridden && grace == 0 {
		grace = DefaultTerminationGracePeriodSeconds
		if pod.Spec.TerminationGracePeriodSeconds != nil {
			grace = *pod.Spec.TerminationGracePeriodSeconds
		}
	}
	return max(grace, 1), nil
}

// PlanKill returns the kill sequence of container containerName of pod
// starting at start, when its preStop hook would take preStopDuration (the
// kubelet waits for it at most the whole budget). Mirrors kuberuntime's
// killContainer as of v1.36: the hook runs only with a positive budget, the
// seconds it used (truncated) are taken from the budget, and the runtime
// gets at least 2 s between signal and kill. A kubelet restart during the
// sequence begins it again: call PlanKill anew with the restart time, which
// grants the whole budget again (the pod-safety design's reason why grace
// periods are not hard deadlines). The pod is not modified.
func PlanKill(pod *corev1.Pod, containerName string, gracePeriodOverride *int64, start time.Time, preStopDuration time.Duration) (KillPlan, error) {
	grace, err := KillGracePeriod(pod, gracePeriodOverride)
	if err != nil {
		return KillPlan{}, err
	}
	var c *corev1.Container
	for _, cs := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			if cs[i].Name == containerName && c == nil {
				c = &cs[i]
			}
		}
	}
	if c == nil {
		return KillPlan{}, fmt.Errorf("%w: pod %s/%s has no container %q", ErrInvalidInput, pod.Namespace, pod.Name, containerName)
	}
	if preStopDuration < 0 {
		return KillPlan{}, fmt.Errorf("%w: negative preStop duration %v", ErrInvalidInput, preStopDuration)
	}
	plan := KillPlan{GracePeriodSeconds: grace, Start: start, PreStopEnd: start}
	remaining := grace
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && grace > 0 {
		plan.PreStop = true
		took := min(preStopDuration, time.Duration(grace)*time.Second)
		plan.PreStopEnd = start.Add(took)
		remaining -= int64(took / time.Second)
	}
	if remaining < int64(MinimumKillGracePeriod/time.Second) {
		remaining = int64(MinimumKillGracePeriod / time.Second)
	}
	plan.SignalAt = plan.PreStopEnd
	plan.StopGracePeriodSeconds = remaining
	plan.KillAt = plan.SignalAt.Add(time.Duration(remaining) * time.Second)
	return plan, nil
}
