package topology

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/nodeaffinity"
	"github.com/schedkit/schedkit/internal/topo"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
)

// The reasons the plugins' Filter gives, as upstream words them.
const (
	ReasonSpreadConstraintsNotMatch         = "node(s) didn't match pod topology spread constraints"
	ReasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	ReasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
	ReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// ErrInvalidConstraint is wrapped by NewSpread's (and Spread.On's) error for
// spread constraints the API server would refuse or whose selector does not
// parse; the *ValidationError in the same chain lists every problem.
var ErrInvalidConstraint = errors.New("topology: invalid spread constraint")

// ErrInvalidPod is wrapped by NewSpread's and NewInterPodAffinity's error
// for a pod they cannot compile (a nil pod, an affinity term whose selector
// does not parse); the *ValidationError in the same chain, when there is
// one, lists every problem.
var ErrInvalidPod = errors.New("topology: invalid pod")

// ValidationError carries every validation problem of one input with its
// API field path (spec.topologySpreadConstraints[1].maxSkew), for
// errors.As. Its text is the list's aggregate text.
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

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

// Spread is PodTopologySpread compiled for one pod against one snapshot:
// its PreFilter and PreScore state. It is immutable and safe for
// concurrent use.
type Spread struct{ s *topo.Spread }

// NewSpread compiles PodTopologySpread for pod (read as the API server
// stores it, placement.StoredPod) against snap. The error wraps
// ErrInvalidConstraint for constraints the API server would refuse, or
// ErrInvalidPod.
func NewSpread(pod *corev1.Pod, snap *placement.Snapshot, opts SpreadOptions) (*Spread, error) {
	pi, err := podInfo(pod, snap)
	if err != nil {
		return nil, err
	}
	s, err := topo.NewSpread(pi, snapshotOf(snap), topo.SpreadOptions(opts))
	if err != nil {
		return nil, publicError(err)
	}
	return &Spread{s}, nil
}

// Filter is the plugin's Filter on n, a node of the snapshot.
func (s *Spread) Filter(n *placement.NodeInfo) framework.Status {
	return s.s.Filter(nodeOf(n)).Clone()
}

// FilterSkipped reports whether PreFilter returned Skip (the pod has no
// DoNotSchedule constraint): Filter then passes every node.
func (s *Spread) FilterSkipped() bool { return s.s.FilterSkipped() }

// Score runs PreScore, Score and NormalizeScore over the feasible nodes:
// the raw and normalized scores in the order of feasible, and whether
// PreScore returned Skip (then both are nil).
func (s *Spread) Score(feasible []*placement.NodeInfo) (raw, normalized []int64, skipped bool) {
	return s.s.Score(wrap.Slice[cluster.NodeInfo](feasible))
}

// On returns the state for view, a view of the snapshot s was compiled
// against (Snapshot.WithPod, WithoutPods, WithNode), recounting only the
// nodes the view changed, as upstream's AddPod/RemovePod extensions do.
func (s *Spread) On(view *placement.Snapshot) (*Spread, error) {
	v, err := s.s.On(snapshotOf(view))
	if err != nil {
		return nil, publicError(err)
	}
	return &Spread{v}, nil
}

// InterPodAffinity is InterPodAffinity compiled for one pod against one
// snapshot: its PreFilter and PreScore state. It is immutable and safe for
// concurrent use.
type InterPodAffinity struct{ a *topo.InterPodAffinity }

// NewInterPodAffinity compiles InterPodAffinity for pod (read as the API
// server stores it) against snap. The error wraps ErrInvalidPod.
func NewInterPodAffinity(pod *corev1.Pod, snap *placement.Snapshot, opts AffinityOptions) (*InterPodAffinity, error) {
	pi, err := podInfo(pod, snap)
	if err != nil {
		return nil, err
	}
	a, err := topo.NewInterPodAffinity(pi, snapshotOf(snap), topo.AffinityOptions(opts))
	if err != nil {
		return nil, publicError(err)
	}
	return &InterPodAffinity{a}, nil
}

// Filter is the plugin's Filter on n, a node of the snapshot.
func (a *InterPodAffinity) Filter(n *placement.NodeInfo) framework.Status {
	return a.a.Filter(nodeOf(n)).Clone()
}

// FilterSkipped reports whether PreFilter returned Skip (neither the pod
// nor any bound pod has required terms that concern it).
func (a *InterPodAffinity) FilterSkipped() bool { return a.a.FilterSkipped() }

// Score runs PreScore, Score and NormalizeScore over the feasible nodes
// (see Spread.Score).
func (a *InterPodAffinity) Score(feasible []*placement.NodeInfo) (raw, normalized []int64, skipped bool) {
	return a.a.Score(wrap.Slice[cluster.NodeInfo](feasible))
}

// On returns the state for view, a view of the snapshot a was compiled
// against (see Spread.On).
func (a *InterPodAffinity) On(view *placement.Snapshot) (*InterPodAffinity, error) {
	v, err := a.a.On(snapshotOf(view))
	if err != nil {
		return nil, publicError(err)
	}
	return &InterPodAffinity{v}, nil
}

// DefaultSelector returns the selector that PodTopologySpread's default
// constraints use for pod, as kube-scheduler's helper.DefaultSelector (v1.36)
// builds it from the Services, ReplicationControllers, ReplicaSets and
// StatefulSets of in: the union of the selectors of the pod's namespace's
// Services that select the pod, plus the selector of the controller its
// owner reference names. Upstream merges Services in informer order; here
// they are merged in input order, a later service winning for a key two set
// differently. A nil pod or in gives the empty selector.
func DefaultSelector(pod *corev1.Pod, in *placement.SnapshotInput) labels.Selector {
	if in == nil {
		return topo.DefaultSelector(pod, nil)
	}
	ci := cluster.Input{Services: in.Services, ReplicaSets: in.ReplicaSets, StatefulSets: in.StatefulSets,
		ReplicationControllers: in.ReplicationControllers}
	return topo.DefaultSelector(pod, &ci)
}

// ValidateSpreadConstraint checks one constraint as the API server's
// validation does (maxSkew and a set minDomains at least 1, a topologyKey,
// whenUnsatisfiable DoNotSchedule or ScheduleAnyway, valid policies and
// label selector), with paths under path.
func ValidateSpreadConstraint(c *corev1.TopologySpreadConstraint, path *field.Path) field.ErrorList {
	return topo.ValidateSpreadConstraint(c, path)
}

// ValidateSpreadConstraints checks a pod's constraints: each one, and no
// two with the same topologyKey and whenUnsatisfiable.
func ValidateSpreadConstraints(cs []corev1.TopologySpreadConstraint, path *field.Path) field.ErrorList {
	return topo.ValidateSpreadConstraints(cs, path)
}

func podInfo(pod *corev1.Pod, snap *placement.Snapshot) (*cluster.PodInfo, error) {
	if pod == nil || snap == nil {
		return nil, fmt.Errorf("%w: nil pod or snapshot", ErrInvalidPod)
	}
	pi, err := cluster.NewPodInfo(placement.StoredPod(pod))
	if err != nil {
		errs := nodeaffinity.AsFieldErrors(field.NewPath("spec"), err)
		return nil, fmt.Errorf("%w: pod %s/%s: %w", ErrInvalidPod, pod.Namespace, pod.Name, &ValidationError{Errors: errs})
	}
	return pi, nil
}

func snapshotOf(s *placement.Snapshot) *cluster.Snapshot { return wrap.Cast[cluster.Snapshot](s) }

func nodeOf(n *placement.NodeInfo) *cluster.NodeInfo { return wrap.Cast[cluster.NodeInfo](n) }

// publicError gives an error of the plugins this package's sentinel and
// ValidationError, keeping its text.
func publicError(err error) error {
	var ve *topo.ValidationError
	if errors.As(err, &ve) {
		cause := ErrInvalidPod
		if errors.Is(err, topo.ErrInvalidConstraint) {
			cause = ErrInvalidConstraint
		}
		return fmt.Errorf("%w: %w", cause, &ValidationError{Errors: ve.Errors})
	}
	if errors.Is(err, topo.ErrInvalidConstraint) {
		return fmt.Errorf("%w: %w", ErrInvalidConstraint, err)
	}
	return fmt.Errorf("%w: %w", ErrInvalidPod, err)
}
