package lifecycle

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ErrInvalidInput is wrapped by every error this package returns for input it
// cannot interpret (a nil pod, an unknown restart policy, ...). Test with
// errors.Is. Verdicts (a refused transition, a conflicting precondition) are
// never reported through it.
var ErrInvalidInput = errors.New("lifecycle: invalid input")

// RestartingAllContainers is the termination reason the kubelet writes on
// containers it stopped to restart the whole pod in place (a
// RestartAllContainers rule fired). The phase and transition rules treat such
// a container as restartable, mirroring kubelet_pods.go's constant of the same
// name as of v1.36.
const RestartingAllContainers = "RestartingAllContainers"

// ValidationError carries every validation problem of one input with its
// API field path (spec.containers[0].restartPolicy), for errors.As. Its text
// is the list's aggregate text; the errors this package returns wrap it
// behind ErrInvalidInput ("lifecycle: invalid input: [...]").
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

// FieldErrors returns the validation errors behind err (nil when err holds
// no *ValidationError): errors.As with a *ValidationError, shortened.
func FieldErrors(err error) field.ErrorList {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve.Errors
	}
	return nil
}

func invalid(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrInvalidInput, &ValidationError{Errors: errs})
}

// restartPolicy returns the pod's restart policy with the API server's default
// (Always) for an unset field.
func restartPolicy(spec *corev1.PodSpec) corev1.RestartPolicy {
	if spec.RestartPolicy == "" {
		return corev1.RestartPolicyAlways
	}
	return spec.RestartPolicy
}

// validateSpec checks the enumerations and required fields the lifecycle rules
// read: the pod and container restart policies and the container restart
// rules. It reports every problem with its API path.
func validateSpec(spec *corev1.PodSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch spec.RestartPolicy {
	case "", corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	default:
		errs = append(errs, field.NotSupported(path.Child("restartPolicy"), spec.RestartPolicy,
			[]string{string(corev1.RestartPolicyAlways), string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)}))
	}
	check := func(cs []corev1.Container, p *field.Path) {
		for i := range cs {
			c := &cs[i]
			cp := p.Index(i)
			if c.RestartPolicy != nil {
				switch *c.RestartPolicy {
				case corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever:
				default:
					errs = append(errs, field.NotSupported(cp.Child("restartPolicy"), *c.RestartPolicy,
						[]string{string(corev1.ContainerRestartPolicyAlways), string(corev1.ContainerRestartPolicyOnFailure), string(corev1.ContainerRestartPolicyNever)}))
				}
			}
			for j := range c.RestartPolicyRules {
				r := &c.RestartPolicyRules[j]
				rp := cp.Child("restartPolicyRules").Index(j)
				switch r.Action {
				case corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers:
				default:
					errs = append(errs, field.NotSupported(rp.Child("action"), r.Action,
						[]string{string(corev1.ContainerRestartRuleActionRestart), string(corev1.ContainerRestartRuleActionRestartAllContainers)}))
				}
				if r.ExitCodes == nil {
					errs = append(errs, field.Required(rp.Child("exitCodes"), "a restart rule needs exit codes"))
					continue
				}
				switch r.ExitCodes.Operator {
				case corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn:
				default:
					errs = append(errs, field.NotSupported(rp.Child("exitCodes", "operator"), r.ExitCodes.Operator,
						[]string{string(corev1.ContainerRestartRuleOnExitCodesOpIn), string(corev1.ContainerRestartRuleOnExitCodesOpNotIn)}))
				}
			}
		}
	}
	check(spec.InitContainers, path.Child("initContainers"))
	check(spec.Containers, path.Child("containers"))
	return errs
}

func validatePod(pod *corev1.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	if specLooksValid(&pod.Spec) {
		return nil
	}
	return invalid(validateSpec(&pod.Spec, field.NewPath("spec")))
}

