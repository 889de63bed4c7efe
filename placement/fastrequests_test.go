package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// The requests compilePod takes from cluster.FastRequests equal the ones
// of the general path (PodRequests and scoringRequests) for every pod the
// fast path accepts, whichever resources the profile scores.
func TestFastRequestsMatchGeneralPath(t *testing.T) {
	names := []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		"example.com/gpu", "hugepages-2Mi"}
	values := map[corev1.ResourceName][]string{
		corev1.ResourceCPU: {"0", "1m", "100m", "250m", "2"}, corev1.ResourceMemory: {"0", "1", "64Mi", "200Mi", "1Gi"},
		corev1.ResourceEphemeralStorage: {"0", "1Gi"}, "example.com/gpu": {"0", "1", "2"}, "hugepages-2Mi": {"0", "2Mi"},
	}
	list := func(t *rapid.T, label string) corev1.ResourceList {
		rl := corev1.ResourceList{}
		for _, n := range names {
			if rapid.IntRange(0, 2).Draw(t, label+" has "+string(n)) == 0 {
				rl[n] = resource.MustParse(rapid.SampledFrom(values[n]).Draw(t, label+" "+string(n)))
			}
		}
		return rl
	}
	always := corev1.ContainerRestartPolicyAlways
	rapid.Check(t, func(t *rapid.T) {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}}
		for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
			pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: string(rune('a' + i)),
				Resources: corev1.ResourceRequirements{Requests: list(t, "container")}})
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "init containers") {
			c := corev1.Container{Name: string(rune('i' + i)), Resources: corev1.ResourceRequirements{Requests: list(t, "init")}}
			if rapid.Bool().Draw(t, "sidecar") {
				c.RestartPolicy = &always
			}
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
		}
		if rapid.Bool().Draw(t, "overhead") {
			pod.Spec.Overhead = list(t, "overhead")
		}
		var opts Options
		for _, n := range rapid.SliceOfDistinct(rapid.SampledFrom(names), func(n corev1.ResourceName) corev1.ResourceName { return n }).Draw(t, "scored") {
			opts.ScoringStrategy.Resources = append(opts.ScoringStrategy.Resources, ResourceSpec{Name: n, Weight: 1})
		}
		for _, n := range rapid.SliceOfDistinct(rapid.SampledFrom(names), func(n corev1.ResourceName) corev1.ResourceName { return n }).Draw(t, "balanced") {
			opts.BalancedResources = append(opts.BalancedResources, ResourceSpec{Name: n, Weight: 1})
		}
		fast, err := compilePod(pod, opts, false)
		require.NoError(t, err)
		_, _, ok := cluster.FastRequests(pod)
		require.True(t, ok, "every generated pod is of the fast path's shape")
		defer func(f func(*corev1.Pod) (cluster.Resource, cluster.Resource, bool)) { fastRequests = f }(fastRequests)
		fastRequests = func(*corev1.Pod) (r, n cluster.Resource, ok bool) { return r, n, false }
		general, err := compilePod(pod, opts, false)
		require.NoError(t, err)
		require.Equal(t, general.req, fast.req, "NodeResourcesFit's request")
		require.Equal(t, general.reqScalars, fast.reqScalars)
		require.Equal(t, general.fitReqs, fast.fitReqs, "the scoring strategy's requests")
		require.Equal(t, general.balReqs, fast.balReqs, "BalancedAllocation's requests")
	})
}
