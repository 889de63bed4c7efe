package lifecycle_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

const (
	always    = corev1.RestartPolicyAlways
	onFailure = corev1.RestartPolicyOnFailure
	never     = corev1.RestartPolicyNever
)

// TestPhase mirrors pkg/kubelet/kubelet_pods.go getPhase, one case per rule.
func TestPhase(t *testing.T) {
	restart := corev1.ContainerRestartRuleActionRestart
	restartAll := corev1.ContainerRestartRuleActionRestartAllContainers
	in := corev1.ContainerRestartRuleOnExitCodesOpIn
	notIn := corev1.ContainerRestartRuleOnExitCodesOpNotIn
	static := func(b *podB) *podB {
		b.p.Annotations = map[string]string{"kubernetes.io/config.source": "file"}
		return b
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		opts lifecycle.StatusOptions
		want corev1.PodPhase
	}{
		{"regular init container without status is pending", pod(always).init(ctr("i")).ctrs(ctr("a")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"running init container is pending", pod(always).init(ctr("i")).ctrs(ctr("a")).initStatus(running("i", false)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"init container with empty state is pending", pod(always).init(ctr("i")).ctrs(ctr("a")).initStatus(emptyState("i")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"waiting init container without last termination is pending", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(waiting("i")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"completed init container lets the regular containers decide", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(terminated("i", 0)).status(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"failed init container under Never fails the pod", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(terminated("i", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"failed init container under OnFailure will restart", pod(onFailure).init(ctr("i")).ctrs(ctr("a")).initStatus(terminated("i", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"failed init container under Always will restart", pod(always).init(ctr("i")).ctrs(ctr("a")).initStatus(terminated("i", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"crash-looping init container under Never fails the pod", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(crashLoop("i", 2)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"waiting init container after a success is not pending", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(crashLoop("i", 0)).status(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"init restart rule overrides container Never", pod(never).init(withRule(withPolicy(ctr("i"), corev1.ContainerRestartPolicyNever), restart, in, 42)).ctrs(ctr("a")).initStatus(terminated("i", 42)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"init restart rule not matching falls back to container Never", pod(always).init(withRule(withPolicy(ctr("i"), corev1.ContainerRestartPolicyNever), restart, in, 42)).ctrs(ctr("a")).initStatus(terminated("i", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"init container stopped for RestartingAllContainers will restart", pod(never).init(ctr("i")).ctrs(ctr("a")).initStatus(terminatedReason("i", 137, lifecycle.RestartingAllContainers)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"sidecar without status is unknown", pod(always).init(sidecar("s")).ctrs(ctr("a")).status(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"sidecar running but not started keeps an uninitialized pod pending", pod(always).init(sidecar("s")).ctrs(ctr("a")).initStatus(runningNotStarted("s")).status(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"sidecar restarting in an initialized pod keeps it running", pod(always).init(sidecar("s")).ctrs(ctr("a")).initStatus(runningNotStarted("s")).status(running("a", true)).pod(), lifecycle.StatusOptions{PodHasInitialized: true}, corev1.PodRunning},
		{"waiting sidecar in an initialized pod is still waiting", pod(always).init(sidecar("s")).ctrs(ctr("a")).initStatus(waiting("s")).status(running("a", true)).pod(), lifecycle.StatusOptions{PodHasInitialized: true}, corev1.PodPending},
		{"terminated sidecar does not count", pod(never).init(sidecar("s")).ctrs(ctr("a")).initStatus(terminated("s", 137)).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodSucceeded},
		{"running sidecar alone keeps the pod running", pod(never).init(sidecar("s")).ctrs(ctr("a")).initStatus(running("s", true)).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"all containers running is running", pod(always).ctrs(ctr("a"), ctr("b")).status(running("a", true), running("b", false)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"running with an unknown container is pending", pod(always).ctrs(ctr("a"), ctr("b")).status(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"waiting container is pending", pod(always).ctrs(ctr("a"), ctr("b")).status(running("a", true), waiting("b")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"empty container state is unknown", pod(always).ctrs(ctr("a")).status(emptyState("a")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"no status at all is pending", pod(always).ctrs(ctr("a")).pod(), lifecycle.StatusOptions{}, corev1.PodPending},
		{"all stopped under Always restarts", pod(always).ctrs(ctr("a")).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"unset restartPolicy is Always", pod("").ctrs(ctr("a")).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"all exited 0 under OnFailure succeeds", pod(onFailure).ctrs(ctr("a"), ctr("b")).status(terminated("a", 0), terminated("b", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodSucceeded},
		{"a failure under OnFailure restarts", pod(onFailure).ctrs(ctr("a"), ctr("b")).status(terminated("a", 0), terminated("b", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"a failure under Never fails", pod(never).ctrs(ctr("a"), ctr("b")).status(terminated("a", 0), terminated("b", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"crash loop under Always is running", pod(always).ctrs(ctr("a")).status(crashLoop("a", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"crash loop counts as stopped, never succeeded", pod(never).ctrs(ctr("a")).status(crashLoop("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"terminal pod with all exits 0 succeeds whatever the policy", pod(always).ctrs(ctr("a")).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{PodIsTerminal: true}, corev1.PodSucceeded},
		{"terminal pod with a failure fails", pod(always).ctrs(ctr("a"), ctr("b")).status(terminated("a", 0), terminated("b", 143)).pod(), lifecycle.StatusOptions{PodIsTerminal: true}, corev1.PodFailed},
		{"terminal static pod keeps the restart rules", static(pod(always).ctrs(ctr("a")).status(terminated("a", 0))).pod(), lifecycle.StatusOptions{PodIsTerminal: true}, corev1.PodRunning},
		{"container Never in an Always pod stops for good", pod(always).ctrs(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever)).status(terminated("a", 1)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"container OnFailure exiting 0 succeeds", pod(always).ctrs(withPolicy(ctr("a"), corev1.ContainerRestartPolicyOnFailure)).status(terminated("a", 0)).pod(), lifecycle.StatusOptions{}, corev1.PodSucceeded},
		{"restart rule overrides container Never", pod(never).ctrs(withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, notIn, 0)).status(terminated("a", 3)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"RestartAllContainers rule restarts", pod(never).ctrs(withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restartAll, in, 42)).status(terminated("a", 42)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"rules are ignored without a container restartPolicy", pod(never).ctrs(withRule(ctr("a"), restart, in, 42)).status(terminated("a", 42)).pod(), lifecycle.StatusOptions{}, corev1.PodFailed},
		{"container stopped for RestartingAllContainers restarts", pod(never).ctrs(ctr("a")).status(terminatedReason("a", 137, lifecycle.RestartingAllContainers)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
		{"regular status found in the init list by name", pod(always).ctrs(ctr("a")).initStatus(running("a", true)).pod(), lifecycle.StatusOptions{}, corev1.PodRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.pod.DeepCopy()
			got, err := lifecycle.Phase(tt.pod, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, before, tt.pod, "input modified")
		})
	}
}

// TestShouldRestart mirrors pkg/api/v1/pod.ContainerShouldRestart.
func TestShouldRestart(t *testing.T) {
	in := corev1.ContainerRestartRuleOnExitCodesOpIn
	notIn := corev1.ContainerRestartRuleOnExitCodesOpNotIn
	restart := corev1.ContainerRestartRuleActionRestart
	tests := []struct {
		name   string
		c      corev1.Container
		policy corev1.RestartPolicy
		code   int32
		want   bool
	}{
		{"pod Always", ctr("a"), always, 0, true},
		{"pod OnFailure exit 0", ctr("a"), onFailure, 0, false},
		{"pod OnFailure exit 1", ctr("a"), onFailure, 1, true},
		{"pod Never", ctr("a"), never, 1, false},
		{"pod unset is Always", ctr("a"), "", 0, true},
		{"container Always beats pod Never", withPolicy(ctr("a"), corev1.ContainerRestartPolicyAlways), never, 0, true},
		{"container OnFailure exit 0", withPolicy(ctr("a"), corev1.ContainerRestartPolicyOnFailure), always, 0, false},
		{"container Never beats pod Always", withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), always, 1, false},
		{"In rule matches", withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, in, 42), never, 42, true},
		{"In rule does not match", withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, in, 42), never, 1, false},
		{"NotIn rule matches", withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, notIn, 42), never, 1, true},
		{"NotIn rule does not match", withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, notIn, 42), never, 42, false},
		{"rules need a container policy", withRule(ctr("a"), restart, in, 42), never, 42, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := corev1.PodSpec{RestartPolicy: tt.policy}
			assert.Equal(t, tt.want, lifecycle.ShouldRestart(&tt.c, &spec, tt.code))
		})
	}
}

// TestInvalidInput: malformed input is an error wrapping ErrInvalidInput
// with API paths, never a panic.
func TestInvalidInput(t *testing.T) {
	bad := pod("Sometimes").ctrs(
		withPolicy(ctr("a"), "Maybe"),
		corev1.Container{Name: "b", RestartPolicy: ptr(corev1.ContainerRestartPolicyNever), RestartPolicyRules: []corev1.ContainerRestartRule{{Action: "Explode"}}},
		corev1.Container{Name: "c", RestartPolicy: ptr(corev1.ContainerRestartPolicyNever), RestartPolicyRules: []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: "Between"}}}},
	).pod()
	_, err := lifecycle.Phase(bad, lifecycle.StatusOptions{})
	require.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	var paths []string
	for _, e := range lifecycle.FieldErrors(err) {
		paths = append(paths, e.Field)
	}
	assert.Equal(t, []string{
		"spec.restartPolicy",
		"spec.containers[0].restartPolicy",
		"spec.containers[1].restartPolicyRules[0].action",
		"spec.containers[1].restartPolicyRules[0].exitCodes",
		"spec.containers[2].restartPolicyRules[0].exitCodes.operator",
	}, paths)

	_, err = lifecycle.Phase(nil, lifecycle.StatusOptions{})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.GenerateStatus(nil, lifecycle.StatusOptions{})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.CheckTransition(nil, &corev1.PodStatus{}, &corev1.PodStatus{})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.CheckTransition(&bad.Spec, &corev1.PodStatus{}, &corev1.PodStatus{})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, _, err = lifecycle.GracePeriod(nil, nil)
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.Delete(nil, nil, t0)
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.DisruptionTargetCondition(pod(always).pod(), "Because", "")
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.CollectGarbage(lifecycle.GCInput{Pods: []*corev1.Pod{nil}})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.PlanKill(pod(always).ctrs(ctr("a")).pod(), "zz", nil, t0, 0)
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
}
