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

// ExamplePhase shows getPhase's rules on a pod with an init container and
// two regular containers, restartPolicy OnFailure.
func ExamplePhase() {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "batch", Namespace: "default"},
		Spec: corev1.PodSpec{
			RestartPolicy:  corev1.RestartPolicyOnFailure,
			InitContainers: []corev1.Container{{Name: "setup", Image: "setup:1"}},
			Containers:     []corev1.Container{{Name: "a", Image: "a:1"}, {Name: "b", Image: "b:1"}},
		},
	}
	show := func(what string, opts lifecycle.StatusOptions) {
		ph, err := lifecycle.Phase(pod, opts)
		if err != nil {
			fmt.Println(what, "error:", err)
			return
		}
		fmt.Printf("%-28s %s\n", what, ph)
	}
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{running("setup", false)}
	show("init container running", lifecycle.StatusOptions{})
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{terminated("setup", 0)}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("a", true), running("b", true)}
	show("both running", lifecycle.StatusOptions{})
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{terminated("a", 0), terminated("b", 1)}
	show("b failed, will restart", lifecycle.StatusOptions{})
	show("b failed, pod terminal", lifecycle.StatusOptions{PodIsTerminal: true})
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{terminated("a", 0), terminated("b", 0)}
	show("both exited 0", lifecycle.StatusOptions{})
	// Output:
	// init container running       Pending
	// both running                 Running
	// b failed, will restart       Running
	// b failed, pod terminal       Failed
	// both exited 0                Succeeded
}

// ExampleGenerateStatus shows the phase and the Initialized, Ready and
// ContainersReady conditions of a pod whose sidecar has started but whose
// main container is not ready yet, and of the same pod with a readiness gate
// once the containers are ready.
func ExampleGenerateStatus() {
	always := corev1.ContainerRestartPolicyAlways
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "proxy", Image: "proxy:1", RestartPolicy: &always}},
			Containers:     []corev1.Container{{Name: "app", Image: "app:1"}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: "example.com/lb-ready"}},
		},
		Status: corev1.PodStatus{
			InitContainerStatuses: []corev1.ContainerStatus{running("proxy", true)},
			ContainerStatuses:     []corev1.ContainerStatus{running("app", false)},
		},
	}
	printStatus := func(st lifecycle.PodStatus) {
		fmt.Print(st.Phase)
		for _, c := range st.Conditions {
			fmt.Printf(" %s=%s", c.Type, c.Status)
			if c.Reason != "" {
				fmt.Printf("(%s)", c.Reason)
			}
		}
		fmt.Println()
	}
	st, _ := lifecycle.GenerateStatus(pod, lifecycle.StatusOptions{PodHasInitialized: true})
	printStatus(st)
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("app", true)}
	st, _ = lifecycle.GenerateStatus(pod, lifecycle.StatusOptions{PodHasInitialized: true})
	printStatus(st)
	fmt.Println(st.Condition(corev1.PodReady).Message)
	// Output:
	// Running Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady)
	// Running Initialized=True Ready=False(ReadinessGatesNotReady) ContainersReady=True
	// corresponding condition of pod readiness gate "example.com/lb-ready" does not exist.
}

// ExampleBackoff shows the crash-loop back-off with a 40 s cap: the delay
// doubles from 10 s, stops at the cap, and is forgotten once more than
// 600 s have passed since the last restart.
func ExampleBackoff() {
	b, err := lifecycle.NewBackoff(lifecycle.BackoffOptions{MaxContainerRestartPeriod: 40 * time.Second})
	if err != nil {
		panic(err)
	}
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	var s lifecycle.BackoffState
	exit := start
	for range 5 {
		r := b.Decide(s, "app", "web_default(uid-1)", exit, exit)
		if !r.Start {
			fmt.Printf("+%s wait until +%s\n", exit.Sub(start), r.RetryAt.Sub(start))
			r = b.Decide(s, "app", "web_default(uid-1)", exit, r.RetryAt)
			exit = r.State.LastUpdate
		}
		fmt.Printf("+%s restart, next delay %s\n", exit.Sub(start), r.State.Delay)
		s = r.State
		exit = exit.Add(time.Second) // the container dies again a second later
	}
	at := s.LastUpdate.Add(lifecycle.BackoffResetAfter)
	fmt.Println("forgotten at +"+at.Sub(start).String()+":", b.Expired(s, at))
	at = at.Add(time.Second)
	fmt.Println("forgotten at +"+at.Sub(start).String()+":", b.Expired(s, at))
	// Output:
	// +0s restart, next delay 10s
	// +1s wait until +11s
	// +11s restart, next delay 20s
	// +12s wait until +32s
	// +32s restart, next delay 40s
	// +33s wait until +1m13s
	// +1m13s restart, next delay 40s
	// +1m14s wait until +1m54s
	// +1m54s restart, next delay 40s
	// forgotten at +11m54s: false
	// forgotten at +11m55s: true
}

// ExampleDelete shows the pod registry's DELETE rules: the default grace of
// a bound pod, a second DELETE that may only shorten the grace period (the
// new deadline counts from the first DELETE, as rest.BeforeDelete moves the
// timestamp by the difference), and the immediate removal of an unscheduled
// pod.
func ExampleDelete() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1"},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "app", Image: "app:1"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
	graceful, secs, _ := lifecycle.GracePeriod(pod, &metav1.DeleteOptions{})
	fmt.Println("grace period:", graceful, secs)

	d, _ := lifecycle.Delete(pod, &metav1.DeleteOptions{}, now)
	fmt.Println("first DELETE: deadline +"+d.Pod.DeletionTimestamp.Sub(now).String(), "removed:", d.Removed)
	longer := int64(60)
	d2, _ := lifecycle.Delete(d.Pod, &metav1.DeleteOptions{GracePeriodSeconds: &longer}, now.Add(5*time.Second))
	fmt.Println("longer DELETE: pending:", d2.PendingGraceful, "deadline +"+d2.Pod.DeletionTimestamp.Sub(now).String())
	shorter := int64(5)
	d3, _ := lifecycle.Delete(d.Pod, &metav1.DeleteOptions{GracePeriodSeconds: &shorter}, now.Add(5*time.Second))
	fmt.Println("shorter DELETE: deadline +" + d3.Pod.DeletionTimestamp.Sub(now).String())

	pending := pod.DeepCopy()
	pending.Spec.NodeName = ""
	d4, _ := lifecycle.Delete(pending, &metav1.DeleteOptions{}, now)
	fmt.Println("unscheduled: grace", *d4.GracePeriodSeconds, "removed:", d4.Removed)
	fmt.Println("input untouched:", pod.DeletionTimestamp == nil)
	// Output:
	// grace period: true 30
	// first DELETE: deadline +30s removed: false
	// longer DELETE: pending: true deadline +30s
	// shorter DELETE: deadline +5s
	// unscheduled: grace 0 removed: true
	// input untouched: true
}
