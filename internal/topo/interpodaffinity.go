package topo

import (
	"errors"
	"slices"

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
	reasonsAffinity              = []string{ReasonAffinityRulesNotMatch}
	reasonsAntiAffinity          = []string{ReasonAntiAffinityRulesNotMatch}
	reasonsExistingAntiAff       = []string{ReasonExistingAntiAffinityRulesNotMatch}
	defaultHardPodAffinityWeight = int32(1)
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
	if !ns.empty() && !ns.Nothing() {
		it.nsSel, it.hasSel = ns, true
	}
	return it
}

// nsCache remembers, during one walk, whether a namespace's labels match a
// term's namespace selector. It belongs to one goroutine.
type nsCache map[nsCacheKey]bool

type nsCacheKey struct {
	term *incomingTerm
	ns   string
}

func (t *incomingTerm) matchesNamespace(ns string, snap *cluster.Snapshot, cache nsCache) bool {
	if t.nsAll || hasValue(t.names, ns) {
		return true
	}
	if !t.hasSel {
		return false
	}
	if ok, seen := cache[nsCacheKey{t, ns}]; seen {
		return ok
	}
	var nsLabels map[string]string
	if snap != nil {
		nsLabels = cluster.NamespaceLabelsOf(snap, ns)
	}
	ok := nsLabels != nil && t.nsSel.matches(nsLabels)
	cache[nsCacheKey{t, ns}] = ok
	return ok
}

// nsOK returns matchesNamespace per namespace ID of ix's view.
func (t *incomingTerm) nsOK(ix *interned, cache nsCache) []bool {
	ok := make([]bool, len(ix.view.Namespaces))
	for i, ns := range ix.view.Namespaces {
		ok[i] = t.matchesNamespace(ns, ix.snap, cache)
	}
	return ok
}

// matches is fwk.AffinityTerm.Matches for an incoming term (nsLabels nil).
func (t *incomingTerm) matches(p *corev1.Pod, snap *cluster.Snapshot, cache nsCache) bool {
	return t.matchesNamespace(p.Namespace, snap, cache) && t.m.matches(p.Labels)
}

// topoCounts counts matched terms per topology pair (key, value), as
// upstream's topologyToMatchedTermCount, with each key's values as the
// dense IDs of the snapshot's column for that key. nonEmpty records whether
// any pair was ever added (upstream's map being non-empty); positive is the
// number of pairs whose count is above 0 (a view's emptiness, see On).
type topoCounts struct {
	keys     []*keyCounts
	nonEmpty bool
	positive int
	arrays   *passPool[int64] // where dense counts come from (nil: allocated)
}

// keyCounts are one key's counts. A view's copy shares its parent's counts
// until it first changes one (shared): a dry run changes one node's pairs,
// and copying every key's counts per node tried cost more than the rest of
// the view's update.
//
// A key with many values (kubernetes.io/hostname has one per node) whose
// terms match pods on a few of them keeps its counts sparse: a bit per
// value says which have an entry, and the entries are listed, so that a
// pod's state does not allocate and clear a count per node. Past
// maxSparse entries the counts become dense.
type keyCounts struct {
	col    *cluster.Column
	counts []int64 // by value ID (the dense form; nil when sparse)
	nz     []uint64
	ids    []int32
	vals   []int64
	shared bool // the arrays belong to another state: copy before writing
}

// A column with fewer than minSparseValues values is counted densely; a
// sparse key holds at most maxSparse entries before it turns dense.
// (Variables so that the tests can make every key sparse, and turn keys
// dense early.)
var (
	minSparseValues = 256
	maxSparse       = 32
)

// forKey returns the counts of one topology key, creating them.
func (c *topoCounts) forKey(ix *interned, key string) *keyCounts {
	for _, k := range c.keys {
		if k.col.Key == key {
			return k
		}
	}
	col := ix.column(key)
	k := &keyCounts{col: col}
	if len(col.Values) >= minSparseValues {
		k.nz = make([]uint64, (len(col.Values)+63)/64)
	} else {
		k.counts = c.arrays.take(len(col.Values))
	}
	c.keys = append(c.keys, k)
	return k
}

