package lifecycle

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Condition reasons written by the kubelet (pkg/kubelet/status/generate.go),
// the scheduler and the controllers that set DisruptionTarget, as of v1.36.
const (
	// ReasonUnknownContainerStatuses: the pod has no status at all for
	// some containers (generate.go's UnknownContainerStatuses).
	ReasonUnknownContainerStatuses = "UnknownContainerStatuses"
	// ReasonPodCompleted: every container in question succeeded (also the
	// Ready reason of a Succeeded pod).
	ReasonPodCompleted = "PodCompleted"
	// ReasonPodFailed is the Ready/ContainersReady reason of a Failed pod.
	ReasonPodFailed = "PodFailed"
	// ReasonContainersNotReady: some regular container or sidecar is not
	// ready.
	ReasonContainersNotReady = "ContainersNotReady"
	// ReasonContainersNotInitialized: some init container has not yet
	// succeeded (or sidecar started).
	ReasonContainersNotInitialized = "ContainersNotInitialized"
	// ReasonReadinessGatesNotReady: the containers are ready but a
	// readiness gate's condition is missing or not True.
	ReasonReadinessGatesNotReady = "ReadinessGatesNotReady"

	// ReasonSchedulingGated is the PodScheduled=False reason of a pod with
	// scheduling gates (corev1.PodReasonSchedulingGated).
	ReasonSchedulingGated = corev1.PodReasonSchedulingGated
	// ReasonUnschedulable is the PodScheduled=False reason the scheduler
	// writes when no node fits (corev1.PodReasonUnschedulable).
	ReasonUnschedulable = corev1.PodReasonUnschedulable

	// SchedulingGatedMessage is the message of the PodScheduled condition
	// the API server writes on a pod created with scheduling gates
	// (pkg/registry/core/pod applySchedulingGatedCondition).
	SchedulingGatedMessage = "Scheduling is blocked due to non-empty scheduling gates"
)

// DisruptionReason is the reason of a DisruptionTarget condition: which
// component decided to disrupt the pod.
type DisruptionReason string

// The DisruptionTarget reasons of v1.36.
const (
	// DisruptionPreemptionByScheduler: the scheduler preempted the pod
	// (PreemptionByScheduler).
	DisruptionPreemptionByScheduler = DisruptionReason(corev1.PodReasonPreemptionByScheduler)
	// DisruptionByTaintManager: the taint-eviction controller deletes the
	// pod for an untolerated NoExecute taint.
	DisruptionByTaintManager = DisruptionReason("DeletionByTaintManager")
	// DisruptionByDeviceTaintManager: the device taint-eviction controller
	// deletes the pod for a NoExecute device taint.
	DisruptionByDeviceTaintManager = DisruptionReason("DeletionByDeviceTaintManager")
	// DisruptionByEvictionAPI: an accepted POST pods/NAME/eviction.
	DisruptionByEvictionAPI = DisruptionReason("EvictionByEvictionAPI")
	// DisruptionByPodGC: the pod garbage collector deletes an orphan.
	DisruptionByPodGC = DisruptionReason("DeletionByPodGC")
	// DisruptionTerminationByKubelet: the kubelet terminates the pod
	// (node-pressure eviction, critical-pod preemption, graceful node
	// shutdown).
	DisruptionTerminationByKubelet = DisruptionReason(corev1.PodReasonTerminationByKubelet)
)

// DisruptionTarget messages written by upstream components as of v1.36 (the
// scheduler's is "<schedulerName>: preempting to accommodate a higher
// priority pod", the kubelet's node-pressure one names the resource).
const (
	// MessageEvictionAPI goes with DisruptionByEvictionAPI.
	MessageEvictionAPI = "Eviction API: evicting"
	// MessageTaintManager goes with DisruptionByTaintManager.
	MessageTaintManager = "Taint manager: deleting due to NoExecute taint"
	// MessageDeviceTaintManager goes with DisruptionByDeviceTaintManager.
	MessageDeviceTaintManager = "Device Taint manager: deleting due to NoExecute taint"
	// MessageKubeletPreemption goes with DisruptionTerminationByKubelet when
	// the kubelet preempts a pod to admit a critical one.
	MessageKubeletPreemption = "Pod was preempted by Kubelet to accommodate a critical pod."
)

