package topo

import (
	"github.com/schedkit/schedkit/internal/cluster"
)

// changedNodes returns the node slots where view's NodeInfo differs from
// the one the state was built on, or ok false when view is not a view of the
// same snapshot (then the state must be built afresh).
func changedNodes(built *cluster.Snapshot, ix *interned, view *cluster.Snapshot) (changed []int, ok bool) {
	if built == nil || view == nil || !built.SharesIndex(view) {
		return nil, false
	}
	nodes := cluster.SlotsOf(view)
	if len(nodes) != len(ix.nodes) {
		return nil, false
	}
	if direct, ok := cluster.ChangedFromOf(view, built); ok {
		// A view made from built: only the nodes it names can differ.
		for _, i := range direct {
			if nodes[i] != ix.nodes[i] {
				changed = append(changed, int(i))
			}
		}
		return changed, true
	}
	for i, n := range nodes {
		if n != ix.nodes[i] {
			changed = append(changed, i)
		}
	}
	return changed, true
}

// onView returns the interned form of view for a state moving from x's
// snapshot to view (On): x's label view patched with the nodes view
// changed when view was made directly from x's snapshot, else view's own
// label view (a pass over every node).
func (x *interned) onView(view *cluster.Snapshot) interned {
	if direct, ok := cluster.ChangedFromOf(view, x.snap); ok {
		if lv, ok := x.view.Patched(view, direct); ok {
			return interned{snap: view, view: lv, nodes: cluster.SlotsOf(view)}
		}
	}
	return newInterned(view)
}

// On returns the spread state of the same pod on view, a view of the
// snapshot the receiver was built on (Snapshot.WithoutPods /
// WithPod, directly or not): what upstream's PreFilter extensions RemovePod
// and AddPod maintain during preemption's dry run. Only the nodes whose
// NodeInfo differs are counted again, so the cost is a pointer compare per
// node plus the changed nodes' pods, not a walk of the cluster. For any
// other snapshot it is NewSpread. The receiver is not modified; the result
// is the same as NewSpread(pod, view, opts) would give, except that, as
// upstream's updateWithPod (podtopologyspread/filtering.go) has no
// deletionTimestamp check, a matching pod being deleted still moves its
// domain's count when it leaves or rejoins a node, although PreFilter never
// counted it.
func (s *Spread) On(view *Snapshot) (*Spread, error) {
	if view == s.snap {
		return s, nil
	}
	changed, ok := changedNodes(s.snap, &s.ix, view)
	if !ok || (s.ix.view.NumNodes() == 0 && (len(s.hard) > 0 || len(s.soft) > 0)) || s.retainted(view, changed) {
		return NewSpreadPrepared(s.pi, view, s.opts, s.prep)
	}
	v := *s
	v.snap = view
	if len(s.hard) == 0 && len(s.soft) == 0 {
		v.ix = interned{nodes: cluster.SlotsOf(view)}
		return &v, nil
	}
	if _, direct := cluster.ChangedFromOf(view, s.snap); !direct && len(s.soft) == 0 && len(s.hard) > 0 {
		// Hard constraints only: Filter reads the nodes and the domain
		// columns, not the label view, so the view's interned labels (a
		// walk of every node) are not built; the changed nodes' pods are
		// counted directly below. A later On of this result compiles afresh.
		// (A view made directly from s's snapshot gets its label view by
		// its changed nodes alone, below.)
		return s.onHardOnly(&v, view, changed), nil
	}
	v.ix = s.ix.onView(view)
	if len(s.hard) == 0 || len(changed) == 0 {
		return &v, nil
	}
	var memos []memo
	v.domainCount, memos = s.copyCounts(&v.ix)
	for _, ni := range changed {
		if missingAny(s.cols, ni) {
			continue // never eligible: its pods never count
		}
		before, after := s.ix.nodes[ni], v.ix.nodes[ni]
		for i := range s.hard {
			c := &s.hard[i]
			if !s.incl.includes(c, ni, after) {
				continue
			}
			// Both counts read the same label index, so the memo serves both.
			delta := v.ix.countSpreadWith(&v.ix, after, &c.m, s.pod.Namespace, memos[c.selID]) -
				s.ix.countSpreadWith(&v.ix, before, &c.m, s.pod.Namespace, memos[c.selID])
			v.domainCount[i][s.cols[i].Of[ni]] += delta
		}
	}
	v.setMinimums()
	return &v, nil
}

// retainted reports whether a changed node of view is another Node object
// than s's while a constraint honors taints (nodeTaintsPolicy Honor): a
// view that taints a node or takes a taint off (cluster's WithNode keeps
// the label index for that) may include or exclude the node from the
// counts, which the pod-by-pod update of On does not redo.
func (s *Spread) retainted(view *Snapshot, changed []int) bool {
	if !honorsTaints(s.hard) && !honorsTaints(s.soft) {
		return false
	}
	after := cluster.SlotsOf(view)
	for _, ni := range changed {
		before := s.ix.nodes[ni]
		if before == nil || ni >= len(after) || after[ni] == nil || before.Node != after[ni].Node {
			return true
		}
	}
	return false
}

// onHardOnly finishes On for a state with only hard constraints: v.ix keeps
// the view's nodes and no label view (nodeLabels then gives nil, so any
// count on it walks the pods), and each changed node's count moves by its
// pods after minus before, the pods being deleted included (updateWithPod).
func (s *Spread) onHardOnly(v *Spread, view *Snapshot, changed []int) *Spread {
	v.ix = interned{snap: view, nodes: cluster.SlotsOf(view)}
	if len(changed) == 0 {
		return v
	}
	var memos []memo
	v.domainCount, memos = s.copyCounts(&s.ix)
	var direct interned // no nodes: countSpreadWith walks the pods
	for _, ni := range changed {
		if missingAny(s.cols, ni) {
			continue
		}
		before, after := s.ix.nodes[ni], v.ix.nodes[ni]
		for i := range s.hard {
			c := &s.hard[i]
			if !s.incl.includes(c, ni, after) {
				continue
			}
			delta := direct.countSpreadWith(nil, after, &c.m, s.pod.Namespace, nil) -
				s.ix.countSpreadWith(&s.ix, before, &c.m, s.pod.Namespace, memos[c.selID])
			v.domainCount[i][s.cols[i].Of[ni]] += delta
		}
	}
	v.setMinimums()
	return v
}

