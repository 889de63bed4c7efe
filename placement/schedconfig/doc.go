// Package schedconfig reads a kube-scheduler configuration file
// (kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration, YAML or JSON)
// into the placement.Options every schedkit entry point takes, exactly as
// kube-scheduler v1.36.3's --config would run it.
//
// # Usage
//
//	prof, err := schedconfig.Read(data) // the file's bytes
//	if err != nil {
//		return err // ErrDecode, ErrInvalid (a *ValidationError with field paths) or ErrUnsupported
//	}
//	opts := prof.Options
//	opts.Version = placement.V1_35 // optional: another release's rules with this profile
//	res, err := placement.Evaluate(snap, pod, opts)
//	// prof.Handles(pod) says whether this profile would schedule the pod at all.
//
// Programs that build their profile in Go fill placement.Options directly
// (ScoreWeights, ScoringStrategy, Plugins, ...); Read is one way to get one.
//
// # Rules followed (v1.36.3)
//
//   - Decoding is strict, as kube-scheduler's codec: apiVersion and kind are
//     required, unknown and duplicate fields are errors, also inside a
//     plugin's args (cmd/kube-scheduler/app/options/configfile.go,
//     config/v1 DecodeNestedObjects); the messages are apimachinery's.
//   - Defaulting is pkg/scheduler/apis/config/v1/defaults.go: one profile
//     named default-scheduler when none is given; each extension point's
//     enabled and disabled lists merged with the default plugin set
//     (default_plugins.go mergePluginSet, MergePluginSet here: a disabled
//     plugin is removed, "*" removes them all, a re-enabled default plugin
//     replaces it in place with its own weight, others are appended); the
//     default args of every enabled plugin without a pluginConfig entry and,
//     field by field, of those with one (NodeResourcesFit ignoredResources
//     alone keeps LeastAllocated over cpu and memory).
//   - Validation is apis/config/validation ValidateKubeSchedulerConfiguration
//     and validation_pluginargs.go, with upstream's field paths and wording,
//     every error at once (ValidationError.Errors). As upstream, it never
//     validates NodeResourcesFit's args (its table keys them as
//     "NodeResourcesFitArgs"): the plugin's constructor does, without a path
//     prefix, when the plugin is instantiated ("initializing plugin
//     "NodeResourcesFit": scoringStrategy.type: Unsupported value: ...").
//   - The framework (pkg/scheduler/framework/runtime NewFramework): each
//     extension point's own list, then MultiPoint expansion, in upstream's
//     order (plugins re-enabled at the extension point first, then
//     MultiPoint's, then the extension point's other plugins); score
//     weights from the score list first, then MultiPoint's, 0 meaning 1;
//     one queue sort plugin, a bind plugin, no plugin twice, no overflowing
//     total weight.
//   - A plugin disabled at some extension points only keeps the others:
//     disabled at filter and score, its PreScore still runs (no effect on
//     decisions); disabled at preFilter only, NodeAffinity's Filter computes
//     its selector itself while the other plugins' Filter fails with an
//     Error on every node it reaches; disabled at preScore only,
//     TaintToleration, PodTopologySpread and InterPodAffinity fail the
//     scoring phase (placement.Plugins, placement.ScorePluginError).
//
// # Deliberate differences
//
// Refused with ErrUnsupported: several profiles, extenders,
// percentageOfNodesToScore other than unset, 0 or 100 (schedkit evaluates
// every node; 0 is upstream's adaptive default, which also evaluates every
// node of the clusters schedkit is meant for, and 100 always does), plugins
// outside the v1.36 default set (out-of-tree or gated ones). The volume and DRA plugins (VolumeRestrictions, NodeVolumeLimits,
// VolumeBinding, VolumeZone, DynamicResources) are accepted and left out of
// Profile.Points, as schedkit has no volumes or claims. DefaultPreemption's
// args are validated but not applied: preemption.Options.Sampling is where
// candidate sampling is asked for. Errors carry upstream's message after
// this package's prefix; kube-scheduler's own start-up wrapping is not
// reproduced.
//
// # Determinism and concurrency
//
// Read is a pure function of its input: no I/O, no globals written; it may
// be called from any number of goroutines. The returned Profile is the
// caller's.
package schedconfig
