package lifecycle

import (
	"fmt"
	"time"
)

// Crash-loop back-off constants of the kubelet as of v1.36
// (pkg/kubelet/kubelet.go).
const (
	// InitialRestartDelay is the first back-off after a container exits.
	InitialRestartDelay = 10 * time.Second
	// DefaultMaxRestartDelay is the default cap (MaxContainerBackOff), used
	// when BackoffOptions.MaxContainerRestartPeriod is zero.
	DefaultMaxRestartDelay = 300 * time.Second
	// BackoffResetAfter is how long after the last update an entry is
	// forgotten, whatever the cap: the kubelet replaces client-go's
	// "twice the cap" expiry with a fixed 600 s.
	BackoffResetAfter = 600 * time.Second
	// MinMaxContainerRestartPeriod is the lowest configurable cap (kubelet
	// configuration validation).
	MinMaxContainerRestartPeriod = time.Second
	// MaxMaxContainerRestartPeriod is the highest configurable cap.
	MaxMaxContainerRestartPeriod = 300 * time.Second
)

// BackoffOptions configures the crash-loop back-off. The zero value is the
// kubelet default.
type BackoffOptions struct {
	// MaxContainerRestartPeriod is the kubelet's
	// crashLoopBackOff.maxContainerRestartPeriod (KubeletCrashLoopBackOffMax,
	// beta and on in v1.36): the cap of the delay, 1 s to 300 s. A cap below
	// the initial 10 s lowers the initial delay to the cap. Zero means 300 s.
	MaxContainerRestartPeriod time.Duration
}

// Backoff is a compiled crash-loop back-off policy: the initial delay and the
// cap. It is a small value, safe to copy and to share between goroutines.
type Backoff struct {
	initial, max time.Duration
}

// NewBackoff compiles opts, mirroring the kubelet's newCrashLoopBackOff as of
// v1.36. The error wraps ErrInvalidInput when the cap is outside 1 s..300 s,
// with the kubelet configuration validation's message.
func NewBackoff(opts BackoffOptions) (Backoff, error) {
	max := opts.MaxContainerRestartPeriod
	if max == 0 {
		max = DefaultMaxRestartDelay
	}
	if max < MinMaxContainerRestartPeriod || max > MaxMaxContainerRestartPeriod {
		return Backoff{}, fmt.Errorf("%w: invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: %v seconds) must be set between 1s and 300s", ErrInvalidInput, max.Seconds())
	}
	return Backoff{initial: min(InitialRestartDelay, max), max: max}, nil
}

// Initial returns the first delay: 10 s, or the cap when the cap is lower
// (newCrashLoopBackOff in pkg/kubelet/kubelet.go, as of v1.36).
func (b Backoff) Initial() time.Duration { return b.initial }

// Max returns the cap of the delay (maxContainerRestartPeriod, 300 s by
// default).
func (b Backoff) Max() time.Duration { return b.max }

// BackoffState is the kubelet's back-off entry of one container (keyed
// upstream by pod name, namespace, UID, container name and spec hash). The
// zero value means "no entry": the container has not been restarted
// recently.
type BackoffState struct {
	// Delay is the current back-off.
	Delay time.Duration
	// LastUpdate is when the kubelet last raised the delay (its clock when it
	// restarted the container).
	LastUpdate time.Time
}

// IsZero reports whether the state is "no entry": the container has not
// been restarted recently, or its entry expired.
func (s BackoffState) IsZero() bool { return s.Delay == 0 && s.LastUpdate.IsZero() }

// expired mirrors the kubelet's HasExpiredFunc: the entry is stale when the
// event came more than 600 s after the last update.
func expired(s BackoffState, event time.Time) bool {
	return event.Sub(s.LastUpdate) > BackoffResetAfter
}

// InBackoff reports whether a container that exited at finishedAt must still
// wait at time now: its entry exists, is not stale relative to finishedAt,
// and less than Delay has passed since finishedAt. Mirrors client-go's
// flowcontrol.Backoff.IsInBackOffSince as the kubelet's doBackOff
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go) uses it as of v1.36.
func (b Backoff) InBackoff(s BackoffState, finishedAt, now time.Time) bool {
	if s.IsZero() || expired(s, finishedAt) {
		return false
	}
	return now.Sub(finishedAt) < s.Delay
}

// NextRestart returns the earliest time the kubelet restarts a container
// that exited at finishedAt: finishedAt + Delay while in back-off, else
// finishedAt (it may restart at once). The kubelet only acts at its next
// pod sync, so the real restart may come later.
func (b Backoff) NextRestart(s BackoffState, finishedAt time.Time) time.Time {
	if s.IsZero() || expired(s, finishedAt) {
		return finishedAt
	}
	return finishedAt.Add(s.Delay)
}

// Next returns the entry after the kubelet restarts a container that exited
// at finishedAt, at time now: a missing or stale entry starts at the initial
// delay, otherwise the delay doubles up to the cap; LastUpdate becomes now.
// Mirrors client-go's flowcontrol.Backoff.Next without jitter (the kubelet
// uses NewBackOff, jitter 0), as of v1.36. s is a value; the new entry is
// returned.
func (b Backoff) Next(s BackoffState, finishedAt, now time.Time) BackoffState {
	if s.IsZero() || expired(s, finishedAt) {
		return BackoffState{Delay: b.initial, LastUpdate: now}
	}
	return BackoffState{Delay: min(2*s.Delay, b.max), LastUpdate: now}
}

// Restart is the kubelet's decision for a container that exited.
type Restart struct {
	// Start: the kubelet starts the container now.
	Start bool
	// State is the back-off entry afterwards.
	State BackoffState
	// RetryAt is when the back-off ends (only when !Start).
	RetryAt time.Time
	// Message is the kubelet's CrashLoopBackOff waiting message when !Start,
	// as kuberuntime's doBackOff writes it ("back-off 20s restarting failed
	// container=app pod=web_default(uid)").
	Message string
}

// Decide mirrors kuberuntime's doBackOff (pkg/kubelet/kuberuntime/
// kuberuntime_manager.go, as of v1.36) for container name of a pod: while
// in back-off since finishedAt, the container waits (CrashLoopBackOff) until
// finishedAt + Delay; otherwise the kubelet restarts it and raises the delay.
// podRef is the pod as the kubelet formats it ("name_namespace(uid)"), see
// PodRef. The caller keeps the returned Restart.State for the next exit.
func (b Backoff) Decide(s BackoffState, container, podRef string, finishedAt, now time.Time) Restart {
	if b.InBackoff(s, finishedAt, now) {
		return Restart{
			State:   s,
			RetryAt: finishedAt.Add(s.Delay),
			Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", s.Delay, container, podRef),
		}
	}
	return Restart{Start: true, State: b.Next(s, finishedAt, now)}
}

// PodRef formats a pod the way kubelet messages name it: "name_namespace(uid)"
// (pkg/kubelet/util/format.Pod).
func PodRef(name, namespace, uid string) string {
	return fmt.Sprintf("%s_%s(%s)", name, namespace, uid)
}

// Expired reports whether the kubelet's periodic clean-up (flowcontrol's GC
// with the kubelet's expiry) drops the entry at time now: more than 600 s
// since it was last raised. A dropped entry is the zero BackoffState.
func (b Backoff) Expired(s BackoffState, now time.Time) bool {
	return !s.IsZero() && expired(s, now)
}
