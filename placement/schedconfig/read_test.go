package schedconfig_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/schedconfig"
)

const header = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"

// points renders a profile's extension points as "name: A B:3 ..." lines
// for the non-empty ones.
func points(p *schedconfig.Profile) map[string]string {
	out := map[string]string{}
	for _, ep := range p.Points {
		var parts []string
		for _, pl := range ep.Plugins {
			s := pl.Name
			if ep.Name == "score" {
				s += ":" + itoa(pl.Weight)
			}
			parts = append(parts, s)
		}
		out[ep.Name] = strings.Join(parts, " ")
	}
	return out
}

func itoa(v int32) string {
	if v < 0 {
		return "-" + itoa(-v)
	}
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

var defaultPoints = map[string]string{
	"preEnqueue": "SchedulingGates DefaultPreemption",
	"queueSort":  "PrioritySort",
	"preFilter":  "NodeAffinity NodePorts NodeResourcesFit PodTopologySpread InterPodAffinity NodeDeclaredFeatures",
	"filter":     "NodeUnschedulable NodeName TaintToleration NodeAffinity NodePorts NodeResourcesFit PodTopologySpread InterPodAffinity NodeDeclaredFeatures",
	"postFilter": "DefaultPreemption",
	"preScore":   "TaintToleration NodeAffinity NodeResourcesFit PodTopologySpread InterPodAffinity NodeResourcesBalancedAllocation",
	"score":      "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 PodTopologySpread:2 InterPodAffinity:2 NodeResourcesBalancedAllocation:1 ImageLocality:1",
	"reserve":    "", "permit": "", "preBind": "", "postBind": "",
	"bind": "DefaultBinder",
}

func with(changes map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range defaultPoints {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out
}

// TestReadPlugins: the plugin lists as upstream's framework instantiates
// them (merge, MultiPoint expansion, weights).
func TestReadPlugins(t *testing.T) {
	tests := []struct {
		name string
		body string
		want map[string]string
	}{
		{name: "empty configuration: the default profile", body: "", want: defaultPoints},
		{name: "a profile without plugins", body: "profiles:\n- schedulerName: default-scheduler\n", want: defaultPoints},
		{name: "disabled at filter and score: PreScore keeps running",
			body: "profiles:\n- plugins:\n    filter:\n      disabled: [{name: TaintToleration}]\n    score:\n      disabled: [{name: TaintToleration}]\n",
			want: with(map[string]string{
				"filter": "NodeUnschedulable NodeName NodeAffinity NodePorts NodeResourcesFit PodTopologySpread InterPodAffinity NodeDeclaredFeatures",
				"score":  "NodeAffinity:2 NodeResourcesFit:1 PodTopologySpread:2 InterPodAffinity:2 NodeResourcesBalancedAllocation:1 ImageLocality:1",
			})},
		{name: "re-enabled at score with a weight: listed first, the weight overrides MultiPoint's",
			body: "profiles:\n- plugins:\n    score:\n      enabled: [{name: InterPodAffinity, weight: 5}, {name: PodTopologySpread, weight: 1}]\n      disabled: [{name: ImageLocality}]\n",
			want: with(map[string]string{
				"score": "InterPodAffinity:5 PodTopologySpread:1 TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 NodeResourcesBalancedAllocation:1",
			})},
		{name: "weight 0 (unset) at score means 1, not the default weight",
			body: "profiles:\n- plugins:\n    score:\n      enabled: [{name: TaintToleration}]\n",
			want: with(map[string]string{
				"score": "TaintToleration:1 NodeAffinity:2 NodeResourcesFit:1 PodTopologySpread:2 InterPodAffinity:2 NodeResourcesBalancedAllocation:1 ImageLocality:1",
			})},
		{name: "star at filter, then plugins re-enabled in their own order",
			body: "profiles:\n- plugins:\n    filter:\n      disabled: [{name: \"*\"}]\n      enabled: [{name: NodeResourcesFit}, {name: TaintToleration}]\n",
			want: with(map[string]string{"filter": "NodeResourcesFit TaintToleration"})},
		{name: "re-enabled at filter without disabling: overrides come first",
			body: "profiles:\n- plugins:\n    filter:\n      enabled: [{name: NodePorts}]\n",
			want: with(map[string]string{"filter": "NodePorts NodeUnschedulable NodeName TaintToleration NodeAffinity NodeResourcesFit PodTopologySpread InterPodAffinity NodeDeclaredFeatures"})},
		{name: "MultiPoint weight and MultiPoint disabled",
			body: "profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: ImageLocality, weight: 5}]\n      disabled: [{name: PodTopologySpread}]\n",
			want: with(map[string]string{
				"preFilter": "NodeAffinity NodePorts NodeResourcesFit InterPodAffinity NodeDeclaredFeatures",
				"filter":    "NodeUnschedulable NodeName TaintToleration NodeAffinity NodePorts NodeResourcesFit InterPodAffinity NodeDeclaredFeatures",
				"preScore":  "TaintToleration NodeAffinity NodeResourcesFit InterPodAffinity NodeResourcesBalancedAllocation",
				"score":     "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 InterPodAffinity:2 NodeResourcesBalancedAllocation:1 ImageLocality:5",
			})},
		{name: "no preemption, no scheduling gates",
			body: "profiles:\n- plugins:\n    postFilter:\n      disabled: [{name: DefaultPreemption}]\n    preEnqueue:\n      disabled: [{name: SchedulingGates}]\n",
			want: with(map[string]string{"postFilter": "", "preEnqueue": "DefaultPreemption"})},
		{name: "volume plugins are accepted and left out",
			body: "profiles:\n- plugins:\n    filter:\n      enabled: [{name: VolumeZone}]\n",
			want: defaultPoints},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := schedconfig.Read([]byte(header + tc.body))
			require.NoError(t, err)
			assert.Equal(t, tc.want, points(p))
			assert.Equal(t, "default-scheduler", p.SchedulerName)
		})
	}
}

