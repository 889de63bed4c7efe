package topology

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Reason texts of InterPodAffinity's Filter (interpodaffinity/filtering.go, v1.36).
const (
	ReasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	ReasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
	ReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
)

var (
	reasonsAffinity         = []string{ReasonAffinityRulesNotMatch}
	reasonsAntiAffinity     = []string{ReasonAntiAffinityRulesNotMatch}
	reasonsExistingAntiAff  = []string{ReasonExistingAntiAffinityRulesNotMatch}
	defaultHardAffinityWght = int32(1)
)

// incomingTerm is one of the incoming pod's terms after upstream's
// mergeAffinityTermNamespacesIfNotEmpty: it matches an existing pod whose
// namespace is listed, or is a known namespace whose labels the namespace
// selector matches, or — because upstream's merge clears the selector on a
// copy only — any namespace when the selector matches an empty label set.
type incomingTerm struct {
	key    string
	weight int32
	m      matcher
	names  []string // explicit namespaces (the pod's own by default)
	nsAll  bool     // the namespace selector matches the empty label set
	nsSel  matcher  // a non-empty selector over known namespaces' labels
	hasSel bool
}

func newIncomingTerm(t *cluster.AffinityTerm, weight int32) incomingTerm {
	it := incomingTerm{key: t.TopologyKey, weight: weight, m: newMatcher(t.Selector)}
	for ns := range t.Namespaces {
		it.names = append(it.names, ns)
	}
	ns := newMatcher(t.NamespaceSelector)
	it.nsAll = ns.matches(nil)
	if !ns.empty() && !ns.nothing {
		it.nsSel, it.hasSel = ns, true
	}
	return it
}

// nsCache remembers, during one walk, whether a namespace's labels match a
// term's namespace selector. It belongs to one goroutine.
type nsCache map[string]bool

func (t *incomingTerm) matchesNamespace(ns string, snap *cluster.Snapshot, cache nsCache) bool {
	if t.nsAll || hasValue(t.names, ns) {
		return true
	}
	if !t.hasSel {
		return false
	}
	if ok, seen := cache[ns]; seen {
		return ok
	}
	var nsLabels map[string]string
	if snap != nil {
		nsLabels = snap.NamespaceLabels(ns)
	}
	ok := nsLabels != nil && t.nsSel.matches(nsLabels)
	cache[ns] = ok
	return ok
}

// matches is fwk.AffinityTerm.Matches for an incoming term (nsLabels nil).
func (t *incomingTerm) matches(p *corev1.Pod, snap *cluster.Snapshot, cache nsCache) bool {
	return t.matchesNamespace(p.Namespace, snap, cache) && t.m.matches(p.Labels)
}

// existingTermMatches is fwk.AffinityTerm.Matches for a bound pod's term
// against the incoming pod, with the incoming pod's namespace labels.
func existingTermMatches(t *cluster.AffinityTerm, p *corev1.Pod, nsLabels labels.Set) bool {
	if !t.Namespaces.Has(p.Namespace) && (t.NamespaceSelector == nil || !t.NamespaceSelector.Matches(nsLabels)) {
		return false
	}
	return t.Selector != nil && t.Selector.Matches(labels.Set(p.Labels))
}

// pairCounts counts matched terms per topology pair (key, value), as
// upstream's topologyToMatchedTermCount.
type pairCounts struct {
	byKey map[string]map[string]int64
	pairs int
}

func (c *pairCounts) add(key, value string, n int64) {
	if c.byKey == nil {
		c.byKey = map[string]map[string]int64{}
	}
	vals := c.byKey[key]
	if vals == nil {
		vals = map[string]int64{}
		c.byKey[key] = vals
	}
	if _, ok := vals[value]; !ok {
		c.pairs++
	}
	vals[value] += n
}

func (c *pairCounts) get(key, value string) int64 { return c.byKey[key][value] }

// InterPodAffinity is the InterPodAffinity plugin compiled for one pod
// against one snapshot: its PreFilter state (topology pairs of pods matching
// the incoming pod's required terms, and pairs where existing pods' required
// anti-affinity rejects it). It is immutable after NewInterPodAffinity; every
// method is safe for concurrent use.
type InterPodAffinity struct {
	pod  *corev1.Pod
	snap *cluster.Snapshot
	opts AffinityOptions

	nsLabels labels.Set // the incoming pod's namespace labels (nil when unknown)

	reqAff, reqAnti   []incomingTerm
	prefAff, prefAnti []incomingTerm

	affinityCounts     pairCounts
	antiAffinityCounts pairCounts
	existingAntiCounts pairCounts
	selfMatchesAll     bool // the first-pod rule's second half
	skip               bool
}