// get returns value d's count.
func (k *keyCounts) get(d int32) int64 {
	if k.nz == nil {
		return k.counts[d]
	}
	if k.nz[d>>6]&(1<<(d&63)) == 0 {
		return 0
	}
	for j, id := range k.ids {
		if id == d {
			return k.vals[j]
		}
	}
	return 0
}

func (c *topoCounts) add(k *keyCounts, d int32, n int64) {
	if k.shared {
		k.counts, k.shared = slices.Clone(k.counts), false
		k.nz, k.ids, k.vals = slices.Clone(k.nz), slices.Clone(k.ids), slices.Clone(k.vals)
	}
	old := k.get(d)
	k.set(d, old+n, c.arrays)
	switch {
	case old <= 0 && old+n > 0:
		c.positive++
	case old > 0 && old+n <= 0:
		c.positive--
	}
	c.nonEmpty = true
}

// set makes value d's count v (the arrays are k's own); a dense array
// is taken from arrays.
func (k *keyCounts) set(d int32, v int64, arrays *passPool[int64]) {
	if k.nz == nil {
		k.counts[d] = v
		return
	}
	if k.nz[d>>6]&(1<<(d&63)) != 0 {
		for j, id := range k.ids {
			if id == d {
				k.vals[j] = v
				return
			}
		}
	}
	if len(k.ids) == maxSparse {
		k.counts = arrays.take(len(k.col.Values))
		for j, id := range k.ids {
			k.counts[id] = k.vals[j]
		}
		k.nz, k.ids, k.vals = nil, nil, nil
		k.counts[d] = v
		return
	}
	k.nz[d>>6] |= 1 << (d & 63)
	k.ids = append(k.ids, d)
	k.vals = append(k.vals, v)
}

// at returns the count of node n's pair for key k (0 when the node lacks the
// key or its value is unknown).
func (k *keyCounts) at(ix *interned, n *cluster.NodeInfo) (int64, bool) {
	return k.atSlot(ix, n, ix.slotOf(n))
}

// atSlot is at with n's slot in ix (slotOf) already found.
func (k *keyCounts) atSlot(ix *interned, n *cluster.NodeInfo, slot int32) (int64, bool) {
	d := ix.domainAt(k.col, n, slot)
	if d < 0 {
		return 0, d != noLabel
	}
	return k.get(d), true
}

// termKeys resolves, lazily and per call, the key counts of each interned
// term's topology key (by cluster.TermMatcher.KeyID).
type termKeys []*keyCounts

func newTermKeys(ix *interned) termKeys { return make(termKeys, len(ix.view.TopologyKeys)) }

func (tk termKeys) get(c *topoCounts, ix *interned, id int32) *keyCounts {
	kid := ix.view.TermMatchers[id].KeyID
	if tk[kid] == nil {
		tk[kid] = c.forKey(ix, ix.view.TopologyKeys[kid])
	}
	return tk[kid]
}

// InterPodAffinity is the InterPodAffinity plugin compiled for one pod
// against one snapshot: its PreFilter state (topology pairs of pods matching
// the incoming pod's required terms, and pairs where existing pods' required
// anti-affinity rejects it). It is immutable after NewInterPodAffinity; every
// method is safe for concurrent use.
type InterPodAffinity struct {
	pi   *cluster.PodInfo
	pod  *corev1.Pod
	snap *cluster.Snapshot
	ix   interned
	opts AffinityOptions

	nsLabels labels.Set // the incoming pod's namespace labels (nil when unknown)

	reqAff, reqAnti   []incomingTerm
	prefAff, prefAnti []incomingTerm

	affinityCounts     topoCounts
	antiAffinityCounts topoCounts
	existingAntiCounts topoCounts
	affKeys, antiKeys  []*keyCounts // per required term
	selfMatchesAll     bool         // the first-pod rule's second half
	skip               bool
	// bare: neither the pod nor any bound pod has a pod affinity term, so
	// every count is empty and nothing was indexed (ix is unset).
	bare bool
	// existingMemo and existingCands are the PreFilter walk's term memo
	// (termMemo: which existing terms match the pod, as far as the walk
	// asked) and candidates on ix, which PreScore copies instead of
	// building its own; nil on a state moved to a view (On), whose ix
	// has other tables. Never written after NewInterPodAffinity.
	existingMemo  memo
	existingCands cands
}

