package placement

// Version profiles: which kube-scheduler release the pipeline reproduces.
//
// Every rule below was found by diffing pkg/scheduler (plugins, framework,
// apis/config defaults, preemption), pkg/features/kube_features.go and
// k8s.io/component-helpers/resource of v1.34.4 and v1.35.4 against v1.36.3,
// and confirmed on the conformance cases answered by each release.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Version is a Kubernetes minor release whose default scheduler profile
// schedkit reproduces. The zero value is V1_36, the newest; V1_35 and V1_34
// select the older rules listed below. Patch releases of one minor share its
// profile (the answers were taken from v1.36.3, v1.35.4 and v1.34.4).
//
// What differs, for the modelled profile (the default profile without the
// volume and DRA plugins), relative to v1.36:
//
// v1.35 (default gates of v1.35.4):
//   - NodeResourcesBalancedAllocation scores the balance of the node with the
//     pod: (1 - std of the cpu/memory request fractions) * 100. v1.36 scores
//     the improvement instead, 50 + (50 + withPod - withoutPod) / 2
//     (kubernetes/kubernetes#135573, noderesources/balanced_allocation.go
//     balancedResourceScorer).
//   - ImageLocality counts the images of init and regular containers only;
//     v1.36 also counts image volumes (spec.volumes[].image.reference,
//     kubernetes/kubernetes#130231, imagelocality sumImageScores).
//   - NodeDeclaredFeatures is not in the default profile: its gate is alpha and
//     off, so no PreFilter/Filter runs and a pod that needs a declared node
//     feature (e.g. a RestartAllContainers restart-rule action) passes every
//     node; the Filter lists have eight entries. (Were the gate turned on, its
//     reason would be "node declared features check failed - unsatisfied
//     requirements: A, B" instead of v1.36's fixed text; schedkit does not
//     offer turning it on.)
//   - InPlacePodLevelResourcesVerticalScaling is off: a bound pod's pod-level
//     requests (spec.resources) count as written, whereas v1.36 counts the
//     larger of spec, status.resources and status.allocatedResources (only
//     actuated and allocated when the resize is Infeasible), as
//     resourcehelper.PodRequests with InPlacePodLevelResourcesVerticalScalingEnabled.
//     NodeResourcesBalancedAllocation likewise ignores the incoming pod's
//     pod-level resize status (its scorer passes the gate; NodeResourcesFit's
//     never does). Bound pods' requests are indexed when the snapshot is
//     built, so for them the rule is the snapshot's: build it with
//     SnapshotInput.WithoutPodLevelResize = !v.UsesPodLevelResizeStatus()
//     (simulate does; Compile refuses a snapshot built otherwise,
//     ErrVersionMismatch).
//   - DRAExtendedResource is off. Without DeviceClasses (schedkit models none)
//     NodeResourcesFit decides the same either way, so this changes nothing
//     here.
//
// v1.34 (default gates of v1.34.4): every v1.35 rule above, and in addition
// the gates NodeDeclaredFeatures, InPlacePodLevelResourcesVerticalScaling,
// OpportunisticBatching, TaintTolerationComparisonOperators, GangScheduling
// and GenericWorkload do not exist yet. None of those changes a decision of
// the modelled profile beyond v1.35's list: Lt/Gt tolerations never match
// (as with the v1.35/v1.36 gate off) and opportunistic batching is inert under
// the system default spreading constraints. So v1.34 and v1.35 answer alike.
//
// Unchanged in all three: every filter verdict and reason text of
// NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
// NodeResourcesFit, PodTopologySpread and InterPodAffinity; the scores of
// TaintToleration, NodeAffinity, NodeResourcesFit (LeastAllocated),
// PodTopologySpread and InterPodAffinity; the plugin weights and args
// defaults; the FitError texts; and DefaultPreemption. v1.36 rewrote
// SelectVictimsOnNode to collect the lower-priority pods before removing them
// and clears the slot NodeInfo.RemovePod vacates; v1.34/v1.35 remove while
// iterating, but since their removal never writes beyond the visited index
// every pod is still visited once, in the same order, so the victims, the PDB
// split and the candidate order are the same.
//
// Compile and Evaluate reject a Version that is not one of the constants
// with an error wrapping ErrUnsupportedVersion.
type Version uint8

const (
	// V1_36 is Kubernetes v1.36 with its default feature gates (the zero value).
	V1_36 Version = iota
	// V1_35 is Kubernetes v1.35 with its default feature gates.
	V1_35
	// V1_34 is Kubernetes v1.34 with its default feature gates.
	V1_34
)

