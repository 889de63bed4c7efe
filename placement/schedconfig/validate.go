package schedconfig

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/nodeaffinity"
)

// validate is ValidateKubeSchedulerConfiguration
// (pkg/scheduler/apis/config/validation/validation.go, v1.36), run on the
// defaulted configuration, with its field paths and wording. The leader
// election and client connection rules are component-base's.
func validate(cfg *kubeSchedulerConfiguration, args map[int]runtime.Object) field.ErrorList {
	var errs field.ErrorList
	if cfg.ClientConnection.Burst < 0 {
		errs = append(errs, field.Invalid(field.NewPath("clientConnection", "burst"), cfg.ClientConnection.Burst, "must be non-negative"))
	}
	le, lp := &cfg.LeaderElection, field.NewPath("leaderElection")
	if *le.LeaderElect {
		if le.LeaseDuration.Duration <= 0 {
			errs = append(errs, field.Invalid(lp.Child("leaseDuration"), le.LeaseDuration, "must be greater than zero"))
		}
		if le.RenewDeadline.Duration <= 0 {
			errs = append(errs, field.Invalid(lp.Child("renewDeadline"), le.RenewDeadline, "must be greater than zero"))
		}
		if le.RetryPeriod.Duration <= 0 {
			errs = append(errs, field.Invalid(lp.Child("retryPeriod"), le.RetryPeriod, "must be greater than zero"))
		}
		if le.LeaseDuration.Duration <= le.RenewDeadline.Duration {
			errs = append(errs, field.Invalid(lp.Child("leaseDuration"), le.RenewDeadline, "must be greater than `RenewDeadline`"))
		}
		if le.ResourceLock != "leases" {
			errs = append(errs, field.Invalid(lp.Child("resourceLock"), le.ResourceLock, `resourceLock value must be "leases"`))
		}
	}
	if *cfg.Parallelism <= 0 {
		errs = append(errs, field.Invalid(field.NewPath("parallelism"), *cfg.Parallelism, "should be an integer value greater than zero"))
	}
	profilesPath := field.NewPath("profiles")
	existing := map[string]int{}
	for i := range cfg.Profiles {
		prof := &cfg.Profiles[i]
		path := profilesPath.Index(i)
		name := ""
		if prof.SchedulerName != nil {
			name = *prof.SchedulerName
		}
		if name == "" {
			errs = append(errs, field.Required(path.Child("schedulerName"), ""))
		}
		errs = append(errs, validatePercentage(path.Child("percentageOfNodesToScore"), prof.PercentageOfNodesToScore)...)
		errs = append(errs, validatePluginConfig(path, i, prof, args)...)
		if idx, ok := existing[name]; ok {
			errs = append(errs, field.Duplicate(path.Child("schedulerName"), profilesPath.Index(idx).Child("schedulerName")))
		}
		existing[name] = i
	}
	errs = append(errs, validateCommonQueueSort(profilesPath, cfg.Profiles, args)...)
	errs = append(errs, validatePercentage(field.NewPath("percentageOfNodesToScore"), cfg.PercentageOfNodesToScore)...)
	if *cfg.PodInitialBackoffSeconds <= 0 {
		errs = append(errs, field.Invalid(field.NewPath("podInitialBackoffSeconds"), *cfg.PodInitialBackoffSeconds, "must be greater than 0"))
	}
	if *cfg.PodMaxBackoffSeconds < *cfg.PodInitialBackoffSeconds {
		errs = append(errs, field.Invalid(field.NewPath("podMaxBackoffSeconds"), *cfg.PodMaxBackoffSeconds, "must be greater than or equal to PodInitialBackoffSeconds"))
	}
	errs = append(errs, validateExtenders(field.NewPath("extenders"), cfg.Extenders)...)
	return errs
}

func validatePercentage(path *field.Path, v *int32) field.ErrorList {
	if v != nil && (*v < 0 || *v > 100) {
		return field.ErrorList{field.Invalid(path, *v, "not in valid range [0-100]")}
	}
	return nil
}