// TestReadOptions: plugin args become placement options, defaulted field
// by field.
func TestReadOptions(t *testing.T) {
	one, zero := int32(1), int32(0)
	p, err := schedconfig.Read([]byte(header))
	require.NoError(t, err)
	o := p.Options
	assert.Equal(t, placement.ScoringStrategy{Type: placement.LeastAllocated,
		Resources: []placement.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}}, o.ScoringStrategy)
	assert.Equal(t, []placement.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}, o.BalancedResources)
	assert.Equal(t, &one, o.HardPodAffinityWeight)
	assert.Nil(t, o.DefaultSpreadConstraints)
	assert.True(t, o.Preempts())

	p, err = schedconfig.Read([]byte(header + `profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      ignoredResources: [example.com/foo]
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 0
      ignorePreferredTermsOfExistingPods: true
  - name: PodTopologySpread
    args:
      defaultingType: List
  - name: NodeResourcesBalancedAllocation
    args:
      resources: [{name: cpu}, {name: example.com/gpu, weight: 1}]
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}]
`))
	require.NoError(t, err)
	o = p.Options
	assert.Equal(t, placement.LeastAllocated, o.ScoringStrategy.Type, "partial args keep the default strategy")
	assert.Len(t, o.ScoringStrategy.Resources, 2)
	assert.Equal(t, []string{"example.com/foo"}, o.IgnoredResources)
	assert.Equal(t, &zero, o.HardPodAffinityWeight)
	assert.True(t, o.IgnorePreferredTermsOfExistingPods)
	assert.NotNil(t, o.DefaultSpreadConstraints, "List without constraints: no default constraints at all")
	assert.Empty(t, o.DefaultSpreadConstraints)
	assert.Equal(t, []placement.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "example.com/gpu", Weight: 1}}, o.BalancedResources)
	require.NotNil(t, o.AddedAffinity)
	assert.Equal(t, corev1.NodeSelectorOpExists, o.AddedAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Operator)

	p, err = schedconfig.Read([]byte(`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",
"profiles":[{"schedulerName":"bin-packer","pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":{"type":"RequestedToCapacityRatio",
"resources":[{"name":"cpu","weight":3}],"requestedToCapacityRatio":{"shape":[{"utilization":0,"score":0},{"utilization":100,"score":10}]}}}}]}]}`))
	require.NoError(t, err, "JSON is read too")
	assert.Equal(t, "bin-packer", p.SchedulerName)
	assert.Equal(t, placement.ScoringStrategy{Type: placement.RequestedToCapacityRatio,
		Resources: []placement.ResourceSpec{{Name: "cpu", Weight: 3}},
		Shape:     []placement.UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}, p.Options.ScoringStrategy)
	assert.True(t, p.Handles(&corev1.Pod{Spec: corev1.PodSpec{SchedulerName: "bin-packer"}}))
	assert.False(t, p.Handles(&corev1.Pod{}), "an empty schedulerName is default-scheduler")
}

