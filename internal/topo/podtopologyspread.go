package topo

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/labelmatch"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/taints"
)

// Reason texts of PodTopologySpread's Filter (podtopologyspread/plugin.go, v1.36).
const (
	ReasonSpreadConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	ReasonSpreadMissingLabel        = ReasonSpreadConstraintsNotMatch + " (missing required label)"
)

var (
	reasonsSpreadNotMatch     = []string{ReasonSpreadConstraintsNotMatch}
	reasonsSpreadMissingLabel = []string{ReasonSpreadMissingLabel}
)

// systemDefaultConstraints are PodTopologySpread's built-in defaults
// (podtopologyspread/plugin.go systemDefaultConstraints, v1.36).
var systemDefaultConstraints = []corev1.TopologySpreadConstraint{
	{TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 5},
}

// constraint is one compiled topology spread constraint, as upstream's
// topologySpreadConstraint, plus its flattened selector.
type constraint struct {
	maxSkew       int32
	key           string
	sel           labels.Selector
	m             matcher
	minDomains    int32
	honorAffinity bool // nodeAffinityPolicy Honor (the default)
	honorTaints   bool // nodeTaintsPolicy Honor (default Ignore)
	selfMatch     int  // 1 when the incoming pod matches its own selector
	selID         int  // index of the distinct selector (shared counting)
}

// compileConstraints keeps the constraints with the given action, as
// filterTopologySpreadConstraints does: selector from labelSelector,
// matchLabelKeys merged as equality requirements on the pod's own values,
// minDomains defaulting to 1, and the node inclusion policies with their
// defaults (Honor for node affinity, Ignore for taints). path locates the
// constraints in errors; nil for default constraints.
func compileConstraints(in []corev1.TopologySpreadConstraint, pod *corev1.Pod, action corev1.UnsatisfiableConstraintAction, path *field.Path) ([]constraint, error) {
	var out []constraint
	var errs field.ErrorList
	if path == nil {
		path = field.NewPath("defaultConstraints")
	}
	for i := range in {
		c := &in[i]
		// Every constraint is checked, whatever its action, so that the
		// first call (DoNotSchedule) reports all of them at once.
		e := ValidateSpreadConstraint(c, path.Index(i))
		if d := repeatedConstraint(in, i, path); d != nil {
			e = append(e, d)
		}
		if e != nil {
			errs = append(errs, e...)
			continue
		}
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := labelmatch.AsSelector(c.LabelSelector)
		if err != nil {
			errs = append(errs, field.Invalid(path.Index(i).Child("labelSelector"), c.LabelSelector, err.Error()))
			continue
		}
		if len(c.MatchLabelKeys) > 0 {
			set := labels.Set{}
			for _, k := range c.MatchLabelKeys {
				if v, ok := pod.Labels[k]; ok {
					set[k] = v
				}
			}
			if len(set) > 0 {
				sel = mergeLabelSet(set, sel)
			}
		}
		tc := constraint{
			maxSkew:       c.MaxSkew,
			key:           c.TopologyKey,
			sel:           sel,
			m:             newMatcher(sel),
			minDomains:    1,
			honorAffinity: true,
		}
		if c.MinDomains != nil {
			tc.minDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			tc.honorAffinity = *c.NodeAffinityPolicy == corev1.NodeInclusionPolicyHonor
		}
		if c.NodeTaintsPolicy != nil {
			tc.honorTaints = *c.NodeTaintsPolicy == corev1.NodeInclusionPolicyHonor
		}
		if tc.m.matches(pod.Labels) {
			tc.selfMatch = 1
		}
		out = append(out, tc)
	}
	if len(errs) > 0 {
		return nil, &ValidationError{Errors: errs}
	}
	return out, nil
}

