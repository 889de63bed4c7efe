package placement

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// ScoringStrategyType names a NodeResourcesFit scoring strategy (config.ScoringStrategyType).
type ScoringStrategyType string

// The NodeResourcesFit scoring strategies.
const (
	LeastAllocated           ScoringStrategyType = "LeastAllocated"
	MostAllocated            ScoringStrategyType = "MostAllocated"
	RequestedToCapacityRatio ScoringStrategyType = "RequestedToCapacityRatio"
)

// ResourceSpec is a resource with its weight in a resource scoring plugin.
type ResourceSpec struct {
	Name   corev1.ResourceName
	Weight int64
}

// UtilizationShapePoint is one point of RequestedToCapacityRatio's shape:
// utilization in [0, 100] and score in [0, 10].
type UtilizationShapePoint struct {
	Utilization int32
	Score       int32
}

// ScoringStrategy is NodeResourcesFitArgs.ScoringStrategy. The zero value is
// LeastAllocated over cpu and memory with weight 1 each.
type ScoringStrategy struct {
	Type      ScoringStrategyType
	Resources []ResourceSpec
	// Shape is RequestedToCapacityRatio's function shape, ordered by utilization.
	Shape []UtilizationShapePoint
}

// Options configures the scheduler profile. The zero value is the v1.36
// default profile (without the volume and DRA plugins).
type Options struct {
	// Version selects the Kubernetes release whose rules apply (zero: v1.36).
	Version Version

	// Parallelism is the number of goroutines Compile, Schedule and Score
	// may use for the per-node work (0 or 1: the calling goroutine only).
	// Results do not depend on it: each goroutine writes only its own range
	// of nodes or its own plugin's scores. The other goroutines are started
	// by the call and exit before it returns, or are Workers' helpers.
	Parallelism int
	// Workers, when set, lends its helpers to the parallel work (see
	// Workers); nil: each call starts its own. It changes no result.
	Workers *Workers

	// ScoreWeights overrides Score plugin weights by plugin name; a plugin
	// missing from the map keeps its default weight, weight 0 disables it.
	ScoreWeights map[string]int64

	// ScoringStrategy is NodeResourcesFit's scoring strategy.
	ScoringStrategy ScoringStrategy
	// BalancedResources are NodeResourcesBalancedAllocation's resources
	// (nil: cpu and memory, weight 1).
	BalancedResources []ResourceSpec
	// IgnoredResources and IgnoredResourceGroups are NodeResourcesFitArgs'
	// extended resources (or their domain prefixes) Filter does not check.
	IgnoredResources      []string
	IgnoredResourceGroups []string

	// AddedAffinity is NodeAffinityArgs.AddedAffinity: a node affinity every
	// pod must also satisfy (required) or is scored by (preferred).
	AddedAffinity *corev1.NodeAffinity

	// HardPodAffinityWeight is InterPodAffinityArgs.HardPodAffinityWeight
	// as kube-scheduler's v1 configuration has it: nil means the default 1,
	// and 0 leaves existing pods' required affinity terms out of the score.
	HardPodAffinityWeight *int32
	// IgnorePreferredTermsOfExistingPods is the InterPodAffinity arg of that name.
	IgnorePreferredTermsOfExistingPods bool

	// DefaultSpreadConstraints, when non-nil, replaces PodTopologySpread's
	// system default constraints (List defaulting).
	DefaultSpreadConstraints []corev1.TopologySpreadConstraint
}

// defaultWeights are the v1.36 default profile's Score plugin weights.
var defaultWeights = map[string]int64{
	sched.TaintToleration:                 3,
	sched.NodeAffinity:                    2,
	sched.NodeResourcesFit:                1,
	sched.PodTopologySpread:               2,
	sched.InterPodAffinity:                2,
	sched.NodeResourcesBalancedAllocation: 1,
	sched.ImageLocality:                   1,
}

func (o *Options) weight(plugin string) int64 {
	if w, ok := o.ScoreWeights[plugin]; ok {
		return w
	}
	return defaultWeights[plugin]
}

var defaultResources = []ResourceSpec{{Name: corev1.ResourceCPU, Weight: 1}, {Name: corev1.ResourceMemory, Weight: 1}}

func (o *Options) fitResources() []ResourceSpec {
	if len(o.ScoringStrategy.Resources) > 0 {
		return o.ScoringStrategy.Resources
	}
	return defaultResources
}

func (o *Options) balancedResources() []ResourceSpec {
	if len(o.BalancedResources) > 0 {
		return o.BalancedResources
	}
	return defaultResources
}
