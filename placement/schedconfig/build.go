package schedconfig

import (
	"fmt"
	"math"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedkit/schedkit/placement"
)

// orderedSet is the framework's insertion-ordered name set.
type orderedSet struct {
	list []string
	has  map[string]bool
}

func (s *orderedSet) insert(n string) {
	if s.has == nil {
		s.has = map[string]bool{}
	}
	if !s.has[n] {
		s.has[n] = true
		s.list = append(s.list, n)
	}
}

// build is what NewFramework (pkg/scheduler/framework/runtime/framework.go,
// v1.36) does with the defaulted, validated profile: instantiate the
// plugins any list names (NodeResourcesFit validates its args then), fill
// each extension point from its own list, expand MultiPoint, check the
// queue sort and bind plugins and the score weights; then the lists and
// args become placement.Options.
func build(prof *profile, args map[int]runtime.Object) (*Profile, error) {
	name := *prof.SchedulerName
	p := prof.Plugins
	sets := p.sets()
	multi := &p.MultiPoint

	// Plugins outside the v1.36 default registry set.
	var unknown []string
	for _, n := range pluginsNames(p) {
		if _, ok := implements[n]; !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%w: plugins %q: schedkit models kube-scheduler v1.36's default plugins only", ErrUnsupported, unknown)
	}
	// Plugin construction (the plugins needed are every name listed).
	if slices.Contains(pluginsNames(p), "NodeResourcesFit") {
		if a, ok := pluginArgs(prof, 0, args, "NodeResourcesFit").(*nodeResourcesFitArgs); ok {
			if errs := validateNodeResourcesFitArgs(nil, a); len(errs) > 0 {
				return nil, fmt.Errorf("%w: initializing plugin %q: %w", ErrInvalid, "NodeResourcesFit", errs.ToAggregate())
			}
		}
	}
	// Each extension point from its own list (updatePluginList), then
	// MultiPoint expansion (expandMultiPointPlugins).
	points := make([][]string, numPoints)
	for k := range numPoints {
		seen := map[string]bool{}
		for _, e := range sets[k].Enabled {
			if !implementsPoint(e.Name, k) {
				return nil, fmt.Errorf("%w: plugin %q does not extend %s plugin", ErrInvalid, e.Name, pluginTypeNames[k])
			}
			if seen[e.Name] {
				return nil, fmt.Errorf("%w: plugin %q already registered as %q", ErrInvalid, e.Name, pluginTypeNames[k])
			}
			seen[e.Name] = true
		}
	}
	for k := range numPoints {
		enabled := orderedSet{}
		for _, e := range sets[k].Enabled {
			enabled.insert(e.Name)
		}
		disabled := map[string]bool{}
		for _, d := range sets[k].Disabled {
			disabled[d.Name] = true
		}
		if disabled["*"] {
			points[k] = enabled.list
			continue
		}
		var fromMulti, overrides orderedSet
		for _, e := range multi.Enabled {
			if !implementsPoint(e.Name, k) || disabled[e.Name] {
				continue
			}
			if enabled.has[e.Name] {
				overrides.insert(e.Name)
				continue
			}
			if fromMulti.has[e.Name] {
				return nil, fmt.Errorf("%w: plugin %q already registered as %q", ErrInvalid, e.Name, pluginTypeNames[k])
			}
			fromMulti.insert(e.Name)
		}
		var list []string
		for _, n := range enabled.list {
			if overrides.has[n] {
				list = append(list, n)
			}
		}
		list = append(list, fromMulti.list...)
		for _, n := range enabled.list {
			if !overrides.has[n] {
				list = append(list, n)
			}
		}
		points[k] = list
	}
	if n := len(points[pointQueueSort]); n != 1 {
		return nil, fmt.Errorf("%w: only one queue sort plugin required for profile with scheduler name %q, but got %d", ErrInvalid, name, n)
	}
	if len(points[pointBind]) == 0 {
		return nil, fmt.Errorf("%w: at least one bind plugin is needed for profile with scheduler name %q", ErrInvalid, name)
	}
	// Score weights (getValidScoreWeights): the score list's own entry
	// first, then MultiPoint's; 0 means 1; the running total must not
	// overflow (int64 arithmetic wraps as upstream's does).
	weights := map[string]int32{}
	var total int64
	for _, e := range append(slices.Clone(p.Score.Enabled), multi.Enabled...) {
		if !implementsPoint(e.Name, pointScore) {
			continue
		}
		if _, ok := weights[e.Name]; ok {
			continue
		}
		w := int32(0)
		if e.Weight != nil {
			w = *e.Weight
		}
		if w == 0 {
			w = 1
		}
		weights[e.Name] = w
		if int64(w)*100 > math.MaxInt64-total {
			return nil, fmt.Errorf("%w: score plugins: total score of Score plugins could overflow", ErrInvalid)
		}
		total += int64(w) * 100
	}

	out := &Profile{SchedulerName: name}
	for k := range numPoints {
		ep := ExtensionPoint{Name: pointNames[k]}
		for _, n := range points[k] {
			if slices.Contains(unmodelled, n) {
				continue
			}
			pl := Plugin{Name: n}
			if k == pointScore {
				pl.Weight = weights[n]
			}
			ep.Plugins = append(ep.Plugins, pl)
		}
		out.Points = append(out.Points, ep)
	}
	opts, err := options(prof, args, out)
	if err != nil {
		return nil, err
	}
	out.Options = opts
	return out, nil
}

