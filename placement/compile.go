package placement

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/nodeaffinity"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/taints"
	"github.com/schedkit/schedkit/internal/topo"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement/framework"
)

// ErrInvalidPod is wrapped by every error Compile and Evaluate return for a
// pod (or options) they cannot evaluate: unparsable selectors, a nil pod.
var ErrInvalidPod = errors.New("placement: invalid pod")

// ErrNotAView is returned by Compiled.On for a snapshot that is not a view
// of the one the pod was compiled against (made from it by WithPod,
// WithoutPods or WithNode, directly or not; WithNodes, WithoutNodes and a
// WithNode changing the node's labels, allocatable, images or declared
// features renumber or re-index the nodes, and are not such views);
// compile the pod against it instead.
var ErrNotAView = errors.New("placement: snapshot is not a view of the compiled pod's snapshot")

// ErrInvalidSnapshot is wrapped by NewSnapshot's error for input it refuses;
// the *ValidationError in the same chain lists every problem.
var ErrInvalidSnapshot = errors.New("placement: invalid snapshot input")

// ValidationError carries every validation problem of one input with its API
// field path (pods[2].spec.containers[0].resources.requests[cpu]), for
// errors.As. Its text is the list's aggregate text. Errors wrapping it also
// wrap the sentinel of their cause (ErrInvalidPod, ErrInvalidSnapshot).
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

// Filter plugin positions in the v1.36 order (sched.FilterOrder).
const (
	fNodeUnschedulable = iota
	fNodeName
	fTaintToleration
	fNodeAffinity
	fNodePorts
	fNodeResourcesFit
	fPodTopologySpread
	fInterPodAffinity
	fNodeDeclaredFeatures
	numFilters
)

var filterNames = [numFilters]string{
	sched.NodeUnschedulable, sched.NodeName, sched.TaintToleration, sched.NodeAffinity, sched.NodePorts,
	sched.NodeResourcesFit, sched.PodTopologySpread, sched.InterPodAffinity, sched.NodeDeclaredFeatures,
}

// Compiled is one pod compiled against one snapshot: everything the
// PreEnqueue, PreFilter and PreScore phases compute, ready for cheap per-node
// Filter calls and one Score pass. It is immutable; every method is safe for
// concurrent use. Build it with Compile; re-target it to a view of the
// snapshot with On.
type Compiled struct {
	snap *cluster.Snapshot
	pod  *corev1.Pod
	pi   *cluster.PodInfo
	opts Options

	gated *sched.Status

	// PodTopologySpread's pod-only part (nil for kubelet admission).
	spreadPrep *topo.PodSpread

	// PreFilter outcome.
	preFilter    sched.Status // aggregated (Success, a rejection or Error)
	preFilterErr error
	skip         [numFilters]bool
	noState      [numFilters]bool // Filter runs without its PreFilter's state: an Error (see Plugins)
	order        []int            // the profile's Filter plugins in the order they run
	active       []int8           // filters to run, in order: not skipped, not trivially passing
	restricted   bool             // a PreFilterResult restricts the nodes
	nodeNames    sets.Set[string] // the restriction
	restrictedBy []string
	absent       sched.Status // status of nodes outside the restriction

	// NodeUnschedulable / TaintToleration.
	toleratesUnschedulable bool
	tolerations            []corev1.Toleration
	preferTolerations      []corev1.Toleration

	// NodeAffinity.
	nodeSelectorPairs []labelPair
	required          *nodeaffinity.Selector // nil: no required node affinity
	added             *nodeaffinity.Selector
	preferred         *nodeaffinity.Preferred
	addedPreferred    *nodeaffinity.Preferred
	naIndex           *nodeAffinityIndex // the same, through node label columns; nil: none
	taintVerdicts     []taintVerdict     // by the snapshot's taint list IDs (indexTaints); nil: none

	// NodePorts.
	ports []cluster.HostPort

	// NodeResourcesFit.
	req        cluster.Resource
	reqScalars []corev1.ResourceName // sorted names of non-zero scalar requests
	fitReqs    []int64               // scoring request per fitResources()
	balReqs    []int64               // scoring request per balancedResources()

	// NodeDeclaredFeatures.
	features []string

	// ImageLocality.
	images        []string
	numContainers int
	imageKey      string // imageKeyOf(images, numContainers)

	spread *topo.Spread
	ipa    *topo.InterPodAffinity
	// noTopology leaves PodTopologySpread and InterPodAffinity out (kubelet
	// admission checks neither).
	noTopology bool

	// memo, when set, holds the node-local answers of a scheduling loop's
	// earlier pods of the same class (see memo.go); only Decide reads it.
	memo *memo
	// bufs, when set, are the arrays a decision without a memo fills
	// (withBuffers).
	bufs *decisionBuffers
}

