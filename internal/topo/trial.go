package topo

import (
	"math"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Preemption's dry run (SelectVictimsOnNode, v1.36) takes pods off one
// node, asks the Filter plugins about that node, and puts pods back, the
// PreFilter extensions RemovePod and AddPod keeping the cycle state in step.
// On answers that by moving a state to a snapshot view without the pods,
// which costs a view and a state per node tried. The trials below answer the
// same question from the removed pods alone: every count the node's pods
// add to a state is a sum over those pods, so the state on the view differs
// from the receiver's only at the node's own domains, by the removed pods'
// contributions. A trial holds memos and scratch space for one goroutine;
// the state it was made from is only read.

// removedSets returns, per removed pod, its label-set ID in x's view as
// node slot ni lists it (-1-ID when the pod is being deleted), or ok false
// when x has no label view or a pod is not among the node's pods there.
func (x *interned) removedSets(ni int, removed []*cluster.PodInfo, out []int32) ([]int32, bool) {
	if ni < 0 || ni >= len(x.nodes) || ni >= x.view.NumNodes() || x.nodes[ni] == nil {
		return out, false
	}
	pods, sets := x.nodes[ni].Pods, x.view.Node(ni).Sets
	if len(pods) != len(sets) {
		return out, false
	}
	for _, p := range removed {
		// NodeInfo.Pods is in name order.
		k, ok := slices.BinarySearchFunc(pods, p.Key, func(q *cluster.PodInfo, key string) int { return strings.Compare(q.Key, key) })
		if !ok || pods[k] != p {
			return out, false
		}
		out = append(out, sets[k])
	}
	return out, true
}

// snapshotNode reports the slot of n in x's snapshot when n is one of its
// nodes or a copy of one (same slot and name), else -1.
func (x *interned) snapshotNode(n *cluster.NodeInfo) int {
	if i := n.Index; i >= 0 && i < len(x.nodes) && x.nodes[i] != nil && (x.nodes[i] == n || x.nodes[i].Name == n.Name) {
		return i
	}
	return -1
}

// SpreadTrial evaluates a Spread's Filter in preemption's dry run; see
// Spread.NewTrial.
type SpreadTrial struct {
	s     *Spread
	memos []memo // per distinct selector, filled on use
	sets  []int32
	// Per hard constraint, the smallest count over its eligible domains
	// (math.MaxInt when fewer than minDomains: the minimum is then 0).
	min1  []int
	ready bool
}

// NewTrial returns a trial of the state for one goroutine.
func (s *Spread) NewTrial() *SpreadTrial { return &SpreadTrial{s: s} }

// Filter is s.On(snap.WithoutPods(removed...)).Filter(n) for the snapshot
// s was built on: n is that snapshot's node (or a copy of it) with the
// removed pods, bound pods of that node, taken off. Only the node's own
// domains move, by the removed pods matching a constraint (pods being
// deleted included, as upstream's updateWithPod has no deletionTimestamp
// check), and the minimum follows from the smallest domain.
func (t *SpreadTrial) Filter(n *cluster.NodeInfo, removed []*cluster.PodInfo) Status {
	s := t.s
	if len(removed) == 0 {
		return s.Filter(n)
	}
	if len(s.hard) == 0 {
		return sched.Status{}
	}
	ni := s.ix.snapshotNode(n)
	var ok bool
	if ni >= 0 {
		t.sets, ok = s.ix.removedSets(ni, removed, t.sets[:0])
	}
	if !ok {
		return t.fallback(n, removed)
	}
	t.prepare()
	eligibleNode := !missingAny(s.cols, ni)
	for i := range s.hard {
		c := &s.hard[i]
		d := s.cols[i].Of[ni]
		if d < 0 {
			return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.PodTopologySpread, Reasons: reasonsSpreadMissingLabel}
		}
		match := s.domainCount[i][d]
		minMatch := s.minMatch[i]
		if eligibleNode && s.incl.includes(c, ni, n) {
			if delta := t.removedMatching(i); delta > 0 {
				match -= delta
				if s.eligible[i][d] && t.min1[i] != math.MaxInt {
					// Removal only lowers the node's domain: the new
					// minimum is the old one or that domain.
					minMatch = min(t.min1[i], match)
				}
			}
		}
		if match+c.selfMatch-minMatch > int(c.maxSkew) {
			return sched.Status{Code: sched.Unschedulable, Plugin: sched.PodTopologySpread, Reasons: reasonsSpreadNotMatch}
		}
	}
	return sched.Status{}
}