// removedPlugins were removed before kubescheduler.config.k8s.io/v1
// (invalidPluginsByVersion).
var removedPlugins = []string{"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"}

func removedMessage() string {
	return fmt.Sprintf("was invalid in version %q (KubeSchedulerConfiguration is version %q)", groupVersion.String(), groupVersion.String())
}

// validatePluginConfig is upstream's: removed plugins at every extension
// point, duplicate pluginConfig entries, and the args of DefaultPreemption,
// InterPodAffinity, NodeAffinity, NodeResourcesBalancedAllocation,
// PodTopologySpread, VolumeBinding and DynamicResources. NodeResourcesFit's
// args are not among them: upstream's table keys them as
// "NodeResourcesFitArgs", so they are checked when the plugin is built
// (build).
func validatePluginConfig(path *field.Path, i int, prof *profile, args map[int]runtime.Object) field.ErrorList {
	var errs field.ErrorList
	if prof.Plugins != nil {
		sets := prof.Plugins.sets()
		// Upstream ranges over a map of the stages: sort the output instead.
		var stageErrs field.ErrorList
		for k := range numPoints {
			for e, p := range sets[k].Enabled {
				if slices.Contains(removedPlugins, p.Name) {
					stageErrs = append(stageErrs, field.Invalid(path.Child("plugins", pointNames[k], "enabled").Index(e), p.Name, removedMessage()))
				}
			}
		}
		sort.SliceStable(stageErrs, func(a, b int) bool { return stageErrs[a].Field < stageErrs[b].Field })
		errs = append(errs, stageErrs...)
	}
	seen := map[string]bool{}
	for j := range prof.PluginConfig {
		pcPath := path.Child("pluginConfig").Index(j)
		name := prof.PluginConfig[j].Name
		if seen[name] {
			errs = append(errs, field.Duplicate(pcPath, name))
		}
		seen[name] = true
		if slices.Contains(removedPlugins, name) {
			errs = append(errs, field.Invalid(pcPath, name, removedMessage()))
			continue
		}
		a := args[i<<16|j]
		ap := pcPath.Child("args")
		switch a := a.(type) {
		case *defaultPreemptionArgs:
			errs = append(errs, validateDefaultPreemptionArgs(ap, a)...)
		case *interPodAffinityArgs:
			errs = append(errs, validateInterPodAffinityArgs(ap, a)...)
		case *nodeAffinityArgs:
			errs = append(errs, validateNodeAffinityArgs(ap, a)...)
		case *nodeResourcesBalancedAllocationArgs:
			errs = append(errs, validateBalancedAllocationArgs(ap, a)...)
		case *podTopologySpreadArgs:
			errs = append(errs, validatePodTopologySpreadArgs(ap, a)...)
		case *volumeBindingArgs:
			if *a.BindTimeoutSeconds < 0 {
				errs = append(errs, field.Invalid(ap.Child("bindTimeoutSeconds"), *a.BindTimeoutSeconds, "invalid BindTimeoutSeconds, should not be a negative value"))
			}
			if a.Shape != nil { // StorageCapacityScoring is off in v1.36
				errs = append(errs, field.Invalid(ap.Child("shape"), a.Shape, "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"))
			}
		case *dynamicResourcesArgs:
			if a.FilterTimeout != nil && a.FilterTimeout.Duration < 0 {
				errs = append(errs, field.Invalid(ap.Child("filterTimeout"), a.FilterTimeout, "must be zero or positive"))
			}
			if a.BindingTimeout != nil && a.BindingTimeout.Duration < 1e9 {
				errs = append(errs, field.Invalid(ap.Child("bindingTimeout"), a.BindingTimeout, "must be at least 1 second"))
			}
		}
	}
	return errs
}

func validateCommonQueueSort(path *field.Path, profiles []profile, _ map[int]runtime.Object) field.ErrorList {
	if len(profiles) == 0 || profiles[0].Plugins == nil {
		return nil
	}
	if n := len(profiles[0].Plugins.QueueSort.Enabled); n > 1 {
		return field.ErrorList{field.Invalid(path.Index(0).Child("plugins", "queueSort", "Enabled"), n, "only one queue sort plugin can be enabled")}
	}
	return nil
}

