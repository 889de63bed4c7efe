package placement

// Scoring rules that differ between the supported versions; see the Version
// doc comment for the list. Each function takes the version and applies the
// rule of that release, so callers need no version switch. (The pod-level
// request rule lives with the snapshot: cluster.Input.WithoutPodLevelResize.)

import (
	"math"

	corev1 "k8s.io/api/core/v1"
)

// maxNodeScore is framework.MaxNodeScore.
const maxNodeScore = 100

// balanceOf mirrors balancedResourceScore (v1.36) / balancedResourceScorer
// (v1.34, v1.35) of noderesources/balanced_allocation.go: each resource with
// a non-zero allocatable contributes min(requested/allocatable, 1); the score
// is (1 - standard deviation of those fractions) * 100, truncated. Two
// fractions use |f0-f1|/2, more use the population standard deviation, fewer
// give 100. The float operations are upstream's, in upstream's order, so the
// truncation agrees bit for bit. It does not allocate.
func balanceOf(requested, allocatable []int64) int64 {
	var n int
	var total, first, second float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := float64(requested[i]) / float64(allocatable[i])
		if f > 1 {
			f = 1
		}
		total += f
		switch n {
		case 0:
			first = f
		case 1:
			second = f
		}
		n++
	}
	std := 0.0
	switch {
	case n == 2:
		std = math.Abs((first - second) / 2)
	case n > 2:
		mean := total / float64(n)
		var sum float64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			f := float64(requested[i]) / float64(allocatable[i])
			if f > 1 {
				f = 1
			}
			sum = sum + (f-mean)*(f-mean)
		}
		std = math.Sqrt(sum / float64(n))
	}
	return int64((1 - std) * float64(maxNodeScore))
}

// imageLocalityImages calls fn with every image reference ImageLocality
// counts for pod at version v, in upstream's order: init containers, regular
// containers, then (v1.36 only, kubernetes/kubernetes#130231) image volumes.
// Names are passed as written; normalising them (adding ":latest") is the
// caller's job, as in upstream's sumImageScores. pod is not modified.
func imageLocalityImages(v Version, pod *corev1.Pod, fn func(image string)) {
	for i := range pod.Spec.InitContainers {
		fn(pod.Spec.InitContainers[i].Image)
	}
	for i := range pod.Spec.Containers {
		fn(pod.Spec.Containers[i].Image)
	}
	if !v.CountsImageVolumes() {
		return
	}
	for i := range pod.Spec.Volumes {
		if img := pod.Spec.Volumes[i].Image; img != nil {
			fn(img.Reference)
		}
	}
}