// Compile compiles pod against snap with the given profile options. It
// validates the pod's resource quantities (a negative request, limit or
// overhead, which the API server refuses), node selectors, node affinity, pod affinity terms and
// spread constraints and the options' added affinity, and reports every
// problem at once (an error wrapping ErrInvalidPod, whose text lists each
// field path). Neither the snapshot nor the pod is modified.
func Compile(snap *Snapshot, pod *corev1.Pod, opts Options) (*Compiled, error) {
	return compile(internalOf(snap), pod, opts, false)
}

func compile(snap *cluster.Snapshot, pod *corev1.Pod, opts Options, noTopology bool) (*Compiled, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPod)
	}
	c, err := compilePod(pod, opts, noTopology)
	if err != nil {
		return nil, err
	}
	return c.onSnapshot(snap)
}

// Prepared is a pod compiled without a snapshot: everything Compile reads
// from the pod and the options alone (requests, tolerations, node
// affinity, ports, images, affinity terms), done once, so that a scheduler
// loop can prepare its pending pods ahead (and in parallel) and compile
// each against the snapshot of its turn. It is immutable and safe for
// concurrent use.
type Prepared struct {
	c   *Compiled
	err error
}

// Prepare compiles the pod-only part of Compile. An invalid pod or option
// is reported by Prepare and again by every Compile of the result, with
// the text Compile gives.
func Prepare(pod *corev1.Pod, opts Options) *Prepared {
	c, err := compilePod(pod, opts, false)
	return &Prepared{c: c, err: err}
}

// Err returns the error Compile would report for the pod itself (nil when
// the pod and options are valid).
func (p *Prepared) Err() error { return p.err }

// Gated returns a copy of SchedulingGates' PreEnqueue rejection of the
// prepared pod: nil when the pod has no scheduling gate, or is invalid
// (Err). Upstream's PreEnqueue keeps a gated pod out of the scheduling
// cycle, so no PreFilter runs for it and its answer needs no snapshot: a
// scheduling loop can report it without compiling it (Compile's Decide
// gives the same status).
func (p *Prepared) Gated() *framework.Status {
	if p.err != nil || p.c == nil {
		return nil
	}
	return p.c.Gated()
}

// Compile is Compile(snap, pod, opts) for the prepared pod and options:
// the same result, the pod-only part not redone.
func (p *Prepared) Compile(s *Snapshot) (*Compiled, error) {
	snap := internalOf(s)
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPod)
	}
	if p.err != nil {
		return nil, p.err
	}
	return p.c.onSnapshot(snap)
}

// CompileWith is Compile for the prepared pod with w lending its helpers
// to the parallel work, in place of the prepared options' Workers (nil w:
// the prepared options' own): the same result. A queue that prepares its
// pods once and schedules them in several runs gives each run its Workers.
func (p *Prepared) CompileWith(s *Snapshot, w *Workers) (*Compiled, error) {
	return p.compileWith(internalOf(s), w)
}

func (p *Prepared) compileWith(snap *cluster.Snapshot, w *Workers) (*Compiled, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPod)
	}
	if p.err != nil {
		return nil, p.err
	}
	if w == nil {
		return p.c.onSnapshot(snap)
	}
	c := *p.c
	c.opts.Workers = w
	return c.onSnapshot(snap)
}

// onSnapshot completes a pod-only Compiled (compilePod) against snap: the
// node affinity index over its label columns and the PreFilters. c is not
// modified.
func (c *Compiled) onSnapshot(snap *cluster.Snapshot) (*Compiled, error) {
	v := *c
	v.snap = snap
	if !v.noTopology {
		// Kubelet admission (noTopology) is the kubelet's rule and checks
		// one node: no version check, no index.
		if err := v.opts.Version.checkSnapshot(snap); err != nil {
			return nil, err
		}
		v.naIndex = v.indexNodeAffinity()
	}
	if err := v.runPreFilter(); err != nil {
		return nil, err
	}
	v.taintVerdicts = v.indexTaints()
	return &v, nil
}

