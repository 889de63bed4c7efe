package lifecycle_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/lifecycle"
)

// Generators draw from small pools so that collisions happen: three
// policies, exit codes 0/1/42/137, one rule shape.

var exitCodes = []int32{0, 1, 42, 137}

func genContainer(t *rapid.T, name string, sidecarOK bool) corev1.Container {
	c := ctr(name)
	switch rapid.IntRange(0, 5).Draw(t, name+"-kind") {
	case 0:
		c = withPolicy(c, corev1.ContainerRestartPolicyNever)
	case 1:
		c = withPolicy(c, corev1.ContainerRestartPolicyOnFailure)
	case 2:
		c = withRule(withPolicy(c, corev1.ContainerRestartPolicyNever),
			rapid.SampledFrom([]corev1.ContainerRestartRuleAction{corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers}).Draw(t, name+"-action"),
			rapid.SampledFrom([]corev1.ContainerRestartRuleOnExitCodesOperator{corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn}).Draw(t, name+"-op"), 42)
	case 3:
		if sidecarOK {
			c = sidecar(name)
		}
	}
	return c
}

// genStatus draws a status consistent with what a kubelet writes: ready only
// while running (or, for regular init containers, after exiting 0).
func genStatus(t *rapid.T, name string, regularInit bool) (corev1.ContainerStatus, bool) {
	switch rapid.IntRange(0, 4).Draw(t, name+"-state") {
	case 0:
		return corev1.ContainerStatus{}, false
	case 1:
		return waiting(name), true
	case 2:
		return crashLoop(name, rapid.SampledFrom(exitCodes).Draw(t, name+"-last")), true
	case 3:
		s := running(name, rapid.Bool().Draw(t, name+"-ready"))
		if !rapid.Bool().Draw(t, name+"-started") {
			s.Started = ptr(false)
			s.Ready = false
		}
		if regularInit {
			s.Ready = false
		}
		return s, true
	default:
		code := rapid.SampledFrom(exitCodes).Draw(t, name+"-code")
		s := terminated(name, code)
		s.Ready = regularInit && code == 0
		if rapid.IntRange(0, 5).Draw(t, name+"-rac") == 0 {
			s.State.Terminated.Reason = lifecycle.RestartingAllContainers
		}
		return s, true
	}
}

func genPod(t *rapid.T) *corev1.Pod {
	b := pod(rapid.SampledFrom([]corev1.RestartPolicy{always, onFailure, never}).Draw(t, "policy"))
	for i := range rapid.IntRange(0, 2).Draw(t, "inits") {
		c := genContainer(t, fmt.Sprintf("init-%d", i), true)
		b.init(c)
		if s, ok := genStatus(t, c.Name, !lifecycle.IsRestartableInitContainer(&c)); ok {
			b.initStatus(s)
		}
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
		c := genContainer(t, fmt.Sprintf("app-%d", i), false)
		b.ctrs(c)
		if s, ok := genStatus(t, c.Name, false); ok {
			b.status(s)
		}
	}
	if rapid.Bool().Draw(t, "gate") {
		b.gates("example.com/gate")
		if rapid.Bool().Draw(t, "gate-true") {
			b.cond("example.com/gate", corev1.ConditionTrue)
		}
	}
	return b.pod()
}

func condStatus(st lifecycle.PodStatus, ct corev1.PodConditionType) corev1.ConditionStatus {
	if c := st.Condition(ct); c != nil {
		return c.Status
	}
	return ""
}