// removedMatching counts the removed pods (t.sets) that constraint i's
// selector counts, within the pod's namespace (countSpreadWith).
func (t *SpreadTrial) removedMatching(i int) int {
	s := t.s
	c := &s.hard[i]
	if c.m.empty() || c.m.Nothing() {
		return 0
	}
	mm := t.memos[c.selID]
	if mm == nil {
		mm = s.ix.newMemo()
		t.memos[c.selID] = mm
	}
	ns := s.pod.Namespace
	k := 0
	for _, id := range t.sets {
		if id < 0 {
			id = -1 - id
		}
		if mm[id] == 0 && ns != "" && s.ix.view.Sets[id].Namespace != ns {
			mm[id] = 2
		}
		if s.ix.setMatches(id, &c.m, mm) {
			k++
		}
	}
	return k
}

// prepare finds each constraint's smallest eligible count, once.
func (t *SpreadTrial) prepare() {
	if t.ready {
		return
	}
	s := t.s
	nSel := 0
	for i := range s.hard {
		nSel = max(nSel, s.hard[i].selID+1)
	}
	t.memos = make([]memo, nSel)
	t.min1 = make([]int, len(s.hard))
	for i := range s.hard {
		m, domains := math.MaxInt, 0
		for d, ok := range s.eligible[i] {
			if ok {
				domains++
				m = min(m, s.domainCount[i][d])
			}
		}
		if domains < int(s.hard[i].minDomains) {
			m = math.MaxInt // the minimum stays 0 whatever the counts (setMinimums)
		}
		t.min1[i] = m
	}
	t.ready = true
}

// fallback answers through a snapshot view, for a node or pods the trial
// cannot place in the state's snapshot.
func (t *SpreadTrial) fallback(n *cluster.NodeInfo, removed []*cluster.PodInfo) Status {
	return filterOnView(t.s.snap, t.s, t.s.On, sched.PodTopologySpread, n, removed)
}

// filterOnView is a trial's fallback: state moved by on to snap without the
// removed pods, asked about n (state itself without a snapshot).
func filterOnView[S interface {
	Filter(*cluster.NodeInfo) Status
}](snap *cluster.Snapshot, state S,
	on func(*cluster.Snapshot) (S, error), plugin string, n *cluster.NodeInfo, removed []*cluster.PodInfo) Status {
	if snap == nil {
		return state.Filter(n)
	}
	keys := make([]string, len(removed))
	for i, p := range removed {
		keys[i] = p.Key
	}
	v, err := on(snap.WithoutPods(keys...))
	if err != nil {
		return sched.Status{Code: sched.Error, Plugin: plugin, Reasons: []string{err.Error()}}
	}
	return v.Filter(n)
}

// AffinityTrial evaluates an InterPodAffinity's Filter in preemption's dry
// run; see InterPodAffinity.NewTrial.
type AffinityTrial struct {
	a     *InterPodAffinity
	w     *walker // memos only: it never adds to the state's counts
	sets  []int32
	refs  []cluster.TermRef
	exist []*keyCounts // the state's existing-anti-affinity counts by topology key ID (nil: none)
	delta map[*keyCounts]int64
}

// NewTrial returns a trial of the state for one goroutine.
func (a *InterPodAffinity) NewTrial() *AffinityTrial { return &AffinityTrial{a: a} }