// compilePod is the part of compile that reads the pod and the options
// alone; the result has no snapshot (onSnapshot adds it).
func compilePod(pod *corev1.Pod, opts Options, noTopology bool) (*Compiled, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: nil pod", ErrInvalidPod)
	}
	if !opts.Version.Valid() {
		return nil, fmt.Errorf("%w: Options.Version %d", ErrUnsupportedVersion, uint8(opts.Version))
	}
	if err := opts.checkPlugins(); err != nil {
		return nil, err
	}
	// The scheduler only sees stored pods: an undefaulted one is answered
	// as its stored copy (a stored pod is used as is, not copied).
	pod = StoredPod(pod)
	c := &Compiled{pod: pod, opts: opts, noTopology: noTopology}
	var errs field.ErrorList

	pi, err := cluster.NewPodInfo(pod)
	if err != nil {
		errs = append(errs, nodeaffinity.AsFieldErrors(field.NewPath("spec"), err)...)
		// Keep going without affinity terms to report everything at once.
		pi = &cluster.PodInfo{Pod: pod, Key: pod.Namespace + "/" + pod.Name}
	}
	c.pi = pi
	if !noTopology && pod != nil {
		// PodTopologySpread's pod-only part, once for every snapshot the
		// pod is compiled on (a Prepared pod's PreFilter runs per turn).
		c.spreadPrep = topo.PrepareSpread(pi.Pod)
	}
	// Quantities the API server refuses (a negative request would reach
	// scoring with a negative sum).
	errs = append(errs, cluster.PodResourceErrors(pod, nil)...)

	// SchedulingGates (PreEnqueue).
	if len(pod.Spec.SchedulingGates) > 0 && opts.runsPreEnqueue(sched.SchedulingGates) {
		names := make([]string, len(pod.Spec.SchedulingGates))
		for i, g := range pod.Spec.SchedulingGates {
			names[i] = g.Name
		}
		c.gated = &sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.SchedulingGates,
			Reasons: []string{fmt.Sprintf("waiting for scheduling gates: %v", names)}}
	}

	// Tolerations.
	c.tolerations = pod.Spec.Tolerations
	c.toleratesUnschedulable = taints.ToleratesAny(pod.Spec.Tolerations, &unschedulableTaint)
	for _, t := range pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == corev1.TaintEffectPreferNoSchedule {
			c.preferTolerations = append(c.preferTolerations, t)
		}
	}

	// Node affinity.
	if len(pod.Spec.NodeSelector) > 0 {
		for k, v := range pod.Spec.NodeSelector {
			c.nodeSelectorPairs = append(c.nodeSelectorPairs, labelPair{k, v})
		}
		sort.Slice(c.nodeSelectorPairs, func(i, j int) bool { return c.nodeSelectorPairs[i].key < c.nodeSelectorPairs[j].key })
	}
	naPath := field.NewPath("spec", "affinity", "nodeAffinity")
	var na *corev1.NodeAffinity
	if pod.Spec.Affinity != nil {
		na = pod.Spec.Affinity.NodeAffinity
	}
	if na != nil && na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		sel, e := nodeaffinity.CompileSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, naPath.Child("requiredDuringSchedulingIgnoredDuringExecution"))
		errs = append(errs, e...)
		c.required = sel
	}
	if na != nil && na.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		p, e := nodeaffinity.CompilePreferred(na.PreferredDuringSchedulingIgnoredDuringExecution, naPath.Child("preferredDuringSchedulingIgnoredDuringExecution"))
		errs = append(errs, e...)
		c.preferred = p
	}
	if a := opts.AddedAffinity; a != nil {
		ap := field.NewPath("addedAffinity")
		if a.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			sel, e := nodeaffinity.CompileSelector(a.RequiredDuringSchedulingIgnoredDuringExecution, ap.Child("requiredDuringSchedulingIgnoredDuringExecution"))
			errs = append(errs, e...)
			c.added = sel
		}
		if len(a.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
			p, e := nodeaffinity.CompilePreferred(a.PreferredDuringSchedulingIgnoredDuringExecution, ap.Child("preferredDuringSchedulingIgnoredDuringExecution"))
			errs = append(errs, e...)
			c.addedPreferred = p
		}
	}

	// Host ports.
	c.ports = pi.HostPorts()
	if c.ports == nil {
		c.ports = cluster.PodHostPorts(pod)
	}

	// NodeResourcesFit: computePodResourceRequest (no resize status for the
	// incoming pod), then SetMaxResource which clamps at zero.
	if req, nonZero, ok := fastRequests(pod); ok {
		// The common pod shape: the requests come out of int64 sums, as
		// the snapshot's own bound pods' do, without three request lists.
		c.req = maxResource(req)
		c.fitReqs = requestsOf(opts.fitResources(), req, nonZero, true)
		c.balReqs = requestsOf(opts.balancedResources(), req, nonZero, false)
	} else {
		c.req = maxResource(cluster.ResourceFromList(cluster.PodRequests(pod, cluster.RequestOptions{})))
		c.fitReqs = scoringRequests(pod, opts.fitResources(), true, opts.Version)
		c.balReqs = scoringRequests(pod, opts.balancedResources(), false, opts.Version)
	}
	for _, name := range c.req.ScalarNames() {
		if c.req.Scalar[name] == 0 || c.ignoredScalar(name) {
			continue
		}
		c.reqScalars = append(c.reqScalars, name)
	}

	// NodeDeclaredFeatures.
	if opts.Version.RunsNodeDeclaredFeatures() {
		c.features = requiredFeatures(pod)
	}

	// ImageLocality.
	imageLocalityImages(opts.Version, pod, func(image string) {
		c.images = append(c.images, normalizedImageName(image))
	})
	c.numContainers = len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	c.imageKey = imageKeyOf(c.images, c.numContainers)

	if len(errs) > 0 {
		return nil, fmt.Errorf("%w %s: %w", ErrInvalidPod, pi.Key, &ValidationError{Errors: errs})
	}
	return c, nil
}

