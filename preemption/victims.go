package preemption

import (
	"slices"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// ReasonNoVictims is SelectVictimsOnNode's status when the node has no pod of
// lower priority than the preemptor.
const ReasonNoVictims = "No preemption victims found for incoming pod"

// ReasonNotHelpful is the status preemption gives every node it did not
// dry-run (Evaluator.Preempt, absent nodes of its FitError).
const ReasonNotHelpful = "Preemption is not helpful for scheduling"

// trial is one potential node of the dry run: a private view of the node
// and of the preemptor's PreFilter state that pods can be taken out of and
// put back into, as SelectVictimsOnNode does with nodeInfo.RemovePod /
// AddPodInfo plus RunPreFilterExtensionRemovePod / AddPod.
type trial interface {
	remove(p *cluster.PodInfo)
	// removeBelow takes off every pod of priority below priority: pods,
	// in the order upstream removes them (the node's).
	removeBelow(priority int32, pods []*cluster.PodInfo)
	add(p *cluster.PodInfo)
	// filter runs every Filter plugin for the preemptor on the current view
	// (RunFilterPluginsWithNominatedPods) and returns the first failure.
	filter() sched.Status
	// err is the first error a filter call met since the trial began (an
	// invalid input the dry run could not evaluate), or nil.
	err() error
}

// victimSet is the outcome of the dry run on one node.
type victimSet struct {
	victims       []Victim
	numViolations int
	status        sched.Status // Success for a candidate
	key           candidateKey // victimsKey(victims), for pickKeyed
}

// importance orders potential victims most important first, as
// util.MoreImportantPod does: higher priority, then earlier start. Upstream
// sorts with the unstable sort.Slice starting from the node's pod order
// (NodeInfo.Order); doing the same here places equal pods exactly as it does.
// slices.SortFunc runs the same pdqsort (both are generated from one
// template), so it gives sort.Slice's order without its allocations
// (TestSortFuncMatchesSortSlice).
type rankedPod struct {
	pi    *cluster.PodInfo
	start int64
}

func moreImportant(a, b *rankedPod) int {
	if a.pi.Priority != b.pi.Priority {
		if a.pi.Priority > b.pi.Priority {
			return -1
		}
		return 1
	}
	switch {
	case a.start < b.start:
		return -1
	case a.start > b.start:
		return 1
	}
	return 0
}

// selectVictims mirrors DefaultPreemption.SelectVictimsOnNode (v1.36): take
// every pod of lower priority than the preemptor off the node; if the
// preemptor still does not fit, the node is no candidate; otherwise put the
// pods back one at a time, most important first, the PDB-violating ones
// before the others, keeping back each one with which the preemptor still
// fits. The ones that cannot come back are the victims; the violating ones
// among them are counted.
func (pr *preemptor) selectVictims(n *cluster.NodeInfo, t trial) victimSet {
	ranked := pr.scratch[:0]
	pods := n.Order
	if len(pods) != len(n.Pods) {
		pods = n.Pods // a node built without its upstream order
	}
	for _, pi := range pods {
		if pi.Priority < pr.priority {
			ranked = append(ranked, rankedPod{pi: pi})
		}
	}
	pr.scratch = ranked
	if len(ranked) == 0 {
		return victimSet{status: sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: []string{ReasonNoVictims}}}
	}
	below := pr.below[:0]
	for i := range ranked {
		below = append(below, ranked[i].pi)
	}
	pr.below = below
	t.removeBelow(pr.priority, below)
	if st := t.filter(); !st.OK() {
		return victimSet{status: st}
	}
	// Start times only order the pods put back: most nodes fail the filter
	// above, so they are read only now.
	for i := range ranked {
		ranked[i].start = startNanos(pr.startTime(ranked[i].pi))
	}
	slices.SortFunc(ranked, func(a, b rankedPod) int { return moreImportant(&a, &b) })

	// filterPodsWithPDBViolation: split, keeping the importance order.
	w := pr.budgets.walk()
	violating, other, broken := pr.violating[:0], pr.other[:0], pr.broken[:0]
	for i := range ranked {
		var b []string
		if w.next(ranked[i].pi.Pod, &b) {
			violating = append(violating, i)
		} else {
			other = append(other, i)
		}
		broken = append(broken, b)
	}
	pr.violating, pr.other, pr.broken = violating, other, broken

	// At most every ranked pod becomes a victim.
	vs := victimSet{victims: pr.victimSlots(len(ranked))}
	reprieve := func(i int) bool {
		pi := ranked[i].pi
		t.add(pi)
		if t.filter().OK() {
			return true
		}
		t.remove(pi)
		vs.victims = append(vs.victims, pr.victim(n, &ranked[i], broken[i]))
		return false
	}
	for _, i := range violating {
		if !reprieve(i) {
			vs.numViolations++
		}
	}
	for _, i := range other {
		reprieve(i)
	}
	if len(violating) > 0 && len(other) > 0 {
		slices.SortFunc(vs.victims, func(a, b Victim) int {
			ra := rankedPod{pi: &cluster.PodInfo{Priority: a.Priority}, start: startNanos(a.StartTime)}
			rb := rankedPod{pi: &cluster.PodInfo{Priority: b.Priority}, start: startNanos(b.StartTime)}
			return moreImportant(&ra, &rb)
		})
	}
	vs.key = victimsKey(vs.victims)
	if len(vs.victims) == 0 {
		// Every pod came back: upstream turns this into an Error status
		// ("expected at least one victim pod on node"); it cannot happen
		// when the preemptor did not fit the node with all of them.
		vs.status = sched.Status{Code: sched.Error, Reasons: []string{`expected at least one victim pod on node "` + n.Name + `"`}}
	}
	return vs
}