// NewInterPodAffinity compiles the pod's affinity terms and walks the
// snapshot once, as InterPodAffinity's PreFilter (v1.36) does: every bound
// pod against the incoming pod's required terms (affinity counts a pod only
// when it matches all of them), and every bound pod with required
// anti-affinity against the incoming pod. The pod must be compiled with
// NewPodInfo; neither it nor the snapshot is modified. The error is
// returned for a nil pod only.
func NewInterPodAffinity(pod *PodInfo, snap *Snapshot, opts AffinityOptions) (*InterPodAffinity, error) {
	if pod == nil || pod.Pod == nil {
		return nil, errors.New("topology: NewInterPodAffinity needs a pod")
	}
	p := pod.Pod
	if snap != nil && !cluster.MayHavePodAffinity(snap) && !pod.HasPodAffinityTerms() {
		// Nothing can count: PreFilter's walk would find no term on
		// either side and Skip, PreScore would find nothing to score. The
		// snapshot's label index is not read.
		return &InterPodAffinity{pi: pod, pod: p, snap: snap, opts: opts, skip: true, bare: true}, nil
	}
	a := &InterPodAffinity{pi: pod, pod: p, snap: snap, ix: newInterned(snap), opts: opts}
	if snap != nil {
		if l := cluster.NamespaceLabelsOf(snap, p.Namespace); l != nil {
			a.nsLabels = labels.Set(l)
		}
	}
	reqAff, reqAnti := pod.RequiredAffinityTerms(), pod.RequiredAntiAffinityTerms()
	prefAff, prefAnti := pod.PreferredAffinityTerms(), pod.PreferredAntiAffinityTerms()
	for i := range reqAff {
		a.reqAff = append(a.reqAff, newIncomingTerm(&reqAff[i], 0))
	}
	for i := range reqAnti {
		a.reqAnti = append(a.reqAnti, newIncomingTerm(&reqAnti[i], 0))
	}
	for i := range prefAff {
		t := &prefAff[i]
		a.prefAff = append(a.prefAff, newIncomingTerm(&t.AffinityTerm, t.Weight))
	}
	for i := range prefAnti {
		t := &prefAnti[i]
		a.prefAnti = append(a.prefAnti, newIncomingTerm(&t.AffinityTerm, t.Weight))
	}
	ix := &a.ix
	for i := range a.reqAff {
		a.affKeys = append(a.affKeys, a.affinityCounts.forKey(ix, a.reqAff[i].key))
	}
	for i := range a.reqAnti {
		a.antiKeys = append(a.antiKeys, a.antiAffinityCounts.forKey(ix, a.reqAnti[i].key))
	}
	w := a.newWalker(ix)
	w.all()
	a.existingMemo, a.existingCands = w.termMemo, w.termCands
	a.selfMatchesAll = len(a.reqAff) > 0 && a.matchesAll(p, w.cache)
	a.skip = !a.existingAntiCounts.nonEmpty && len(a.reqAff) == 0 && len(a.reqAnti) == 0
	return a, nil
}

// walker adds (sign 1) or removes (sign -1) one node's contribution to the
// PreFilter counts: getExistingAntiAffinityCounts (each distinct existing
// term matched against the incoming pod once) and
// getIncomingAffinityAntiAffinityCounts (each distinct label set matched
// against each incoming term once, counts added per node).
type walker struct {
	a         *InterPodAffinity
	ix        *interned
	termMemo  memo
	termCands cands
	keys      termKeys
	allMemo   memo
	antiMemos []memo
	allCands  cands
	antiCands []cands
	antiCount []int64
	cache     nsCache
	// In a lazy walker (newLazyWalker) the memos start unknown and the
	// namespace rules are checked on first use.
	lazy   bool
	allNS  []bool
	antiNS [][]bool
}