// Filter is a.On(snap.WithoutPods(removed...)).Filter(n) for the snapshot a
// was built on: n is that snapshot's node (or a copy of it) with the
// removed pods, bound pods of that node, taken off. The removed pods'
// contributions (walker.node's, restricted to them) are subtracted at the
// node's pairs, and emptiness is read as On leaves it: whether a pair is
// still above 0.
func (t *AffinityTrial) Filter(n *cluster.NodeInfo, removed []*cluster.PodInfo) Status {
	a := t.a
	if len(removed) == 0 || a.skip {
		return a.Filter(n)
	}
	ix := &a.ix
	ni := ix.snapshotNode(n)
	ok := false
	if ni >= 0 {
		t.sets, ok = ix.removedSets(ni, removed, t.sets[:0])
	}
	if ok {
		t.refs, ok = removedAntiRefs(ix, ni, removed, t.refs[:0])
	}
	if !ok {
		return t.fallback(n, removed)
	}
	if t.w == nil {
		t.w = a.newLazyWalker(ix)
		t.exist = make([]*keyCounts, len(ix.view.TopologyKeys))
		for kid, key := range ix.view.TopologyKeys {
			for _, k := range a.existingAntiCounts.keys {
				if k.col.Key == key {
					t.exist[kid] = k
				}
			}
		}
		t.delta = map[*keyCounts]int64{}
	}
	w := t.w
	clear(t.delta)
	// Existing pods' required anti-affinity terms that match the pod.
	for _, r := range t.refs {
		if !a.existingMatches(r.Term, &ix.view.TermMatchers[r.Term], w.termMemo) {
			continue
		}
		if k := t.exist[ix.view.TermMatchers[r.Term].KeyID]; k != nil && k.col.Of[ni] >= 0 {
			t.delta[k]--
		}
	}
	existing := t.positiveAfter(&a.existingAntiCounts, ni)
	if existing == 0 && len(a.reqAff) == 0 && len(a.reqAnti) == 0 {
		return sched.Status{} // PreFilter's Skip on the view
	}
	// The pod's required terms against the removed pods (being deleted
	// included).
	affRemoved := w.countSets(t.sets)
	if affRemoved > 0 {
		for _, k := range a.affKeys {
			if k.col.Of[ni] >= 0 {
				t.delta[k] -= affRemoved
			}
		}
	}
	for j, c := range w.antiCount {
		if k := a.antiKeys[j]; c > 0 && k.col.Of[ni] >= 0 {
			t.delta[k] -= c
		}
	}
	// satisfyPodAffinity.
	podsExist := true
	for _, k := range a.affKeys {
		d := k.col.Of[ni]
		if d < 0 {
			return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.InterPodAffinity, Reasons: reasonsAffinity}
		}
		if k.get(d)+t.delta[k] <= 0 {
			podsExist = false
		}
	}
	if !podsExist && (t.positiveAfter(&a.affinityCounts, ni) > 0 || !a.selfMatchesAll) {
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: sched.InterPodAffinity, Reasons: reasonsAffinity}
	}
	for _, k := range a.antiKeys {
		if d := k.col.Of[ni]; d >= 0 && k.get(d)+t.delta[k] > 0 {
			return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsAntiAffinity}
		}
	}
	for _, k := range a.existingAntiCounts.keys {
		if d := k.col.Of[ni]; d >= 0 && k.get(d)+t.delta[k] > 0 {
			return sched.Status{Code: sched.Unschedulable, Plugin: sched.InterPodAffinity, Reasons: reasonsExistingAntiAff}
		}
	}
	return sched.Status{}
}

// positiveAfter is c.positive once t.delta is applied at node ni's pairs.
func (t *AffinityTrial) positiveAfter(c *topoCounts, ni int) int {
	p := c.positive
	for _, k := range c.keys {
		dk, ok := t.delta[k]
		if !ok || dk == 0 {
			continue
		}
		d := k.col.Of[ni]
		if d < 0 {
			continue
		}
		before := k.get(d)
		after := before + dk
		switch {
		case before > 0 && after <= 0:
			p--
		case before <= 0 && after > 0:
			p++
		}
	}
	return p
}

// removedAntiRefs appends the interned required anti-affinity terms of the
// removed pods, as node slot ni of x's view lists them (pod by pod in
// NodeInfo.PodsWithRequiredAntiAffinity order), or ok false when the
// lists do not line up.
func removedAntiRefs(x *interned, ni int, removed []*cluster.PodInfo, out []cluster.TermRef) ([]cluster.TermRef, bool) {
	refs := x.view.Node(ni).RequiredAntiAffinity
	with := x.nodes[ni].PodsWithRequiredAntiAffinity
	for _, p := range removed {
		if len(p.RequiredAntiAffinityTerms()) == 0 {
			continue
		}
		off, found := 0, false
		for _, q := range with {
			if q == p {
				found = true
				break
			}
			off += len(q.RequiredAntiAffinityTerms())
		}
		if !found {
			continue // not listed: walker.node does not count it either
		}
		end := off + len(p.RequiredAntiAffinityTerms())
		if end > len(refs) {
			return out, false
		}
		out = append(out, refs[off:end]...)
	}
	return out, true
}

// fallback answers through a snapshot view, for a node or pods the trial
// cannot place in the state's snapshot.
func (t *AffinityTrial) fallback(n *cluster.NodeInfo, removed []*cluster.PodInfo) Status {
	return filterOnView(t.a.snap, t.a, t.a.On, sched.InterPodAffinity, n, removed)
}
