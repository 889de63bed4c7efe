package lifecycle

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Transition is the verdict on a container status update: Allowed, or
// refused with Reason, the status manager's error text.
type Transition struct {
	// Allowed reports whether the status manager accepts the update.
	Allowed bool
	// Reason is the refusal text (for example "terminated container c
	// attempted illegal transition to non-terminated state"), "" when
	// Allowed.
	Reason string
}

// CheckTransition reports whether the kubelet's status manager accepts
// newStatus over oldStatus for a pod with spec: a container that terminated
// may only leave the terminated state if it can run again. Every transition
// is legal when the pod restarts Always or some container has a
// RestartAllContainers rule; otherwise a terminated container (init or
// regular) that failed under OnFailure, or whose rules or own restartPolicy
// restart it after its exit code, may run again, and any other terminated
// container appearing non-terminated in newStatus refuses the update.
// Sidecars are always allowed. Init container statuses are paired with the
// spec by index, as upstream does: a status whose name differs from the init
// container at its index refuses the update with "found mismatch between pod
// spec and status". Mirrors pkg/kubelet/status.checkContainerStateTransition
// as of v1.36 (ContainerRestartRules and RestartAllContainersOnContainerExits
// on). Nothing is modified. The error wraps ErrInvalidInput for nil arguments
// or unknown enumeration values; a refusal is a verdict, not an error.
func CheckTransition(spec *corev1.PodSpec, oldStatus, newStatus *corev1.PodStatus) (Transition, error) {
	if spec == nil || oldStatus == nil || newStatus == nil {
		return Transition{}, fmt.Errorf("%w: spec, old and new status are required", ErrInvalidInput)
	}
	if !specLooksValid(spec) {
		if err := invalid(validateSpec(spec, field.NewPath("spec"))); err != nil {
			return Transition{}, err
		}
	}
	if restartPolicy(spec) == corev1.RestartPolicyAlways || AllContainersCouldRestart(spec) {
		return Transition{Allowed: true}, nil
	}
	onFailure := spec.RestartPolicy == corev1.RestartPolicyOnFailure
	for _, old := range oldStatus.ContainerStatuses {
		t := old.State.Terminated
		if t == nil || (t.ExitCode != 0 && onFailure) {
			continue
		}
		if anyNamedShouldRestart(spec.Containers, old.Name, spec, t.ExitCode) {
			continue
		}
		for _, nw := range newStatus.ContainerStatuses {
			if nw.Name == old.Name && nw.State.Terminated == nil {
				return Transition{Reason: fmt.Sprintf("terminated container %v attempted illegal transition to non-terminated state", nw.Name)}, nil
			}
		}
	}
	for i, old := range oldStatus.InitContainerStatuses {
		if i >= len(spec.InitContainers) || spec.InitContainers[i].Name != old.Name {
			return Transition{Reason: fmt.Sprintf("found mismatch between pod spec and status, container: %v", old.Name)}, nil
		}
		if IsRestartableInitContainer(&spec.InitContainers[i]) {
			continue
		}
		t := old.State.Terminated
		if t == nil || (t.ExitCode != 0 && onFailure) {
			continue
		}
		if anyNamedShouldRestart(spec.InitContainers, old.Name, spec, t.ExitCode) {
			continue
		}
		for _, nw := range newStatus.InitContainerStatuses {
			if nw.Name == old.Name && nw.State.Terminated == nil {
				return Transition{Reason: fmt.Sprintf("terminated init container %v attempted illegal transition to non-terminated state", nw.Name)}, nil
			}
		}
	}
	return Transition{Allowed: true}, nil
}

// anyNamedShouldRestart reports whether some container called name restarts
// after exitCode (upstream checks every container of that name).
func anyNamedShouldRestart(cs []corev1.Container, name string, spec *corev1.PodSpec, exitCode int32) bool {
	for i := range cs {
		if cs[i].Name == name && ShouldRestart(&cs[i], spec, exitCode) {
			return true
		}
	}
	return false
}
