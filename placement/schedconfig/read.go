package schedconfig

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/placement"
)

// DefaultSchedulerName is the profile name a pod without
// spec.schedulerName asks for (corev1.DefaultSchedulerName).
const DefaultSchedulerName = corev1.DefaultSchedulerName

// Profile is a KubeSchedulerConfiguration's single profile as
// kube-scheduler v1.36.3 would run it, restricted to the plugins schedkit
// models.
type Profile struct {
	// SchedulerName is the profile's name: kube-scheduler schedules only the
	// pods whose spec.schedulerName is this name (see Handles).
	SchedulerName string
	// Points lists, per extension point (preEnqueue, queueSort, preFilter,
	// filter, postFilter, preScore, score, reserve, permit, preBind, bind,
	// postBind), the plugins the framework instantiates there in the order
	// it runs them, after MultiPoint expansion and with the volume and DRA
	// plugins left out; Weight is set at score only.
	Points []ExtensionPoint
	// Options is the profile as placement options: pass it (after setting
	// Version and Parallelism as wanted) to every placement and preemption
	// entry point.
	Options placement.Options
}

// ExtensionPoint is one extension point's instantiated plugins.
type ExtensionPoint struct {
	Name    string
	Plugins []Plugin
}

// Handles reports whether kube-scheduler with this profile schedules the
// pod: its spec.schedulerName, empty meaning "default-scheduler", names
// the profile (pkg/scheduler/profile and the informer filter of
// eventhandlers.go responsibleForPod).
func (p *Profile) Handles(pod *corev1.Pod) bool {
	name := pod.Spec.SchedulerName
	if name == "" {
		name = DefaultSchedulerName
	}
	return name == p.SchedulerName
}

// ErrInvalid is wrapped by Read's errors for a configuration upstream's
// validation refuses (a *ValidationError) or kube-scheduler refuses to start
// with (its framework's errors).
var ErrInvalid = errors.New("schedconfig: invalid configuration")

// ErrUnsupported is wrapped by Read's errors for a valid configuration
// schedkit does not model (several profiles, extenders, a partial
// percentageOfNodesToScore, out-of-tree plugins).
var ErrUnsupported = errors.New("schedconfig: not supported")

// ValidationError is upstream's validation verdict on a configuration:
// every error, with its field path and upstream's wording
// (apis/config/validation ValidateKubeSchedulerConfiguration).
type ValidationError struct {
	Errors field.ErrorList
}

func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

// Unwrap lets errors.Is find ErrInvalid.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Read decodes a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration
// (YAML or JSON) as kube-scheduler v1.36.3's --config does and returns its
// profile:
//
//  1. strict decoding: an unknown or duplicate field, also inside a plugin's
//     args, is an error (ErrDecode);
//  2. v1 defaulting (apis/config/v1/defaults.go): one profile named
//     default-scheduler when none is given, every extension point's plugins
//     merged with the default set (MergePluginSet), default args for every
//     enabled plugin without a pluginConfig entry and field by field for
//     the others;
//  3. upstream's validation (a *ValidationError wrapping ErrInvalid, with
//     every field error);
//  4. what NewFramework does and checks (pkg/scheduler/framework/runtime):
//     MultiPoint expansion (a plugin enabled at a specific extension point
//     comes first there, with that entry's weight), a weight of 0 meaning 1,
//     NodeResourcesFit's args validated when the plugin is built (upstream's
//     configuration validation misses them), one queue sort plugin, a bind
//     plugin, no duplicate plugin.
//
// Refused with ErrUnsupported: more than one profile, extenders,
// percentageOfNodesToScore (top level or profile) other than unset, 0 or
// 100 (schedkit evaluates every node, which 0 means for the clusters
// upstream's adaptive percentage scores whole, and 100 always), and
// plugins outside kube-scheduler v1.36's default set. The volume and DRA
// plugins are accepted and left out, as for the default profile.
// DefaultPreemption's args are validated but not applied (schedkit
// dry-runs every potential node unless preemption.Options.Sampling says
// otherwise). The input is not modified.
func Read(data []byte) (*Profile, error) {
	cfg, args, err := decode(data)
	if err != nil {
		return nil, err
	}
	setDefaults(cfg, args)
	if errs := validate(cfg, args); len(errs) > 0 {
		return nil, &ValidationError{Errors: errs}
	}
	if err := supported(cfg); err != nil {
		return nil, err
	}
	return build(&cfg.Profiles[0], args)
}