// kubeletOwned reports whether the kubelet owns the condition type: it drops
// such conditions from the previous status and generates them afresh.
// Mirrors pkg/kubelet/types.PodConditionByKubelet with the v1.36 gates.
func kubeletOwned(t corev1.PodConditionType) bool {
	switch t {
	case corev1.PodScheduled, corev1.PodReady, corev1.PodInitialized, corev1.ContainersReady,
		corev1.PodResizeInProgress, corev1.PodResizePending,
		corev1.PodReadyToStartContainers, corev1.AllContainersRestarting:
		return true
	}
	return false
}

// IsKubeletOwnedCondition reports whether the kubelet owns conditions of type
// t (PodScheduled, Ready, Initialized, ContainersReady, the resize
// conditions, PodReadyToStartContainers, AllContainersRestarting), i.e.
// whether generating a status replaces them.
func IsKubeletOwnedCondition(t corev1.PodConditionType) bool { return kubeletOwned(t) }

// PodStatus is the kubelet-generated part of a pod status: the phase and the
// Initialized, Ready and ContainersReady conditions, in that order (the order
// generateAPIPodStatus appends them).
type PodStatus struct {
	// Phase is the phase the kubelet computes (see Phase).
	Phase corev1.PodPhase
	// Conditions are new values: Initialized, Ready, ContainersReady.
	Conditions []corev1.PodCondition
}

// Condition returns the condition of type t, or nil: a pointer into
// s.Conditions, whose backing array the caller's PodStatus shares.
func (s PodStatus) Condition(t corev1.PodConditionType) *corev1.PodCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// GenerateStatus returns the phase and the Initialized, Ready and
// ContainersReady conditions the kubelet writes for pod, mirroring the calls
// of (*Kubelet).generateAPIPodStatus as of v1.36: Phase first, then
// InitializedCondition, then ReadyCondition (which sees the pod's conditions
// not owned by the kubelet, readiness gates included, plus the new
// Initialized condition), then ContainersReadyCondition. pod.Status is both
// the runtime-derived and the previous status. Conditions carry
// observedGeneration = metadata.generation (PodObservedGenerationTracking is
// GA) and no timestamps. The pod is not modified.
func GenerateStatus(pod *corev1.Pod, opts StatusOptions) (PodStatus, error) {
	if err := validatePod(pod); err != nil {
		return PodStatus{}, err
	}
	ph := phase(pod, opts)
	init := initializedCondition(pod, ph)
	visible := make([]corev1.PodCondition, 0, len(pod.Status.Conditions)+1)
	for _, c := range pod.Status.Conditions {
		if !kubeletOwned(c.Type) {
			visible = append(visible, c)
		}
	}
	visible = append(visible, init)
	cr := containersReadyCondition(pod, ph)
	return PodStatus{
		Phase:      ph,
		Conditions: []corev1.PodCondition{init, readyFrom(pod, cr, visible), cr},
	}, nil
}

// statusList is the init container statuses followed by the regular ones,
// the list the kubelet passes to the condition generators, without copying
// them.
type statusList struct{ init, regular []corev1.ContainerStatus }

func allStatuses(pod *corev1.Pod) statusList {
	return statusList{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses}
}

// isNil reports whether upstream's append(init, regular...) would be nil.
func (l statusList) isNil() bool { return l.init == nil && len(l.regular) == 0 }

// find returns the first status named name, init statuses first.
func (l statusList) find(name string) (*corev1.ContainerStatus, bool) {
	if s, ok := containerStatus(l.init, name); ok {
		return s, true
	}
	return containerStatus(l.regular, name)
}

// listNames renders names the way upstream's %s of a []string does: "[a b]".
func listNames(names []string) string { return "[" + strings.Join(names, " ") + "]" }