// ValidateSpreadConstraint returns what the API server's validation
// (ValidateTopologySpreadConstraints, pkg/apis/core/validation, v1.36)
// refuses in c and the scheduler would otherwise read without meaning, with
// the API server's texts under path: a maxSkew below 1 (a limit of 0 would
// reject every node with a matching pod), an empty topologyKey, an action
// other than DoNotSchedule or ScheduleAnyway (upstream's filter and score
// would both ignore the constraint), a set minDomains below 1. NewSpread
// refuses a pod whose constraints (or SpreadOptions.DefaultConstraints) have
// any of these. The label selector is checked when it is compiled; a
// repeated constraint by ValidateSpreadConstraints. A nil c is a Required
// error at path.
func ValidateSpreadConstraint(c *corev1.TopologySpreadConstraint, path *field.Path) field.ErrorList {
	if c == nil {
		return field.ErrorList{field.Required(path, "nil topology spread constraint")}
	}
	var errs field.ErrorList
	if c.MaxSkew <= 0 {
		errs = append(errs, field.Invalid(path.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
	}
	if c.TopologyKey == "" {
		errs = append(errs, field.Required(path.Child("topologyKey"), "can not be empty"))
	}
	if c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway {
		errs = append(errs, field.NotSupported(path.Child("whenUnsatisfiable"), c.WhenUnsatisfiable,
			[]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}))
	}
	if c.MinDomains != nil && *c.MinDomains <= 0 {
		errs = append(errs, field.Invalid(path.Child("minDomains"), *c.MinDomains, "must be greater than zero"))
	}
	return errs
}

// ValidateSpreadConstraints returns what the API server's validation
// (validateTopologySpreadConstraints, pkg/apis/core/validation, v1.36)
// refuses in a pod's constraints, in order: each constraint's problems
// (ValidateSpreadConstraint) followed by, for a constraint whose
// {topologyKey, whenUnsatisfiable} pair a later constraint repeats, upstream's
// ValidateSpreadConstraintNotRepeat error, a Duplicate at
// path[i].{topologyKey, whenUnsatisfiable}. NewSpread refuses a pod (or
// SpreadOptions.DefaultConstraints) with any of these. cs is not modified.
func ValidateSpreadConstraints(cs []corev1.TopologySpreadConstraint, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range cs {
		errs = append(errs, ValidateSpreadConstraint(&cs[i], path.Index(i))...)
		if d := repeatedConstraint(cs, i, path); d != nil {
			errs = append(errs, d)
		}
	}
	return errs
}

// repeatedConstraint is ValidateSpreadConstraintNotRepeat for cs[i] against
// the constraints after it: the tuple {topologyKey, whenUnsatisfiable}
// denotes one kind of spread constraint, which a pod may have once.
func repeatedConstraint(cs []corev1.TopologySpreadConstraint, i int, path *field.Path) *field.Error {
	c := &cs[i]
	for j := i + 1; j < len(cs); j++ {
		if cs[j].TopologyKey == c.TopologyKey && cs[j].WhenUnsatisfiable == c.WhenUnsatisfiable {
			return field.Duplicate(path.Index(i).Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable))
		}
	}
	return nil
}

// mergeLabelSet is upstream's mergeLabelSetWithSelector: equality
// requirements for the set, plus the selector's own requirements; a selector
// without requirements list (labels.Nothing) is returned unchanged.
func mergeLabelSet(set labels.Set, s labels.Selector) labels.Selector {
	reqs, ok := s.Requirements()
	if !ok {
		return s
	}
	merged := labels.SelectorFromSet(set)
	for _, r := range reqs {
		merged = merged.Add(r)
	}
	return merged
}

// ownConstraints compiles the pod's own constraints with one action
// (spreadConstraints for a pod that has some).
func ownConstraints(pod *corev1.Pod, action corev1.UnsatisfiableConstraintAction) ([]constraint, error) {
	cs, err := compileConstraints(pod.Spec.TopologySpreadConstraints, pod, action, field.NewPath("spec", "topologySpreadConstraints"))
	if err != nil {
		return nil, fmt.Errorf("%w: pod %s/%s: %w", ErrInvalidConstraint, pod.Namespace, pod.Name, err)
	}
	return cs, nil
}

// PodSpread is the part of NewSpread that reads the pod alone: its
// required node affinity (the inclusion policy's) and, when it has
// constraints of its own, those compiled for each action. A scheduling
// loop prepares it once per pending pod (PrepareSpread) instead of at every
// NewSpread of the pod. It is immutable and safe for concurrent use.
type PodSpread struct {
	pod        *corev1.Pod
	affinity   requiredNodeAffinity
	hard, soft []constraint // the pod's own constraints (none: the defaults apply)
	err        error        // what compiling the own constraints reported
	// The default constraints last compiled for the pod (it has none of
	// its own), for one Workloads index and one list of defaults: every
	// view of a snapshot shares its Input's index, so a pod decided on a
	// view of the snapshot it was warmed on (Warm) finds them here.
	defaults atomic.Pointer[defaultConstraints]
}

