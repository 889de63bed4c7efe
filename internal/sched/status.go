package sched

import (
	"slices"

	"github.com/schedkit/schedkit/placement/framework"
)

// The framework's vocabulary is public (placement/framework); schedkit's
// packages name it here too.
type (
	Code   = framework.Code
	Status = framework.Status
)

const (
	Success                      = framework.Success
	Unschedulable                = framework.Unschedulable
	UnschedulableAndUnresolvable = framework.UnschedulableAndUnresolvable
	Error                        = framework.Error
	Skip                         = framework.Skip
)

const (
	SchedulingGates                 = framework.SchedulingGates
	PrioritySort                    = framework.PrioritySort
	NodeUnschedulable               = framework.NodeUnschedulable
	NodeName                        = framework.NodeName
	TaintToleration                 = framework.TaintToleration
	NodeAffinity                    = framework.NodeAffinity
	NodePorts                       = framework.NodePorts
	NodeResourcesFit                = framework.NodeResourcesFit
	PodTopologySpread               = framework.PodTopologySpread
	InterPodAffinity                = framework.InterPodAffinity
	NodeDeclaredFeatures            = framework.NodeDeclaredFeatures
	NodeResourcesBalancedAllocation = framework.NodeResourcesBalancedAllocation
	ImageLocality                   = framework.ImageLocality
	DefaultPreemption               = framework.DefaultPreemption
)

// FilterOrder is the default profile's Filter plugins in the order upstream runs them
// (the v1.36 default profile without the volume and DRA plugins).
var FilterOrder = []string{
	NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
	NodeResourcesFit, PodTopologySpread, InterPodAffinity, NodeDeclaredFeatures,
}

// ScoreOrder is the default profile's Score plugins in profile order.
var ScoreOrder = []string{
	TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread,
	InterPodAffinity, NodeResourcesBalancedAllocation, ImageLocality,
}

// MaxNodeScore is framework.MaxNodeScore: every normalized score lies in [0, MaxNodeScore].
const MaxNodeScore = framework.MaxNodeScore

// OwnReasons gives the n statuses status(0) ... status(n-1) reasons of
// their own, all in one new array: a result built from the filters'
// statuses, whose reasons are shared texts, then shares nothing with them
// or with another result, for one allocation.
func OwnReasons(n int, status func(i int) *Status) {
	total := 0
	for i := range n {
		total += len(status(i).Reasons)
	}
	if total == 0 {
		return
	}
	buf := make([]string, 0, total)
	for i := range n {
		st := status(i)
		if len(st.Reasons) > 0 {
			k := len(buf)
			buf = append(buf, st.Reasons...)
			st.Reasons = buf[k:len(buf):len(buf)]
		}
	}
}

// OwnSharedReasons is OwnReasons for read-only results with many statuses
// (every node's, per pod): statuses whose reasons are one slice (the same
// first element and length, as the filters' shared texts are) get one copy
// of it, shared among them, so that the result shares nothing with the
// filters or another result for a few strings instead of every node's.
func OwnSharedReasons(n int, status func(i int) *Status) {
	type copied struct {
		first *string
		n     int
		own   []string
	}
	// The distinct slices are few, so a short list beats a map; past it
	// (reasons built per node), each status gets its own copy.
	const maxSeen = 32
	var seen []copied
	for i := range n {
		st := status(i)
		if len(st.Reasons) == 0 {
			continue
		}
		first, k := &st.Reasons[0], len(st.Reasons)
		j := slices.IndexFunc(seen, func(c copied) bool { return c.first == first && c.n == k })
		switch {
		case j >= 0:
			st.Reasons = seen[j].own
		case len(seen) < maxSeen:
			own := slices.Clip(slices.Clone(st.Reasons))
			seen = append(seen, copied{first: first, n: k, own: own})
			st.Reasons = own
		default:
			st.Reasons = slices.Clip(slices.Clone(st.Reasons))
		}
	}
}