// ContainersReadyCondition returns the ContainersReady condition the kubelet
// generates for pod in phase ph: True when every sidecar and regular
// container reports ready; False with PodCompleted or PodFailed for a
// terminal phase; else False with ContainersNotReady and a message naming the
// containers with unknown and unready status (spec order). Mirrors
// pkg/kubelet/status.GenerateContainersReadyCondition as of v1.36. The pod is
// not modified.
func ContainersReadyCondition(pod *corev1.Pod, ph corev1.PodPhase) (corev1.PodCondition, error) {
	if err := validatePod(pod); err != nil {
		return corev1.PodCondition{}, err
	}
	return containersReadyCondition(pod, ph), nil
}

func containersReadyCondition(pod *corev1.Pod, ph corev1.PodPhase) corev1.PodCondition {
	cond := corev1.PodCondition{Type: corev1.ContainersReady, ObservedGeneration: pod.Generation, Status: corev1.ConditionFalse}
	statuses := allStatuses(pod)
	if statuses.isNil() {
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}
	var unknown, unready []string
	visit := func(c *corev1.Container) {
		if st, ok := statuses.find(c.Name); ok {
			if !st.Ready {
				unready = append(unready, c.Name)
			}
		} else {
			unknown = append(unknown, c.Name)
		}
	}
	for i := range pod.Spec.InitContainers {
		if IsRestartableInitContainer(&pod.Spec.InitContainers[i]) {
			visit(&pod.Spec.InitContainers[i])
		}
	}
	for i := range pod.Spec.Containers {
		visit(&pod.Spec.Containers[i])
	}
	if (ph == corev1.PodSucceeded && len(unknown) == 0) || ph == corev1.PodFailed {
		cond.Reason = terminalReason(ph)
		return cond
	}
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, "containers with unknown status: "+listNames(unknown))
	}
	if len(unready) > 0 {
		msgs = append(msgs, "containers with unready status: "+listNames(unready))
	}
	if len(msgs) > 0 {
		cond.Reason = ReasonContainersNotReady
		cond.Message = strings.Join(msgs, ", ")
		return cond
	}
	cond.Status = corev1.ConditionTrue
	return cond
}

func terminalReason(ph corev1.PodPhase) string {
	switch ph {
	case corev1.PodFailed:
		return ReasonPodFailed
	case corev1.PodSucceeded:
		return ReasonPodCompleted
	}
	return ""
}

// ReadyCondition returns the pod's Ready condition in phase ph, given the
// conditions the readiness gates are checked against (the pod's conditions
// not owned by the kubelet plus the freshly generated Initialized condition,
// as GenerateStatus passes them). When ContainersReady is not True, Ready
// copies its status, reason and message; else each readiness gate whose
// condition is missing or not True makes it False with
// ReadinessGatesNotReady. Mirrors pkg/kubelet/status.GeneratePodReadyCondition
// as of v1.36. Nothing is modified.
func ReadyCondition(pod *corev1.Pod, ph corev1.PodPhase, conditions []corev1.PodCondition) (corev1.PodCondition, error) {
	if err := validatePod(pod); err != nil {
		return corev1.PodCondition{}, err
	}
	return readyCondition(pod, ph, conditions), nil
}

func readyCondition(pod *corev1.Pod, ph corev1.PodPhase, conditions []corev1.PodCondition) corev1.PodCondition {
	return readyFrom(pod, containersReadyCondition(pod, ph), conditions)
}

