package eviction

import (
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/taints"
)

// TaintDecision is what the taint-eviction controller does with a pod
// bound to a node.
type TaintDecision string

const (
	// TaintNone: the node has no NoExecute taint; any scheduled eviction is
	// cancelled.
	TaintNone TaintDecision = "None"
	// TaintEvictNow: a NoExecute taint is not tolerated, or a toleration in
	// use has tolerationSeconds <= 0.
	TaintEvictNow TaintDecision = "EvictNow"
	// TaintEvictAfter: evicted after the smallest tolerationSeconds among the
	// tolerations in use.
	TaintEvictAfter TaintDecision = "EvictAfter"
	// TaintNever: every toleration in use tolerates forever.
	TaintNever TaintDecision = "Never"
)

// TaintEviction explains a TaintDecision.
type TaintEviction struct {
	// NoExecuteTaints are the node's NoExecute taints, in node order.
	NoExecuteTaints []corev1.Taint
	// AllTolerated reports whether every NoExecute taint is tolerated.
	AllTolerated bool
	// UsedTolerations holds, per taint in order, the first toleration that
	// tolerates it (copies; empty unless AllTolerated).
	UsedTolerations []corev1.Toleration
	// MinTolerationSeconds is the controller's minimum toleration time in
	// seconds: the smallest tolerationSeconds in use (0 when one is <= 0),
	// -1 for forever; meaningful only when there are NoExecute taints and
	// all are tolerated. As upstream converts the seconds to a
	// time.Duration, a value above math.MaxInt64 nanoseconds (about 292
	// years) wraps around: what remains is reported, and -1 (forever) when
	// it wrapped to a negative duration.
	MinTolerationSeconds int64
	// Decision is the controller's verdict: TaintNone, TaintEvictNow,
	// TaintEvictAfter or TaintNever.
	Decision TaintDecision
	// EvictAfter is the delay of a TaintEvictAfter decision.
	EvictAfter time.Duration
}

// TaintEvictionTime returns when the taint-eviction controller evicts pod
// from node, following processPodOnNode in pkg/controller/tainteviction
// (getNoExecuteTaints, v1helper.GetMatchingTolerations, getMinTolerationTime,
// v1.36). The Lt and Gt toleration operators are treated as not matching, as
// with v1.36's default TaintTolerationComparisonOperators=false. Neither
// argument is modified; a nil node has no taints and a nil pod no
// tolerations.
func TaintEvictionTime(node *corev1.Node, pod *corev1.Pod) TaintEviction {
	var out TaintEviction
	out.NoExecuteTaints = []corev1.Taint{}
	var nodeTaints []corev1.Taint
	var tolerations []corev1.Toleration
	if node != nil {
		nodeTaints = node.Spec.Taints
	}
	if pod != nil {
		tolerations = pod.Spec.Tolerations
	}
	for _, t := range nodeTaints {
		if t.Effect == corev1.TaintEffectNoExecute {
			out.NoExecuteTaints = append(out.NoExecuteTaints, *t.DeepCopy())
		}
	}
	out.AllTolerated, out.UsedTolerations = matchingTolerations(out.NoExecuteTaints, tolerations)
	switch {
	case len(out.NoExecuteTaints) == 0:
		out.Decision = TaintNone
	case !out.AllTolerated:
		out.Decision = TaintEvictNow
	default:
		d := minTolerationTime(out.UsedTolerations)
		out.MinTolerationSeconds = int64(d / time.Second)
		switch {
		case d < 0:
			out.MinTolerationSeconds = -1
			out.Decision = TaintNever
		case d == 0:
			out.Decision = TaintEvictNow
		default:
			out.Decision = TaintEvictAfter
			out.EvictAfter = d
		}
	}
	return out
}

// matchingTolerations is v1helper.GetMatchingTolerations.
func matchingTolerations(taints []corev1.Taint, tols []corev1.Toleration) (bool, []corev1.Toleration) {
	used := []corev1.Toleration{}
	if len(taints) == 0 {
		return true, used
	}
	for i := range taints {
		found := false
		for j := range tols {
			if ToleratesTaint(&tols[j], &taints[i]) {
				used = append(used, *tols[j].DeepCopy())
				found = true
				break
			}
		}
		if !found {
			return false, []corev1.Toleration{}
		}
	}
	return true, used
}

// ToleratesTaint is corev1.Toleration.ToleratesTaint with the v1.36 default
// gates: an empty effect or key matches any, the empty operator means Equal,
// and Lt/Gt never match. A nil toleration or taint does not match.
func ToleratesTaint(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t == nil || taint == nil {
		return false
	}
	return taints.Tolerates(t, taint)
}

// minTolerationTime is getMinTolerationTime
// (pkg/controller/tainteviction/taint_eviction.go): 0 without tolerations or
// when one is <= 0, -1 when none is bounded (or the smallest is
// math.MaxInt64), else the smallest tolerationSeconds times time.Second,
// wrapping around on overflow as upstream's multiplication does
// (processPodOnNode then takes a negative result for forever).
func minTolerationTime(tols []corev1.Toleration) time.Duration {
	if len(tols) == 0 {
		return 0
	}
	m := int64(math.MaxInt64)
	for _, t := range tols {
		if t.TolerationSeconds == nil {
			continue
		}
		if *t.TolerationSeconds <= 0 {
			return 0
		}
		m = min(m, *t.TolerationSeconds)
	}
	if m == math.MaxInt64 {
		return -1
	}
	return time.Duration(m) * time.Second
}
