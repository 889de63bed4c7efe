package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

// TestNewBackoff mirrors the kubelet's newCrashLoopBackOff and the
// configuration validation of maxContainerRestartPeriod.
func TestNewBackoff(t *testing.T) {
	tests := []struct {
		name         string
		max          time.Duration
		initial, cap time.Duration
		err          string
	}{
		{"default", 0, 10 * time.Second, 300 * time.Second, ""},
		{"cap 60s", time.Minute, 10 * time.Second, time.Minute, ""},
		{"cap below 10s lowers the initial delay", 3 * time.Second, 3 * time.Second, 3 * time.Second, ""},
		{"cap 1s", time.Second, time.Second, time.Second, ""},
		{"cap below 1s", 500 * time.Millisecond, 0, 0, "lifecycle: invalid input: invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.5 seconds) must be set between 1s and 300s"},
		{"cap above 300s", 301 * time.Second, 0, 0, "lifecycle: invalid input: invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 301 seconds) must be set between 1s and 300s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := lifecycle.NewBackoff(lifecycle.BackoffOptions{MaxContainerRestartPeriod: tt.max})
			if tt.err != "" {
				require.ErrorIs(t, err, lifecycle.ErrInvalidInput)
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.initial, b.Initial())
			assert.Equal(t, tt.cap, b.Max())
		})
	}
}

// TestBackoffSequence mirrors client-go flowcontrol.Backoff.Next /
// IsInBackOffSince with the kubelet's 600 s expiry, driven the way
// kuberuntime's doBackOff drives it: a container that exits immediately
// after each start.
func TestBackoffSequence(t *testing.T) {
	b, err := lifecycle.NewBackoff(lifecycle.BackoffOptions{})
	require.NoError(t, err)
	var s lifecycle.BackoffState
	now, finished := t0, t0
	var delays []time.Duration
	for range 9 {
		r := b.Decide(s, "app", "p_default(uid-p)", finished, now)
		require.True(t, r.Start, "must start at %v", now)
		s = r.State
		delays = append(delays, s.Delay)
		finished = now // the new container exits as soon as it starts
		// One second later it is still in back-off.
		wait := b.Decide(s, "app", "p_default(uid-p)", finished, finished.Add(time.Second))
		assert.False(t, wait.Start)
		assert.Equal(t, finished.Add(s.Delay), wait.RetryAt)
		now = b.NextRestart(s, finished)
	}
	sec := time.Second
	assert.Equal(t, []time.Duration{10 * sec, 20 * sec, 40 * sec, 80 * sec, 160 * sec, 300 * sec, 300 * sec, 300 * sec, 300 * sec}, delays)
	wait := b.Decide(lifecycle.BackoffState{Delay: 20 * sec, LastUpdate: t0}, "app", lifecycle.PodRef("p", "default", "uid-p"), t0, t0.Add(5*sec))
	assert.Equal(t, "back-off 20s restarting failed container=app pod=p_default(uid-p)", wait.Message)
}

// TestBackoffReset: an entry more than 600 s older than the exit is
// forgotten (the kubelet's HasExpiredFunc), whatever the cap.
func TestBackoffReset(t *testing.T) {
	b, err := lifecycle.NewBackoff(lifecycle.BackoffOptions{MaxContainerRestartPeriod: 30 * time.Second})
	require.NoError(t, err)
	s := lifecycle.BackoffState{Delay: 30 * time.Second, LastUpdate: t0}
	tests := []struct {
		name     string
		finished time.Time
		inBO     bool
		next     time.Duration
	}{
		{"exit 600 s after the update keeps the entry", t0.Add(600 * time.Second), true, 30 * time.Second},
		{"exit 601 s after the update resets", t0.Add(601 * time.Second), false, 10 * time.Second},
		{"exit twice the cap later still keeps it (kubelet rule, not client-go's)", t0.Add(61 * time.Second), true, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.inBO, b.InBackoff(s, tt.finished, tt.finished))
			assert.Equal(t, tt.next, b.Next(s, tt.finished, tt.finished).Delay)
		})
	}
	assert.False(t, b.InBackoff(lifecycle.BackoffState{}, t0, t0), "no entry, no back-off")
	assert.False(t, b.Expired(s, t0.Add(600*time.Second)))
	assert.True(t, b.Expired(s, t0.Add(601*time.Second)))
	assert.False(t, b.Expired(lifecycle.BackoffState{}, t0.Add(time.Hour)))
	assert.Equal(t, t0, b.NextRestart(lifecycle.BackoffState{}, t0))
}