// TestProperties holds the invariants of phase and conditions.
func TestProperties(t *testing.T) {
	t.Run("Ready implies ContainersReady implies Initialized", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := genPod(t)
			opts := lifecycle.StatusOptions{PodIsTerminal: rapid.Bool().Draw(t, "terminal"), PodHasInitialized: rapid.Bool().Draw(t, "initialized")}
			st, err := lifecycle.GenerateStatus(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			if condStatus(st, corev1.PodReady) == corev1.ConditionTrue && condStatus(st, corev1.ContainersReady) != corev1.ConditionTrue {
				t.Fatalf("Ready without ContainersReady: %+v", st.Conditions)
			}
			if condStatus(st, corev1.ContainersReady) == corev1.ConditionTrue && condStatus(st, corev1.PodInitialized) != corev1.ConditionTrue {
				t.Fatalf("ContainersReady without Initialized: %+v", st.Conditions)
			}
		})
	})

	t.Run("the order of container statuses changes nothing", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := genPod(t)
			opts := lifecycle.StatusOptions{PodIsTerminal: rapid.Bool().Draw(t, "terminal"), PodHasInitialized: rapid.Bool().Draw(t, "initialized")}
			want, err := lifecycle.GenerateStatus(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			q := p.DeepCopy()
			q.Status.ContainerStatuses = rapid.Permutation(q.Status.ContainerStatuses).Draw(t, "regular")
			q.Status.InitContainerStatuses = rapid.Permutation(q.Status.InitContainerStatuses).Draw(t, "init")
			got, err := lifecycle.GenerateStatus(q, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("permuted statuses changed the answer:\n%+v\n%+v", want, got)
			}
		})
	})

	t.Run("Succeeded only when every regular container exited 0", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := genPod(t)
			ph, err := lifecycle.Phase(p, lifecycle.StatusOptions{PodIsTerminal: rapid.Bool().Draw(t, "terminal")})
			if err != nil {
				t.Fatal(err)
			}
			if ph != corev1.PodSucceeded {
				return
			}
			for _, c := range p.Spec.Containers {
				var s *corev1.ContainerStatus
				for i := range p.Status.ContainerStatuses {
					if p.Status.ContainerStatuses[i].Name == c.Name {
						s = &p.Status.ContainerStatuses[i]
						break
					}
				}
				if s == nil || s.State.Terminated == nil || s.State.Terminated.ExitCode != 0 {
					t.Fatalf("Succeeded but %s is %+v", c.Name, s)
				}
			}
		})
	})

	t.Run("a phase never leaves Succeeded or Failed", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := genPod(t)
			var written corev1.PodPhase // what the kubelet last wrote (cache and API)
			t.Repeat(map[string]func(*rapid.T){
				"container status update": func(t *rapid.T) {
					next := p.DeepCopy()
					all := append(append([]corev1.Container{}, next.Spec.InitContainers...), next.Spec.Containers...)
					c := rapid.SampledFrom(all).Draw(t, "container")
					s, ok := genStatus(t, c.Name, false)
					if !ok {
						return
					}
					list := &next.Status.ContainerStatuses
					if rapid.Bool().Draw(t, "into-init-list") || len(next.Spec.Containers) == 0 {
						list = &next.Status.InitContainerStatuses
					}
					replaced := false
					for i := range *list {
						if (*list)[i].Name == c.Name {
							(*list)[i], replaced = s, true
						}
					}
					if !replaced {
						*list = append(*list, s)
					}
					v, err := lifecycle.CheckTransition(&next.Spec, &p.Status, &next.Status)
					if err != nil {
						t.Fatal(err)
					}
					if v.Allowed {
						p = next
					}
				},
				"kubelet sync": func(t *rapid.T) {
					computed, err := lifecycle.Phase(p, lifecycle.StatusOptions{PodIsTerminal: rapid.Bool().Draw(t, "terminal")})
					if err != nil {
						t.Fatal(err)
					}
					merged := lifecycle.MergePhase(computed, written, written)
					if lifecycle.IsTerminalPhase(written) && merged != written {
						t.Fatalf("phase moved from %s to %s", written, merged)
					}
					written = merged
				},
			})
		})
	})
}