// ErrUnsupportedVersion is wrapped by ParseVersion for any version schedkit has
// no profile for.
var ErrUnsupportedVersion = errors.New("placement: unsupported Kubernetes version")

// ErrVersionMismatch is returned (wrapped) by Version.CheckSnapshot, and so
// by Compile and Prepared.Compile, when Options.Version counts bound pods'
// pod-level requests by another rule than the snapshot was built with: no
// release's scheduler would answer as that mix does.
var ErrVersionMismatch = errors.New("placement: snapshot built for another Kubernetes version")

// CheckSnapshot reports (ErrVersionMismatch) whether snap was built for v:
// bound pods' requests are indexed when the snapshot is built, by the rule
// of SnapshotInput.WithoutPodLevelResize, which must be
// !v.UsesPodLevelResizeStatus(). A nil snapshot is not checked.
func (v Version) CheckSnapshot(snap *Snapshot) error {
	return v.checkSnapshot(internalOf(snap))
}

func (v Version) checkSnapshot(snap *cluster.Snapshot) error {
	if snap != nil && cluster.InputOf(snap).WithoutPodLevelResize != !v.UsesPodLevelResizeStatus() {
		return fmt.Errorf("%w: Options.Version %s needs SnapshotInput.WithoutPodLevelResize = %t", ErrVersionMismatch, v, !v.UsesPodLevelResizeStatus())
	}
	return nil
}

// Versions returns the supported versions, newest first.
func Versions() []Version { return []Version{V1_36, V1_35, V1_34} }

// ParseVersion reads "1.36", "v1.35", "1.34" (an optional leading "v" and an
// optional patch number, "v1.35.4") and returns its Version. Any other input
// gives an error wrapping ErrUnsupportedVersion that names the supported
// versions.
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return V1_36, unsupported(s)
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		// Digits only: strconv.Atoi would accept "+1" or "-0".
		if p == "" || strings.TrimLeft(p, "0123456789") != "" || len(p) > 4 {
			return V1_36, unsupported(s)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return V1_36, unsupported(s)
		}
		nums[i] = n
	}
	if nums[0] != 1 {
		return V1_36, unsupported(s)
	}
	for _, v := range Versions() {
		if v.Minor() == nums[1] {
			return v, nil
		}
	}
	return V1_36, unsupported(s)
}

func unsupported(s string) error {
	return fmt.Errorf("%w %q: supported versions are 1.36, 1.35 and 1.34", ErrUnsupportedVersion, s)
}

// Minor returns the minor version number (36 for V1_36), or -1 for a value
// that is not one of the constants.
func (v Version) Minor() int {
	switch v {
	case V1_36:
		return 36
	case V1_35:
		return 35
	case V1_34:
		return 34
	}
	return -1
}

// Valid reports whether v is one of the supported versions.
func (v Version) Valid() bool { return v.Minor() > 0 }

// String returns "v1.36", "v1.35" or "v1.34" ("v?" for an invalid value).
func (v Version) String() string {
	if !v.Valid() {
		return "v?"
	}
	return "v1." + strconv.Itoa(v.Minor())
}

