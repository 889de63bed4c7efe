package lifecycle_test

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

func describe(at time.Duration, pod *corev1.Pod, opts lifecycle.StatusOptions) {
	st, err := lifecycle.GenerateStatus(pod, opts)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	var conds []string
	for _, c := range st.Conditions {
		s := fmt.Sprintf("%s=%s", c.Type, c.Status)
		if c.Reason != "" {
			s += "(" + c.Reason + ")"
		}
		conds = append(conds, s)
	}
	fmt.Printf("+%-4s %-8s %s\n", at, st.Phase, strings.Join(conds, " "))
}

// Example walks a pod from creation through a crash loop to a graceful
// deletion: the kubelet's phase and conditions at each step, the crash-loop
// back-off, the grace period of the DELETE and the kill sequence.
func Example() {
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1"},
		Spec: corev1.PodSpec{
			NodeName: "node-1",
			Containers: []corev1.Container{{Name: "app", Image: "app:1",
				Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"drain"}}}}}},
		},
	}
	sched, _ := lifecycle.ScheduledCondition(pod, "")
	fmt.Printf("+0s   scheduled: %s=%s\n", sched.Type, sched.Status)
	describe(0, pod, lifecycle.StatusOptions{})

	// The container starts and becomes ready.
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("app", true)}
	describe(5*time.Second, pod, lifecycle.StatusOptions{PodHasInitialized: true})

	// It crashes again and again: the kubelet restarts it with back-off.
	backoff, _ := lifecycle.NewBackoff(lifecycle.BackoffOptions{})
	var state lifecycle.BackoffState
	exit := start.Add(60 * time.Second)
	for range 4 {
		r := backoff.Decide(state, "app", lifecycle.PodRef("web", "default", "uid-1"), exit, exit)
		if !r.Start {
			fmt.Println(r.Message)
			restart := backoff.NextRestart(state, exit)
			pod.Status.ContainerStatuses = []corev1.ContainerStatus{crashLoop("app", 1)}
			describe(exit.Sub(start), pod, lifecycle.StatusOptions{PodHasInitialized: true})
			fmt.Printf("      restart at +%s\n", restart.Sub(start))
			r = backoff.Decide(state, "app", "", exit, restart)
			exit = restart
		}
		state = r.State
		exit = exit.Add(time.Second) // the new container dies a second later
	}

	// A graceful DELETE: 30 s by default, deadline from the API server's clock.
	deleteAt := start.Add(3 * time.Minute)
	d, _ := lifecycle.Delete(pod, nil, deleteAt)
	fmt.Printf("+%s delete: grace %ds, deadline +%s, removed=%v\n", deleteAt.Sub(start), *d.GracePeriodSeconds, d.Pod.DeletionTimestamp.Sub(start), d.Removed)
	plan, _ := lifecycle.PlanKill(d.Pod, "app", nil, deleteAt, 4*time.Second)
	fmt.Printf("      preStop until +%s, SIGTERM at +%s with %ds, SIGKILL at +%s\n",
		plan.PreStopEnd.Sub(start), plan.SignalAt.Sub(start), plan.StopGracePeriodSeconds, plan.KillAt.Sub(start))

	// The container exits on SIGTERM; the terminal pod fails (exit 143).
	pod = d.Pod
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{terminated("app", 143)}
	describe(3*time.Minute+10*time.Second, pod, lifecycle.StatusOptions{PodIsTerminal: true, PodHasInitialized: true})

	// Output:
	// +0s   scheduled: PodScheduled=True
	// +0s   Pending  Initialized=True Ready=False(UnknownContainerStatuses) ContainersReady=False(UnknownContainerStatuses)
	// +5s   Running  Initialized=True Ready=True ContainersReady=True
	// back-off 10s restarting failed container=app pod=web_default(uid-1)
	// +1m1s Running  Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady)
	//       restart at +1m11s
	// back-off 20s restarting failed container=app pod=web_default(uid-1)
	// +1m12s Running  Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady)
	//       restart at +1m32s
	// back-off 40s restarting failed container=app pod=web_default(uid-1)
	// +1m33s Running  Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady)
	//       restart at +2m13s
	// +3m0s delete: grace 30s, deadline +3m30s, removed=false
	//       preStop until +3m4s, SIGTERM at +3m4s with 26s, SIGKILL at +3m30s
	// +3m10s Failed   Initialized=True Ready=False(PodFailed) ContainersReady=False(PodFailed)
}

// ExampleCheckTransition shows the status manager refusing to bring a
// finished container of a restartPolicy Never pod back to life.
func ExampleCheckTransition() {
	spec := &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "job"}}}
	old := &corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("job", 0)}}
	next := &corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{running("job", true)}}
	v, _ := lifecycle.CheckTransition(spec, old, next)
	fmt.Println(v.Allowed, v.Reason)
	// Output: false terminated container job attempted illegal transition to non-terminated state
}

// ExampleCollectGarbage shows the pod garbage collector's order.
func ExampleCollectGarbage() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	mk := func(name, node string, phase corev1.PodPhase, age time.Duration) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: metav1.NewTime(now.Add(-age))},
			Spec: corev1.PodSpec{NodeName: node}, Status: corev1.PodStatus{Phase: phase}}
	}
	evictedPod := mk("evicted", "node-1", corev1.PodFailed, time.Minute)
	evictedPod.Status.Reason = "Evicted"
	acts, _ := lifecycle.CollectGarbage(lifecycle.GCInput{
		Now:                    now,
		TerminatedPodThreshold: 1,
		Nodes:                  []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}},
		MissingSince:           []lifecycle.MissingNode{{Name: "node-9", Since: now.Add(-time.Minute)}},
		Pods: []*corev1.Pod{
			mk("old-job", "node-1", corev1.PodSucceeded, time.Hour), evictedPod, mk("new-job", "node-1", corev1.PodSucceeded, time.Second),
			mk("stranded", "node-9", corev1.PodRunning, time.Hour),
		},
	})
	for _, a := range acts {
		phase := "as is"
		if a.Status != nil {
			phase = "marked " + string(a.Status.Phase)
		}
		fmt.Println(a.Name, a.Reason, phase)
	}
	// Output:
	// evicted Terminated as is
	// old-job Terminated as is
	// stranded Orphaned marked Failed
}