// TestReadErrors: every refusal, with upstream's wording and field paths.
func TestReadErrors(t *testing.T) {
	tests := []struct {
		name string
		body string // after the header, unless it starts with "!"
		is   error
		want string
	}{
		// Decoding.
		{name: "unknown top-level field", body: "foo: 1\n", is: schedconfig.ErrDecode, want: `strict decoding error: unknown field "foo"`},
		{name: "unknown field in a profile", body: "profiles:\n- schedulerName: a\n  plugin: {}\n", is: schedconfig.ErrDecode, want: `unknown field "profiles[0].plugin"`},
		{name: "unknown field in args", body: "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {bogus: 1}\n", is: schedconfig.ErrDecode,
			want: `decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin InterPodAffinity: strict decoding error: unknown field "bogus"`},
		{name: "duplicate field", body: "parallelism: 1\nparallelism: 2\n", is: schedconfig.ErrDecode, want: `"parallelism" already set in map`},
		{name: "missing apiVersion", body: "!kind: KubeSchedulerConfiguration\n", is: schedconfig.ErrDecode, want: "Object 'apiVersion' is missing"},
		{name: "args of another kind", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {apiVersion: kubescheduler.config.k8s.io/v1, kind: InterPodAffinityArgs}\n", is: schedconfig.ErrDecode,
			want: "decoding .profiles[0].pluginConfig[0]: args for plugin NodeResourcesFit were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io"},
		{name: "other kind", body: "!apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n", is: schedconfig.ErrDecode, want: "no kind \"Pod\" is registered"},
		// ValidateKubeSchedulerConfiguration.
		{name: "parallelism", body: "parallelism: 0\n", is: schedconfig.ErrInvalid, want: "parallelism: Invalid value: 0: should be an integer value greater than zero"},
		{name: "percentage out of range", body: "percentageOfNodesToScore: 101\n", is: schedconfig.ErrInvalid, want: "percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"},
		{name: "profile percentage out of range", body: "profiles:\n- percentageOfNodesToScore: -1\n", is: schedconfig.ErrInvalid, want: "profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"},
		{name: "empty scheduler name", body: "profiles:\n- schedulerName: \"\"\n", is: schedconfig.ErrInvalid, want: "profiles[0].schedulerName: Required value"},
		{name: "duplicate scheduler names", body: "profiles:\n- schedulerName: a\n- schedulerName: a\n", is: schedconfig.ErrInvalid, want: `profiles[1].schedulerName: Duplicate value: {}`},
		{name: "initial backoff", body: "podInitialBackoffSeconds: 0\n", is: schedconfig.ErrInvalid, want: "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"},
		{name: "max backoff", body: "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n", is: schedconfig.ErrInvalid, want: "podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds"},
		{name: "resource lock", body: "leaderElection:\n  resourceLock: endpoints\n", is: schedconfig.ErrInvalid, want: `leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"`},
		{name: "lease shorter than renew deadline", body: "leaderElection:\n  leaseDuration: 5s\n", is: schedconfig.ErrInvalid, want: "leaderElection.leaseDuration: Invalid value: \"10s\": must be greater than `RenewDeadline`"},
		{name: "negative burst", body: "clientConnection:\n  burst: -1\n", is: schedconfig.ErrInvalid, want: "clientConnection.burst: Invalid value: -1: must be non-negative"},
		{name: "two queue sort plugins", body: "profiles:\n- plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}, {name: Other}]\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled"},
		{name: "removed plugin", body: "profiles:\n- plugins:\n    filter:\n      enabled: [{name: EBSLimits}]\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")`},
		{name: "duplicate plugin config", body: "profiles:\n- pluginConfig:\n  - name: ImageLocality\n  - name: ImageLocality\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[1]: Duplicate value: "ImageLocality"`},
		{name: "extender weight", body: "extenders:\n- urlPrefix: http://x\n  prioritizeVerb: p\n", is: schedconfig.ErrInvalid, want: "extenders[0].weight: Invalid value: 0: must have a positive weight applied to it"},
		// Plugin args (validation_pluginargs.go).
		{name: "hardPodAffinityWeight", body: "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 200}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 200: not in valid range [0, 100]"},
		{name: "preemption percentage", body: "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args: {minCandidateNodesPercentage: 101}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
		{name: "preemption both zero", body: "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args: {minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute, profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage"},
		{name: "preemption absolute", body: "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args: {minCandidateNodesAbsolute: -1}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"},
		{name: "balanced weight", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args: {resources: [{name: cpu, weight: 2}]}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: must be 1"},
		{name: "balanced duplicate", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args: {resources: [{name: cpu}, {name: cpu}]}\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: "cpu"`},
		{name: "spread defaulting type", body: "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args: {defaultingType: Other}\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.defaultingType: Unsupported value: "Other": supported values: "System", "List"`},
		{name: "spread System with constraints", body: "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args: {defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty`},
		{name: "spread constraint fields", body: "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints: [{maxSkew: 0, topologyKey: \"\", whenUnsatisfiable: Maybe, labelSelector: {}}]\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf), profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Required value: can not be empty, profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway", profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`},
		{name: "spread duplicate constraint", body: "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.defaultConstraints[1]: Duplicate value: "{zone, DoNotSchedule}"`},
		{name: "spread topology key", body: "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints: [{maxSkew: 1, topologyKey: \"a b\", whenUnsatisfiable: DoNotSchedule}]\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Invalid value: "a b": name part must consist of alphanumeric characters`},
		{name: "added affinity", body: "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms: [{matchExpressions: [{key: a, operator: In}]}]\n", is: schedconfig.ErrInvalid,
			want: `profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{name: "volume binding timeout", body: "profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args: {bindTimeoutSeconds: -1}\n", is: schedconfig.ErrInvalid,
			want: "profiles[0].pluginConfig[0].args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value"},
		// NodeResourcesFit: validated when the plugin is built, without a path prefix.
		{name: "fit strategy type", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Foo}}\n", is: schedconfig.ErrInvalid,
			want: `initializing plugin "NodeResourcesFit": scoringStrategy.type: Unsupported value: "Foo": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`},
		{name: "fit resource weight", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 101}]}}\n", is: schedconfig.ErrInvalid,
			want: `initializing plugin "NodeResourcesFit": scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]`},
		{name: "fit shape required", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: RequestedToCapacityRatio}}\n", is: schedconfig.ErrInvalid,
			want: `scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio`},
		{name: "fit shape", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 50, score: 11}, {utilization: 10, score: 0}]}}}\n", is: schedconfig.ErrInvalid,
			want: `scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted in increasing order, scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]`},
		{name: "fit shape forbidden", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated, requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}]}}}\n", is: schedconfig.ErrInvalid,
			want: `scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio`},
		{name: "fit ignored group", body: "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {ignoredResourceGroups: [example.com/x]}\n", is: schedconfig.ErrInvalid,
			want: `ignoredResourceGroups[0]: Invalid value: "example.com/x": resource group name can't contain '/'`},
		{name: "fit args not checked when the plugin is not built",
			body: "profiles:\n- plugins:\n    multiPoint:\n      disabled: [{name: NodeResourcesFit}]\n  pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Foo}}\n"},
		// The framework.
		{name: "no bind plugin", body: "profiles:\n- plugins:\n    bind:\n      disabled: [{name: DefaultBinder}]\n", is: schedconfig.ErrInvalid,
			want: `at least one bind plugin is needed for profile with scheduler name "default-scheduler"`},
		{name: "no queue sort plugin", body: "profiles:\n- plugins:\n    queueSort:\n      disabled: [{name: \"*\"}]\n", is: schedconfig.ErrInvalid,
			want: `only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 0`},
		{name: "plugin at a point it does not extend", body: "profiles:\n- plugins:\n    score:\n      enabled: [{name: NodePorts}]\n", is: schedconfig.ErrInvalid,
			want: `plugin "NodePorts" does not extend ScorePlugin plugin`},
		{name: "plugin twice at a point", body: "profiles:\n- plugins:\n    filter:\n      enabled: [{name: NodePorts}, {name: NodePorts}]\n", is: schedconfig.ErrInvalid,
			want: `plugin "NodePorts" already registered as "FilterPlugin"`},
		{name: "weights overflow", body: "profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: TaintToleration, weight: -1}]\n", is: schedconfig.ErrInvalid,
			want: "score plugins: total score of Score plugins could overflow"},
		// What schedkit does not model.
		{name: "percentage 50", body: "percentageOfNodesToScore: 50\n", is: schedconfig.ErrUnsupported,
			want: "percentageOfNodesToScore: 50 is not supported: schedkit evaluates every node, so only unset, 0 and 100 are accepted"},
		{name: "profile percentage 30", body: "profiles:\n- percentageOfNodesToScore: 30\n", is: schedconfig.ErrUnsupported, want: "profiles[0].percentageOfNodesToScore: 30 is not supported"},
		{name: "two profiles", body: "profiles:\n- schedulerName: a\n- schedulerName: b\n", is: schedconfig.ErrUnsupported, want: "2 profiles given, schedkit runs exactly one"},
		{name: "extenders", body: "extenders:\n- urlPrefix: http://x\n", is: schedconfig.ErrUnsupported, want: "extenders: scheduler extenders are not supported"},
		{name: "out-of-tree plugin", body: "profiles:\n- plugins:\n    filter:\n      enabled: [{name: MyPlugin}]\n", is: schedconfig.ErrUnsupported, want: `plugins ["MyPlugin"]`},
		{name: "a filter without its PreFilter is accepted (its Filter fails with an Error)", body: "profiles:\n- plugins:\n    preFilter:\n      disabled: [{name: NodePorts}]\n"},
		{name: "scoring without PreScore is accepted (the scoring phase fails)", body: "profiles:\n- plugins:\n    preScore:\n      disabled: [{name: \"*\"}]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := header + tc.body
			if strings.HasPrefix(tc.body, "!") {
				body = tc.body[1:]
			}
			_, err := schedconfig.Read([]byte(body))
			if tc.is == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.is), "errors.Is(%v, %v)", err, tc.is)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestValidationErrorList: validation errors come as one field.ErrorList
// with every problem.
func TestValidationErrorList(t *testing.T) {
	_, err := schedconfig.Read([]byte(header + "parallelism: -1\npercentageOfNodesToScore: 200\n"))
	var ve *schedconfig.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Errors, 2)
	assert.Equal(t, "parallelism", ve.Errors[0].Field)
	assert.Equal(t, "percentageOfNodesToScore", ve.Errors[1].Field)
}