func validateExtenders(path *field.Path, extenders []extender) field.ErrorList {
	var errs field.ErrorList
	binders := 0
	for i, e := range extenders {
		if e.PrioritizeVerb != "" && e.Weight <= 0 {
			errs = append(errs, field.Invalid(path.Index(i).Child("weight"), e.Weight, "must have a positive weight applied to it"))
		}
		if e.BindVerb != "" {
			binders++
		}
	}
	if binders > 1 {
		errs = append(errs, field.Invalid(path, fmt.Sprintf("found %d extenders implementing bind", binders), "only one extender can implement bind"))
	}
	return errs
}

// The args validations of validation_pluginargs.go.

func validateDefaultPreemptionArgs(path *field.Path, a *defaultPreemptionArgs) field.ErrorList {
	var errs field.ErrorList
	pp, ap := path.Child("minCandidateNodesPercentage"), path.Child("minCandidateNodesAbsolute")
	pct, abs := *a.MinCandidateNodesPercentage, *a.MinCandidateNodesAbsolute
	if pct < 0 || pct > 100 {
		errs = append(errs, field.Invalid(pp, pct, "not in valid range [0, 100]"))
	}
	if abs < 0 {
		errs = append(errs, field.Invalid(ap, abs, "not in valid range [0, inf)"))
	}
	if pct == 0 && abs == 0 {
		errs = append(errs,
			field.Invalid(pp, pct, "cannot be zero at the same time as minCandidateNodesAbsolute"),
			field.Invalid(ap, abs, "cannot be zero at the same time as minCandidateNodesPercentage"))
	}
	return errs
}

func validateInterPodAffinityArgs(path *field.Path, a *interPodAffinityArgs) field.ErrorList {
	if w := *a.HardPodAffinityWeight; w < 0 || w > 100 {
		return field.ErrorList{field.Invalid(path.Child("hardPodAffinityWeight"), w, "not in valid range [0, 100]")}
	}
	return nil
}

func validateNodeAffinityArgs(path *field.Path, a *nodeAffinityArgs) field.ErrorList {
	if a.AddedAffinity == nil {
		return nil
	}
	var errs field.ErrorList
	if ns := a.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		_, e := nodeaffinity.CompileSelector(ns, path.Child("addedAffinity", "requiredDuringSchedulingIgnoredDuringExecution"))
		errs = append(errs, e...)
	}
	if terms := a.AddedAffinity.PreferredDuringSchedulingIgnoredDuringExecution; len(terms) != 0 {
		_, e := nodeaffinity.CompilePreferred(terms, path.Child("addedAffinity", "preferredDuringSchedulingIgnoredDuringExecution"))
		errs = append(errs, e...)
	}
	return errs
}

func validateBalancedAllocationArgs(path *field.Path, a *nodeResourcesBalancedAllocationArgs) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, r := range a.Resources {
		if seen[r.Name] {
			errs = append(errs, field.Duplicate(path.Child("resources").Index(i).Child("name"), r.Name))
		}
		seen[r.Name] = true
		if r.Weight != 1 {
			errs = append(errs, field.Invalid(path.Child("resources").Index(i).Child("weight"), r.Weight, "must be 1"))
		}
	}
	return errs
}