// TestPlanKill mirrors kuberuntime's killContainer and
// setTerminationGracePeriod.
func TestPlanKill(t *testing.T) {
	hook := &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "5"}}}}
	withHook := pod(always).ctrs(ctr("a")).pod()
	withHook.Spec.Containers[0].Lifecycle = hook
	withHook.Spec.TerminationGracePeriodSeconds = ptr[int64](30)
	deleting := withHook.DeepCopy()
	deleting.DeletionGracePeriodSeconds = ptr[int64](10)
	noHook := pod(always).ctrs(ctr("a")).pod()
	tests := []struct {
		name     string
		pod      *corev1.Pod
		override *int64
		preStop  time.Duration
		want     lifecycle.KillPlan
	}{
		{"no hook: signal now, kill after the whole grace", noHook, nil, 0,
			lifecycle.KillPlan{GracePeriodSeconds: 30, Start: t0, PreStopEnd: t0, SignalAt: t0, StopGracePeriodSeconds: 30, KillAt: t0.Add(30 * time.Second)}},
		{"hook time is taken from the grace", withHook, nil, 5500 * time.Millisecond,
			lifecycle.KillPlan{GracePeriodSeconds: 30, Start: t0, PreStop: true, PreStopEnd: t0.Add(5500 * time.Millisecond), SignalAt: t0.Add(5500 * time.Millisecond), StopGracePeriodSeconds: 25, KillAt: t0.Add(30500 * time.Millisecond)}},
		{"deletion grace period wins over the spec", deleting, nil, time.Minute,
			lifecycle.KillPlan{GracePeriodSeconds: 10, Start: t0, PreStop: true, PreStopEnd: t0.Add(10 * time.Second), SignalAt: t0.Add(10 * time.Second), StopGracePeriodSeconds: 2, KillAt: t0.Add(12 * time.Second)}},
		{"override 0 skips the hook and still leaves 2 s", withHook, ptr[int64](0), time.Minute,
			lifecycle.KillPlan{GracePeriodSeconds: 0, Start: t0, PreStopEnd: t0, SignalAt: t0, StopGracePeriodSeconds: 2, KillAt: t0.Add(2 * time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lifecycle.PlanKill(tt.pod, "a", tt.override, t0, tt.preStop)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	// A kubelet restart begins the sequence again with the whole budget.
	first, err := lifecycle.PlanKill(deleting, "a", nil, t0, time.Minute)
	require.NoError(t, err)
	again, err := lifecycle.PlanKill(deleting, "a", nil, t0.Add(8*time.Second), time.Minute)
	require.NoError(t, err)
	assert.True(t, again.KillAt.After(first.KillAt))
	assert.Equal(t, t0.Add(20*time.Second), again.KillAt)
}

// TestEffectiveGracePeriod mirrors pod_workers.go calculateEffectiveGracePeriod.
func TestEffectiveGracePeriod(t *testing.T) {
	p := pod(always).ctrs(ctr("a")).pod()
	p.Spec.TerminationGracePeriodSeconds = ptr[int64](45)
	deleting := p.DeepCopy()
	deleting.DeletionGracePeriodSeconds = ptr[int64](20)
	forced := p.DeepCopy()
	forced.DeletionGracePeriodSeconds = ptr[int64](0)
	tests := []struct {
		name     string
		previous int64
		pod      *corev1.Pod
		override *int64
		want     int64
	}{
		{"nothing requested: the pod's grace period", 0, p, nil, 45},
		{"unset terminationGracePeriodSeconds is 30", 0, pod(always).ctrs(ctr("a")).pod(), nil, 30},
		{"deletion grace period", 0, deleting, nil, 20},
		{"deletion may only shorten", 10, deleting, nil, 10},
		{"eviction override shortens", 20, deleting, ptr[int64](5), 5},
		{"a longer override is ignored", 0, deleting, ptr[int64](60), 20},
		{"grace 0 becomes 1", 0, forced, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lifecycle.EffectiveGracePeriod(tt.previous, tt.pod, tt.override)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