// readyFrom derives Ready from the ContainersReady condition cr.
func readyFrom(pod *corev1.Pod, cr corev1.PodCondition, conditions []corev1.PodCondition) corev1.PodCondition {
	cond := corev1.PodCondition{Type: corev1.PodReady, ObservedGeneration: pod.Generation}
	if cr.Status != corev1.ConditionTrue {
		cond.Status, cond.Reason, cond.Message = cr.Status, cr.Reason, cr.Message
		return cond
	}
	var msgs []string
	for _, g := range pod.Spec.ReadinessGates {
		var c *corev1.PodCondition
		for i := range conditions {
			if conditions[i].Type == g.ConditionType {
				c = &conditions[i]
				break
			}
		}
		switch {
		case c == nil:
			msgs = append(msgs, fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", string(g.ConditionType)))
		case c.Status != corev1.ConditionTrue:
			msgs = append(msgs, fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", string(g.ConditionType), c.Status))
		}
	}
	if len(msgs) > 0 {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonReadinessGatesNotReady
		cond.Message = strings.Join(msgs, ", ")
		return cond
	}
	cond.Status = corev1.ConditionTrue
	return cond
}

// InitializedCondition returns the pod's Initialized condition in phase ph:
// True once every regular init container is ready and every sidecar has
// started, once any regular container has started, or (RestartAllContainers
// in-place restarts) when the previous status already said True; True with
// PodCompleted for a Succeeded pod whose init containers are all known; else
// False with ContainersNotInitialized naming the unknown and incomplete init
// containers. Mirrors pkg/kubelet/status.GeneratePodInitializedCondition as of
// v1.36. The pod is not modified.
func InitializedCondition(pod *corev1.Pod, ph corev1.PodPhase) (corev1.PodCondition, error) {
	if err := validatePod(pod); err != nil {
		return corev1.PodCondition{}, err
	}
	return initializedCondition(pod, ph), nil
}

func initializedCondition(pod *corev1.Pod, ph corev1.PodPhase) corev1.PodCondition {
	cond := corev1.PodCondition{Type: corev1.PodInitialized, ObservedGeneration: pod.Generation, Status: corev1.ConditionTrue}
	statuses := allStatuses(pod)
	if statuses.isNil() && len(pod.Spec.InitContainers) > 0 {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}
	var unknown, incomplete []string
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		st, ok := statuses.find(c.Name)
		if !ok {
			unknown = append(unknown, c.Name)
			continue
		}
		if IsRestartableInitContainer(c) {
			if st.Started == nil || !*st.Started {
				incomplete = append(incomplete, c.Name)
			}
		} else if !st.Ready {
			incomplete = append(incomplete, c.Name)
		}
	}
	if ph == corev1.PodSucceeded && len(unknown) == 0 {
		cond.Reason = ReasonPodCompleted
		return cond
	}
	if anyRegularContainerStarted(&pod.Spec, statuses) {
		return cond
	}
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, "containers with unknown status: "+listNames(unknown))
	}
	if len(incomplete) > 0 {
		msgs = append(msgs, "containers with incomplete status: "+listNames(incomplete))
	}
	if len(msgs) == 0 {
		return cond
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodInitialized && c.Status == corev1.ConditionTrue {
			// Once initialized, an in-place restart of all containers does not
			// make the pod uninitialized again.
			return cond
		}
	}
	cond.Status = corev1.ConditionFalse
	cond.Reason = ReasonContainersNotInitialized
	cond.Message = strings.Join(msgs, ", ")
	return cond
}

// anyRegularContainerStarted mirrors kubecontainer.HasAnyRegularContainerStarted:
// some status of a regular container (by name) is running or terminated.
func anyRegularContainerStarted(spec *corev1.PodSpec, statuses statusList) bool {
	for _, list := range [2][]corev1.ContainerStatus{statuses.init, statuses.regular} {
		for i := range list {
			st := &list[i]
			if st.State.Running == nil && st.State.Terminated == nil {
				continue
			}
			for j := range spec.Containers {
				if spec.Containers[j].Name == st.Name {
					return true
				}
			}
		}
	}
	return false
}