// pluginArgs returns profile i's args for the plugin, or nil.
func pluginArgs(prof *profile, i int, args map[int]runtime.Object, name string) runtime.Object {
	for j := range prof.PluginConfig {
		if prof.PluginConfig[j].Name == name {
			return args[i<<16|j]
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

var defaultResourceSpec = []resourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}

// setDefaults is SetDefaults_KubeSchedulerConfiguration and the plugin args'
// SetDefaults_* functions (apis/config/v1/defaults.go).
func setDefaults(cfg *kubeSchedulerConfiguration, args map[int]runtime.Object) {
	if cfg.Parallelism == nil {
		cfg.Parallelism = ptr[int32](16)
	}
	if len(cfg.Profiles) == 0 {
		cfg.Profiles = append(cfg.Profiles, profile{})
	}
	if len(cfg.Profiles) == 1 && cfg.Profiles[0].SchedulerName == nil {
		cfg.Profiles[0].SchedulerName = ptr(DefaultSchedulerName)
	}
	for i := range cfg.Profiles {
		prof := &cfg.Profiles[i]
		prof.Plugins = mergePlugins(prof.Plugins)
		existing := map[string]bool{}
		for j := range prof.PluginConfig {
			existing[prof.PluginConfig[j].Name] = true
			a, ok := args[i<<16|j]
			if !ok {
				// An entry without args gets the default ones, as
				// upstream's decoding of an empty RawExtension does.
				if a = newArgs(prof.PluginConfig[j].Name); a == nil {
					continue
				}
				args[i<<16|j] = a
			}
			defaultArgs(a)
		}
		for _, name := range pluginsNames(prof.Plugins) {
			if existing[name] {
				continue
			}
			a := newArgs(name)
			if a == nil {
				continue
			}
			defaultArgs(a)
			prof.PluginConfig = append(prof.PluginConfig, pluginConfig{Name: name})
			args[i<<16|(len(prof.PluginConfig)-1)] = a
		}
	}
	if cfg.PercentageOfNodesToScore == nil {
		cfg.PercentageOfNodesToScore = ptr[int32](0)
	}
	le := &cfg.LeaderElection
	if le.ResourceLock == "" {
		le.ResourceLock = "leases"
	}
	if le.ResourceNamespace == "" {
		le.ResourceNamespace = "kube-system"
	}
	if le.ResourceName == "" {
		le.ResourceName = "kube-scheduler"
	}
	// RecommendedDefaultLeaderElectionConfiguration.
	if le.LeaderElect == nil {
		le.LeaderElect = ptr(true)
	}
	if le.LeaseDuration == (metav1.Duration{}) {
		le.LeaseDuration = metav1.Duration{Duration: 15 * time.Second}
	}
	if le.RenewDeadline == (metav1.Duration{}) {
		le.RenewDeadline = metav1.Duration{Duration: 10 * time.Second}
	}
	if le.RetryPeriod == (metav1.Duration{}) {
		le.RetryPeriod = metav1.Duration{Duration: 2 * time.Second}
	}
	if cfg.PodInitialBackoffSeconds == nil {
		cfg.PodInitialBackoffSeconds = ptr[int64](1)
	}
	if cfg.PodMaxBackoffSeconds == nil {
		cfg.PodMaxBackoffSeconds = ptr[int64](10)
	}
}

func defaultArgs(a runtime.Object) {
	switch a := a.(type) {
	case *defaultPreemptionArgs:
		if a.MinCandidateNodesPercentage == nil {
			a.MinCandidateNodesPercentage = ptr[int32](10)
		}
		if a.MinCandidateNodesAbsolute == nil {
			a.MinCandidateNodesAbsolute = ptr[int32](100)
		}
	case *interPodAffinityArgs:
		if a.HardPodAffinityWeight == nil {
			a.HardPodAffinityWeight = ptr[int32](1)
		}
	case *nodeResourcesBalancedAllocationArgs:
		if len(a.Resources) == 0 {
			a.Resources = slices.Clone(defaultResourceSpec)
			return
		}
		for i := range a.Resources {
			if a.Resources[i].Weight == 0 {
				a.Resources[i].Weight = 1
			}
		}
	case *podTopologySpreadArgs:
		if a.DefaultingType == "" {
			a.DefaultingType = "System"
		}
	case *nodeResourcesFitArgs:
		if a.ScoringStrategy == nil {
			a.ScoringStrategy = &scoringStrategy{Type: string(placement.LeastAllocated), Resources: slices.Clone(defaultResourceSpec)}
		}
		if len(a.ScoringStrategy.Resources) == 0 {
			a.ScoringStrategy.Resources = slices.Clone(defaultResourceSpec)
		}
		for i := range a.ScoringStrategy.Resources {
			if a.ScoringStrategy.Resources[i].Weight == 0 {
				a.ScoringStrategy.Resources[i].Weight = 1
			}
		}
	case *volumeBindingArgs:
		if a.BindTimeoutSeconds == nil {
			a.BindTimeoutSeconds = ptr[int64](600)
		}
	case *dynamicResourcesArgs:
		if a.FilterTimeout == nil { // DRASchedulerFilterTimeout is on in v1.36
			a.FilterTimeout = &metav1.Duration{Duration: 10 * time.Second}
		}
		if a.BindingTimeout == nil { // DRADeviceBindingConditions and DRAResourceClaimDeviceStatus too
			a.BindingTimeout = &metav1.Duration{Duration: 600 * time.Second}
		}
	}
}

// sets returns the profile's plugin sets by extension point, MultiPoint
// last (index numPoints); placementGenerate and placementScore are not
// returned (no default plugin implements them).
func (p *plugins) sets() []*pluginSet {
	return []*pluginSet{&p.PreEnqueue, &p.QueueSort, &p.PreFilter, &p.Filter, &p.PostFilter, &p.PreScore,
		&p.Score, &p.Reserve, &p.Permit, &p.PreBind, &p.Bind, &p.PostBind, &p.MultiPoint}
}

func toSet(s pluginSet) PluginSet {
	var out PluginSet
	for _, p := range s.Enabled {
		w := int32(0)
		if p.Weight != nil {
			w = *p.Weight
		}
		out.Enabled = append(out.Enabled, Plugin{Name: p.Name, Weight: w})
	}
	for _, p := range s.Disabled {
		out.Disabled = append(out.Disabled, Plugin{Name: p.Name})
	}
	return out
}

func fromSet(s PluginSet) pluginSet {
	var out pluginSet
	for _, p := range s.Enabled {
		q := plugin{Name: p.Name}
		if p.Weight != 0 {
			q.Weight = ptr(p.Weight)
		}
		out.Enabled = append(out.Enabled, q)
	}
	for _, p := range s.Disabled {
		out.Disabled = append(out.Disabled, plugin{Name: p.Name})
	}
	return out
}

// mergePlugins is upstream's mergePlugins: every extension point's custom
// set merged into the default one (all default plugins are at MultiPoint).
func mergePlugins(custom *plugins) *plugins {
	def := &plugins{MultiPoint: fromSet(PluginSet{Enabled: defaultMultiPoint()})}
	if custom == nil {
		return def
	}
	ds, cs := def.sets(), custom.sets()
	for k := range ds {
		*ds[k] = fromSet(MergePluginSet(toSet(*ds[k]), toSet(*cs[k])))
	}
	def.PlacementGenerate, def.PlacementScore = custom.PlacementGenerate, custom.PlacementScore
	return def
}

// pluginsNames is the sorted set of every enabled plugin's name.
func pluginsNames(p *plugins) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(p.sets(), &p.PlacementGenerate, &p.PlacementScore) {
		for _, e := range s.Enabled {
			if !seen[e.Name] {
				seen[e.Name] = true
				out = append(out, e.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// supported refuses what schedkit does not model.
func supported(cfg *kubeSchedulerConfiguration) error {
	var problems []string
	if len(cfg.Profiles) != 1 {
		problems = append(problems, fmt.Sprintf("profiles: %d profiles given, schedkit runs exactly one", len(cfg.Profiles)))
	}
	if len(cfg.Extenders) > 0 {
		problems = append(problems, "extenders: scheduler extenders are not supported")
	}
	pct := func(path string, v *int32) {
		if v != nil && *v != 0 && *v != 100 {
			problems = append(problems, fmt.Sprintf("%s: %d is not supported: schedkit evaluates every node, so only unset, 0 and 100 are accepted", path, *v))
		}
	}
	pct("percentageOfNodesToScore", cfg.PercentageOfNodesToScore)
	for i := range cfg.Profiles {
		pct(fmt.Sprintf("profiles[%d].percentageOfNodesToScore", i), cfg.Profiles[i].PercentageOfNodesToScore)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrUnsupported, strings.Join(problems, "; "))
	}
	return nil
}
