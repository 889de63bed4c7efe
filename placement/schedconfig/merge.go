package schedconfig

import "slices"

// Plugin is one entry of an extension point's list: a plugin name and, at
// Score (and MultiPoint), its weight (0: not set).
type Plugin struct {
	Name   string
	Weight int32
}

// PluginSet is an extension point's enabled and disabled plugins, as in
// KubeSchedulerProfile.Plugins (config/v1 PluginSet). "*" in Disabled
// disables every default plugin of the extension point.
type PluginSet struct {
	Enabled  []Plugin
	Disabled []Plugin
}

// The default plugin set (apis/config/v1/default_plugins.go getDefaultPlugins
// with the v1.36 feature gates: DynamicResources before DefaultPreemption,
// NodeDeclaredFeatures appended). All of it is at MultiPoint.
func defaultMultiPoint() []Plugin {
	return []Plugin{
		{Name: "SchedulingGates"},
		{Name: "PrioritySort"},
		{Name: "NodeUnschedulable"},
		{Name: "NodeName"},
		{Name: "TaintToleration", Weight: 3},
		{Name: "NodeAffinity", Weight: 2},
		{Name: "NodePorts"},
		{Name: "NodeResourcesFit", Weight: 1},
		{Name: "VolumeRestrictions"},
		{Name: "NodeVolumeLimits"},
		{Name: "VolumeBinding"},
		{Name: "VolumeZone"},
		{Name: "PodTopologySpread", Weight: 2},
		{Name: "InterPodAffinity", Weight: 2},
		{Name: "DynamicResources", Weight: 2},
		{Name: "DefaultPreemption"},
		{Name: "NodeResourcesBalancedAllocation", Weight: 1},
		{Name: "ImageLocality", Weight: 1},
		{Name: "DefaultBinder"},
		{Name: "NodeDeclaredFeatures"},
	}
}

// MergePluginSet merges a profile's custom set for one extension point into
// the default set, as upstream's mergePluginSet
// (apis/config/v1/default_plugins.go, v1.36) does: the custom disabled
// plugins and the default's disabled ones make the Disabled list; unless
// "*" is disabled, each default enabled plugin that is not disabled is kept
// in place, replaced by the custom entry of the same name when there is
// one (its weight included, even when unset); the custom enabled plugins
// that replaced none follow in their order (duplicates kept: the framework
// refuses them). Neither argument is modified.
func MergePluginSet(defaults, custom PluginSet) PluginSet {
	disabled := map[string]bool{}
	var out PluginSet
	for _, p := range custom.Disabled {
		out.Disabled = append(out.Disabled, Plugin{Name: p.Name})
		disabled[p.Name] = true
	}
	for _, p := range defaults.Disabled {
		out.Disabled = append(out.Disabled, Plugin{Name: p.Name})
		disabled[p.Name] = true
	}
	customIndex := map[string]int{}
	for i, p := range custom.Enabled {
		customIndex[p.Name] = i // the last of duplicates, as upstream's map
	}
	replaced := map[int]bool{}
	if !disabled["*"] {
		for _, p := range defaults.Enabled {
			if disabled[p.Name] {
				continue
			}
			if i, ok := customIndex[p.Name]; ok {
				p = custom.Enabled[i]
				replaced[i] = true
			}
			out.Enabled = append(out.Enabled, p)
		}
	}
	for i, p := range custom.Enabled {
		if !replaced[i] {
			out.Enabled = append(out.Enabled, p)
		}
	}
	return out
}

// Extension points (the framework's plugin interfaces).
const (
	pointPreEnqueue = iota
	pointQueueSort
	pointPreFilter
	pointFilter
	pointPostFilter
	pointPreScore
	pointScore
	pointReserve
	pointPermit
	pointPreBind
	pointBind
	pointPostBind
	numPoints
)

var pointNames = [numPoints]string{"preEnqueue", "queueSort", "preFilter", "filter", "postFilter",
	"preScore", "score", "reserve", "permit", "preBind", "bind", "postBind"}

// pluginTypeNames are the framework's interface names, for its errors.
var pluginTypeNames = [numPoints]string{"PreEnqueuePlugin", "QueueSortPlugin", "PreFilterPlugin", "FilterPlugin",
	"PostFilterPlugin", "PreScorePlugin", "ScorePlugin", "ReservePlugin", "PermitPlugin", "PreBindPlugin",
	"BindPlugin", "PostBindPlugin"}

// implements lists the extension points each in-tree plugin of the v1.36
// registry implements (pkg/scheduler/framework/plugins).
var implements = map[string][]int{
	"SchedulingGates":                 {pointPreEnqueue},
	"PrioritySort":                    {pointQueueSort},
	"NodeUnschedulable":               {pointFilter},
	"NodeName":                        {pointFilter},
	"TaintToleration":                 {pointFilter, pointPreScore, pointScore},
	"NodeAffinity":                    {pointPreFilter, pointFilter, pointPreScore, pointScore},
	"NodePorts":                       {pointPreFilter, pointFilter},
	"NodeResourcesFit":                {pointPreFilter, pointFilter, pointPreScore, pointScore},
	"VolumeRestrictions":              {pointPreFilter, pointFilter},
	"NodeVolumeLimits":                {pointPreFilter, pointFilter},
	"VolumeBinding":                   {pointPreFilter, pointFilter, pointPreScore, pointScore, pointReserve, pointPreBind},
	"VolumeZone":                      {pointPreFilter, pointFilter},
	"PodTopologySpread":               {pointPreFilter, pointFilter, pointPreScore, pointScore},
	"InterPodAffinity":                {pointPreFilter, pointFilter, pointPreScore, pointScore},
	"DynamicResources":                {pointPreEnqueue, pointPreFilter, pointFilter, pointPostFilter, pointPreScore, pointScore, pointReserve, pointPreBind},
	"DefaultPreemption":               {pointPreEnqueue, pointPostFilter},
	"NodeResourcesBalancedAllocation": {pointPreScore, pointScore},
	"ImageLocality":                   {pointScore},
	"DefaultBinder":                   {pointBind},
	"NodeDeclaredFeatures":            {pointPreFilter, pointFilter},
}

// unmodelled are the default plugins schedkit leaves out, as the
// conformance oracle does (no volumes, no DRA objects): they never change
// a decision on the pods and nodes schedkit reads.
var unmodelled = []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "DynamicResources"}

func implementsPoint(name string, point int) bool {
	return slices.Contains(implements[name], point)
}