func validatePodTopologySpreadArgs(path *field.Path, a *podTopologySpreadArgs) field.ErrorList {
	var errs field.ErrorList
	dp := path.Child("defaultingType")
	switch {
	case a.DefaultingType != "System" && a.DefaultingType != "List":
		errs = append(errs, field.NotSupported(dp, a.DefaultingType, []string{"System", "List"}))
	case a.DefaultingType == "System" && len(a.DefaultConstraints) > 0:
		errs = append(errs, field.Invalid(dp, a.DefaultingType, "when .defaultConstraints are not empty"))
	}
	cp := path.Child("defaultConstraints")
	for i, c := range a.DefaultConstraints {
		p := cp.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(p.Child("maxSkew"), c.MaxSkew, "not in valid range (0, inf)"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
		} else {
			errs = append(errs, metav1validation.ValidateLabelName(c.TopologyKey, p.Child("topologyKey"))...)
		}
		wp := p.Child("whenUnsatisfiable")
		switch c.WhenUnsatisfiable {
		case "":
			errs = append(errs, field.Required(wp, "can not be empty"))
		case corev1.DoNotSchedule, corev1.ScheduleAnyway:
		default:
			errs = append(errs, field.NotSupported(wp, c.WhenUnsatisfiable, []string{string(corev1.DoNotSchedule), string(corev1.ScheduleAnyway)}))
		}
		if c.LabelSelector != nil {
			errs = append(errs, field.Forbidden(p.Child("labelSelector"), "constraint must not define a selector, as they deduced for each pod"))
		}
		for k := range a.DefaultConstraints[:i] {
			o := &a.DefaultConstraints[k]
			if c.TopologyKey == o.TopologyKey && c.WhenUnsatisfiable == o.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(cp.Index(i), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
	}
	return errs
}

// validateNodeResourcesFitArgs is upstream's ValidateNodeResourcesFitArgs,
// which the plugin's constructor calls with a nil path.
func validateNodeResourcesFitArgs(path *field.Path, a *nodeResourcesFitArgs) field.ErrorList {
	var errs field.ErrorList
	for i, r := range a.IgnoredResources {
		errs = append(errs, metav1validation.ValidateLabelName(r, path.Child("ignoredResources").Index(i))...)
	}
	for i, g := range a.IgnoredResourceGroups {
		p := path.Child("ignoredResourceGroups").Index(i)
		if strings.Contains(g, "/") {
			errs = append(errs, field.Invalid(p, g, "resource group name can't contain '/'"))
		}
		errs = append(errs, metav1validation.ValidateLabelName(g, p)...)
	}
	sp := path.Child("scoringStrategy")
	s := a.ScoringStrategy
	if s == nil {
		return append(errs, field.Required(sp, "ScoringStrategy field is required"))
	}
	types := []string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}
	if !slices.Contains(types, s.Type) {
		errs = append(errs, field.NotSupported(sp.Child("type"), s.Type, types))
	}
	for i, r := range s.Resources {
		if r.Weight <= 0 || r.Weight > 100 {
			errs = append(errs, field.Invalid(sp.Child("resources").Index(i).Child("weight"), r.Weight,
				fmt.Sprintf("resource weight of %v not in valid range (0, 100]", r.Name)))
		}
	}
	if s.Type == "RequestedToCapacityRatio" {
		if s.RequestedToCapacityRatio == nil {
			errs = append(errs, field.Required(sp.Child("requestedToCapacityRatio"), "must be specified when type is RequestedToCapacityRatio"))
		} else {
			errs = append(errs, validateFunctionShape(s.RequestedToCapacityRatio.Shape, sp.Child("requestedToCapacityRatio").Child("shape"))...)
		}
	} else if s.RequestedToCapacityRatio != nil {
		errs = append(errs, field.Forbidden(sp.Child("requestedToCapacityRatio"), "must be nil when type is not RequestedToCapacityRatio"))
	}
	return errs
}

func validateFunctionShape(shape []utilizationShapePoint, path *field.Path) field.ErrorList {
	if len(shape) == 0 {
		return field.ErrorList{field.Required(path, "at least one point must be specified")}
	}
	var errs field.ErrorList
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, field.Invalid(path.Index(i).Child("utilization"), shape[i].Utilization, "values must be sorted in increasing order"))
			break
		}
	}
	for i, p := range shape {
		if p.Utilization < 0 || p.Utilization > 100 {
			errs = append(errs, field.Invalid(path.Index(i).Child("utilization"), p.Utilization, "not in valid range [0, 100]"))
		}
		if p.Score < 0 || p.Score > 10 {
			errs = append(errs, field.Invalid(path.Index(i).Child("score"), p.Score, "not in valid range [0, 10]"))
		}
	}
	return errs
}