// defaultConstraints is spreadConstraints' answer for a pod without
// constraints of its own, for both actions.
type defaultConstraints struct {
	w                *cluster.Workloads
	defaults         []corev1.TopologySpreadConstraint
	hard, soft       []constraint
	hardErr, softErr error
}

// PrepareSpread returns the pod-only part of NewSpread for pod.
func PrepareSpread(pod *corev1.Pod) *PodSpread {
	ps := &PodSpread{pod: pod, affinity: newRequiredNodeAffinity(pod)}
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		if ps.hard, ps.err = ownConstraints(pod, corev1.DoNotSchedule); ps.err == nil {
			ps.soft, ps.err = ownConstraints(pod, corev1.ScheduleAnyway)
		}
	}
	return ps
}

// constraints returns what spreadConstraints gives for the pod and action:
// a copy of the prepared own constraints (NewSpread assigns their selector
// IDs), else the defaults compiled against snap.
func (ps *PodSpread) constraints(snap *cluster.Snapshot, defaults []corev1.TopologySpreadConstraint, action corev1.UnsatisfiableConstraintAction) ([]constraint, error) {
	if len(ps.pod.Spec.TopologySpreadConstraints) == 0 {
		d := ps.defaultsOn(snap, defaults)
		if action == corev1.DoNotSchedule {
			return slices.Clone(d.hard), d.hardErr
		}
		return slices.Clone(d.soft), d.softErr
	}
	if ps.err != nil {
		return nil, ps.err
	}
	if action == corev1.DoNotSchedule {
		return slices.Clone(ps.hard), nil
	}
	return slices.Clone(ps.soft), nil
}

// Warm compiles ahead the default constraints (with their DefaultSelector)
// of a pod without constraints of its own, for snap's Workloads index and
// opts' defaults: a NewSpreadPrepared of ps on snap or on any view of it
// then only copies them. A scheduling queue warms the next pod on a
// goroutine that would otherwise wait. Safe for concurrent use.
func (ps *PodSpread) Warm(snap *cluster.Snapshot, opts SpreadOptions) {
	if len(ps.pod.Spec.TopologySpreadConstraints) == 0 {
		ps.defaultsOn(snap, defaultsOf(opts))
	}
}

// defaultsOf returns the default constraints that apply under opts.
func defaultsOf(opts SpreadOptions) []corev1.TopologySpreadConstraint {
	if opts.DefaultConstraints != nil {
		return opts.DefaultConstraints
	}
	return systemDefaultConstraints
}

// defaultsOn returns the pod's default constraints for snap's Workloads
// index and defaults, compiling them unless the last ones compiled are
// for the same index and the same list (the same backing array: options
// are not modified once given).
func (ps *PodSpread) defaultsOn(snap *cluster.Snapshot, defaults []corev1.TopologySpreadConstraint) *defaultConstraints {
	w := workloadsOf(snap)
	if d := ps.defaults.Load(); d != nil && d.w == w && len(d.defaults) == len(defaults) &&
		unsafe.SliceData(d.defaults) == unsafe.SliceData(defaults) {
		return d
	}
	d := &defaultConstraints{w: w, defaults: defaults}
	d.hard, d.hardErr = defaultConstraintsIn(ps.pod, w, defaults, corev1.DoNotSchedule)
	d.soft, d.softErr = defaultConstraintsIn(ps.pod, w, defaults, corev1.ScheduleAnyway)
	ps.defaults.Store(d)
	return d
}

// spreadConstraints returns the pod's constraints for one action, as
// PodTopologySpread's getConstraints / initPreScoreState choose them: the
// pod's own when it has any, else the default constraints with the
// DefaultSelector (none when that selector is empty).
func spreadConstraints(pod *corev1.Pod, snap *cluster.Snapshot, defaults []corev1.TopologySpreadConstraint, action corev1.UnsatisfiableConstraintAction) ([]constraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return ownConstraints(pod, action)
	}
	return defaultConstraintsIn(pod, workloadsOf(snap), defaults, action)
}

// workloadsOf returns the Workloads index of snap's Input (nil for no
// snapshot: no objects).
func workloadsOf(snap *cluster.Snapshot) *cluster.Workloads {
	if snap == nil {
		return nil
	}
	return cluster.InputOf(snap).Workloads()
}

