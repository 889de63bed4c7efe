package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

func gcPod(name, node string, phase corev1.PodPhase, created time.Duration) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Generation: 3, CreationTimestamp: metav1.NewTime(t0.Add(created))},
		Spec:       corev1.PodSpec{NodeName: node},
		Status:     corev1.PodStatus{Phase: phase},
	}
}

func evicted(p *corev1.Pod) *corev1.Pod { p.Status.Reason = lifecycle.EvictedReason; return p }

func deleting(p *corev1.Pod) *corev1.Pod {
	ts := metav1.NewTime(t0.Add(-time.Hour))
	p.DeletionTimestamp = &ts
	return p
}

func gcNode(name string, ready bool, taints ...string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: st}}
	for _, k := range taints {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: k, Effect: corev1.TaintEffectNoExecute})
	}
	return n
}

type gcGot struct {
	name   string
	reason lifecycle.GCReason
	phase  corev1.PodPhase // "" = not patched
}

func gcSummary(acts []lifecycle.GCAction) []gcGot {
	out := []gcGot{}
	for _, a := range acts {
		g := gcGot{name: a.Name, reason: a.Reason}
		if a.Status != nil {
			g.phase = a.Status.Phase
		}
		out = append(out, g)
	}
	return out
}

// TestCollectGarbage mirrors pkg/controller/podgc PodGCController.gc with
// gcTerminated, gcTerminating, gcOrphaned and gcUnscheduledTerminating.
func TestCollectGarbage(t *testing.T) {
	oos := corev1.TaintNodeOutOfService
	tests := []struct {
		name string
		in   lifecycle.GCInput
		want []gcGot
	}{
		{"terminated pods over the threshold, evicted first then oldest then name",
			lifecycle.GCInput{TerminatedPodThreshold: 1, Nodes: []*corev1.Node{gcNode("n1", true)}, Pods: []*corev1.Pod{
				gcPod("old-ok", "n1", corev1.PodSucceeded, 0), gcPod("b-fail", "n1", corev1.PodFailed, time.Hour), gcPod("a-fail", "n1", corev1.PodFailed, time.Hour),
				evicted(gcPod("young-evicted", "n1", corev1.PodFailed, 2*time.Hour)), gcPod("run", "n1", corev1.PodRunning, -time.Hour), gcPod("unknown", "n1", corev1.PodUnknown, -time.Hour),
			}},
			[]gcGot{{"young-evicted", lifecycle.GCTerminated, ""}, {"old-ok", lifecycle.GCTerminated, ""}, {"a-fail", lifecycle.GCTerminated, ""}}},
		{"threshold not exceeded", lifecycle.GCInput{TerminatedPodThreshold: 2, Nodes: []*corev1.Node{gcNode("n1", true)}, Pods: []*corev1.Pod{gcPod("x", "n1", corev1.PodSucceeded, 0), gcPod("y", "n1", corev1.PodFailed, 0)}}, []gcGot{}},
		{"threshold 0 disables the terminated pass", lifecycle.GCInput{Nodes: []*corev1.Node{gcNode("n1", true)}, Pods: []*corev1.Pod{gcPod("x", "n1", corev1.PodSucceeded, 0)}}, []gcGot{}},
		{"terminating pods on a not-ready out-of-service node are failed and deleted",
			lifecycle.GCInput{Nodes: []*corev1.Node{gcNode("down", false, oos), gcNode("ready-oos", true, oos), gcNode("down-no-taint", false)}, Pods: []*corev1.Pod{
				deleting(gcPod("t1", "down", corev1.PodRunning, time.Hour)), deleting(gcPod("t0", "down", corev1.PodRunning, 0)), gcPod("not-deleting", "down", corev1.PodRunning, 0),
				deleting(gcPod("on-ready", "ready-oos", corev1.PodRunning, 0)), deleting(gcPod("no-taint", "down-no-taint", corev1.PodRunning, 0)),
			}},
			[]gcGot{{"t0", lifecycle.GCTerminatingOutOfService, corev1.PodFailed}, {"t1", lifecycle.GCTerminatingOutOfService, corev1.PodFailed}}},
		{"orphans after the quarantine get DisruptionTarget",
			lifecycle.GCInput{Now: t0, MissingSince: []lifecycle.MissingNode{{Name: "gone", Since: t0.Add(-lifecycle.OrphanQuarantine)}, {Name: "just-gone", Since: t0.Add(-time.Second)}},
				Pods: []*corev1.Pod{gcPod("b", "gone", corev1.PodRunning, 0), gcPod("a", "gone", corev1.PodSucceeded, 0), gcPod("c", "just-gone", corev1.PodRunning, 0), gcPod("d", "never-seen", corev1.PodRunning, 0)}},
			[]gcGot{{"a", lifecycle.GCOrphaned, ""}, {"b", lifecycle.GCOrphaned, corev1.PodFailed}}},
		{"unscheduled terminating pods",
			lifecycle.GCInput{Pods: []*corev1.Pod{deleting(gcPod("u", "", corev1.PodPending, 0)), gcPod("pending", "", corev1.PodPending, 0)}},
			[]gcGot{{"u", lifecycle.GCTerminatingUnscheduled, corev1.PodFailed}}},
		{"a pod eligible twice is listed under the first pass",
			lifecycle.GCInput{TerminatedPodThreshold: 1, Now: t0, MissingSince: []lifecycle.MissingNode{{Name: "gone", Since: t0.Add(-time.Hour)}},
				Pods: []*corev1.Pod{gcPod("x", "gone", corev1.PodFailed, 0), gcPod("y", "gone", corev1.PodFailed, time.Hour)}},
			[]gcGot{{"x", lifecycle.GCTerminated, ""}, {"y", lifecycle.GCOrphaned, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.in.Now.IsZero() {
				tt.in.Now = t0
			}
			got, err := lifecycle.CollectGarbage(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, gcSummary(got))
		})
	}

	// The orphan's status patch: phase Failed, observedGeneration, DisruptionTarget.
	got, err := lifecycle.CollectGarbage(lifecycle.GCInput{Now: t0, MissingSince: []lifecycle.MissingNode{{Name: "gone", Since: t0.Add(-time.Hour)}}, Pods: []*corev1.Pod{gcPod("b", "gone", corev1.PodRunning, 0)}})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, int64(3), got[0].Status.ObservedGeneration)
	require.Len(t, got[0].Status.Conditions, 1)
	c := got[0].Status.Conditions[0]
	assert.Equal(t, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists",
		ObservedGeneration: 3, LastTransitionTime: metav1.NewTime(t0)}, c)
}