// specLooksValid is validateSpec's allocation-free fast path: true when
// validateSpec would report nothing.
func specLooksValid(spec *corev1.PodSpec) bool {
	switch spec.RestartPolicy {
	case "", corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	default:
		return false
	}
	for _, cs := range [2][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			c := &cs[i]
			if c.RestartPolicy != nil {
				switch *c.RestartPolicy {
				case corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever:
				default:
					return false
				}
			}
			for j := range c.RestartPolicyRules {
				r := &c.RestartPolicyRules[j]
				if r.Action != corev1.ContainerRestartRuleActionRestart && r.Action != corev1.ContainerRestartRuleActionRestartAllContainers {
					return false
				}
				if r.ExitCodes == nil || (r.ExitCodes.Operator != corev1.ContainerRestartRuleOnExitCodesOpIn && r.ExitCodes.Operator != corev1.ContainerRestartRuleOnExitCodesOpNotIn) {
					return false
				}
			}
		}
	}
	return true
}

// IsRestartableInitContainer reports whether an init container is a sidecar:
// its container-level restartPolicy is Always. Mirrors
// pkg/api/v1/pod.IsRestartableInitContainer as of v1.36.
func IsRestartableInitContainer(c *corev1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// matchingRestartRule returns the first restart rule of the container whose
// exit-code condition holds for exitCode. Mirrors
// pkg/api/v1/pod.FindMatchingContainerRestartRule: rules without exit codes
// or with an unknown operator never match.
func matchingRestartRule(c *corev1.Container, exitCode int32) (corev1.ContainerRestartRule, bool) {
	for _, r := range c.RestartPolicyRules {
		if r.ExitCodes == nil {
			continue
		}
		listed := false
		for _, v := range r.ExitCodes.Values {
			if v == exitCode {
				listed = true
				break
			}
		}
		switch r.ExitCodes.Operator {
		case corev1.ContainerRestartRuleOnExitCodesOpIn:
			if listed {
				return r, true
			}
		case corev1.ContainerRestartRuleOnExitCodesOpNotIn:
			if !listed {
				return r, true
			}
		}
	}
	return corev1.ContainerRestartRule{}, false
}

// ShouldRestart reports whether the kubelet restarts container c of a pod with
// spec after it exited with exitCode: the container's restart rules first (in
// order; both Restart and RestartAllContainers restart it), then its own
// restartPolicy, then the pod's (unset = Always). Mirrors
// pkg/api/v1/pod.ContainerShouldRestart with ContainerRestartRules and
// RestartAllContainersOnContainerExits on, as in v1.36. Restart rules are only
// consulted when the container has a restartPolicy of its own, as upstream
// does. It reads its arguments only; a nil container has no policy of its
// own and a nil spec the default restartPolicy, Always.
func ShouldRestart(c *corev1.Container, spec *corev1.PodSpec, exitCode int32) bool {
	if c != nil && c.RestartPolicy != nil {
		if r, ok := matchingRestartRule(c, exitCode); ok {
			switch r.Action {
			case corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers:
				return true
			}
		}
		switch *c.RestartPolicy {
		case corev1.ContainerRestartPolicyAlways:
			return true
		case corev1.ContainerRestartPolicyOnFailure:
			return exitCode != 0
		case corev1.ContainerRestartPolicyNever:
			return false
		}
	}
	var policy corev1.RestartPolicy
	if spec != nil {
		policy = spec.RestartPolicy
	}
	switch policy {
	case corev1.RestartPolicyOnFailure:
		return exitCode != 0
	case corev1.RestartPolicyNever:
		return false
	default: // Always, and unset (the API server's default is Always)
		return true
	}
}

// restartableAfter reports whether a container terminated with t is going to
// run again: its restart policy allows it, or the kubelet stopped it to
// restart every container (reason RestartingAllContainers).
func restartableAfter(c *corev1.Container, spec *corev1.PodSpec, t *corev1.ContainerStateTerminated) bool {
	return ShouldRestart(c, spec, t.ExitCode) || t.Reason == RestartingAllContainers
}

// AllContainersCouldRestart reports whether any container of the spec has a
// RestartAllContainers rule, so that the whole pod may restart in place.
// Mirrors pkg/api/v1/pod.AllContainersCouldRestart as of v1.36.
func AllContainersCouldRestart(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			for _, r := range cs[i].RestartPolicyRules {
				if r.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
					return true
				}
			}
		}
	}
	return false
}

// containerStatus finds the status named name, first match in list order, as
// pkg/api/v1/pod.GetContainerStatus does.
func containerStatus(statuses []corev1.ContainerStatus, name string) (*corev1.ContainerStatus, bool) {
	for i := range statuses {
		if statuses[i].Name == name {
			return &statuses[i], true
		}
	}
	return nil, false
}