// defaultConstraintsIn is spreadConstraints for a pod without constraints
// of its own, over a Workloads index (nil: no objects).
func defaultConstraintsIn(pod *corev1.Pod, w *cluster.Workloads, defaults []corev1.TopologySpreadConstraint, action corev1.UnsatisfiableConstraintAction) ([]constraint, error) {
	cs, err := compileDefaults(defaults, pod, action)
	if err != nil || len(cs) == 0 {
		if err != nil {
			err = fmt.Errorf("%w: default spread constraints: %w", ErrInvalidConstraint, err)
		}
		return nil, err
	}
	sel := defaultSelectorIn(pod, w)
	if sel.Empty() {
		return nil, nil
	}
	m := newMatcher(sel)
	self := 0
	if m.matches(pod.Labels) {
		self = 1
	}
	for i := range cs {
		cs[i].sel, cs[i].m, cs[i].selfMatch = sel, m, self
	}
	return cs, nil
}

// compiledSystemDefaults holds compileConstraints of
// systemDefaultConstraints for each action: the system defaults have no
// matchLabelKeys and are compiled alike for every pod, except for the
// selector and selfMatch, which spreadConstraints sets afterwards.
var compiledSystemDefaults = sync.OnceValues(func() (map[corev1.UnsatisfiableConstraintAction][]constraint, error) {
	out := map[corev1.UnsatisfiableConstraintAction][]constraint{}
	for _, a := range []corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway} {
		cs, err := compileConstraints(systemDefaultConstraints, &corev1.Pod{}, a, nil)
		if err != nil {
			return nil, err
		}
		out[a] = cs
	}
	return out, nil
})

// compileDefaults is compileConstraints(defaults, pod, action, nil) for
// default constraints, taking the system defaults' compiled form (a copy)
// instead of validating and compiling them again for every pod.
func compileDefaults(defaults []corev1.TopologySpreadConstraint, pod *corev1.Pod, action corev1.UnsatisfiableConstraintAction) ([]constraint, error) {
	if len(defaults) > 0 && &defaults[0] == &systemDefaultConstraints[0] && len(defaults) == len(systemDefaultConstraints) {
		if compiled, err := compiledSystemDefaults(); err == nil {
			return slices.Clone(compiled[action]), nil
		}
	}
	return compileConstraints(defaults, pod, action, nil)
}

// assignSelectorIDs numbers the distinct selectors of the constraints so
// that pods are counted once per node per selector (the system defaults share
// one selector for hostname and zone). It returns the number of IDs.
func assignSelectorIDs(cs []constraint) int {
	seen := map[string]int{}
	for i := range cs {
		// Constraints given one compiled selector (the defaults share the
		// DefaultSelector's) share its ID without printing it.
		if j := sameSelector(cs, i); j >= 0 {
			cs[i].selID = cs[j].selID
			continue
		}
		k := "\x00nothing"
		if !cs[i].m.Nothing() {
			k = cs[i].sel.String()
		}
		id, ok := seen[k]
		if !ok {
			id = len(seen)
			seen[k] = id
		}
		cs[i].selID = id
	}
	return len(seen)
}

// sameSelector returns an earlier constraint of cs whose matcher is cs[i]'s
// very one (one flattened selector, shared), or -1.
func sameSelector(cs []constraint, i int) int {
	for j := range i {
		if cs[j].m.Same(&cs[i].m.Matcher) {
			return j
		}
	}
	return -1
}

// countMatching counts the node's pods in namespace ns, not being deleted,
// that match the selector, as upstream's countPodsMatchSelector (an empty
// selector counts nothing).
func countMatching(pods []*cluster.PodInfo, m *matcher, ns string) int {
	if m.empty() || m.Nothing() {
		return 0
	}
	n := 0
	for _, pi := range pods {
		p := pi.Pod
		if p.Namespace != ns || p.DeletionTimestamp != nil {
			continue
		}
		if m.matches(p.Labels) {
			n++
		}
	}
	return n
}