// countSpreadWith is countSpread on a node of x, with a lazy memo (newMemo,
// filled on first use, namespace included) for m and ns on view y of the
// same index, whose label-set table is larger or equal, counting
// the pods being deleted too: what upstream's AddPod/RemovePod add and
// subtract (updateWithPod).
func (x *interned) countSpreadWith(y *interned, n *cluster.NodeInfo, m *matcher, ns string, mm memo) int {
	if m.empty() || m.Nothing() {
		return 0
	}
	nl := x.nodeLabels(n)
	if nl == nil {
		c := 0
		for _, pi := range n.Pods {
			if pi.Pod.Namespace == ns && m.matches(pi.Pod.Labels) {
				c++
			}
		}
		return c
	}
	c := 0
	for _, id := range nl.Sets {
		if id < 0 {
			id = -1 - id // being deleted
		}
		if mm[id] == 0 && ns != "" && y.view.Sets[id].Namespace != ns {
			mm[id] = 2
		}
		if y.setMatches(id, m, mm) {
			c++
		}
	}
	return c
}

// On returns the affinity state of the same pod on view, a view of the
// snapshot the receiver was built on, as upstream's RemovePod / AddPod keep
// it during preemption's dry run: the changed nodes' old contributions are
// subtracted and their new ones added. The result is the same as
// NewInterPodAffinity(pod, view, opts) would give, PreFilter's Skip
// included (in a dry run that only removes and re-adds pods this agrees with
// upstream keeping the cycle's Skip: a view can only lose matches the
// receiver had). For any other snapshot it is NewInterPodAffinity. The
// receiver is not modified.
func (a *InterPodAffinity) On(view *Snapshot) (*InterPodAffinity, error) {
	if view == a.snap {
		return a, nil
	}
	if a.bare {
		return NewInterPodAffinity(a.pi, view, a.opts)
	}
	changed, ok := changedNodes(a.snap, &a.ix, view)
	if !ok {
		return NewInterPodAffinity(a.pi, view, a.opts)
	}
	v := *a
	v.snap = view
	v.ix = a.ix.onView(view)
	v.existingMemo, v.existingCands = nil, nil // about a's tables
	if len(changed) == 0 {
		return &v, nil
	}
	// Copy the counts; the required terms' keys point into the copies.
	remap := map[*keyCounts]*keyCounts{}
	v.affinityCounts = a.affinityCounts.clone(remap)
	v.antiAffinityCounts = a.antiAffinityCounts.clone(remap)
	v.existingAntiCounts = a.existingAntiCounts.clone(remap)
	v.affKeys = make([]*keyCounts, len(a.affKeys))
	for i, k := range a.affKeys {
		v.affKeys[i] = remap[k]
	}
	v.antiKeys = make([]*keyCounts, len(a.antiKeys))
	for i, k := range a.antiKeys {
		v.antiKeys[i] = remap[k]
	}
	// The old nodes are read through the receiver's index, with memos sized
	// for the view's (which only grows).
	wNew := v.newLazyWalker(&v.ix)
	wOld := *wNew
	wOld.ix = &a.ix
	for _, i := range changed {
		wOld.node(i, -1)
		wNew.node(i, 1)
	}
	// Upstream drops a pair whose count returns to 0: emptiness is about
	// the counts, not about what was ever added.
	v.affinityCounts.nonEmpty = v.affinityCounts.anyPositive()
	v.antiAffinityCounts.nonEmpty = v.antiAffinityCounts.anyPositive()
	v.existingAntiCounts.nonEmpty = v.existingAntiCounts.anyPositive()
	v.skip = !v.existingAntiCounts.nonEmpty && len(v.reqAff) == 0 && len(v.reqAnti) == 0
	return &v, nil
}

// clone copies the counts, each key's sharing c's until it is first changed
// (keyCounts.shared), recording old -> new key counts in remap.
func (c *topoCounts) clone(remap map[*keyCounts]*keyCounts) topoCounts {
	out := topoCounts{nonEmpty: c.nonEmpty, positive: c.positive, keys: make([]*keyCounts, len(c.keys))}
	for i, k := range c.keys {
		nk := &keyCounts{col: k.col, counts: k.counts, nz: k.nz, ids: k.ids, vals: k.vals, shared: true}
		out.keys[i] = nk
		remap[k] = nk
	}
	return out
}

func (c *topoCounts) anyPositive() bool { return c.positive > 0 }

// copyCounts returns a copy of the hard constraints' domain counts, for a
// view's state to move, and one lazy memo per distinct selector, sized by
// ix's label sets (few nodes are counted, so memos fill on use).
func (s *Spread) copyCounts(ix *interned) ([][]int, []memo) {
	counts := make([][]int, len(s.hard))
	for i := range s.hard {
		counts[i] = append([]int(nil), s.domainCount[i]...)
	}
	nSel := 0
	for i := range s.hard {
		nSel = max(nSel, s.hard[i].selID+1)
	}
	memos := make([]memo, nSel)
	for i := range s.hard {
		if memos[s.hard[i].selID] == nil {
			memos[s.hard[i].selID] = ix.newMemo()
		}
	}
	return counts, memos
}