// ignoredScalar reports whether NodeResourcesFit's Filter ignores an
// extended resource (IgnoredResources, IgnoredResourceGroups).
func (c *Compiled) ignoredScalar(name corev1.ResourceName) bool {
	if !cluster.IsExtendedResourceName(name) {
		return false
	}
	for _, r := range c.opts.IgnoredResources {
		if r == string(name) {
			return true
		}
	}
	if len(c.opts.IgnoredResourceGroups) > 0 {
		prefix := strings.Split(string(name), "/")[0]
		for _, g := range c.opts.IgnoredResourceGroups {
			if g == prefix {
				return true
			}
		}
	}
	return false
}

func maxResource(r cluster.Resource) cluster.Resource {
	out := cluster.Resource{MilliCPU: max(r.MilliCPU, 0), Memory: max(r.Memory, 0), EphemeralStorage: max(r.EphemeralStorage, 0)}
	if len(r.Scalar) > 0 {
		out.Scalar = make(map[corev1.ResourceName]int64, len(r.Scalar))
		for k, v := range r.Scalar {
			out.Scalar[k] = max(v, 0)
		}
	}
	return out
}

// scoringRequests is calculatePodResourceRequestList: the pod's request per
// scored resource, in millicores for cpu and units otherwise.
func scoringRequests(pod *corev1.Pod, resources []ResourceSpec, useDefaults bool, v Version) []int64 {
	reqs := cluster.ScoringRequests(pod, useDefaults)
	if !useDefaults && !v.UsesPodLevelResizeStatus() {
		// BalancedAllocation before v1.36: InPlacePodLevelResourcesVerticalScaling off.
		reqs = cluster.PodRequests(pod, cluster.RequestOptions{UseStatusResources: true, WithoutPodLevelResize: true})
	}
	out := make([]int64, len(resources))
	for i, r := range resources {
		q := reqs[r.Name]
		if r.Name == corev1.ResourceCPU {
			out[i] = q.MilliValue()
		} else {
			out[i] = q.Value()
		}
	}
	return out
}

// fastRequests is cluster.FastRequests (a variable so that the tests can
// send every pod down the general path).
var fastRequests = cluster.FastRequests

// requestsOf is scoringRequests for a pod of the fast path's shape, from
// its requests and non-zero requests: with defaults (NodeResourcesFit's
// scorer) cpu and memory are the non-zero ones; pod-level requests and
// resize status, which set the two calls apart, are absent.
func requestsOf(resources []ResourceSpec, req, nonZero cluster.Resource, useDefaults bool) []int64 {
	out := make([]int64, len(resources))
	for i, r := range resources {
		switch r.Name {
		case corev1.ResourceCPU:
			out[i] = req.MilliCPU
			if useDefaults {
				out[i] = nonZero.MilliCPU
			}
		case corev1.ResourceMemory:
			out[i] = req.Memory
			if useDefaults {
				out[i] = nonZero.Memory
			}
		case corev1.ResourceEphemeralStorage:
			out[i] = req.EphemeralStorage
		default:
			out[i] = req.Scalar[r.Name]
		}
	}
	return out
}