// inclusion decides, once per node, the node inclusion policies of the
// incoming pod (matchNodeInclusionPolicies).
type inclusion struct {
	pod      *corev1.Pod
	affinity requiredNodeAffinity
	// The same node affinity through the snapshot's node label columns
	// (nil when the pod has none or nothing honors it), for the nodes of
	// nodes, the snapshot's nodes by slot (cluster.SlotsOf; views keep
	// every node object and slot).
	indexed *indexedNodeAffinity
	nodes   []*cluster.NodeInfo
	cache   *inclusionCache // nil: no constraint honors a policy, or no snapshot
}

// includes decides the policies for node n at slot i of the snapshot the
// state was compiled on (or of a view of it).
func (in *inclusion) includes(c *constraint, i int, n *cluster.NodeInfo) bool {
	if !c.honorAffinity && !c.honorTaints {
		return true
	}
	if in.cache != nil && i >= 0 && i < len(in.nodes) && in.nodes[i] != nil && in.nodes[i].Node == n.Node {
		bits := in.cache.verdicts(in)[i]
		return (!c.honorAffinity || bits&passesAffinity != 0) && (!c.honorTaints || bits&passesTaints != 0)
	}
	return in.decide(c.honorAffinity, c.honorTaints, i, n)
}

// decide is includes without the cache.
func (in *inclusion) decide(honorAffinity, honorTaints bool, i int, n *cluster.NodeInfo) bool {
	if honorAffinity && !in.affinityAt(i, n) {
		return false
	}
	if honorTaints && taints.Untolerated(n.Node.Spec.Taints, in.pod.Spec.Tolerations) {
		return false
	}
	return true
}

// Bits of an inclusionCache verdict.
const (
	passesAffinity uint8 = 1 << iota
	passesTaints
)

// inclusionCache holds, per node slot of the snapshot a Spread was
// compiled on, whether the node passes the pod's node affinity and taint
// policies. A node's labels and taints do not change while pods are bound
// and removed, so a Spread carried to views of that snapshot (On) shares
// it: PreFilter's walk, each PreScore walk and the views' updates read one
// byte per node instead of matching the node again. A node a view
// replaces (another Node object in the slot) is decided afresh.
type inclusionCache struct {
	affinity, taints bool // which policies are decided per node (the others pass)
	// taintSets are the snapshot's distinct taint lists (by
	// NodeInfo.TaintSet): the taint policy is decided once per list.
	taintSets [][]corev1.Taint
	once      sync.Once
	bits      []uint8
}

// verdicts returns the cache's verdicts, deciding every node of in.nodes
// on first use.
func (ic *inclusionCache) verdicts(in *inclusion) []uint8 {
	ic.once.Do(func() {
		ic.bits = make([]uint8, len(in.nodes))
		var listOK []uint8 // by taint list ID: 0 not decided, 1 tolerated, 2 not
		if ic.taints {
			listOK = make([]uint8, len(ic.taintSets))
		}
		untainted := func(n *cluster.NodeInfo) bool {
			id := int(n.TaintSet)
			if id <= 0 || id >= len(listOK) {
				return !taints.Untolerated(n.Node.Spec.Taints, in.pod.Spec.Tolerations)
			}
			if listOK[id] == 0 {
				listOK[id] = 2
				if !taints.Untolerated(ic.taintSets[id], in.pod.Spec.Tolerations) {
					listOK[id] = 1
				}
			}
			return listOK[id] == 1
		}
		for i, n := range in.nodes {
			if n == nil {
				continue
			}
			var b uint8
			if !ic.affinity || in.affinityAt(i, n) {
				b |= passesAffinity
			}
			if !ic.taints || untainted(n) {
				b |= passesTaints
			}
			ic.bits[i] = b
		}
	})
	return ic.bits
}

func (in *inclusion) affinityAt(i int, n *cluster.NodeInfo) bool {
	if in.indexed != nil && i >= 0 && i < len(in.nodes) && in.nodes[i] != nil && in.nodes[i].Node == n.Node {
		return in.indexed.matches(i, n.Node)
	}
	return in.affinity.matches(n.Node)
}