func (a *InterPodAffinity) newWalker(ix *interned) *walker {
	w := &walker{a: a, ix: ix, cache: nsCache{},
		keys: newTermKeys(ix)}
	w.termMemo, w.termCands = a.termMemo(ix)
	if len(a.reqAff) > 0 {
		ms := make([]*matcher, len(a.reqAff))
		for i := range a.reqAff {
			ms[i] = &a.reqAff[i].m
		}
		w.allMemo, w.allCands = ix.memoCands(a.allNS(ix, w.cache), ms...)
	}
	w.antiMemos = make([]memo, len(a.reqAnti))
	w.antiCands = make([]cands, len(a.reqAnti))
	for i := range w.antiMemos {
		w.antiMemos[i], w.antiCands[i] = ix.memoCands(a.reqAnti[i].nsOK(ix, w.cache), &a.reqAnti[i].m)
	}
	w.antiCount = make([]int64, len(a.reqAnti))
	return w
}

// newLazyWalker is newWalker for walking a few nodes (On's changed nodes):
// its memos are not prefilled (that costs a pass over every set and term
// of the index) but filled on first use, namespaces included. Only node
// may be called on it.
func (a *InterPodAffinity) newLazyWalker(ix *interned) *walker {
	w := &walker{a: a, ix: ix, cache: nsCache{}, keys: newTermKeys(ix), lazy: true,
		termMemo: make(memo, len(ix.view.Terms))}
	if len(a.reqAff) > 0 {
		w.allMemo, w.allNS = ix.newMemo(), a.allNS(ix, w.cache)
	}
	w.antiMemos = make([]memo, len(a.reqAnti))
	w.antiNS = make([][]bool, len(a.reqAnti))
	for i := range w.antiMemos {
		w.antiMemos[i], w.antiNS[i] = ix.newMemo(), a.reqAnti[i].nsOK(ix, w.cache)
	}
	w.antiCount = make([]int64, len(a.reqAnti))
	return w
}

// allNS returns the namespaces every required affinity term accepts, per
// namespace ID of ix's view.
func (a *InterPodAffinity) allNS(ix *interned, cache nsCache) []bool {
	nsOK := make([]bool, len(ix.view.Namespaces))
	for i := range nsOK {
		nsOK[i] = true
	}
	for i := range a.reqAff {
		for j, ok := range a.reqAff[i].nsOK(ix, cache) {
			nsOK[j] = nsOK[j] && ok
		}
	}
	return nsOK
}

// matchesAll is setMatchesAll with the walker's memo.
func (w *walker) matchesAll(id int32) bool {
	if w.lazy && w.allMemo[id] == 0 && !w.allNS[w.ix.view.Sets[id].NamespaceID] {
		w.allMemo[id] = 2
	}
	return w.a.setMatchesAll(w.ix, id, w.allMemo)
}

// matchesAnti is setMatches for required anti-affinity term j with the
// walker's memo.
func (w *walker) matchesAnti(j int, id int32) bool {
	if w.lazy && w.antiMemos[j][id] == 0 && !w.antiNS[j][w.ix.view.Sets[id].NamespaceID] {
		w.antiMemos[j][id] = 2
	}
	return w.ix.setMatches(id, &w.a.reqAnti[j].m, w.antiMemos[j])
}

// node walks node slot i of the walker's index.
func (w *walker) node(i int, sign int64) {
	a, ix := w.a, w.ix
	idx := ix.view.Node(int(i))
	for _, r := range idx.RequiredAntiAffinity {
		if !a.existingMatches(r.Term, &ix.view.TermMatchers[r.Term], w.termMemo) {
			continue
		}
		k := w.keys.get(&a.existingAntiCounts, ix, r.Term)
		if d := k.col.Of[i]; d >= 0 {
			a.existingAntiCounts.add(k, d, sign)
		}
	}
	if len(a.reqAff) == 0 && len(a.reqAnti) == 0 {
		return
	}
	affCount := w.countSets(idx.Sets)
	if affCount > 0 {
		for _, k := range a.affKeys {
			if d := k.col.Of[i]; d >= 0 {
				a.affinityCounts.add(k, d, sign*affCount)
			}
		}
	}
	for j, c := range w.antiCount {
		if c == 0 {
			continue
		}
		if d := a.antiKeys[j].col.Of[i]; d >= 0 {
			a.antiAffinityCounts.add(a.antiKeys[j], d, sign*c)
		}
	}
}