// MarshalText implements encoding.TextMarshaler ("v1.35").
func (v Version) MarshalText() ([]byte, error) {
	if !v.Valid() {
		return nil, fmt.Errorf("%w: value %d", ErrUnsupportedVersion, uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseVersion, so a
// Version can be a flag (flag.TextVar) or a JSON/YAML field.
func (v *Version) UnmarshalText(b []byte) error {
	p, err := ParseVersion(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Gates are the default values, at one version, of the feature gates the
// modelled scheduler profile reads (pkg/features/kube_features.go). A gate
// that does not exist yet at that version is false. Fields whose value is the
// same in every supported version are listed too, so that the profile can be
// compared as a whole with what upstream reports.
type Gates struct {
	DRAExtendedResource                            bool
	DynamicResourceAllocation                      bool
	GangScheduling                                 bool
	GenericWorkload                                bool
	InPlacePodLevelResourcesVerticalScaling        bool
	InPlacePodVerticalScaling                      bool
	MatchLabelKeysInPodAffinity                    bool
	MatchLabelKeysInPodTopologySpread              bool
	MatchLabelKeysInPodTopologySpreadSelectorMerge bool
	NodeDeclaredFeatures                           bool
	NodeInclusionPolicyInPodTopologySpread         bool
	OpportunisticBatching                          bool
	PodLevelResources                              bool
	SchedulerAsyncPreemption                       bool
	SchedulerQueueingHints                         bool
	SidecarContainers                              bool
	TaintTolerationComparisonOperators             bool
	TopologyAwareWorkloadScheduling                bool
	WorkloadAwarePreemption                        bool
}

// WeightedPlugin is a Score plugin of a profile with its weight.
type WeightedPlugin struct {
	Name   string
	Weight int64
}

// Profile is the default kube-scheduler profile of one version, restricted to
// the plugins schedkit models, with the version-specific scoring rules as
// named switches.
type Profile struct {
	Version Version
	Gates   Gates
	// PreFilterPlugins, FilterPlugins and ScorePlugins are in the order the
	// framework runs them.
	PreFilterPlugins []string
	FilterPlugins    []string
	ScorePlugins     []WeightedPlugin
	// BalancedAllocationScoresImprovement: NodeResourcesBalancedAllocation
	// scores how much the pod improves the node's balance (v1.36) rather than
	// the balance with the pod (before).
	BalancedAllocationScoresImprovement bool
	// ImageLocalityCountsImageVolumes: ImageLocality also counts the images of
	// image volumes (v1.36).
	ImageLocalityCountsImageVolumes bool
}

// Profile returns v's profile, freshly allocated (the caller may modify it).
// An invalid v gives the v1.36 profile.
func (v Version) Profile() Profile {
	if !v.Valid() {
		v = V1_36
	}
	g := Gates{
		DynamicResourceAllocation:                      true,
		InPlacePodVerticalScaling:                      true,
		MatchLabelKeysInPodAffinity:                    true,
		MatchLabelKeysInPodTopologySpread:              true,
		MatchLabelKeysInPodTopologySpreadSelectorMerge: true,
		NodeInclusionPolicyInPodTopologySpread:         true,
		PodLevelResources:                              true,
		SchedulerAsyncPreemption:                       true,
		SchedulerQueueingHints:                         true,
		SidecarContainers:                              true,
	}
	switch v {
	case V1_36:
		g.DRAExtendedResource = true                     // beta since 1.36
		g.InPlacePodLevelResourcesVerticalScaling = true // beta since 1.36
		g.NodeDeclaredFeatures = true                    // beta since 1.36
		g.OpportunisticBatching = true                   // beta since 1.35
	case V1_35:
		g.OpportunisticBatching = true
	}
	p := Profile{
		Version: v,
		Gates:   g,
		PreFilterPlugins: []string{sched.NodeAffinity, sched.NodePorts, sched.NodeResourcesFit,
			sched.PodTopologySpread, sched.InterPodAffinity},
		FilterPlugins: []string{sched.NodeUnschedulable, sched.NodeName, sched.TaintToleration,
			sched.NodeAffinity, sched.NodePorts, sched.NodeResourcesFit, sched.PodTopologySpread,
			sched.InterPodAffinity},
		ScorePlugins: []WeightedPlugin{
			{sched.TaintToleration, 3}, {sched.NodeAffinity, 2}, {sched.NodeResourcesFit, 1},
			{sched.PodTopologySpread, 2}, {sched.InterPodAffinity, 2},
			{sched.NodeResourcesBalancedAllocation, 1}, {sched.ImageLocality, 1},
		},
		BalancedAllocationScoresImprovement: v == V1_36,
		ImageLocalityCountsImageVolumes:     v == V1_36,
	}
	// apis/config/v1/default_plugins.go applyFeatureGates appends the plugin
	// after the others when its gate is on.
	if g.NodeDeclaredFeatures {
		p.PreFilterPlugins = append(p.PreFilterPlugins, sched.NodeDeclaredFeatures)
		p.FilterPlugins = append(p.FilterPlugins, sched.NodeDeclaredFeatures)
	}
	return p
}

// RunsNodeDeclaredFeatures reports whether the NodeDeclaredFeatures plugin is
// part of v's default profile (v1.36 only).
func (v Version) RunsNodeDeclaredFeatures() bool { return v == V1_36 || !v.Valid() }

// CountsImageVolumes reports whether ImageLocality counts image volumes at v
// (v1.36 only).
func (v Version) CountsImageVolumes() bool { return v == V1_36 || !v.Valid() }

// ScoresBalanceImprovement reports whether NodeResourcesBalancedAllocation
// scores the balance improvement at v (v1.36 only).
func (v Version) ScoresBalanceImprovement() bool { return v == V1_36 || !v.Valid() }

// UsesPodLevelResizeStatus reports whether a bound pod's pod-level requests
// take status.resources and status.allocatedResources into account at v
// (InPlacePodLevelResourcesVerticalScaling, on from v1.36).
func (v Version) UsesPodLevelResizeStatus() bool { return v == V1_36 || !v.Valid() }
