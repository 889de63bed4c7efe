package cluster

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"
)

// generalPodResources is podResources without the fast path: the reference.
func generalPodResources(pod *corev1.Pod) (Resource, Resource) {
	reqs := PodRequests(pod, RequestOptions{UseStatusResources: true})
	req := ResourceFromList(reqs)
	req.AllowedPodNumber = 0
	non0 := PodRequests(pod, RequestOptions{UseStatusResources: true, NonMissing: nonMissingDefaults})
	cpu, mem := non0[corev1.ResourceCPU], non0[corev1.ResourceMemory]
	return req, Resource{MilliCPU: cpu.MilliValue(), Memory: mem.Value()}
}

// Shapes of request lists genList draws: the common one the fast path
// takes (cpu, memory, ephemeral storage in whole units); every name (extended
// resources, hugepages, pods, an untracked name) in whole units, sometimes
// negative; and every name with any quantity. The first two reach the fast
// path in most examples whatever rapid's seed.
const (
	shapeCommon = iota
	shapeNames
	shapeAny
)

// genList draws a request list of the given shape.
func genList(t *rapid.T, label string, shape int) corev1.ResourceList {
	out := corev1.ResourceList{}
	names, pool := []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		"example.com/gpu", "hugepages-2Mi", corev1.ResourcePods, "untracked"}, quantityPool
	switch shape {
	case shapeCommon:
		names, pool = names[:3], wholePool
	case shapeNames:
		pool = wholePool
	}
	for _, name := range names {
		if rapid.IntRange(0, 2).Draw(t, label+"has") == 0 {
			continue
		}
		out[name] = resource.MustParse(rapid.SampledFrom(pool).Draw(t, label+"q"))
	}
	if shape == shapeNames && rapid.IntRange(0, 15).Draw(t, label+"negative") == 0 {
		out[rapid.SampledFrom(names).Draw(t, label+"negname")] = resource.MustParse("-1")
	}
	return out
}

// wholePool holds quantities exact for every resource.
var wholePool = []string{"0", "1", "2", "64Mi", "1Gi", "1G"}

// quantityPool mixes whole quantities (exact for every resource) with
// fractional ones.
var quantityPool = []string{"0", "1", "2", "64Mi", "1Gi", "1G", "0", "1", "2", "64Mi", "1Gi", "1G", "100m", "1500m", "0.5", "1u"}

// TestFastPodResourcesMatchesGeneral: whenever the fast path answers, it
// answers like resourcehelper.PodRequests on Quantities, extended resources
// and hugepages (Resource.Scalar) included, and it never answers for a pod
// with a negative request.
func TestFastPodResourcesMatchesGeneral(t *testing.T) {
	fast := 0
	rapid.Check(t, func(t *rapid.T) {
		pod := &corev1.Pod{}
		common := rapid.IntRange(shapeCommon, shapeAny).Draw(t, "shape")
		for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
			pod.Spec.Containers = append(pod.Spec.Containers, ctr("c"+strconv.Itoa(i), genList(t, "c", common)))
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "inits") {
			c := ctr("i"+strconv.Itoa(i), genList(t, "i", common))
			if rapid.Bool().Draw(t, "sidecar") {
				c = sidecar(c.Name, c.Resources.Requests)
			}
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
		}
		if rapid.Bool().Draw(t, "overhead") {
			pod.Spec.Overhead = genList(t, "o", common)
		}
		req, non0, ok := fastPodResources(pod)
		if e := PodResourceErrors(pod, field.NewPath("pod")); e != nil {
			require.False(t, ok, "a negative request is left to the general path's validation")
		}
		if !ok {
			return
		}
		fast++
		wantReq, wantNon0 := generalPodResources(pod)
		require.Equal(t, wantReq, req)
		require.Equal(t, wantNon0, non0)
	})
	require.Positive(t, fast, "the fast path was never taken")
}