func names(ep ExtensionPoint) []string {
	out := make([]string, 0, len(ep.Plugins))
	for _, p := range ep.Plugins {
		out = append(out, p.Name)
	}
	return out
}

// scorePlugins are the Score plugins placement models.
var scorePlugins = []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
	"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}

// options turns the instantiated profile into placement.Options.
func options(prof *profile, args map[int]runtime.Object, p *Profile) (placement.Options, error) {
	var o placement.Options
	o.Plugins = &placement.Plugins{
		PreEnqueue: names(p.Points[pointPreEnqueue]),
		PreFilter:  names(p.Points[pointPreFilter]),
		Filter:     names(p.Points[pointFilter]),
		PreScore:   names(p.Points[pointPreScore]),
		PostFilter: names(p.Points[pointPostFilter]),
	}
	o.ScoreWeights = map[string]int64{}
	for _, n := range scorePlugins {
		o.ScoreWeights[n] = 0
	}
	for _, pl := range p.Points[pointScore].Plugins {
		o.ScoreWeights[pl.Name] = int64(pl.Weight)
	}
	if a, ok := pluginArgs(prof, 0, args, "NodeResourcesFit").(*nodeResourcesFitArgs); ok {
		o.IgnoredResources = slices.Clone(a.IgnoredResources)
		o.IgnoredResourceGroups = slices.Clone(a.IgnoredResourceGroups)
		s := a.ScoringStrategy
		o.ScoringStrategy.Type = placement.ScoringStrategyType(s.Type)
		for _, r := range s.Resources {
			o.ScoringStrategy.Resources = append(o.ScoringStrategy.Resources, placement.ResourceSpec{Name: corev1.ResourceName(r.Name), Weight: r.Weight})
		}
		if s.RequestedToCapacityRatio != nil {
			for _, pt := range s.RequestedToCapacityRatio.Shape {
				o.ScoringStrategy.Shape = append(o.ScoringStrategy.Shape, placement.UtilizationShapePoint{Utilization: pt.Utilization, Score: pt.Score})
			}
		}
	}
	if a, ok := pluginArgs(prof, 0, args, "NodeResourcesBalancedAllocation").(*nodeResourcesBalancedAllocationArgs); ok {
		for _, r := range a.Resources {
			o.BalancedResources = append(o.BalancedResources, placement.ResourceSpec{Name: corev1.ResourceName(r.Name), Weight: r.Weight})
		}
	}
	if a, ok := pluginArgs(prof, 0, args, "NodeAffinity").(*nodeAffinityArgs); ok && a.AddedAffinity != nil {
		o.AddedAffinity = a.AddedAffinity.DeepCopy()
	}
	if a, ok := pluginArgs(prof, 0, args, "InterPodAffinity").(*interPodAffinityArgs); ok {
		o.HardPodAffinityWeight = ptr(*a.HardPodAffinityWeight)
		o.IgnorePreferredTermsOfExistingPods = a.IgnorePreferredTermsOfExistingPods
	}
	if a, ok := pluginArgs(prof, 0, args, "PodTopologySpread").(*podTopologySpreadArgs); ok && a.DefaultingType == "List" {
		o.DefaultSpreadConstraints = make([]corev1.TopologySpreadConstraint, 0, len(a.DefaultConstraints))
		for _, c := range a.DefaultConstraints {
			o.DefaultSpreadConstraints = append(o.DefaultSpreadConstraints, *c.DeepCopy())
		}
	}
	if err := o.Check(); err != nil {
		return o, fmt.Errorf("%w: %s", ErrUnsupported, err)
	}
	return o, nil
}
