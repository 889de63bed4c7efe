package preemption

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/labelmatch"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
)

// topologyScope decides, conservatively, which bound pods can change the
// preemptor's PodTopologySpread or InterPodAffinity PreFilter state when
// they leave a node: upstream's RemovePod/AddPod extensions only move counts
// for such pods (podtopologyspread updateWithPod: same namespace, matching a
// DoNotSchedule constraint's selector; interpodaffinity updateWithPod: a pod
// matching one of the preemptor's required terms, or one whose required
// anti-affinity terms could match the preemptor). A pod outside the scope
// leaves the state as compiled, so the dry run need not recompute it.
type topologyScope struct {
	spread      bool // the preemptor's PodTopologySpread filter is active
	affinity    bool // its InterPodAffinity filter is active
	all         bool // could not narrow: every pod is in scope
	ns          string
	spreadSels  []labelmatch.Matcher
	affinityPod *cluster.PodInfo
	podLabels   labels.Set
	// ownTerms flattens the preemptor's required affinity and anti-affinity
	// terms' selectors; ownAll is set when one has no selector (it then
	// counts every pod).
	ownTerms []labelmatch.Matcher
	ownAll   bool
	// candidates marks, by label-set ID of the snapshot's index, the sets
	// that one of spreadSels or ownTerms may match (LabelView.SetCandidates);
	// a pod whose set is unmarked (and below len) is outside labelsAffect
	// without matching. nil: not narrowed. Read-only once made.
	candidates []bool
}

// narrow fills candidates from the label index of snap (the snapshot the
// preemptor was compiled on) when every selector has an anchor.
func (s *topologyScope) narrow(snap *cluster.Snapshot) {
	if !s.active() || s.all || s.ownAll || snap == nil {
		return
	}
	var sels []*labelmatch.Matcher
	if s.spread {
		for i := range s.spreadSels {
			sels = append(sels, &s.spreadSels[i])
		}
	}
	if s.affinity {
		for i := range s.ownTerms {
			sels = append(sels, &s.ownTerms[i])
		}
	}
	if len(sels) == 0 {
		return
	}
	v := snap.Labels()
	cand := make([]bool, len(v.Sets))
	var buf [][]int32
	for _, m := range sels {
		lists, _, ok := v.SetCandidates(m, buf[:0])
		if !ok {
			return
		}
		for _, l := range lists {
			for _, id := range l {
				cand[id] = true
			}
		}
		buf = lists
	}
	s.candidates = cand
}

func newTopologyScope(c *placement.Compiled) *topologyScope {
	s := &topologyScope{
		spread:   !c.FilterSkipped(sched.PodTopologySpread),
		affinity: !c.FilterSkipped(sched.InterPodAffinity),
	}
	if !s.spread && !s.affinity {
		return s
	}
	pod := c.Pod()
	s.ns = podNamespace(pod)
	s.affinityPod = podInfoOf(c)
	s.podLabels = labels.Set(pod.Labels)
	if s.spread {
		for i := range pod.Spec.TopologySpreadConstraints {
			tc := &pod.Spec.TopologySpreadConstraints[i]
			if tc.WhenUnsatisfiable != corev1.DoNotSchedule {
				continue
			}
			sel, err := labelmatch.AsSelector(tc.LabelSelector)
			if err != nil {
				s.all = true
				continue
			}
			// Ignoring matchLabelKeys only widens the scope.
			s.spreadSels = append(s.spreadSels, labelmatch.New(sel))
		}
		if len(s.spreadSels) == 0 {
			// The hard constraints come from the profile's default
			// constraints (their selector is the pod's workloads'): do
			// not try to narrow.
			s.all = true
		}
	}
	if s.affinity {
		for _, terms := range [][]cluster.AffinityTerm{s.affinityPod.RequiredAffinityTerms(), s.affinityPod.RequiredAntiAffinityTerms()} {
			for i := range terms {
				if terms[i].Selector == nil {
					s.ownAll = true
				}
				s.ownTerms = append(s.ownTerms, labelmatch.New(terms[i].Selector))
			}
		}
	}
	return s
}

// active reports whether any topology filter runs for the preemptor.
func (s *topologyScope) active() bool { return s.spread || s.affinity }

// affects reports whether removing or adding p may change the state.
func (s *topologyScope) affects(p *cluster.PodInfo) bool {
	if !s.active() {
		return false
	}
	if s.all {
		return true
	}
	return s.labelsAffect(p) || s.antiAffinityAffects(p)
}

// labelsAffect is the part of affects decided by p's namespace and labels
// alone: p counts for one of the preemptor's spread selectors or required
// terms.
func (s *topologyScope) labelsAffect(p *cluster.PodInfo) bool {
	if s.spread && podNamespace(p.Pod) == s.ns {
		for i := range s.spreadSels {
			if s.spreadSels[i].Matches(p.Pod.Labels) {
				return true
			}
		}
	}
	if s.affinity {
		if s.ownAll {
			return true
		}
		for i := range s.ownTerms {
			if s.ownTerms[i].Matches(p.Pod.Labels) {
				return true
			}
		}
	}
	return false
}

// antiAffinityAffects is the part of affects decided by p's own required
// anti-affinity terms.
func (s *topologyScope) antiAffinityAffects(p *cluster.PodInfo) bool {
	if !s.affinity || !p.HasRequiredAntiAffinity() {
		return false
	}
	terms := p.RequiredAntiAffinityTerms()
	if len(terms) == 0 {
		return true // not compiled: cannot narrow
	}
	// Only an anti-affinity term that selects the preemptor moves
	// existingAntiAffinityCounts (namespaces ignored: wider).
	for i := range terms {
		if sel := terms[i].Selector; sel == nil || sel.Matches(s.podLabels) {
			return true
		}
	}
	return false
}

// scopeMemo is affects with labelsAffect decided once per interned label
// set of the snapshot's index (cluster.Snapshot.PodLabelSet) instead of
// once per removed pod: a dry run removes many pods that share a workload's
// labels, and matching selectors against label maps was a visible share of
// the queue's CPU. Not safe for concurrent use: each dry-run worker keeps
// its own (they are per preemptor, so the memo never outlives a scope).
type scopeMemo struct {
	scope *topologyScope
	snap  *cluster.Snapshot
	// bySet holds labelsAffect by set ID: 0 not yet decided, 1 no, 2 yes.
	bySet []uint8
}

func (m *scopeMemo) affects(p *cluster.PodInfo) bool {
	s := m.scope
	if !s.active() {
		return false
	}
	if s.all {
		return true
	}
	return m.labelsAffect(p) || s.antiAffinityAffects(p)
}

func (m *scopeMemo) labelsAffect(p *cluster.PodInfo) bool {
	id, ok := m.snap.PodLabelSet(p)
	if !ok || id < 0 {
		return m.scope.labelsAffect(p)
	}
	if c := m.scope.candidates; c != nil && int(id) < len(c) && !c[id] {
		return false
	}
	if int(id) >= len(m.bySet) {
		m.bySet = append(m.bySet, make([]uint8, int(id)+1-len(m.bySet))...)
	}
	switch m.bySet[id] {
	case 1:
		return false
	case 2:
		return true
	}
	r := m.scope.labelsAffect(p)
	m.bySet[id] = 1
	if r {
		m.bySet[id] = 2
	}
	return r
}

// hasRequiredAntiAffinity reads the spec (the scope asks the PodInfo).
func hasRequiredAntiAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil && len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
}