// NewInterPodAffinity compiles the pod's affinity terms and walks the
// snapshot once, as InterPodAffinity's PreFilter (v1.36) does: every bound
// pod against the incoming pod's required terms (affinity counts a pod only
// when it matches all of them), and every bound pod with required
// anti-affinity against the incoming pod. The pod must be compiled with
// cluster.NewPodInfo; neither it nor the snapshot is modified. The error is
// always nil today; it is kept for invalid input yet to be detected.
func NewInterPodAffinity(pod *cluster.PodInfo, snap *cluster.Snapshot, opts AffinityOptions) (*InterPodAffinity, error) {
	p := pod.Pod
	a := &InterPodAffinity{pod: p, snap: snap, opts: opts}
	if snap != nil {
		if l := snap.NamespaceLabels(p.Namespace); l != nil {
			a.nsLabels = labels.Set(l)
		}
	}
	for i := range pod.RequiredAffinityTerms {
		a.reqAff = append(a.reqAff, newIncomingTerm(&pod.RequiredAffinityTerms[i], 0))
	}
	for i := range pod.RequiredAntiAffinityTerms {
		a.reqAnti = append(a.reqAnti, newIncomingTerm(&pod.RequiredAntiAffinityTerms[i], 0))
	}
	for i := range pod.PreferredAffinityTerms {
		t := &pod.PreferredAffinityTerms[i]
		a.prefAff = append(a.prefAff, newIncomingTerm(&t.AffinityTerm, t.Weight))
	}
	for i := range pod.PreferredAntiAffinityTerms {
		t := &pod.PreferredAntiAffinityTerms[i]
		a.prefAnti = append(a.prefAnti, newIncomingTerm(&t.AffinityTerm, t.Weight))
	}

	var nodes []*cluster.NodeInfo
	if snap != nil {
		nodes = snap.Nodes()
	}
	// getExistingAntiAffinityCounts.
	for _, n := range nodes {
		if len(n.PodsWithRequiredAntiAffinity) == 0 || len(n.Node.Labels) == 0 {
			continue
		}
		for _, ep := range n.PodsWithRequiredAntiAffinity {
			for i := range ep.RequiredAntiAffinityTerms {
				t := &ep.RequiredAntiAffinityTerms[i]
				if !existingTermMatches(t, p, a.nsLabels) {
					continue
				}
				if v, ok := n.Node.Labels[t.TopologyKey]; ok {
					a.existingAntiCounts.add(t.TopologyKey, v, 1)
				}
			}
		}
	}
	// getIncomingAffinityAntiAffinityCounts.
	if len(a.reqAff) > 0 || len(a.reqAnti) > 0 {
		cache := nsCache{}
		for _, n := range nodes {
			nl := n.Node.Labels
			for _, ep := range n.Pods {
				if len(a.reqAff) > 0 && a.matchesAll(ep.Pod, cache) {
					for i := range a.reqAff {
						if v, ok := nl[a.reqAff[i].key]; ok {
							a.affinityCounts.add(a.reqAff[i].key, v, 1)
						}
					}
				}
				for i := range a.reqAnti {
					t := &a.reqAnti[i]
					if t.matches(ep.Pod, snap, cache) {
						if v, ok := nl[t.key]; ok {
							a.antiAffinityCounts.add(t.key, v, 1)
						}
					}
				}
			}
		}
		a.selfMatchesAll = len(a.reqAff) > 0 && a.matchesAll(p, cache)
	}
	a.skip = a.existingAntiCounts.pairs == 0 && len(a.reqAff) == 0 && len(a.reqAnti) == 0
	return a, nil
}

// matchesAll is podMatchesAllAffinityTerms over the required affinity terms.
func (a *InterPodAffinity) matchesAll(p *corev1.Pod, cache nsCache) bool {
	if len(a.reqAff) == 0 {
		return false
	}
	for i := range a.reqAff {
		if !a.reqAff[i].matches(p, a.snap, cache) {
			return false
		}
	}
	return true
}

// FilterSkipped reports whether PreFilter returned Skip: the pod has no
// required (anti-)affinity term and no existing pod's required
// anti-affinity term matches it.
func (a *InterPodAffinity) FilterSkipped() bool { return a.skip }

// Filter is InterPodAffinity's Filter on one node (v1.36), checking in
// upstream's order: the pod's required affinity (UnschedulableAndUnresolvable
// when the node lacks a term's topology key or a term's pair has no matching
// pod — unless no pod matches anywhere and the pod matches all its own terms),
// its required anti-affinity (Unschedulable), and existing pods' required
// anti-affinity (Unschedulable). It allocates nothing.
func (a *InterPodAffinity) Filter(n *cluster.NodeInfo) sched.Status {
	if a.skip {
		return sched.Status{}
	}
	nl := n.Node.Labels
	if !a.satisfiesAffinity(nl) {
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.InterPodAffinity, Reasons: reasonsAffinity}
	}
	if a.antiAffinityCounts.pairs > 0 {
		for i := range a.reqAnti {
			t := &a.reqAnti[i]
			if v, ok := nl[t.key]; ok && a.antiAffinityCounts.get(t.key, v) > 0 {
				return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsAntiAffinity}
			}
		}
	}
	if a.existingAntiCounts.pairs > 0 {
		for key, vals := range a.existingAntiCounts.byKey {
			if v, ok := nl[key]; ok && vals[v] > 0 {
				return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsExistingAntiAff}
			}
		}
	}
	return sched.Status{}
}

// satisfiesAffinity is upstream's satisfyPodAffinity.
func (a *InterPodAffinity) satisfiesAffinity(nl map[string]string) bool {
	podsExist := true
	for i := range a.reqAff {
		t := &a.reqAff[i]
		v, ok := nl[t.key]
		if !ok {
			return false
		}
		if a.affinityCounts.get(t.key, v) <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return a.affinityCounts.pairs == 0 && a.selfMatchesAll
}