var unschedulableTaint = corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}

func needsRestartAllContainers(pod *corev1.Pod) bool {
	for _, list := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range list {
			for _, r := range list[i].RestartPolicyRules {
				if r.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
					return true
				}
			}
		}
	}
	return false
}

// runPreFilter runs the PreFilter plugins in profile order, as
// RunPreFilterPlugins does: Skip records the plugin (its Filter is not run),
// an UnschedulableAndUnresolvable status stops at once, an Error stops with
// an error, a node-name result restricts the nodes.
func (c *Compiled) runPreFilter() error {
	if !c.preFilterNodeLocal() {
		return nil
	}
	if c.noTopology {
		c.skip[fPodTopologySpread], c.skip[fInterPodAffinity] = true, true
	} else if err := c.compileTopology(); err != nil {
		return err
	}
	c.settleFilters()
	return nil
}

// preFilterNodeLocal is the part of runPreFilter that reads the pod and
// the nodes alone (NodeAffinity's node restriction, NodePorts' skip); it
// reports false when NodeAffinity's PreFilter rejects the pod, which ends
// the PreFilter phase.
func (c *Compiled) preFilterNodeLocal() bool {
	c.order = c.filterOrder()
	pod := c.pod
	// NodeAffinity.
	var na *corev1.NodeAffinity
	if pod.Spec.Affinity != nil {
		na = pod.Spec.Affinity.NodeAffinity
	}
	noRequired := na == nil || na.RequiredDuringSchedulingIgnoredDuringExecution == nil
	if noRequired && c.added == nil && pod.Spec.NodeSelector == nil {
		c.skip[fNodeAffinity] = true
	} else if !c.opts.runsPreFilter(sched.NodeAffinity) {
		// No PreFilter: no node restriction; the Filter computes the
		// required selector itself (nodeaffinity Filter's fallback).
	} else if !noRequired && len(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) > 0 {
		names, restricted := nodeNamesOf(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
		if restricted && names.Len() == 0 {
			c.preFilter = sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.NodeAffinity, Reasons: reasonAffinityConflict}
			return false
		}
		if restricted {
			c.restricted, c.nodeNames, c.restrictedBy = true, names, []string{sched.NodeAffinity}
			c.absent = sched.Status{Code: sched.UnschedulableAndUnresolvable,
				Reasons: []string{fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", c.restrictedBy)}}
		}
	}
	// NodePorts.
	if len(c.ports) == 0 {
		c.skip[fNodePorts] = true
	}
	// NodeResourcesFit never skips (SidecarContainers is GA).
	return true
}

// settleFilters ends runPreFilter once the topology PreFilters have set
// their skips: NodeDeclaredFeatures' skip, the Filters that run without
// their PreFilter's state or not at all, and the active list in profile
// order.
func (c *Compiled) settleFilters() {
	// NodeDeclaredFeatures (v1.36: a profile member; skipped without requirements).
	if len(c.features) == 0 {
		c.skip[fNodeDeclaredFeatures] = true
	}
	// A Filter whose PreFilter is not in the profile finds no state and
	// fails with an Error on every node it is reached on (each plugin's
	// getPreFilterState); its PreFilter never returned Skip.
	for _, i := range []int{fNodePorts, fNodeResourcesFit, fPodTopologySpread, fInterPodAffinity, fNodeDeclaredFeatures} {
		if !c.opts.runsPreFilter(filterNames[i]) && (i != fNodeDeclaredFeatures || c.opts.Version.RunsNodeDeclaredFeatures()) {
			c.skip[i], c.noState[i] = false, true
		}
	}
	for i := range numFilters {
		if !c.opts.runsFilter(i) {
			c.skip[i], c.noState[i] = true, false
		}
	}
	c.active = c.active[:0:0]
	for _, i := range c.order {
		if c.skip[i] || (i == fNodeName && c.pod.Spec.NodeName == "") {
			continue
		}
		c.active = append(c.active, int8(i))
	}
}

// filterOrder is the profile's Filter plugins as positions, in the order
// they run.
func (c *Compiled) filterOrder() []int {
	if c.opts.Plugins == nil {
		return defaultFilterOrder
	}
	out := make([]int, 0, numFilters)
	for _, n := range c.opts.Plugins.Filter {
		for i, fn := range filterNames {
			if fn == n {
				out = append(out, i)
			}
		}
	}
	return out
}

var defaultFilterOrder = func() []int {
	o := make([]int, numFilters)
	for i := range o {
		o[i] = i
	}
	return o
}()

// compileTopology is the PreFilter of PodTopologySpread and InterPodAffinity.
// The two states are independent reads of the snapshot: with
// Options.Parallelism above 1 they are built on two goroutines, and the
// outcome (errors included: PodTopologySpread's is reported first, as the
// profile order runs it first) is the same as one after the other.
func (c *Compiled) compileTopology() error {
	var (
		sp            *topo.Spread
		ipa           *topo.InterPodAffinity
		spErr, ipaErr error
	)
	spread := func() { sp, spErr = c.spreadPreFilter() }
	affinity := func() { ipa, ipaErr = c.affinityPreFilter() }
	c.labelsForBoth()
	if c.spread != nil && c.ipa != nil {
		// Both states are derived from the changed nodes: two short
		// updates, cheaper in turn than through a fork-join.
		spread()
		affinity()
	} else {
		both(c.opts.runner(), spread, affinity)
	}
	return c.setTopology(sp, spErr, ipa, ipaErr)
}

// spreadPreFilter is PodTopologySpread's PreFilter state. On a view of the
// snapshot the pod was compiled on (Compiled.On), the topology states are
// derived from the changed nodes only (topology's On, the role of
// upstream's AddPod/RemovePod); same result, no walk.
func (c *Compiled) spreadPreFilter() (*topo.Spread, error) {
	if c.spread != nil {
		return c.spread.On(c.snap)
	}
	return topo.NewSpreadPrepared(c.pi, c.snap, c.spreadOptions(), c.spreadPrep)
}

// spreadOptions returns PodTopologySpread's options under c's.
func (c *Compiled) spreadOptions() topo.SpreadOptions {
	return topo.SpreadOptions{DefaultConstraints: c.opts.DefaultSpreadConstraints}
}

// affinityPreFilter is InterPodAffinity's PreFilter state (derived from
// the changed nodes, as spreadPreFilter's, on a view).
func (c *Compiled) affinityPreFilter() (*topo.InterPodAffinity, error) {
	if c.ipa != nil {
		return c.ipa.On(c.snap)
	}
	return topo.NewInterPodAffinity(c.pi, c.snap, topo.AffinityOptions{
		HardPodAffinityWeight:              c.opts.HardPodAffinityWeight,
		IgnorePreferredTermsOfExistingPods: c.opts.IgnorePreferredTermsOfExistingPods,
	})
}

// labelsForBoth builds the label index's view of the snapshot before two
// PreFilters that both read it may run side by side (InterPodAffinity does
// unless no pod has a pod affinity term): once, here, instead of having one
// wait on the index's lock while the other builds it.
func (c *Compiled) labelsForBoth() {
	if c.spread == nil && c.ipa == nil && c.opts.Parallelism > 1 && c.snap != nil &&
		(cluster.MayHavePodAffinity(c.snap) || c.pi.HasPodAffinityTerms()) {
		c.snap.Labels()
	}
}

// setTopology records both PreFilters' outcomes. An error is the pod's
// (PodTopologySpread's first, as the profile order runs it first), and
// ends the PreFilter phase.
func (c *Compiled) setTopology(sp *topo.Spread, spErr error, ipa *topo.InterPodAffinity, ipaErr error) error {
	if spErr != nil {
		c.preFilter = sched.Status{Code: sched.Error, Plugin: sched.PodTopologySpread, Reasons: []string{spErr.Error()}}
		c.preFilterErr = fmt.Errorf("%w %s: running PreFilter plugin %q: %w", ErrInvalidPod, c.pi.Key, sched.PodTopologySpread, spErr)
		return c.preFilterErr
	}
	c.spread = sp
	c.skip[fPodTopologySpread] = sp.FilterSkipped()
	if ipaErr != nil {
		c.preFilter = sched.Status{Code: sched.Error, Plugin: sched.InterPodAffinity, Reasons: []string{ipaErr.Error()}}
		c.preFilterErr = fmt.Errorf("%w %s: running PreFilter plugin %q: %w", ErrInvalidPod, c.pi.Key, sched.InterPodAffinity, ipaErr)
		return c.preFilterErr
	}
	c.ipa = ipa
	c.skip[fInterPodAffinity] = ipa.FilterSkipped()
	return nil
}

// nodeNamesOf is NodeAffinity's PreFilter result: the union over the terms
// of the intersection of each term's matchFields metadata.name In values;
// no restriction as soon as one term has no such requirement.
func nodeNamesOf(terms []corev1.NodeSelectorTerm) (sets.Set[string], bool) {
	var names sets.Set[string]
	for _, t := range terms {
		var termNames sets.Set[string]
		for _, r := range t.MatchFields {
			if r.Key == metav1.ObjectNameField && r.Operator == corev1.NodeSelectorOpIn {
				s := sets.New(r.Values...)
				if termNames == nil {
					termNames = s
				} else {
					termNames = termNames.Intersection(s)
				}
			}
		}
		if termNames == nil {
			return nil, false
		}
		names = names.Union(termNames)
	}
	return names, names != nil
}

// On returns the pod compiled against view, a view of the snapshot it was
// compiled for (WithPod, WithoutPods, WithNode; see ErrNotAView): the pod-only parts are
// shared, the PreFilter state of PodTopologySpread and InterPodAffinity is
// recomputed, as the framework's AddPod/RemovePod extensions update it. c
// is unchanged. Any other snapshot is refused with ErrNotAView.
func (c *Compiled) On(s *Snapshot) (*Compiled, error) {
	return c.on(internalOf(s))
}

// on is On for an internal snapshot.
func (c *Compiled) on(view *cluster.Snapshot) (*Compiled, error) {
	if view == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidPod)
	}
	if !view.SharesIndex(c.snap) {
		// Another snapshot numbers its nodes its own way: the pod must be
		// compiled against it.
		return nil, ErrNotAView
	}
	v := *c
	v.snap = view
	v.preFilter = sched.Status{}
	v.preFilterErr = nil
	v.restricted, v.nodeNames, v.restrictedBy, v.absent = false, nil, nil, sched.Status{}
	v.skip = [numFilters]bool{}
	if err := v.runPreFilter(); err != nil {
		return nil, err
	}
	return &v, nil
}

