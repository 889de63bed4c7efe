package topology

// CONTRACT between the topology work and the placement pipeline. The topology
// helper owns this file and may change bodies freely; keep the signatures
// (or update placement's calls in the same commit).

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// SpreadOptions configures PodTopologySpread as its plugin args do.
// The zero value is the default profile: system defaulting.
type SpreadOptions struct {
	// DefaultConstraints, when non-nil, replaces the system default
	// constraints (List defaulting with these constraints).
	DefaultConstraints []corev1.TopologySpreadConstraint
}

// Spread is PodTopologySpread compiled for one pod against one snapshot
// (its PreFilter and PreScore state). Methods are safe for concurrent use.
type Spread struct{}

// NewSpread compiles the pod's spread constraints against the snapshot.
// An error means invalid input (the framework's Error status).
func NewSpread(pod *cluster.PodInfo, snap *cluster.Snapshot, opts SpreadOptions) (*Spread, error) {
	return &Spread{}, nil
}

// FilterSkipped reports whether PreFilter returned Skip (no DoNotSchedule constraint).
func (s *Spread) FilterSkipped() bool { return true }

// Filter is the plugin's Filter on one node.
func (s *Spread) Filter(n *cluster.NodeInfo) sched.Status { return sched.Status{} }

// Score computes PreScore, Score and NormalizeScore over the feasible nodes:
// normalized[i] is the score of feasible[i]. skipped reports PreScore's Skip
// (then every score is 0).
func (s *Spread) Score(feasible []*cluster.NodeInfo) (raw, normalized []int64, skipped bool) {
	return make([]int64, len(feasible)), make([]int64, len(feasible)), true
}

// AffinityOptions configures InterPodAffinity as its plugin args do.
type AffinityOptions struct {
	// HardPodAffinityWeight is the weight of existing pods' required affinity
	// terms in the score; 0 means the default 1.
	HardPodAffinityWeight int32
	// IgnorePreferredTermsOfExistingPods is the plugin arg of that name.
	IgnorePreferredTermsOfExistingPods bool
}

// InterPodAffinity is the InterPodAffinity plugin compiled for one pod
// against one snapshot.
type InterPodAffinity struct{}

// NewInterPodAffinity compiles the pod's affinity terms and the existing
// pods' terms against the snapshot.
func NewInterPodAffinity(pod *cluster.PodInfo, snap *cluster.Snapshot, opts AffinityOptions) (*InterPodAffinity, error) {
	return &InterPodAffinity{}, nil
}

// FilterSkipped reports whether PreFilter returned Skip.
func (a *InterPodAffinity) FilterSkipped() bool { return true }

// Filter is the plugin's Filter on one node.
func (a *InterPodAffinity) Filter(n *cluster.NodeInfo) sched.Status { return sched.Status{} }

// Score is PreScore, Score and NormalizeScore over the feasible nodes.
func (a *InterPodAffinity) Score(feasible []*cluster.NodeInfo) (raw, normalized []int64, skipped bool) {
	return make([]int64, len(feasible)), make([]int64, len(feasible)), true
}