// TestBackoffProperties: delays never decrease and never exceed the cap
// until a reset, whatever the exit and decision times.
func TestBackoffProperties(t *testing.T) {
	t.Run("delays are non-decreasing and capped until a reset", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			capSec := rapid.SampledFrom([]int{0, 1, 3, 10, 60, 300}).Draw(t, "cap")
			b, err := lifecycle.NewBackoff(lifecycle.BackoffOptions{MaxContainerRestartPeriod: time.Duration(capSec) * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var s lifecycle.BackoffState
			now, finished := t0, t0
			t.Repeat(map[string]func(*rapid.T){
				"container exits": func(t *rapid.T) {
					now = now.Add(time.Duration(rapid.IntRange(0, 900).Draw(t, "ran")) * time.Second)
					finished = now
				},
				"kubelet sync": func(t *rapid.T) {
					now = now.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "wait")) * time.Second)
					prev := s
					r := b.Decide(s, "app", "p", finished, now)
					if !r.Start {
						if r.State != prev || !r.RetryAt.After(now) {
							t.Fatalf("waiting changed the state or retries in the past: %+v", r)
						}
						return
					}
					s = r.State
					reset := prev.IsZero() || finished.Sub(prev.LastUpdate) > lifecycle.BackoffResetAfter
					if s.Delay > b.Max() {
						t.Fatalf("delay %v above cap %v", s.Delay, b.Max())
					}
					if reset && s.Delay != b.Initial() {
						t.Fatalf("reset to %v, want %v", s.Delay, b.Initial())
					}
					if !reset && s.Delay < prev.Delay {
						t.Fatalf("delay decreased from %v to %v without reset", prev.Delay, s.Delay)
					}
					finished = now // the restarted container may exit at once
				},
			})
		})
	})
}

// TestDeleteProperties: once deletion has started, the deletion grace period
// never grows and the deadline never moves later, except that upstream moves
// a deadline already in the past to now (rest.BeforeDelete never sets a
// deadline before now): new deadline <= max(old deadline, now).
func TestDeleteProperties(t *testing.T) {
	t.Run("a deadline never grows after deletion starts, beyond now", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := pod(always).ctrs(ctr("a")).pod()
			p.Spec.TerminationGracePeriodSeconds = ptr(int64(rapid.SampledFrom([]int{0, 1, 30, 3600}).Draw(t, "tgps")))
			now := t0
			removed := false
			t.Repeat(map[string]func(*rapid.T){
				"delete": func(t *rapid.T) {
					if removed {
						return // the object is gone; nothing left to delete
					}
					now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "later")) * time.Second)
					var opts *metav1.DeleteOptions
					if rapid.Bool().Draw(t, "with-grace") {
						opts = &metav1.DeleteOptions{GracePeriodSeconds: ptr(int64(rapid.SampledFrom([]int{-1, 0, 1, 5, 30, 600}).Draw(t, "grace")))}
					}
					d, err := lifecycle.Delete(p, opts, now)
					if err != nil {
						t.Fatal(err)
					}
					if p.DeletionTimestamp != nil {
						limit := p.DeletionTimestamp.Time
						if now.After(limit) {
							limit = now
						}
						if d.Pod.DeletionTimestamp.After(limit) {
							t.Fatalf("deadline grew from %v to %v", p.DeletionTimestamp, d.Pod.DeletionTimestamp)
						}
						if *d.Pod.DeletionGracePeriodSeconds > *p.DeletionGracePeriodSeconds {
							t.Fatalf("grace grew from %d to %d", *p.DeletionGracePeriodSeconds, *d.Pod.DeletionGracePeriodSeconds)
						}
					}
					p, removed = d.Pod, d.Removed
				},
			})
		})
	})
}

// FuzzGenerateStatus: any decodable pod gives an answer or an error, never
// a panic, from every entry point that reads a pod.
func FuzzGenerateStatus(f *testing.F) {
	f.Add([]byte(`{"spec":{"restartPolicy":"Never","initContainers":[{"name":"i","restartPolicy":"Always"}],"containers":[{"name":"a","restartPolicy":"Never","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[42]}}]}]},"status":{"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":42}}}]}}`))
	f.Add([]byte(`{"metadata":{"deletionTimestamp":"2025-06-01T12:00:00Z","deletionGracePeriodSeconds":-3},"spec":{"containers":[{"name":"a"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p corev1.Pod
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		_, _ = lifecycle.GenerateStatus(&p, lifecycle.StatusOptions{PodIsTerminal: len(data)%2 == 0})
		_, _ = lifecycle.CheckTransition(&p.Spec, &p.Status, &p.Status)
		_, _, _ = lifecycle.GracePeriod(&p, &metav1.DeleteOptions{})
		_, _ = lifecycle.Delete(&p, nil, t0)
		for _, c := range p.Spec.Containers {
			_, _ = lifecycle.PlanKill(&p, c.Name, nil, t0, time.Second)
		}
	})
}
