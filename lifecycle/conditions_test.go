package lifecycle_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

type condWant struct {
	status          corev1.ConditionStatus
	reason, message string
}

func condOf(c corev1.PodCondition) condWant { return condWant{c.Status, c.Reason, c.Message} }

// TestContainersReadyCondition mirrors pkg/kubelet/status.GenerateContainersReadyCondition.
func TestContainersReadyCondition(t *testing.T) {
	tests := []struct {
		name  string
		pod   *corev1.Pod
		phase corev1.PodPhase
		want  condWant
	}{
		{"no statuses at all", pod(always).ctrs(ctr("a")).pod(), corev1.PodPending, condWant{"False", "UnknownContainerStatuses", ""}},
		{"all ready", pod(always).ctrs(ctr("a"), ctr("b")).status(running("a", true), running("b", true)).pod(), corev1.PodRunning, condWant{"True", "", ""}},
		{"unready and unknown containers in spec order", pod(always).init(sidecar("s")).ctrs(ctr("a"), ctr("b"), ctr("c")).initStatus(runningNotStarted("s")).status(running("b", false)).pod(), corev1.PodPending,
			condWant{"False", "ContainersNotReady", "containers with unknown status: [a c], containers with unready status: [s b]"}},
		{"regular init containers do not count", pod(always).init(ctr("i")).ctrs(ctr("a")).initStatus(running("i", false)).status(running("a", true)).pod(), corev1.PodRunning, condWant{"True", "", ""}},
		{"succeeded with all known", pod(never).ctrs(ctr("a")).status(terminated("a", 0)).pod(), corev1.PodSucceeded, condWant{"False", "PodCompleted", ""}},
		{"succeeded with an unknown container reports it", pod(never).ctrs(ctr("a"), ctr("b")).status(terminated("a", 0)).pod(), corev1.PodSucceeded, condWant{"False", "ContainersNotReady", "containers with unknown status: [b]"}},
		{"failed", pod(never).ctrs(ctr("a"), ctr("b")).status(running("a", true)).pod(), corev1.PodFailed, condWant{"False", "PodFailed", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lifecycle.ContainersReadyCondition(tt.pod, tt.phase)
			require.NoError(t, err)
			assert.Equal(t, corev1.ContainersReady, got.Type)
			assert.Equal(t, tt.want, condOf(got))
			assert.Equal(t, tt.pod.Generation, got.ObservedGeneration)
		})
	}
}

