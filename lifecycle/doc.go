// Package lifecycle models the life of a pod as Kubernetes v1.36 (default
// feature gates) decides it: the phase and conditions the kubelet writes, the
// container state transitions its status manager accepts, the restart
// back-off, the grace period of a DELETE and the kubelet's kill sequence,
// and which pods the pod garbage collector removes. Every function is pure:
// it reads its arguments, never modifies them, and takes time as a
// parameter. The pod-safety state machine (at most one running instance per
// pod identity) lives in the sub-package lifecycle/safety.
//
// # Phase and conditions
//
// Phase mirrors the kubelet's getPhase (pkg/kubelet/kubelet_pods.go). It
// counts regular init containers (pending, failed for good), sidecars
// (restartable init containers: only their start matters) and regular
// containers (running, waiting, stopped, unknown), and with
// ContainerRestartRules on decides "will this stopped container run again"
// per container with ShouldRestart: the container's restartPolicyRules (only
// read when the container has its own restartPolicy), then its
// restartPolicy, then the pod's. A container stopped with reason
// RestartingAllContainers is always going to run again. Invariants:
//
//	Succeeded ⇒ every regular container is known and stopped, and all exited 0
//	Failed    ⇒ an init container failed for good, or some container stopped for good
//	            (or, for a terminal pod, with a non-zero exit)
//
// GenerateStatus adds the Initialized, Ready and ContainersReady conditions
// in the order and with the reasons and messages of
// pkg/kubelet/status/generate.go, so that
//
//	Ready=True ⇒ ContainersReady=True ⇒ Initialized=True
//
// (Ready copies ContainersReady unless that is True, and every container
// ready means every regular container started). ScheduledCondition,
// ReadyToStartContainersCondition and DisruptionTargetCondition give the
// other conditions a pod carries.
//
// CheckTransition mirrors the status manager's checkContainerStateTransition:
// a terminated container may only become non-terminated if it can restart.
// A refusal is a verdict with upstream's text, not an error.
//
// # Deletion
//
// GracePeriod mirrors the pod strategy's CheckGracefulDelete and Delete the
// API server's rest.BeforeDelete plus the generic store's finalizer rule:
// the request's gracePeriodSeconds, else terminationGracePeriodSeconds
// (unset = 30), 0 for unbound or terminal pods; once a deletion has started
// a later DELETE can only shorten the deadline; grace 0 removes the object
// unless finalizers keep it.
//
// # Input handling
//
// Objects are read as the API server stores them after v1 defaulting; the
// defaults the rules depend on are applied implicitly (an unset
// restartPolicy is Always, an unset terminationGracePeriodSeconds is 30).
// Invalid input (a nil pod, an unknown restart policy, rule action or
// operator, a restart rule without exit codes) is an error wrapping
// ErrInvalidInput whose FieldErrors carry API paths; functions never panic
// on caller input. Where upstream answers a malformed status with a verdict
// (an init container status out of spec order), so does this package.
//
// # Concurrency
//
// All functions are safe for concurrent use; they share no state.
package lifecycle