// ScheduledCondition returns the PodScheduled condition a pod carries:
// True once bound to a node (the binding subresource, pod storage's
// assignPod, sets no observedGeneration); False with SchedulingGated and
// upstream's message while scheduling gates remain (the pod strategy's
// applySchedulingGatedCondition at creation, no observedGeneration); else
// False with Unschedulable, the scheduler's failure message and
// observedGeneration = metadata.generation (schedule_one.go
// handleSchedulingFailure), as of v1.36. The pod is not modified.
func ScheduledCondition(pod *corev1.Pod, unschedulableMessage string) (corev1.PodCondition, error) {
	if pod == nil {
		return corev1.PodCondition{}, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	cond := corev1.PodCondition{Type: corev1.PodScheduled}
	switch {
	case pod.Spec.NodeName != "":
		cond.Status = corev1.ConditionTrue
	case len(pod.Spec.SchedulingGates) > 0:
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonSchedulingGated
		cond.Message = SchedulingGatedMessage
	default:
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonUnschedulable
		cond.Message = unschedulableMessage
		cond.ObservedGeneration = pod.Generation
	}
	return cond, nil
}

// ReadyToStartContainersCondition returns the PodReadyToStartContainers
// condition: True when the pod's sandbox exists with its network configured
// (sandboxReady), else False, without reason. Mirrors
// pkg/kubelet/status.GeneratePodReadyToStartContainersCondition as of v1.36,
// with the runtime's sandbox check (PodSandboxChanged) taken as the argument.
func ReadyToStartContainersCondition(pod *corev1.Pod, sandboxReady bool) (corev1.PodCondition, error) {
	if pod == nil {
		return corev1.PodCondition{}, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	cond := corev1.PodCondition{Type: corev1.PodReadyToStartContainers, ObservedGeneration: pod.Generation, Status: corev1.ConditionFalse}
	if sandboxReady {
		cond.Status = corev1.ConditionTrue
	}
	return cond, nil
}

// DisruptionTargetCondition returns the DisruptionTarget condition a
// component writes on pod before deleting it: status True, the reason, the
// message (see the Message constants and OrphanMessage) and
// observedGeneration = metadata.generation. The pod is not modified. The
// error wraps ErrInvalidInput for a nil pod or a reason that is not one of
// the v1.36 reasons.
func DisruptionTargetCondition(pod *corev1.Pod, reason DisruptionReason, message string) (corev1.PodCondition, error) {
	if pod == nil {
		return corev1.PodCondition{}, fmt.Errorf("%w: pod is nil", ErrInvalidInput)
	}
	switch reason {
	case DisruptionPreemptionByScheduler, DisruptionByTaintManager, DisruptionByDeviceTaintManager, DisruptionByEvictionAPI,
		DisruptionByPodGC, DisruptionTerminationByKubelet:
	default:
		return corev1.PodCondition{}, fmt.Errorf("%w: unknown DisruptionTarget reason %q", ErrInvalidInput, reason)
	}
	return corev1.PodCondition{Type: corev1.DisruptionTarget, ObservedGeneration: pod.Generation, Status: corev1.ConditionTrue, Reason: string(reason), Message: message}, nil
}

// GenerateConditions returns the whole condition list the kubelet writes for
// pod in phase ph, in generateAPIPodStatus's order as of v1.36: the pod's
// conditions the kubelet does not own (readiness-gate conditions,
// DisruptionTarget, ...), then PodReadyToStartContainers (sandboxReady: the
// pod's sandbox exists with its network), Initialized, Ready (whose
// readiness gates see everything before it), ContainersReady, and
// PodScheduled=True. Resize conditions and AllContainersRestarting, which
// need runtime state, are not generated. Unlike GenerateStatus (which
// mirrors the conformance oracle's narrower view), Ready here also sees the
// generated PodReadyToStartContainers condition, as the kubelet's does. The
// pod is not modified.
func GenerateConditions(pod *corev1.Pod, ph corev1.PodPhase, sandboxReady bool) ([]corev1.PodCondition, error) {
	if err := validatePod(pod); err != nil {
		return nil, err
	}
	out := make([]corev1.PodCondition, 0, len(pod.Status.Conditions)+5)
	for _, c := range pod.Status.Conditions {
		if !kubeletOwned(c.Type) {
			out = append(out, c)
		}
	}
	rtsc, _ := ReadyToStartContainersCondition(pod, sandboxReady)
	out = append(out, rtsc, initializedCondition(pod, ph))
	cr := containersReadyCondition(pod, ph)
	out = append(out, readyFrom(pod, cr, out), cr,
		corev1.PodCondition{Type: corev1.PodScheduled, ObservedGeneration: pod.Generation, Status: corev1.ConditionTrue})
	return out, nil
}
