package lifecycle_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

// TestCheckTransition mirrors pkg/kubelet/status.checkContainerStateTransition.
func TestCheckTransition(t *testing.T) {
	restartAll := corev1.ContainerRestartRuleActionRestartAllContainers
	restart := corev1.ContainerRestartRuleActionRestart
	in := corev1.ContainerRestartRuleOnExitCodesOpIn
	st := func(init []corev1.ContainerStatus, regular ...corev1.ContainerStatus) *corev1.PodStatus {
		return &corev1.PodStatus{InitContainerStatuses: init, ContainerStatuses: regular}
	}
	illegal := "terminated container a attempted illegal transition to non-terminated state"
	tests := []struct {
		name     string
		spec     *corev1.PodSpec
		old, new *corev1.PodStatus
		want     lifecycle.Transition
	}{
		{"Always allows everything", &pod(always).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"unset policy is Always", &pod("").ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"a RestartAllContainers rule allows everything", &pod(never).ctrs(ctr("a"), withRule(withPolicy(ctr("b"), corev1.ContainerRestartPolicyNever), restartAll, in, 9)).pod().Spec,
			st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"Never refuses terminated to running", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
		{"Never refuses terminated to waiting", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 1)), st(nil, waiting("a")), lifecycle.Transition{Reason: illegal}},
		{"Never refuses terminated to empty state", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 1)), st(nil, emptyState("a")), lifecycle.Transition{Reason: illegal}},
		{"terminated to terminated is fine", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 1)), st(nil, terminated("a", 2)), lifecycle.Transition{Allowed: true}},
		{"a container missing from the new status is fine", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 1)), st(nil), lifecycle.Transition{Allowed: true}},
		{"running to anything is fine", &pod(never).ctrs(ctr("a")).pod().Spec, st(nil, running("a", true)), st(nil, waiting("a")), lifecycle.Transition{Allowed: true}},
		{"OnFailure allows a failed container to run", &pod(onFailure).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 1)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"OnFailure refuses a succeeded container", &pod(onFailure).ctrs(ctr("a")).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
		{"container Always under pod Never", &pod(never).ctrs(withPolicy(ctr("a"), corev1.ContainerRestartPolicyAlways)).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"restart rule matching the exit code", &pod(never).ctrs(withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, in, 42)).pod().Spec, st(nil, terminated("a", 42)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"restart rule not matching", &pod(never).ctrs(withRule(withPolicy(ctr("a"), corev1.ContainerRestartPolicyNever), restart, in, 42)).pod().Spec, st(nil, terminated("a", 1)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
		{"init container refused", &pod(never).init(ctr("i")).ctrs(ctr("a")).pod().Spec, st([]corev1.ContainerStatus{terminated("i", 0)}), st([]corev1.ContainerStatus{running("i", false)}),
			lifecycle.Transition{Reason: "terminated init container i attempted illegal transition to non-terminated state"}},
		{"sidecar always allowed", &pod(never).init(sidecar("s")).ctrs(ctr("a")).pod().Spec, st([]corev1.ContainerStatus{terminated("s", 0)}), st([]corev1.ContainerStatus{running("s", true)}), lifecycle.Transition{Allowed: true}},
		{"init OnFailure pod failed init may rerun", &pod(onFailure).init(ctr("i")).ctrs(ctr("a")).pod().Spec, st([]corev1.ContainerStatus{terminated("i", 3)}), st([]corev1.ContainerStatus{running("i", false)}), lifecycle.Transition{Allowed: true}},
		{"init statuses out of spec order are a mismatch", &pod(never).init(ctr("i"), ctr("j")).ctrs(ctr("a")).pod().Spec,
			st([]corev1.ContainerStatus{running("j", false), running("i", false)}), st(nil),
			lifecycle.Transition{Reason: "found mismatch between pod spec and status, container: j"}},
		{"more init statuses than init containers is a mismatch", &pod(never).init(ctr("i")).ctrs(ctr("a")).pod().Spec,
			st([]corev1.ContainerStatus{terminated("i", 0), terminated("x", 0)}), st(nil),
			lifecycle.Transition{Reason: "found mismatch between pod spec and status, container: x"}},
		{"a terminated status with no container of its name in the spec is refused", &pod(never).ctrs(ctr("b")).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
		{"container OnFailure under pod Never lets a failure rerun", &pod(never).ctrs(withPolicy(ctr("a"), corev1.ContainerRestartPolicyOnFailure)).pod().Spec, st(nil, terminated("a", 2)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"container OnFailure under pod Never refuses a success", &pod(never).ctrs(withPolicy(ctr("a"), corev1.ContainerRestartPolicyOnFailure)).pod().Spec, st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
		{"init restart rule matching the exit code", &pod(never).init(withRule(withPolicy(ctr("i"), corev1.ContainerRestartPolicyNever), restart, in, 7)).ctrs(ctr("a")).pod().Spec,
			st([]corev1.ContainerStatus{terminated("i", 7)}), st([]corev1.ContainerStatus{running("i", false)}), lifecycle.Transition{Allowed: true}},
		{"OnFailure pod refuses a succeeded init container", &pod(onFailure).init(ctr("i")).ctrs(ctr("a")).pod().Spec,
			st([]corev1.ContainerStatus{terminated("i", 0)}), st([]corev1.ContainerStatus{waiting("i")}),
			lifecycle.Transition{Reason: "terminated init container i attempted illegal transition to non-terminated state"}},
		{"a RestartAllContainers rule on an init container allows everything", &pod(never).init(withRule(withPolicy(ctr("i"), corev1.ContainerRestartPolicyNever), restartAll, in, 9)).ctrs(ctr("a")).pod().Spec,
			st(nil, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Allowed: true}},
		{"regular containers are checked before init containers", &pod(never).init(ctr("i")).ctrs(ctr("a")).pod().Spec,
			st([]corev1.ContainerStatus{terminated("zz", 0)}, terminated("a", 0)), st(nil, running("a", true)), lifecycle.Transition{Reason: illegal}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lifecycle.CheckTransition(tt.spec, tt.old, tt.new)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
