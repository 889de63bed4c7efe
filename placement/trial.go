package placement

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/topo"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement/framework"
)

// Trial asks the compiled pod's Filter plugins about single nodes of its
// snapshot with some of their bound pods taken off, as preemption's dry run
// does (SelectVictimsOnNode: RemovePod for each victim, then Filter). Its
// answer is the one c.On(c.Snapshot().WithoutPods(removed...)).Filter(n)
// gives, computed from the removed pods alone instead of a snapshot view and
// a new PreFilter state per node (topo.SpreadTrial,
// topo.AffinityTrial). A Trial holds scratch space: one goroutine uses
// it, and c is only read.
type Trial struct {
	c      *Compiled
	spread *topo.SpreadTrial
	ipa    *topo.AffinityTrial
}

// NewTrial returns a trial of c for one goroutine.
func (c *Compiled) NewTrial() *Trial {
	t := &Trial{c: c}
	if c.spread != nil {
		t.spread = c.spread.NewTrial()
	}
	if c.ipa != nil {
		t.ipa = c.ipa.NewTrial()
	}
	return t
}

// Filter runs the Filter plugins on n, a node of c's snapshot with the
// removed pods (bound pods of that node) already taken off
// (NodeInfo.Without): the node-local plugins read n, the topology plugins
// their states without the removed pods. With nothing removed it is
// c.Filter(n). A nil node or removed pod is an Error status.
func (t *Trial) Filter(n *NodeInfo, removed []*PodInfo) framework.Status {
	return t.filter(internalNode(n), wrap.Slice[cluster.PodInfo](removed)).Clone()
}

func (t *Trial) filter(n *cluster.NodeInfo, removed []*cluster.PodInfo) framework.Status {
	c := t.c
	if len(removed) == 0 || !c.preFilter.Code.Passes() || n == nil {
		return c.filter(n)
	}
	for _, p := range removed {
		if p == nil {
			return sched.Status{Code: sched.Error, Reasons: []string{"placement: nil pod among the removed ones"}}
		}
	}
	for _, i := range c.active {
		var st sched.Status
		switch p := int(i); {
		case c.noState[p]:
			st = noStateStatus[p]
		case p == fPodTopologySpread:
			if t.spread != nil {
				st = t.spread.Filter(n, removed)
			}
		case p == fInterPodAffinity:
			if t.ipa != nil {
				st = t.ipa.Filter(n, removed)
			}
		default:
			st = c.filterOne(p, n)
		}
		if !st.Code.Passes() {
			if c.noState[i] {
				return noStateRun[i]
			}
			st.Plugin = filterNames[i]
			return st
		}
	}
	return sched.Status{}
}
