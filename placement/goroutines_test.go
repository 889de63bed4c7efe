package placement_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// requireNothingLeftRunning runs f and requires the number of goroutines
// to be back to what it was before within a second: a helper started by a
// call may still be exiting when the call returns (it found nothing left to
// claim), but none may stay, pooled or parked.
func requireNothingLeftRunning(t *testing.T, name string, f func()) {
	t.Helper()
	settle := func(atMost int) int {
		deadline := time.Now().Add(time.Second)
		n := runtime.NumGoroutine()
		for n > atMost && time.Now().Before(deadline) {
			runtime.Gosched()
			time.Sleep(time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	// Whatever earlier calls left exiting: wait until the count holds.
	before := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond)
		n := runtime.NumGoroutine()
		if n == before {
			break
		}
		before = n
	}
	f()
	require.LessOrEqual(t, settle(before), before, "%s left goroutines running", name)
}

// goroutineCluster is large enough for every parallel path: 300 nodes (the
// node range is split from 256 on), 2100 bound pods (New compiles pods in
// parallel from 2048 on), pods with spread constraints and affinity (the
// topology PreFilters run side by side), full nodes (preemption dry runs).
func goroutineCluster(parallelism int) placement.SnapshotInput {
	var in placement.SnapshotInput
	for i := range 300 {
		n := exampleNode(fmt.Sprintf("n%03d", i), "8")
		n.Labels = map[string]string{"zone": fmt.Sprintf("z%d", i%3), corev1.LabelHostname: n.Name}
		in.Nodes = append(in.Nodes, n)
	}
	for i := range 2100 {
		p := examplePod(fmt.Sprintf("b%04d", i), fmt.Sprintf("n%03d", i%300), "1")
		p.Labels = map[string]string{"app": fmt.Sprintf("a%d", i%4)}
		p.Status.Phase = corev1.PodRunning
		low := int32(0)
		p.Spec.Priority = &low
		in.Pods = append(in.Pods, p)
	}
	in.Parallelism = parallelism
	return in
}

func topologyPod(name, cpu string) *corev1.Pod {
	p := examplePod(name, "", cpu)
	p.Labels = map[string]string{"app": "a0"}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a0"}}
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: sel}}
	p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
		{Weight: 10, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: sel}},
	}}}
	return p
}

// Issue 17: no goroutine outlives the call that started it, from every
// entry point with parallel work, whatever the parallelism; a Workers'
// helpers outlive calls and exit at Close.
func TestEntryPointsLeaveNothingRunning(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("helpers are only started with two processors or more")
	}
	for _, parallelism := range []int{0, 4} {
		t.Run(fmt.Sprintf("parallelism %d", parallelism), func(t *testing.T) {
			opts := placement.Options{Parallelism: parallelism}
			var snap *placement.Snapshot
			requireNothingLeftRunning(t, "NewSnapshot", func() {
				var err error
				snap, _, err = placement.NewSnapshot(goroutineCluster(parallelism))
				require.NoError(t, err)
			})
			pod := topologyPod("web", "1")
			requireNothingLeftRunning(t, "Compile and Schedule", func() {
				c, err := placement.Compile(snap, pod, opts)
				require.NoError(t, err)
				require.NotEmpty(t, c.Schedule().Node)
				c.Score(snap.Nodes())
			})
			requireNothingLeftRunning(t, "Evaluate", func() {
				_, err := placement.Evaluate(snap, pod, opts)
				require.NoError(t, err)
			})
			requireNothingLeftRunning(t, "Prepare and Compile", func() {
				_, err := placement.Prepare(pod, opts).Compile(snap)
				require.NoError(t, err)
			})
			// A pending pod no node fits without preemption.
			high := int32(100)
			big := topologyPod("big", "2")
			big.Spec.Priority = &high
			pending := []*corev1.Pod{pod, big, topologyPod("web-2", "1")}
			qopts := preemption.QueueOptions{Placement: opts, KeepNodeStatuses: true}
			requireNothingLeftRunning(t, "ScheduleQueue", func() {
				res, err := preemption.ScheduleQueue(snap, pending, qopts)
				require.NoError(t, err)
				outcomes := map[string]preemption.Outcome{}
				for _, r := range res.Results {
					outcomes[r.Pod] = r.Outcome
				}
				require.Equal(t, preemption.PreemptionNominated, outcomes["default/big"], "the dry runs ran")
			})
			requireNothingLeftRunning(t, "PrepareQueue and Queue.Schedule", func() {
				q, err := preemption.PrepareQueue(pending, qopts)
				require.NoError(t, err)
				_, err = q.Schedule(snap)
				require.NoError(t, err)
			})
			requireNothingLeftRunning(t, "Preempt", func() {
				c, err := placement.Compile(snap, big, opts)
				require.NoError(t, err)
				_, err = preemption.Preempt(c, c.Schedule().Statuses, preemption.Options{Parallelism: parallelism})
				require.NoError(t, err)
			})
			requireNothingLeftRunning(t, "eviction", func() {
				minAvail := intstr.FromInt32(1)
				pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default", Generation: 1},
					Spec:   policyv1.PodDisruptionBudgetSpec{MinAvailable: &minAvail, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a1"}}},
					Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2}}
				_, err := eviction.PlanDrain(snap, []string{"n000", "n001"}, []*policyv1.PodDisruptionBudget{pdb},
					eviction.PlanOptions{Placement: opts, Scheduler: true})
				require.NoError(t, err)
				bound := goroutineCluster(0).Pods
				_, err = eviction.SelectDrainPods("n000", bound, nil, eviction.DrainOptions{Force: true})
				require.NoError(t, err)
				_, err = eviction.Decide(eviction.Request{Pod: bound[1], PDBs: []*policyv1.PodDisruptionBudget{pdb}, Now: time.Unix(0, 0)})
				require.NoError(t, err)
			})
		})
	}
	t.Run("Workers", func(t *testing.T) {
		snap, _, err := placement.NewSnapshot(goroutineCluster(2))
		require.NoError(t, err)
		requireNothingLeftRunning(t, "a Workers, closed", func() {
			w := placement.NewWorkers()
			defer w.Close()
			opts := placement.Options{Parallelism: 4, Workers: w}
			for range 3 {
				_, err := placement.Evaluate(snap, topologyPod("web", "1"), opts)
				require.NoError(t, err)
			}
			_, err := preemption.ScheduleQueue(snap, []*corev1.Pod{topologyPod("web", "1")}, preemption.QueueOptions{Placement: opts})
			require.NoError(t, err)
		})
	})
}
