package topo

// The plugins' options; the plugins themselves are in podtopologyspread.go
// and interpodaffinity.go.

import (
	corev1 "k8s.io/api/core/v1"
)

// SpreadOptions configures PodTopologySpread as its plugin args do.
// The zero value is the default profile: system defaulting.
type SpreadOptions struct {
	// DefaultConstraints, when non-nil, replaces the system default
	// constraints (List defaulting with these constraints).
	DefaultConstraints []corev1.TopologySpreadConstraint
}

// AffinityOptions configures InterPodAffinity as its plugin args do.
type AffinityOptions struct {
	// HardPodAffinityWeight is the weight of existing pods' required affinity
	// terms in the score (InterPodAffinityArgs, kube-scheduler's v1
	// configuration): nil means the default 1, and 0 leaves those terms out.
	HardPodAffinityWeight *int32
	// IgnorePreferredTermsOfExistingPods is the plugin arg of that name.
	IgnorePreferredTermsOfExistingPods bool
}
