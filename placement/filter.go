package placement

import (
	"fmt"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// Each plugin's rules are in the file named after it; its reason texts are
// shared by every status that carries them and are copied before a caller
// sees them.

// Filter runs the Filter plugins on one node in profile order and returns the
// first rejection (with its plugin), or Success, as
// RunFilterPluginsWithNominatedPods does (without nominated pods). Plugins
// whose PreFilter returned Skip are not run. A failed PreFilter is returned
// as is. The PreFilter node restriction is not applied (see
// InPreFilterResult). It does not allocate for the common plugins. A nil
// node is an Error status.
func (c *Compiled) Filter(n *NodeInfo) framework.Status {
	return c.filter(internalNode(n)).Clone()
}

func (c *Compiled) filter(n *cluster.NodeInfo) framework.Status {
	if n == nil {
		return statusNilNode
	}
	if !c.preFilter.Code.Passes() {
		return c.preFilter
	}
	for _, i := range c.active {
		if st := c.filterOne(int(i), n); !st.Code.Passes() {
			if c.noState[i] {
				return noStateRun[i]
			}
			st.Plugin = filterNames[i]
			return st
		}
	}
	return sched.Status{}
}

// filterCode is Filter's status code alone, for Schedule's pass over every
// node: the node-local plugins' verdicts stay small codes and no status is
// built.
func (c *Compiled) filterCode(n *cluster.NodeInfo) sched.Code {
	code, _ := c.filterWhy(n)
	return code
}

// failure is what filterWhy records of a node's first failing filter, so
// that Filter's status can be rebuilt from it (statusOf) without running
// the filters again: the filter's index plus one in the low byte (0: none
// failed), its local code, failScalar or failNoState in the high byte.
type failure uint16

const (
	failScalar  = 0xff // NodeResourcesFit's extended-resource shortfall (fitsResources)
	failNoState = 0xfe // the filter's PreFilter did not run
)

func newFailure(p int, lc uint8) failure { return failure(p+1) | failure(lc)<<8 }

// filterWhy is filterCode with the failure that decided the code.
func (c *Compiled) filterWhy(n *cluster.NodeInfo) (sched.Code, failure) {
	if !c.preFilter.Code.Passes() {
		return c.preFilter.Code, 0
	}
	return c.filterWhyOf(n, c.active)
}

// filterWhyOf is filterWhy for a part of c.active (Filter plugins by
// position, in the order they run), on a node the PreFilters passed.
func (c *Compiled) filterWhyOf(n *cluster.NodeInfo, fs []int8) (sched.Code, failure) {
	for k, i := range fs {
		p := int(i)
		if c.noState[i] {
			return sched.Error, newFailure(p, failNoState)
		}
		switch p {
		case fPodTopologySpread:
			if c.spread != nil {
				if code := c.spread.Filter(n).Code; !code.Passes() {
					return code, newFailure(p, 0)
				}
			}
		case fInterPodAffinity:
			if c.ipa != nil {
				if code := c.ipa.FilterCode(n); !code.Passes() {
					return code, newFailure(p, 0)
				}
			}
		default:
			if code, f := c.localWhyOf(n, fs[k:k+1]); !code.Passes() {
				return code, f
			}
		}
	}
	return sched.Success, 0
}

// localWhyOf is filterWhyOf for node-local filters fs that all have their
// PreFilter's state (none is noState, as in every profile that pipelines):
// the same codes and failures, without the checks only the topology
// filters and a missing state need.
func (c *Compiled) localWhyOf(n *cluster.NodeInfo, fs []int8) (sched.Code, failure) {
	for _, i := range fs {
		p := int(i)
		lc, ok := c.localCode(p, n)
		if !ok {
			return c.scalarShortCode(n), newFailure(p, failScalar)
		}
		if lc != 0 {
			return localStatusCode(p, lc), newFailure(p, lc)
		}
	}
	return sched.Success, 0
}

// statusOf is filter(n) for a node whose filterWhy gave f: a node-local
// status is rebuilt from its code, and only a failing topology filter
// runs again (its reasons depend on the node).
func (c *Compiled) statusOf(n *cluster.NodeInfo, f failure) sched.Status {
	if f == 0 {
		if !c.preFilter.Code.Passes() {
			return c.preFilter
		}
		return sched.Status{}
	}
	p, lc := int(f&0xff)-1, uint8(f>>8)
	var st sched.Status
	switch {
	case lc == failNoState:
		return noStateRun[p]
	case !isLocal(p):
		st = c.filterOne(p, n)
	case lc == failScalar:
		st = c.fitsResources(n)
	default:
		st = localStatus(p, lc)
	}
	st.Plugin = filterNames[p]
	return st
}

// Fits reports whether the pod passes every Filter plugin on the node and
// the node is inside the PreFilter restriction.
func (c *Compiled) Fits(n *NodeInfo) bool { return c.fits(internalNode(n)) }

func (c *Compiled) fits(n *cluster.NodeInfo) bool {
	return n != nil && c.InPreFilterResult(n.Name) && c.filter(n).Code.Passes()
}

// noStateStatus[p] is filter p's Error when its PreFilter did not run
// (the plugins' getPreFilterState wording; cycleState's ErrNotFound).
var noStateStatus = [numFilters]sched.Status{
	fNodePorts:            {Code: sched.Error, Reasons: []string{`reading "PreFilterNodePorts" from cycleState: not found`}},
	fNodeResourcesFit:     {Code: sched.Error, Reasons: []string{`error reading "PreFilterNodeResourcesFit" from cycleState: not found`}},
	fPodTopologySpread:    {Code: sched.Error, Reasons: []string{`reading "PreFilterPodTopologySpread" from cycleState: not found`}},
	fInterPodAffinity:     {Code: sched.Error, Reasons: []string{`error reading "PreFilterInterPodAffinity" from cycleState: not found`}},
	fNodeDeclaredFeatures: {Code: sched.Error, Reasons: []string{`error reading "PreFilterNodeDeclaredFeatures" from cycle-state: not found`}},
}

// noStateRun[p] is noStateStatus[p] as RunFilterPlugins records it for the
// node: the Error wrapped with the plugin's name.
var noStateRun = func() (out [numFilters]sched.Status) {
	for p, st := range noStateStatus {
		if st.Code == sched.Error {
			out[p] = sched.Status{Code: sched.Error, Plugin: filterNames[p],
				Reasons: []string{fmt.Sprintf("running %q filter plugin: %s", filterNames[p], st.Reasons[0])}}
		}
	}
	return out
}()

// statusNilNode is Filter's answer for a nil node.
var statusNilNode = sched.Status{Code: sched.Error, Reasons: []string{"placement: nil node"}}

// FilterEach runs every Filter plugin on the node on its own (no
// short-circuit) and returns their verdicts in profile order, with Code Skip
// for a plugin whose PreFilter returned Skip. Statuses carry their plugin.
func (c *Compiled) FilterEach(n *NodeInfo) [NumFilters]framework.Status {
	all := c.filterEach(internalNode(n))
	for i := range all {
		all[i] = all[i].Clone()
	}
	return all
}

func (c *Compiled) filterEach(n *cluster.NodeInfo) [NumFilters]framework.Status {
	var out [numFilters]sched.Status
	for i := 0; i < numFilters; i++ {
		if n == nil {
			out[i] = statusNilNode
			out[i].Plugin = filterNames[i]
			continue
		}
		if c.skip[i] {
			out[i] = sched.Status{Code: sched.Skip, Plugin: filterNames[i]}
			continue
		}
		st := c.filterOne(i, n)
		st.Plugin = filterNames[i]
		out[i] = st
	}
	return out
}

func (c *Compiled) filterOne(i int, n *cluster.NodeInfo) sched.Status {
	if c.noState[i] {
		return noStateStatus[i]
	}
	switch i {
	case fPodTopologySpread:
		if c.spread != nil {
			return c.spread.Filter(n)
		}
		return sched.Status{}
	case fInterPodAffinity:
		if c.ipa != nil {
			return c.ipa.Filter(n)
		}
		return sched.Status{}
	}
	code, ok := c.localCode(i, n)
	if !ok {
		return c.fitsResources(n) // extended-resource shortfalls: reasons built per node
	}
	return localStatus(i, code)
}

// isLocal reports whether a filter reads only the pod and the node (every
// one but PodTopologySpread and InterPodAffinity): its verdict is a local
// code (localCode).
func isLocal(p int) bool { return p != fPodTopologySpread && p != fInterPodAffinity }

// Local verdict codes: 0 passes; NodeAffinity's 1 and 2 are the enforced
// (added) and the pod's own affinity; NodeResourcesFit's code is its
// fixed-shortfall mask (fitPods...) shifted left once, plus 1 when the
// shortfall is unresolvable; the other filters fail with 1.
const (
	codeAffinityEnforced = 1
	codeAffinityPod      = 2
	maxLocalCode         = 32 // NodeResourcesFit: 16 masks x 2
)

// localCode is node-local filter p's verdict on n as a code; ok is false
// when NodeResourcesFit finds an extended-resource shortfall, whose
// reasons only fitsResources builds. The filter logic lives here once:
// filterOne turns a code into its status (localStatus).
func (c *Compiled) localCode(p int, n *cluster.NodeInfo) (code uint8, ok bool) {
	switch p {
	case fNodeUnschedulable:
		if n.Unschedulable && !c.toleratesUnschedulable {
			return 1, true
		}
	case fNodeName:
		if c.pod.Spec.NodeName != "" && c.pod.Spec.NodeName != n.Name {
			return 1, true
		}
	case fTaintToleration:
		if c.untoleratedOn(n) {
			return 1, true
		}
	case fNodeAffinity:
		return c.nodeAffinityCode(n), true
	case fNodePorts:
		if len(n.UsedPorts) > 0 && c.portsConflict(n.UsedPorts) {
			return 1, true
		}
	case fNodeResourcesFit:
		mask, unresolvable, scalarShort := c.fitMask(n)
		if scalarShort {
			return 0, false
		}
		code = uint8(mask) << 1
		if unresolvable {
			code |= 1
		}
		return code, true
	case fNodeDeclaredFeatures:
		if !hasFeatures(n.Node.Status.DeclaredFeatures, c.features) {
			return 1, true
		}
	}
	return 0, true
}

// localStatusCode is localStatus(p, code).Code for a failing code.
func localStatusCode(p int, code uint8) sched.Code {
	switch {
	case p == fNodePorts:
		return sched.Unschedulable
	case p == fNodeResourcesFit && code&1 == 0:
		return sched.Unschedulable
	}
	return sched.UnschedulableAndUnresolvable
}

// localStatus is the status of node-local filter p's code, with upstream's
// reason texts (shared slices: never modified).
func localStatus(p int, code uint8) sched.Status {
	if code == 0 {
		return sched.Status{}
	}
	switch p {
	case fNodeUnschedulable:
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonUnschedulable}
	case fNodeName:
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonNodeName}
	case fTaintToleration:
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonTaint}
	case fNodeAffinity:
		if code == codeAffinityEnforced {
			return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonAffinityEnforced}
		}
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonAffinity}
	case fNodePorts:
		return sched.Status{Code: sched.Unschedulable, Reasons: reasonPorts}
	case fNodeResourcesFit:
		return fitStatus(fitReasons[code>>1], code&1 != 0)
	case fNodeDeclaredFeatures:
		return sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: reasonFeatures}
	}
	return sched.Status{}
}
