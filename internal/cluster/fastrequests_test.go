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

// TestResourceChecksAgree: New's check of a pod's resources
// (resourceProblem, after the fast path) finds a problem exactly when
// PodResourceErrors reports one, over pods with requests, limits, overhead
// and pod-level resources, some of them negative.
func TestResourceChecksAgree(t *testing.T) {
	caught := 0
	rapid.Check(t, func(t *rapid.T) {
		pod := &corev1.Pod{}
		common := rapid.IntRange(shapeCommon, shapeNames).Draw(t, "shape")
		// limits draws a limit list, negative in one name a third of the
		// time (genList's negatives are rarer than this test needs); half
		// the lists name cpu and memory at most, which New reads by lookup.
		limits := func(label string) corev1.ResourceList {
			l := genList(t, label, shapeNames)
			if rapid.Bool().Draw(t, label+"cpumem") {
				for name := range l {
					if name != corev1.ResourceCPU && name != corev1.ResourceMemory {
						delete(l, name)
					}
				}
			}
			if rapid.IntRange(0, 2).Draw(t, label+"neg") == 0 {
				l[rapid.SampledFrom([]corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, "example.com/gpu"}).Draw(t, label+"negname")] = resource.MustParse("-1")
			}
			return l
		}
		withLimits := func(c corev1.Container, label string) corev1.Container {
			if rapid.IntRange(0, 3).Draw(t, label+"limits") == 0 {
				c.Resources.Limits = limits(label + "l")
			}
			return c
		}
		for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
			pod.Spec.Containers = append(pod.Spec.Containers, withLimits(ctr("c"+strconv.Itoa(i), genList(t, "c", common)), "c"))
		}
		for i := range rapid.IntRange(0, 2).Draw(t, "inits") {
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, withLimits(ctr("i"+strconv.Itoa(i), genList(t, "i", common)), "i"))
		}
		if rapid.Bool().Draw(t, "overhead") {
			pod.Spec.Overhead = genList(t, "o", common)
		}
		if rapid.IntRange(0, 3).Draw(t, "podLevel") == 0 {
			pod.Spec.Resources = &corev1.ResourceRequirements{Limits: limits("pl")}
			if rapid.Bool().Draw(t, "podLevelRequests") {
				pod.Spec.Resources.Requests = genList(t, "pr", shapeNames)
			}
		}
		_, _, fast := fastPodResources(pod)
		got := resourceProblem(pod, fast)
		want := PodResourceErrors(pod, field.NewPath("pod")) != nil
		require.Equal(t, want, got, "fast path %v", fast)
		require.Equal(t, want, podResourceProblem(pod))
		if fast && want {
			caught++
		}
	})
	require.Positive(t, caught, "no negative limit was ever checked after the fast path")
}

// TestResourceChecksTable: each list New's resource check must read,
// negative alone in an otherwise valid pod the fast path accepts.
func TestResourceChecksTable(t *testing.T) {
	one, neg := resource.MustParse("1"), resource.MustParse("-1")
	valid := func() *corev1.Pod {
		pod := &corev1.Pod{}
		pod.Spec.Containers = []corev1.Container{ctr("c", corev1.ResourceList{corev1.ResourceCPU: one})}
		pod.Spec.InitContainers = []corev1.Container{ctr("i", corev1.ResourceList{corev1.ResourceMemory: one})}
		return pod
	}
	for name, tc := range map[string]struct {
		edit    func(*corev1.Pod)
		problem bool
	}{
		"valid": {func(*corev1.Pod) {}, false},
		"valid limits": {func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: one}
		}, false},
		"container limit": {func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: neg}
		}, true},
		"init container limit": {func(p *corev1.Pod) {
			p.Spec.InitContainers[0].Resources.Limits = corev1.ResourceList{"example.com/gpu": neg}
		}, true},
		"pod-level limit": {func(p *corev1.Pod) {
			p.Spec.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: neg}}
		}, true},
		"pod-level limits, valid": {func(p *corev1.Pod) {
			p.Spec.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: one}}
		}, false},
		"container request": {func(p *corev1.Pod) { p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = neg }, true},
		"overhead":          {func(p *corev1.Pod) { p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: neg} }, true},
		"pod-level request, no fast": {func(p *corev1.Pod) {
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: neg}}
		}, true},
	} {
		pod := valid()
		tc.edit(pod)
		_, _, fast := fastPodResources(pod)
		got := resourceProblem(pod, fast)
		require.Equal(t, tc.problem, got, name)
		require.Equal(t, tc.problem, PodResourceErrors(pod, field.NewPath("pod")) != nil, name)
	}
}
