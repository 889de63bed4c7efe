package lifecycle

import (
	corev1 "k8s.io/api/core/v1"
)

// StatusOptions carries what the kubelet knows besides the pod object when it
// generates a status. The zero value is a live pod whose regular containers
// have not started yet.
type StatusOptions struct {
	// PodIsTerminal: the pod worker has decided the pod is finished (it is
	// being deleted, evicted or has completed), so its containers will not be
	// restarted whatever the restart policy.
	PodIsTerminal bool
	// PodHasInitialized: some regular container of the current sandbox has
	// started (kubecontainer.HasAnyActiveRegularContainerStarted), so sidecars
	// that restart no longer put the pod back into Pending.
	PodHasInitialized bool
}

// configSourceAnnotation names the kubelet's source of a pod; any source
// other than the API server makes it a static pod.
const configSourceAnnotation = "kubernetes.io/config.source"

// IsStaticPod reports whether the pod came from a kubelet manifest (file or
// HTTP source) rather than the API server. Mirrors
// pkg/kubelet/types.IsStaticPod as of v1.36. A nil pod is not static.
func IsStaticPod(pod *corev1.Pod) bool {
	if pod == nil {
		return false
	}
	src, ok := pod.Annotations[configSourceAnnotation]
	return ok && src != "api"
}

// Phase returns the phase the kubelet computes for pod from its spec and its
// container statuses (pod.Status.ContainerStatuses, then
// InitContainerStatuses, looked up by container name), mirroring
// pkg/kubelet/kubelet_pods.go getPhase as of v1.36 with ContainerRestartRules
// and RestartAllContainersOnContainerExits on:
//
//   - a regular init container that failed and will not be restarted (by its
//     rules, its restartPolicy or the pod's) makes the pod Failed;
//   - a regular init container not yet finished, or a sidecar not yet started
//     while no regular container has run, or a waiting container, keeps it
//     Pending;
//   - a running container with every container known makes it Running;
//   - when every container has stopped: Succeeded if all exited 0, Failed
//     otherwise for a terminal pod; for a live pod Running while some
//     container is going to restart, else Succeeded or Failed.
//
// An unset restartPolicy is the API server's default, Always. The pod is not
// modified. The error wraps ErrInvalidInput for a nil pod or unknown
// enumeration values.
func Phase(pod *corev1.Pod, opts StatusOptions) (corev1.PodPhase, error) {
	if err := validatePod(pod); err != nil {
		return "", err
	}
	return phase(pod, opts), nil
}

func phase(pod *corev1.Pod, opts StatusOptions) corev1.PodPhase {
	spec := &pod.Spec
	lookup := func(name string) (*corev1.ContainerStatus, bool) {
		if s, ok := containerStatus(pod.Status.ContainerStatuses, name); ok {
			return s, true
		}
		return containerStatus(pod.Status.InitContainerStatuses, name)
	}

	var pendingInit, pendingSidecars, initFailedForGood int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if IsRestartableInitContainer(c) {
			continue
		}
		st, ok := lookup(c.Name)
		if !ok {
			pendingInit++
			continue
		}
		switch {
		case st.State.Running != nil:
			pendingInit++
		case st.State.Terminated != nil:
			if t := st.State.Terminated; t.ExitCode != 0 && !restartableAfter(c, spec, t) {
				initFailedForGood++
			}
		case st.State.Waiting != nil:
			if t := st.LastTerminationState.Terminated; t != nil {
				if t.ExitCode != 0 && !restartableAfter(c, spec, t) {
					initFailedForGood++
				}
			} else {
				pendingInit++
			}
		default:
			pendingInit++
		}
	}

	var unknown, running, waiting, stopped, stoppedForGood, succeeded int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if !IsRestartableInitContainer(c) {
			continue
		}
		st, ok := lookup(c.Name)
		if !ok {
			unknown++
			continue
		}
		switch {
		case st.State.Running != nil:
			if st.Started == nil || !*st.Started {
				pendingSidecars++
			}
			running++
		case st.State.Terminated != nil:
			// A stopped sidecar does not count towards the phase.
		case st.State.Waiting != nil:
			if st.LastTerminationState.Terminated == nil {
				pendingSidecars++
				waiting++
			}
		default:
			pendingSidecars++
			unknown++
		}
	}

	for i := range spec.Containers {
		c := &spec.Containers[i]
		st, ok := lookup(c.Name)
		if !ok {
			unknown++
			continue
		}
		switch {
		case st.State.Running != nil:
			running++
		case st.State.Terminated != nil:
			stopped++
			t := st.State.Terminated
			if !restartableAfter(c, spec, t) {
				stoppedForGood++
			}
			if t.ExitCode == 0 {
				succeeded++
			}
		case st.State.Waiting != nil:
			if t := st.LastTerminationState.Terminated; t != nil {
				stopped++
				if !restartableAfter(c, spec, t) {
					stoppedForGood++
				}
			} else {
				waiting++
			}
		default:
			unknown++
		}
	}

	if initFailedForGood > 0 {
		return corev1.PodFailed
	}
	switch {
	case pendingInit > 0 || (pendingSidecars > 0 && !opts.PodHasInitialized) || waiting > 0:
		return corev1.PodPending
	case running > 0 && unknown == 0:
		return corev1.PodRunning
	case running == 0 && stopped > 0 && unknown == 0:
		if opts.PodIsTerminal && !IsStaticPod(pod) {
			if stopped == succeeded {
				return corev1.PodSucceeded
			}
			return corev1.PodFailed
		}
		if stopped != stoppedForGood {
			return corev1.PodRunning
		}
		if stopped == succeeded {
			return corev1.PodSucceeded
		}
		return corev1.PodFailed
	default:
		return corev1.PodPending
	}
}

// IsTerminalPhase reports whether ph is Succeeded or Failed, the phases a
// pod never leaves (MergePhase keeps them).
func IsTerminalPhase(ph corev1.PodPhase) bool {
	return ph == corev1.PodSucceeded || ph == corev1.PodFailed
}

// MergePhase returns the phase the kubelet writes, given the phase Phase
// computed from the containers, the phase in its status cache and the phase
// in the API: a terminal cached or API phase replaces a non-terminal
// computed one, and a terminal API phase always wins, so a pod never leaves
// Succeeded or Failed. Mirrors the three-way merge and the "illegal phase
// transition" guard of (*Kubelet).generateAPIPodStatus as of v1.36 (the
// eviction override of pod sync handlers is not modelled).
func MergePhase(computed, cached, api corev1.PodPhase) corev1.PodPhase {
	out := computed
	if !IsTerminalPhase(out) {
		switch {
		case IsTerminalPhase(cached):
			out = cached
		case IsTerminalPhase(api):
			out = api
		}
	}
	if IsTerminalPhase(api) {
		out = api
	}
	return out
}
