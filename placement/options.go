package placement

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
	// system default constraints (List defaulting; an empty non-nil slice
	// is List defaulting without constraints).
	DefaultSpreadConstraints []corev1.TopologySpreadConstraint

	// Plugins, when non-nil, lists the plugins the profile runs at the
	// extension points other than Score (whose plugins are those with a
	// non-zero weight, see ScoreWeights); nil is the default profile.
	// Compile refuses lists it cannot honour exactly (ErrInvalidOptions).
	Plugins *Plugins
}

// ErrInvalidOptions is wrapped by the errors Compile, Prepare and Evaluate
// return for Options they cannot honour (an unknown plugin in Options.Plugins,
// a combination upstream cannot run a scheduling cycle with).
var ErrInvalidOptions = errors.New("placement: invalid options")

// Plugins is a profile's plugins per extension point, in the order
// kube-scheduler's framework runs them once it has expanded MultiPoint
// (pkg/scheduler/framework/runtime/framework.go NewFramework and
// expandMultiPointPlugins, v1.36), restricted to the plugins schedkit
// models. Package placement/schedconfig builds it from a
// KubeSchedulerConfiguration; a program may also fill it in directly.
//
// What each list changes:
//   - PreEnqueue: without SchedulingGates, a pod's scheduling gates are
//     ignored (DefaultPreemption's PreEnqueue always passes and may be
//     listed or not).
//   - PreFilter: without NodeAffinity, the pod's matchFields metadata.name
//     terms do not restrict the nodes (NodeAffinity's Filter computes its
//     selector itself, as upstream's falls back to). The Filter of
//     NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity or
//     NodeDeclaredFeatures without its PreFilter finds no state: it fails
//     with an Error on every node it is reached on ("reading
//     "PreFilterNodePorts" from cycleState: not found"), which fails the
//     scheduling cycle, as upstream's does.
//   - Filter: the plugins run, in this order (the first rejection is a
//     node's status); an absent plugin accepts every node and is left out
//     of the per-plugin verdicts. A plugin whose PreFilter still runs still
//     restricts or rejects (NodeAffinity's node names, a PreFilter error).
//   - PreScore: TaintToleration, PodTopologySpread and InterPodAffinity
//     scoring without their PreScore fail the scoring phase
//     (ScorePluginError: upstream's Score finds no state), so a cycle with
//     two feasible nodes or more fails; the other scoring plugins compute
//     the state themselves. A plugin listed here but not scoring changes
//     nothing.
//   - PostFilter: without DefaultPreemption a pod that fits nowhere is not
//     preempted for (Preempts).
//
// Nil slices are empty lists: use DefaultPlugins to start from the default.
type Plugins struct {
	PreEnqueue []string
	PreFilter  []string
	Filter     []string
	PreScore   []string
	PostFilter []string
}

// DefaultPlugins returns the v1.36 default profile's lists (without the
// volume and DRA plugins), freshly allocated.
func DefaultPlugins() *Plugins {
	return &Plugins{
		PreEnqueue: []string{sched.SchedulingGates, sched.DefaultPreemption},
		PreFilter: []string{sched.NodeAffinity, sched.NodePorts, sched.NodeResourcesFit,
			sched.PodTopologySpread, sched.InterPodAffinity, sched.NodeDeclaredFeatures},
		Filter: append([]string(nil), filterNames[:]...),
		PreScore: []string{sched.TaintToleration, sched.NodeAffinity, sched.NodeResourcesFit,
			sched.PodTopologySpread, sched.InterPodAffinity, sched.NodeResourcesBalancedAllocation},
		PostFilter: []string{sched.DefaultPreemption},
	}
}

// Preempts reports whether the profile runs DefaultPreemption at PostFilter
// (true for the default profile).
func (o Options) Preempts() bool {
	return o.Plugins == nil || slices.Contains(o.Plugins.PostFilter, sched.DefaultPreemption)
}

func (o *Options) runsPreEnqueue(name string) bool {
	return o.Plugins == nil || slices.Contains(o.Plugins.PreEnqueue, name)
}

func (o *Options) runsPreFilter(name string) bool {
	return o.Plugins == nil || slices.Contains(o.Plugins.PreFilter, name)
}

// runsFilter reports whether Filter plugin p (a filter position) is in the
// profile.
func (o *Options) runsFilter(p int) bool {
	return o.Plugins == nil || slices.Contains(o.Plugins.Filter, filterNames[p])
}

// Check reports the problems Compile would refuse the options for in
// Options.Plugins (an error wrapping ErrInvalidOptions), or nil.
func (o Options) Check() error { return o.checkPlugins() }

// checkPlugins reports what Options.Plugins names that schedkit cannot run
// exactly, one error per problem.
func (o *Options) checkPlugins() error {
	pl := o.Plugins
	if pl == nil {
		return nil
	}
	var problems []string
	known := func(point string, list []string, allowed ...string) {
		seen := map[string]bool{}
		for _, n := range list {
			if !slices.Contains(allowed, n) {
				problems = append(problems, fmt.Sprintf("%s plugin %q is not modelled", point, n))
			}
			if seen[n] {
				problems = append(problems, fmt.Sprintf("%s plugin %q listed twice", point, n))
			}
			seen[n] = true
		}
	}
	def := DefaultPlugins()
	known("PreEnqueue", pl.PreEnqueue, def.PreEnqueue...)
	known("PreFilter", pl.PreFilter, def.PreFilter...)
	known("Filter", pl.Filter, def.Filter...)
	known("PreScore", pl.PreScore, def.PreScore...)
	known("PostFilter", pl.PostFilter, def.PostFilter...)
	if len(problems) > 0 {
		return fmt.Errorf("%w: Plugins: %s", ErrInvalidOptions, strings.Join(problems, "; "))
	}
	return nil
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