// countSets counts the pods of the given label sets (-1-ID for a pod being
// deleted, which counts too) that match every required affinity term (the
// result) and, into w.antiCount, each required anti-affinity term.
func (w *walker) countSets(sets []int32) (aff int64) {
	a := w.a
	clear(w.antiCount)
	for _, id := range sets {
		if id < 0 {
			id = -1 - id
		}
		if len(a.reqAff) > 0 && w.matchesAll(id) {
			aff++
		}
		for j := range a.reqAnti {
			if w.matchesAnti(j, id) {
				w.antiCount[j]++
			}
		}
	}
	return aff
}

// termMemo returns a memo over the interned terms of ix for
// existingMatches in which every term whose pod selector cannot match the
// incoming pod's labels (cluster.LabelView.TermCandidates) is already a no,
// and each candidate's namespace rule is decided once per rule: a
// candidate whose rule rejects the pod's namespace is a no, one whose
// selector is its single anchor (so it matches the pod's labels) a yes, and
// the others are left with their selector to match, on first use
// (namespaceMatches). It returns the candidates too.
func (a *InterPodAffinity) termMemo(ix *interned) (memo, cands) { return a.termMemoIn(ix, nil) }

// termMemoIn is termMemo with the memos taken from p.
func (a *InterPodAffinity) termMemoIn(ix *interned, p *passPool[int8]) (memo, cands) {
	mm := memo(p.take(len(ix.view.Terms)))
	if len(mm) == 0 {
		return mm, cands{}
	}
	for i := range mm {
		mm[i] = 2
	}
	cs := cands(ix.view.TermCandidates(a.pod.Labels, make(cands, 0, 8)))
	rules := memo(p.take(ix.view.NamespaceRules)) // the pod's namespace, per rule
	for _, l := range cs {
		for _, id := range l {
			t := &ix.view.TermMatchers[id]
			r := &rules[t.NamespaceRule]
			if *r == 0 {
				*r = 2
				if t.MatchesNamespace(a.pod.Namespace, a.nsLabels) {
					*r = 1
				}
			}
			switch {
			case *r == 2:
				mm[id] = 2
			case t.SingleAnchor:
				mm[id] = 1
			default:
				mm[id] = namespaceMatches
			}
		}
	}
	return mm, cs
}

// namespaceMatches marks a term in a term memo whose namespace rule
// accepts the incoming pod: only its label selector is left to match.
const namespaceMatches = 3

// all adds every node's contribution, as node(i, 1) for each node slot
// would, but through the snapshot's cluster.Occurrences: each distinct
// existing required anti-affinity term used on the snapshot is matched once
// and its uses added, and each label set with pods is matched once against
// the incoming required terms and its pods added. The sums are the same;
// only pods and terms that match are visited.
func (w *walker) all() {
	a, ix := w.a, w.ix
	if ix.snap == nil || ix.view.NumNodes() == 0 {
		return
	}
	occ := ix.snap.Occurrences()
	ix.eachMatchingUse(occ, cluster.RequiredAntiAffinityTerms, w.termCands,
		func(id int32) bool { return a.existingMatches(id, &ix.view.TermMatchers[id], w.termMemo) },
		func(id, i, _ int32) {
			k := w.keys.get(&a.existingAntiCounts, ix, id)
			if d := k.col.Of[i]; d >= 0 {
				a.existingAntiCounts.add(k, d, 1)
			}
		})
	if len(a.reqAff) > 0 {
		ix.eachMatchingPod(occ, w.allCands,
			func(id int32) bool { return a.setMatchesAll(ix, id, w.allMemo) },
			func(i int32, _ bool) { // terminating pods count for affinity
				for _, k := range a.affKeys {
					if d := k.col.Of[i]; d >= 0 {
						a.affinityCounts.add(k, d, 1)
					}
				}
			})
	}
	for j := range a.reqAnti {
		t, k := &a.reqAnti[j], a.antiKeys[j]
		ix.eachMatchingPod(occ, w.antiCands[j],
			func(id int32) bool { return ix.setMatches(id, &t.m, w.antiMemos[j]) },
			func(i int32, _ bool) {
				if d := k.col.Of[i]; d >= 0 {
					a.antiAffinityCounts.add(k, d, 1)
				}
			})
	}
}

