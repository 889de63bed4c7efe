package preemption

import (
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// PodPriority is spec.priority, or 0 when unset or pod is nil
// (component-helpers scheduling/corev1 PodPriority, which panics on nil).
func PodPriority(pod *corev1.Pod) int32 { return sched.PodPriority(pod) }

// QueueLess reports whether a is popped before b from the active queue under
// the PrioritySort plugin (pkg/scheduler/framework/plugins/queuesort, v1.36):
// higher priority first, then the earlier queue timestamp. The queue
// timestamp here is metadata.creationTimestamp (upstream: the time the pod
// entered the queue, which for a new pod is about its creation). A nil pod
// sorts after every other.
func QueueLess(a, b *corev1.Pod) bool {
	if a == nil || b == nil {
		return b == nil && a != nil // nil pods sort last
	}
	pa, pb := PodPriority(a), PodPriority(b)
	if pa != pb {
		return pa > pb
	}
	return a.CreationTimestamp.Before(&b.CreationTimestamp)
}

// SortQueue returns the pods in the order the scheduling queue pops them:
// QueueLess, with input order breaking the remaining ties (a stable sort;
// upstream's heap leaves them to chance). The input slice is not modified.
func SortQueue(pods []*corev1.Pod) []*corev1.Pod {
	out := slices.Clone(pods)
	slices.SortStableFunc(out, func(a, b *corev1.Pod) int {
		switch {
		case QueueLess(a, b):
			return -1
		case QueueLess(b, a):
			return 1
		}
		return 0
	})
	return out
}

// Default back-off bounds of the scheduling queue
// (pkg/scheduler/backend/queue/scheduling_queue.go).
const (
	DefaultInitialBackoff = 1 * time.Second
	DefaultMaxBackoff     = 10 * time.Second
)

// QueueBackoff is the time a pod waits in the back-off queue after its attempts-th
// failed scheduling attempt, as backoffQueue.calculateBackoffDuration
// computes it: 0 before any failure, then initial doubled per further
// failure, capped at max. Zero initial and max mean the defaults (1 s and
// 10 s).
func QueueBackoff(attempts int, initial, max time.Duration) time.Duration {
	if initial == 0 {
		initial = DefaultInitialBackoff
	}
	if max == 0 {
		max = DefaultMaxBackoff
	}
	if attempts <= 0 {
		return 0
	}
	shift := attempts - 1
	if shift >= 63 || initial > max>>shift {
		return max
	}
	return initial << shift
}