// Pod returns the compiled pod. It must not be modified.
func (c *Compiled) Pod() *corev1.Pod { return c.pod }

// PodInfo returns the compiled pod's requests and host ports.
func (c *Compiled) PodInfo() *PodInfo { return wrap.Cast[PodInfo](c.pi) }

// Snapshot returns the snapshot the pod was compiled against.
func (c *Compiled) Snapshot() *Snapshot { return publicSnapshot(c.snap) }

// Gated returns a copy of SchedulingGates' PreEnqueue rejection, or nil
// when the pod has no scheduling gate.
func (c *Compiled) Gated() *framework.Status {
	if c.gated == nil {
		return nil
	}
	g := *c.gated
	g.Reasons = slices.Clone(g.Reasons)
	return &g
}

// PreFilterStatus returns the aggregated PreFilter status: Success, an
// UnschedulableAndUnresolvable rejection of every node, or Error.
func (c *Compiled) PreFilterStatus() framework.Status { return c.preFilter }

// FilterSkipped reports whether the named Filter plugin's PreFilter returned
// Skip, so that upstream does not run its Filter.
func (c *Compiled) FilterSkipped(plugin string) bool {
	for i, n := range filterNames {
		if n == plugin {
			return c.skip[i]
		}
	}
	return false
}

// InPreFilterResult reports whether the node is inside the PreFilter node
// restriction (always true without one).
func (c *Compiled) InPreFilterResult(node string) bool {
	return !c.restricted || c.nodeNames.Has(node)
}

// resultSlots is the PreFilter node restriction on c's snapshot by node
// slot (NodeInfo.Index): true at the slot of each restricting name the
// snapshot has. nil without a restriction. A pass over every node reads
// it instead of looking each node's name up in the restriction's set,
// which on a large cluster costs a cache miss per node for the name
// (measured: 270 ns a node at 5000 nodes).
func (c *Compiled) resultSlots() []bool {
	if !c.restricted {
		return nil
	}
	slots := make([]bool, len(cluster.SlotsOf(c.snap)))
	for name := range c.nodeNames {
		if n, ok := cluster.NodeOf(c.snap, name); ok {
			slots[n.Index] = true
		}
	}
	return slots
}