// existingMatches is fwk.AffinityTerm.Matches for a bound pod's interned
// term against the incoming pod, with the incoming pod's namespace labels,
// memoized per term ID.
func (a *InterPodAffinity) existingMatches(id int32, t *cluster.TermMatcher, mm memo) bool {
	var ok bool
	switch mm[id] {
	case 1:
		return true
	case 2:
		return false
	case namespaceMatches:
		ok = t.Selector.Matches(a.pod.Labels)
	default:
		ok = t.Matches(a.pod.Namespace, a.pod.Labels, a.nsLabels)
	}
	if ok {
		mm[id] = 1
	} else {
		mm[id] = 2
	}
	return ok
}

// setMatchesAll is matchesAll for an interned label set, memoized in a
// memo made by memoCands for every required affinity term and the
// namespaces all of them accept.
func (a *InterPodAffinity) setMatchesAll(ix *interned, id int32, mm memo) bool {
	switch mm[id] {
	case 1:
		return true
	case 2:
		return false
	}
	ok := true
	for i := range a.reqAff {
		if !a.reqAff[i].m.matches(ix.view.Sets[id].Labels) {
			ok = false
			break
		}
	}
	if ok {
		mm[id] = 1
	} else {
		mm[id] = 2
	}
	return ok
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
func (a *InterPodAffinity) Filter(n *NodeInfo) Status {
	switch a.verdict(n) {
	case failsAffinity:
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.InterPodAffinity, Reasons: reasonsAffinity}
	case failsAntiAffinity:
		return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsAntiAffinity}
	case failsExistingAntiAffinity:
		return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsExistingAntiAff}
	}
	return sched.Status{}
}

// FilterCode is Filter(n).Code, without the status.
func (a *InterPodAffinity) FilterCode(n *NodeInfo) sched.Code {
	switch a.verdict(n) {
	case failsAffinity:
		return sched.UnschedulableAndUnresolvable
	case failsAntiAffinity, failsExistingAntiAffinity:
		return sched.Unschedulable
	}
	return sched.Success
}

// Filter's verdicts, in the order it checks them.
const (
	passesFilter = iota
	failsAffinity
	failsAntiAffinity
	failsExistingAntiAffinity
)

// verdict is Filter's check: which rule, if any, rejects the pod on n.
func (a *InterPodAffinity) verdict(n *NodeInfo) int {
	if a.skip {
		return passesFilter
	}
	// The node's slot is found once for every key read below.
	slot := a.ix.slotOf(n)
	if !a.satisfiesAffinity(n, slot) {
		return failsAffinity
	}
	if a.antiAffinityCounts.nonEmpty {
		for _, k := range a.antiKeys {
			if c, _ := k.atSlot(&a.ix, n, slot); c > 0 {
				return failsAntiAffinity
			}
		}
	}
	for _, k := range a.existingAntiCounts.keys {
		if c, _ := k.atSlot(&a.ix, n, slot); c > 0 {
			return failsExistingAntiAffinity
		}
	}
	return passesFilter
}

// satisfiesAffinity is upstream's satisfyPodAffinity.
// slot is a.ix.slotOf(n).
func (a *InterPodAffinity) satisfiesAffinity(n *cluster.NodeInfo, slot int32) bool {
	podsExist := true
	for _, k := range a.affKeys {
		c, hasKey := k.atSlot(&a.ix, n, slot)
		if !hasKey {
			return false
		}
		if c <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return !a.affinityCounts.nonEmpty && a.selfMatchesAll
}
