package placement_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

func resourcesPod(name, node string, set func(*corev1.Pod)) *corev1.Pod {
	p := examplePod(name, node, "1")
	set(p)
	return p
}

// Issue 21: negative quantities, which the API server refuses at validation
// (ValidateResourceRequirements, validateOverhead), are an error with the
// field path from every entry point that takes a pod, never a verdict
// computed from them.
func TestNegativeAndExcessRequestsAreRefused(t *testing.T) {
	q := resource.MustParse
	tests := []struct {
		name string
		set  func(*corev1.Pod)
		want string // the aggregate's text
	}{
		{"negative cpu request", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = q("-1")
		}, `spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		// The API server defaults before it validates: the memory request
		// defaulted from the negative limit is refused too.
		{"negative limits, every one", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: q("-1Gi"), corev1.ResourceCPU: q("-500m")}
		}, `[spec.containers[0].resources.limits[cpu]: Invalid value: "-500m": must be greater than or equal to 0, spec.containers[0].resources.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0, spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0]`},
		{"init container", func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: "i", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"example.com/gpu": q("-2")}}}}
		}, `spec.initContainers[0].resources.requests[example.com/gpu]: Invalid value: "-2": must be greater than or equal to 0`},
		{"pod-level resources", func(p *corev1.Pod) {
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: q("-1")}}
		}, `spec.resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0`},
		{"overhead", func(p *corev1.Pod) {
			p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: q("-100m")}
		}, `spec.overhead[cpu]: Invalid value: "-100m": must be greater than or equal to 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "4")}})
			require.NoError(t, err)
			pod := resourcesPod("web", "", tt.set)
			in := pod.DeepCopy()

			_, err = placement.Compile(snap, pod, placement.Options{})
			require.Error(t, err)
			assert.True(t, errors.Is(err, placement.ErrInvalidPod))
			assert.Contains(t, err.Error(), tt.want)
			var ve *placement.ValidationError
			require.ErrorAs(t, err, &ve, "the field errors, not flattened")
			assert.Contains(t, ve.Errors.ToAggregate().Error(), tt.want)

			_, err = placement.Evaluate(snap, pod, placement.Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)

			prep := placement.Prepare(pod, placement.Options{})
			require.Error(t, prep.Err())
			assert.Contains(t, prep.Err().Error(), tt.want)

			res, err := preemption.ScheduleQueue(snap, []*corev1.Pod{pod}, preemption.QueueOptions{})
			require.NoError(t, err)
			require.Len(t, res.Results, 1)
			assert.Equal(t, preemption.Failed, res.Results[0].Outcome)
			assert.Contains(t, res.Results[0].Error, tt.want)

			// Bound, in the snapshot's input or added to a view.
			bound := resourcesPod("bound", "a", tt.set)
			_, _, err = placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "4")}, Pods: []*corev1.Pod{bound}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), strings.ReplaceAll(tt.want, "spec.", "pods[0].spec."))
			assert.ErrorIs(t, err, placement.ErrInvalidSnapshot)
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "pods[0].spec", ve.Errors[0].Field[:len("pods[0].spec")])
			_, err = snap.WithPod(bound)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)

			assert.Equal(t, in, pod, "input untouched")
		})
	}
}

// Not a defect: a request of 1e18 cores overflows MilliValue's
// int64 and is counted as 0 millicores, so the pod fits; upstream's
// computePodResourceRequest reads the same MilliValue and places it too.
func TestHugeCPURequestOverflowsAsUpstream(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "4")}})
	require.NoError(t, err)
	pod := examplePod("huge", "", "1e18")
	res, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, res.BestNodes)
}

// A request above its limit is answered as given (cluster.PodResourceErrors
// says why): the scheduler reads requests alone, as upstream's framework
// does in the conformance case apiserver-128.
func TestRequestAboveLimitIsAnsweredAsGiven(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "4")}})
	require.NoError(t, err)
	pod := examplePod("web", "", "2")
	pod.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
	res, err := placement.Evaluate(snap, pod, placement.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, res.BestNodes)
}

// Issue 21: the API server refuses a pod whose spread constraints repeat a
// {topologyKey, whenUnsatisfiable} pair (validateTopologySpreadConstraints);
// so does Compile, naming every repeat.
func TestRepeatedSpreadConstraintsAreRefused(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNode("a", "4")}})
	require.NoError(t, err)
	pod := examplePod("web", "", "1")
	for range 100 {
		pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
			MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
		})
	}
	_, err = placement.Compile(snap, pod, placement.Options{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, placement.ErrInvalidPod))
	msg := err.Error()
	assert.Contains(t, msg, `spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`)
	assert.Contains(t, msg, `spec.topologySpreadConstraints[98].{topologyKey, whenUnsatisfiable}`)
	assert.NotContains(t, msg, `spec.topologySpreadConstraints[99]`, "the last of the repeats is not itself repeated")

	// The same key with the other action is another constraint.
	pod.Spec.TopologySpreadConstraints = pod.Spec.TopologySpreadConstraints[:1]
	pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
		MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway,
	})
	_, err = placement.Compile(snap, pod, placement.Options{})
	require.NoError(t, err)
}