// TestReadyCondition mirrors pkg/kubelet/status.GeneratePodReadyCondition.
func TestReadyCondition(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		want condWant
	}{
		{"copies ContainersReady when not true", pod(always).ctrs(ctr("a")).status(running("a", false)).pod(), condWant{"False", "ContainersNotReady", "containers with unready status: [a]"}},
		{"no gates", pod(always).ctrs(ctr("a")).status(running("a", true)).pod(), condWant{"True", "", ""}},
		{"gate true", pod(always).ctrs(ctr("a")).status(running("a", true)).gates("x/g").cond("x/g", "True").pod(), condWant{"True", "", ""}},
		{"gate missing and gate false", pod(always).ctrs(ctr("a")).status(running("a", true)).gates("x/missing", "x/f").cond("x/f", "False").pod(),
			condWant{"False", "ReadinessGatesNotReady", `corresponding condition of pod readiness gate "x/missing" does not exist., the status of pod readiness gate "x/f" is not "True", but False`}},
		{"gate on a kubelet-owned condition sees only the new Initialized", pod(always).ctrs(ctr("a")).status(running("a", true)).gates("Ready", "Initialized").cond("Ready", "True").pod(),
			condWant{"False", "ReadinessGatesNotReady", `corresponding condition of pod readiness gate "Ready" does not exist.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := lifecycle.GenerateStatus(tt.pod, lifecycle.StatusOptions{})
			require.NoError(t, err)
			require.Len(t, st.Conditions, 3)
			assert.Equal(t, corev1.PodReady, st.Conditions[1].Type)
			assert.Equal(t, tt.want, condOf(st.Conditions[1]))
			assert.Equal(t, st.Conditions[1], *st.Condition(corev1.PodReady))
		})
	}
}

// TestInitializedCondition mirrors pkg/kubelet/status.GeneratePodInitializedCondition.
func TestInitializedCondition(t *testing.T) {
	tests := []struct {
		name  string
		pod   *corev1.Pod
		phase corev1.PodPhase
		want  condWant
	}{
		{"no init containers", pod(always).ctrs(ctr("a")).pod(), corev1.PodPending, condWant{"True", "", ""}},
		{"init containers and no statuses", pod(always).init(ctr("i")).ctrs(ctr("a")).pod(), corev1.PodPending, condWant{"False", "UnknownContainerStatuses", ""}},
		{"regular init ready, sidecar started", pod(always).init(ctr("i"), sidecar("s")).ctrs(ctr("a")).initStatus(terminated("i", 0), running("s", false)).pod(), corev1.PodPending, condWant{"True", "", ""}},
		{"unknown and incomplete", pod(always).init(ctr("i"), sidecar("s"), ctr("j")).ctrs(ctr("a")).initStatus(running("i", false), runningNotStarted("s")).pod(), corev1.PodPending,
			condWant{"False", "ContainersNotInitialized", "containers with unknown status: [j], containers with incomplete status: [i s]"}},
		{"succeeded with all init known", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(running("i", false)).status(terminated("a", 0)).pod(), corev1.PodSucceeded, condWant{"True", "PodCompleted", ""}},
		{"a regular container started", pod(always).init(sidecar("s")).ctrs(ctr("a")).initStatus(runningNotStarted("s")).status(running("a", true)).pod(), corev1.PodRunning, condWant{"True", "", ""}},
		{"previously initialized stays initialized", pod(always).init(ctr("i")).ctrs(ctr("a")).initStatus(waiting("i")).status(waiting("a")).cond(corev1.PodInitialized, "True").pod(), corev1.PodPending, condWant{"True", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lifecycle.InitializedCondition(tt.pod, tt.phase)
			require.NoError(t, err)
			assert.Equal(t, corev1.PodInitialized, got.Type)
			assert.Equal(t, tt.want, condOf(got))
		})
	}
}

// TestOtherConditions covers PodScheduled (scheduler, SchedulingGates),
// PodReadyToStartContainers (GeneratePodReadyToStartContainersCondition)
// and DisruptionTarget.
func TestOtherConditions(t *testing.T) {
	bound := pod(always).ctrs(ctr("a")).pod()
	unbound := bound.DeepCopy()
	unbound.Spec.NodeName = ""
	gated := unbound.DeepCopy()
	gated.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/wait"}}

	c, err := lifecycle.ScheduledCondition(bound, "")
	require.NoError(t, err)
	assert.Equal(t, condWant{"True", "", ""}, condOf(c))
	c, err = lifecycle.ScheduledCondition(gated, "")
	require.NoError(t, err)
	assert.Equal(t, condWant{"False", "SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates"}, condOf(c))
	c, err = lifecycle.ScheduledCondition(unbound, "0/3 nodes are available: 3 Insufficient cpu.")
	require.NoError(t, err)
	assert.Equal(t, condWant{"False", "Unschedulable", "0/3 nodes are available: 3 Insufficient cpu."}, condOf(c))

	c, err = lifecycle.ReadyToStartContainersCondition(bound, true)
	require.NoError(t, err)
	assert.Equal(t, condWant{"True", "", ""}, condOf(c))
	c, err = lifecycle.ReadyToStartContainersCondition(bound, false)
	require.NoError(t, err)
	assert.Equal(t, condWant{"False", "", ""}, condOf(c))

	c, err = lifecycle.DisruptionTargetCondition(bound, lifecycle.DisruptionByEvictionAPI, lifecycle.MessageEvictionAPI)
	require.NoError(t, err)
	assert.Equal(t, corev1.DisruptionTarget, c.Type)
	assert.Equal(t, condWant{"True", "EvictionByEvictionAPI", "Eviction API: evicting"}, condOf(c))

	assert.True(t, lifecycle.IsKubeletOwnedCondition(corev1.PodReadyToStartContainers))
	assert.False(t, lifecycle.IsKubeletOwnedCondition(corev1.DisruptionTarget))
}

// TestGenerateConditions mirrors the condition list of
// (*Kubelet).generateAPIPodStatus.
func TestGenerateConditions(t *testing.T) {
	p := pod(always).ctrs(ctr("a")).status(running("a", true)).
		gates(corev1.PodReadyToStartContainers, "x/g").cond("x/g", "True").cond(corev1.DisruptionTarget, "True").cond(corev1.PodReady, "False").pod()
	got, err := lifecycle.GenerateConditions(p, corev1.PodRunning, true)
	require.NoError(t, err)
	var types []corev1.PodConditionType
	for _, c := range got {
		types = append(types, c.Type)
	}
	assert.Equal(t, []corev1.PodConditionType{"x/g", corev1.DisruptionTarget, corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled}, types)
	assert.Equal(t, condWant{"True", "", ""}, condOf(got[4]), "the gate on PodReadyToStartContainers sees the generated condition")

	got, err = lifecycle.GenerateConditions(p, corev1.PodRunning, false)
	require.NoError(t, err)
	assert.Equal(t, condWant{"False", "ReadinessGatesNotReady", `the status of pod readiness gate "PodReadyToStartContainers" is not "True", but False`}, condOf(got[4]))
}

// TestReadyConditionPhases mirrors pkg/kubelet/status.GeneratePodReadyCondition
// in the terminal phases: Ready copies ContainersReady's PodCompleted or
// PodFailed whatever the containers' readiness, and readiness gates are only
// looked at once ContainersReady is True.
func TestReadyConditionPhases(t *testing.T) {
	gated := pod(never).ctrs(ctr("a")).status(terminated("a", 0)).gates("x/g").pod()
	tests := []struct {
		name  string
		pod   *corev1.Pod
		phase corev1.PodPhase
		want  condWant
	}{
		{"succeeded copies PodCompleted", pod(never).ctrs(ctr("a")).status(terminated("a", 0)).pod(), corev1.PodSucceeded, condWant{"False", "PodCompleted", ""}},
		{"succeeded hides a missing readiness gate", gated, corev1.PodSucceeded, condWant{"False", "PodCompleted", ""}},
		{"failed copies PodFailed even with ready containers", pod(never).ctrs(ctr("a")).status(running("a", true)).pod(), corev1.PodFailed, condWant{"False", "PodFailed", ""}},
		{"unknown statuses are copied", pod(always).ctrs(ctr("a")).pod(), corev1.PodPending, condWant{"False", "UnknownContainerStatuses", ""}},
		{"a gate is checked against the conditions given, not the pod's", pod(always).ctrs(ctr("a")).status(running("a", true)).gates("x/g").cond("x/g", "False").pod(), corev1.PodRunning,
			condWant{"True", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.pod.DeepCopy()
			given := []corev1.PodCondition{{Type: "x/g", Status: corev1.ConditionTrue}}
			got, err := lifecycle.ReadyCondition(tt.pod, tt.phase, given)
			require.NoError(t, err)
			assert.Equal(t, corev1.PodReady, got.Type)
			assert.Equal(t, tt.want, condOf(got))
			assert.Equal(t, before, tt.pod, "input modified")
		})
	}
}

// TestDisruptionTargetCondition covers every DisruptionTarget reason of
// v1.36 (the scheduler's preemption, the taint managers, the eviction
// subresource, PodGC's orphan deletion, the kubelet) and refuses others.
func TestDisruptionTargetCondition(t *testing.T) {
	p := pod(always).ctrs(ctr("a")).pod()
	p.Generation = 4
	tests := []struct {
		name    string
		reason  lifecycle.DisruptionReason
		message string
		want    string
	}{
		{"scheduler preemption", lifecycle.DisruptionPreemptionByScheduler, "default-scheduler: preempting to accommodate a higher priority pod", "PreemptionByScheduler"},
		{"taint manager", lifecycle.DisruptionByTaintManager, lifecycle.MessageTaintManager, "DeletionByTaintManager"},
		{"device taint manager", lifecycle.DisruptionByDeviceTaintManager, lifecycle.MessageDeviceTaintManager, "DeletionByDeviceTaintManager"},
		{"eviction API", lifecycle.DisruptionByEvictionAPI, lifecycle.MessageEvictionAPI, "EvictionByEvictionAPI"},
		{"pod GC", lifecycle.DisruptionByPodGC, lifecycle.OrphanMessage, "DeletionByPodGC"},
		{"kubelet", lifecycle.DisruptionTerminationByKubelet, lifecycle.MessageKubeletPreemption, "TerminationByKubelet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := lifecycle.DisruptionTargetCondition(p, tt.reason, tt.message)
			require.NoError(t, err)
			assert.Equal(t, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: tt.want, Message: tt.message, ObservedGeneration: 4}, c)
		})
	}
	_, err := lifecycle.DisruptionTargetCondition(p, "Whatever", "")
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.DisruptionTargetCondition(nil, lifecycle.DisruptionByPodGC, "")
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
}

// TestScheduledConditionGeneration: only the scheduler's Unschedulable
// condition carries observedGeneration (handleSchedulingFailure); the
// binding's True and the API server's SchedulingGated do not.
func TestScheduledConditionGeneration(t *testing.T) {
	bound := pod(always).ctrs(ctr("a")).pod()
	bound.Generation = 3
	unbound := bound.DeepCopy()
	unbound.Spec.NodeName = ""
	gated := unbound.DeepCopy()
	gated.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/wait"}}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want int64
	}{{"bound", bound, 0}, {"gated", gated, 0}, {"unschedulable", unbound, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := lifecycle.ScheduledCondition(tc.pod, "no")
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.ObservedGeneration)
		})
	}
}