// Spread is PodTopologySpread compiled for one pod against one snapshot: its
// PreFilter state (matching pods per domain of every DoNotSchedule
// constraint, the global minimum) and what its PreScore needs. It is
// immutable after NewSpread; every method is safe for concurrent use.
type Spread struct {
	pi   *cluster.PodInfo
	prep *PodSpread // the pod-only part, kept for NewSpread on a view (On)
	opts SpreadOptions
	pod  *corev1.Pod
	snap *cluster.Snapshot
	ix   interned
	incl inclusion

	hard []constraint
	// Per hard constraint: the topology key's column (domain = value ID),
	// matching pods per domain, and the minimum that Filter subtracts (0
	// when fewer eligible domains than minDomains).
	cols        []*cluster.Column
	domainCount [][]int
	eligible    [][]bool // per constraint and domain: some eligible node has it
	minMatch    []int

	soft       []constraint
	softSel    int // distinct selectors among soft (their selIDs)
	requireAll bool
}

// NewSpread compiles the pod's spread constraints against the snapshot and
// walks the bound pods once to count, per DoNotSchedule constraint and
// domain, the pods that match, as PodTopologySpread's PreFilter
// (calPreFilterState, v1.36) does. The pod must be compiled with
// NewPodInfo; neither it nor the snapshot is modified. An error means
// invalid input (an unparsable label selector, or a constraint the API server
// refuses: ValidateSpreadConstraint): the framework's Error status.
// A nil pod is an error too.
func NewSpread(pod *PodInfo, snap *Snapshot, opts SpreadOptions) (*Spread, error) {
	return NewSpreadPrepared(pod, snap, opts, nil)
}

// NewSpreadPrepared is NewSpread with the pod-only part prepared ahead
// (PrepareSpread of pod's Pod), which it then does not redo; for a nil
// prep, or one made for another pod, it prepares its own. The result is
// NewSpread's.
func NewSpreadPrepared(pod *PodInfo, snap *Snapshot, opts SpreadOptions, prep *PodSpread) (*Spread, error) {
	if pod == nil || pod.Pod == nil {
		return nil, fmt.Errorf("topology: NewSpread needs a pod")
	}
	p := pod.Pod
	if prep == nil || prep.pod != p {
		prep = PrepareSpread(p)
	}
	defaults := defaultsOf(opts)
	systemDefaulted := opts.DefaultConstraints == nil
	s := &Spread{
		pi:         pod,
		opts:       opts,
		pod:        p,
		snap:       snap,
		prep:       prep,
		incl:       inclusion{pod: p, affinity: prep.affinity},
		requireAll: len(p.Spec.TopologySpreadConstraints) > 0 || !systemDefaulted,
	}
	hard, err := prep.constraints(snap, defaults, corev1.DoNotSchedule)
	if err != nil {
		return nil, err
	}
	// PreScore's constraints are compiled now so that an invalid selector is
	// reported here, once.
	s.soft, err = prep.constraints(snap, defaults, corev1.ScheduleAnyway)
	if err != nil {
		return nil, err
	}
	s.hard = hard
	// The label index is only read when there is something to count; a pod
	// without constraints (the common case) does not touch it.
	if len(s.hard) > 0 || len(s.soft) > 0 {
		s.ix = newInterned(snap)
	} else if snap != nil {
		s.ix.nodes = cluster.SlotsOf(snap)
	}
	s.softSel = assignSelectorIDs(s.soft)
	if snap != nil && s.incl.affinity.any() && (honorsAffinity(s.hard) || honorsAffinity(s.soft)) {
		s.incl.indexed = s.incl.affinity.index(snap)
		s.incl.nodes = cluster.SlotsOf(snap)
	}
	// A pod without node affinity passes its affinity policy on every
	// node: only what is left to decide is cached.
	aff := (honorsAffinity(s.hard) || honorsAffinity(s.soft)) && s.incl.affinity.any()
	if honorTaints := honorsTaints(s.hard) || honorsTaints(s.soft); snap != nil && (aff || honorTaints) {
		s.incl.nodes = cluster.SlotsOf(snap)
		s.incl.cache = &inclusionCache{affinity: aff, taints: honorTaints, taintSets: cluster.TaintSetsOf(snap)}
	}
	if len(hard) > 0 {
		s.countHard()
	}
	return s, nil
}

// missingAny reports whether node slot ni lacks one of the columns' keys
// (upstream's nodeLabelsMatchSpreadConstraints, negated).
func missingAny(cols []*cluster.Column, ni int) bool {
	for _, c := range cols {
		if c.Of[ni] < 0 {
			return true
		}
	}
	return false
}