// TestCollectGarbageEdges adds the boundary cases of PodGCController.gc's
// passes (pkg/controller/podgc/gc_controller.go): which node counts as not
// Ready (nodeutil.IsNodeReady), which pods are patched before the delete
// (markFailedAndDeletePodWithCondition skips terminal ones), and how a pod
// on a missing node is handled by each pass.
func TestCollectGarbageEdges(t *testing.T) {
	oos := corev1.TaintNodeOutOfService
	noConditions := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "bare"},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: oos, Effect: corev1.TaintEffectNoSchedule}}}}
	tests := []struct {
		name string
		in   lifecycle.GCInput
		want []gcGot
	}{
		{"a node without a Ready condition is not Ready (any out-of-service effect counts)",
			lifecycle.GCInput{Nodes: []*corev1.Node{noConditions}, Pods: []*corev1.Pod{deleting(gcPod("t", "bare", corev1.PodRunning, 0))}},
			[]gcGot{{"t", lifecycle.GCTerminatingOutOfService, corev1.PodFailed}}},
		{"a terminal terminating pod on an out-of-service node is deleted as is",
			lifecycle.GCInput{Nodes: []*corev1.Node{gcNode("down", false, oos)}, Pods: []*corev1.Pod{deleting(gcPod("done", "down", corev1.PodSucceeded, 0))}},
			[]gcGot{{"done", lifecycle.GCTerminatingOutOfService, ""}}},
		{"out-of-service terminating pods go evicted first, then oldest",
			lifecycle.GCInput{Nodes: []*corev1.Node{gcNode("down", false, oos)}, Pods: []*corev1.Pod{
				deleting(gcPod("a-old", "down", corev1.PodRunning, 0)), deleting(evicted(gcPod("z-evicted", "down", corev1.PodFailed, time.Hour)))}},
			[]gcGot{{"z-evicted", lifecycle.GCTerminatingOutOfService, ""}, {"a-old", lifecycle.GCTerminatingOutOfService, corev1.PodFailed}}},
		{"a terminating pod on a missing node waits for the orphan pass",
			lifecycle.GCInput{Now: t0, MissingSince: []lifecycle.MissingNode{{Name: "gone", Since: t0.Add(-lifecycle.OrphanQuarantine + time.Second)}},
				Pods: []*corev1.Pod{deleting(gcPod("t", "gone", corev1.PodRunning, 0))}},
			[]gcGot{}},
		{"a missing-since record of a node that exists is ignored",
			lifecycle.GCInput{Now: t0, Nodes: []*corev1.Node{gcNode("back", true)}, MissingSince: []lifecycle.MissingNode{{Name: "back", Since: t0.Add(-time.Hour)}},
				Pods: []*corev1.Pod{gcPod("p", "back", corev1.PodRunning, 0)}},
			[]gcGot{}},
		{"orphans come in namespace/name order",
			lifecycle.GCInput{Now: t0, MissingSince: []lifecycle.MissingNode{{Name: "gone", Since: t0.Add(-time.Hour)}},
				Pods: []*corev1.Pod{gcPod("b", "gone", corev1.PodFailed, 0), gcPod("a", "gone", corev1.PodFailed, time.Hour)}},
			[]gcGot{{"a", lifecycle.GCOrphaned, ""}, {"b", lifecycle.GCOrphaned, ""}}},
		{"a failed unscheduled terminating pod is deleted as is",
			lifecycle.GCInput{Pods: []*corev1.Pod{deleting(gcPod("u", "", corev1.PodFailed, 0))}},
			[]gcGot{{"u", lifecycle.GCTerminatingUnscheduled, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.in.Now.IsZero() {
				tt.in.Now = t0
			}
			var before []*corev1.Pod
			for _, p := range tt.in.Pods {
				before = append(before, p.DeepCopy())
			}
			got, err := lifecycle.CollectGarbage(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, gcSummary(got))
			assert.Equal(t, before, tt.in.Pods, "inputs modified")
			for _, a := range got {
				assert.Zero(t, a.GracePeriodSeconds, "podgc deletes with grace 0")
			}
		})
	}
	_, err := lifecycle.CollectGarbage(lifecycle.GCInput{Pods: []*corev1.Pod{nil}})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
	_, err = lifecycle.CollectGarbage(lifecycle.GCInput{Nodes: []*corev1.Node{nil}})
	assert.ErrorIs(t, err, lifecycle.ErrInvalidInput)
}