// countHard is calPreFilterState: per eligible node and constraint, add the
// node's matching pods to its domain; then the minimum over the domains.
func (s *Spread) countHard() {
	nodes := s.ix.nodes
	nc := len(s.hard)
	nSel := assignSelectorIDs(s.hard)
	s.cols = make([]*cluster.Column, nc)
	s.domainCount = make([][]int, nc)
	eligible := make([][]bool, nc) // per constraint, per domain
	for i := range s.hard {
		s.cols[i] = s.ix.column(s.hard[i].key)
		s.domainCount[i] = make([]int, len(s.cols[i].Values))
		eligible[i] = make([]bool, len(s.cols[i].Values))
	}
	nodeCounts := make([][]int32, nSel) // per selector: spreadCounts
	touched := make([][]int32, nSel)    // per selector: the slots counted above 0
	for i := range s.hard {
		if sel := s.hard[i].selID; nodeCounts[sel] == nil {
			mm, cs := s.ix.memoCands(s.ix.nsIs(s.pod.Namespace), &s.hard[i].m)
			nodeCounts[sel], touched[sel] = s.ix.spreadCountsTouched(nil, nil, &s.hard[i].m, mm, cs)
		}
	}
	// A node upstream counts: not an empty slot, every key present, and
	// the constraint's inclusion policies passed.
	counted := func(i, ni int) bool {
		n := nodes[ni]
		return n != nil && !missingAny(s.cols, ni) && s.incl.includes(&s.hard[i], ni, n)
	}
	// Each domain's count sums its counted nodes' matching pods: only the
	// nodes with one add anything.
	for i := range s.hard {
		sel := s.hard[i].selID
		for _, t := range touched[sel] {
			if ni := int(t); counted(i, ni) {
				s.domainCount[i][s.cols[i].Of[ni]] += int(nodeCounts[sel][ni])
			}
		}
	}
	// A domain is eligible when some counted node has it; the walk stops
	// once every constraint has all its domains (a zone's few are found
	// among the first nodes).
	left := make([]int, len(s.hard))
	open := 0
	for i := range s.hard {
		if left[i] = len(s.cols[i].Values); left[i] > 0 {
			open++
		}
	}
	for ni := 0; ni < len(nodes) && open > 0; ni++ {
		for i := range s.hard {
			if left[i] == 0 || !counted(i, ni) {
				continue
			}
			if d := s.cols[i].Of[ni]; !eligible[i][d] {
				eligible[i][d] = true
				if left[i]--; left[i] == 0 {
					open--
				}
			}
		}
	}
	s.eligible = eligible
	s.setMinimums()
}

// setMinimums sets each constraint's global minimum over its eligible
// domains (0 when there are fewer of them than minDomains).
func (s *Spread) setMinimums() {
	s.minMatch = make([]int, len(s.hard))
	for i := range s.hard {
		domains, min := 0, 0
		for d, ok := range s.eligible[i] {
			if !ok {
				continue
			}
			if domains == 0 || s.domainCount[i][d] < min {
				min = s.domainCount[i][d]
			}
			domains++
		}
		if domains < int(s.hard[i].minDomains) {
			min = 0
		}
		s.minMatch[i] = min
	}
}

// FilterSkipped reports whether PreFilter returned Skip: the pod has no
// DoNotSchedule constraint (system default constraints are all
// ScheduleAnyway, so a pod without constraints is always skipped).
func (s *Spread) FilterSkipped() bool { return len(s.hard) == 0 }

// Filter is PodTopologySpread's Filter on one node (v1.36): for each
// DoNotSchedule constraint in order, a node without the topology key is
// UnschedulableAndUnresolvable ("missing required label"), and a node where
// matching pods in its domain + 1 (if the pod matches the selector itself)
// - the global minimum exceeds maxSkew is Unschedulable. It allocates
// nothing.
func (s *Spread) Filter(n *NodeInfo) Status {
	for i := range s.hard {
		c := &s.hard[i]
		d := s.ix.domainOf(s.cols[i], n)
		if d == noLabel {
			return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.PodTopologySpread, Reasons: reasonsSpreadMissingLabel}
		}
		match := 0
		if d >= 0 {
			match = s.domainCount[i][d]
		}
		if match+c.selfMatch-s.minMatch[i] > int(c.maxSkew) {
			return sched.Status{Code: sched.Unschedulable, Plugin: sched.PodTopologySpread, Reasons: reasonsSpreadNotMatch}
		}
	}
	return sched.Status{}
}
