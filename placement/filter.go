package placement

import (
	"github.com/schedkit/schedkit/placement/framework"

	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/taints"
)

// Reason texts, exactly as the v1.36 plugins write them. The slices are
// shared by every status that carries them and must never be modified.
var (
	reasonUnschedulable    = []string{"node(s) were unschedulable"}                                 // nodeunschedulable.ErrReasonUnschedulable
	reasonNodeName         = []string{"node(s) didn't match the requested node name"}               // nodename.ErrReason
	reasonTaint            = []string{"node(s) had untolerated taint(s)"}                           // tainttoleration Filter
	reasonAffinity         = []string{"node(s) didn't match Pod's node affinity/selector"}          // nodeaffinity.ErrReasonPod
	reasonAffinityEnforced = []string{"node(s) didn't match scheduler-enforced node affinity"}      // nodeaffinity errReasonEnforced
	reasonAffinityConflict = []string{"pod affinity terms conflict"}                                // nodeaffinity errReasonConflict
	reasonPorts            = []string{"node(s) didn't have free ports for the requested pod ports"} // nodeports.ErrReason
	reasonFeatures         = []string{"node(s) didn't match Pod's required features"}               // nodedeclaredfeatures
)

// Bits of the fixed NodeResourcesFit shortfalls, in fitsRequest's order.
const (
	fitPods = 1 << iota
	fitCPU
	fitMemory
	fitEphemeral
)

// fitReasons[mask] is the reason list for a combination of fixed shortfalls,
// built once so that a failing node costs no allocation.
var fitReasons = func() [16][]string {
	var t [16][]string
	texts := [4]string{"Too many pods", "Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"}
	for m := 1; m < 16; m++ {
		for b := 0; b < 4; b++ {
			if m&(1<<b) != 0 {
				t[m] = append(t[m], texts[b])
			}
		}
	}
	return t
}()

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
	if !c.preFilter.Code.Passes() {
		return c.preFilter.Code
	}
	for _, i := range c.active {
		if c.noState[i] {
			return sched.Error
		}
		switch p := int(i); p {
		case fPodTopologySpread:
			if c.spread != nil {
				if code := c.spread.Filter(n).Code; !code.Passes() {
					return code
				}
			}
		case fInterPodAffinity:
			if c.ipa != nil {
				if code := c.ipa.Filter(n).Code; !code.Passes() {
					return code
				}
			}
		default:
			lc, ok := c.localCode(p, n)
			if !ok {
				return c.scalarShortCode(n)
			}
			if lc != 0 {
				return localStatusCode(p, lc)
			}
		}
	}
	return sched.Success
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
		if len(n.Taints) > 0 && c.hasUntoleratedTaint(n.Taints) {
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

// hasUntoleratedTaint is FindMatchingUntoleratedTaint over the NoSchedule and
// NoExecute taints.
func (c *Compiled) hasUntoleratedTaint(nodeTaints []corev1.Taint) bool {
	for i := range nodeTaints {
		t := &nodeTaints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if !taints.ToleratesAny(c.tolerations, t) {
			return true
		}
	}
	return false
}

// matchesRequiredAffinity is RequiredNodeAffinity.Match: nodeSelector AND
// the required node selector terms.
func (c *Compiled) matchesRequiredAffinity(node *corev1.Node) bool {
	if !matchesPairs(c.nodeSelectorPairs, node) {
		return false
	}
	return c.required == nil || c.required.Matches(node)
}

// portsConflict is fitsPorts / HostPortInfo.CheckConflict: a wildcard wanted
// port clashes with the same protocol and port on any IP; a specific IP
// clashes with the wildcard or the same IP.
func (c *Compiled) portsConflict(used []cluster.HostPort) bool {
	for _, want := range c.ports {
		for _, u := range used {
			if u.Port != want.Port || u.Protocol != want.Protocol {
				continue
			}
			if want.IP == "0.0.0.0" || u.IP == "0.0.0.0" || u.IP == want.IP {
				return true
			}
		}
	}
	return false
}

// fitMask is the fixed part of NodeResourcesFit's Filter (fitsRequest,
// v1.36): the shortfalls of pod count, cpu, memory and ephemeral storage
// as fitPods... bits, whether one of them is unresolvable (the request
// exceeds the node's allocatable outright, so preemption cannot help), and
// whether some extended (scalar) resource falls short too.
func (c *Compiled) fitMask(n *cluster.NodeInfo) (mask int, unresolvable, scalarShort bool) {
	if int64(len(n.Pods))+1 > n.Allocatable.AllowedPodNumber {
		mask |= fitPods
	}
	r := &c.req
	if r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(r.Scalar) == 0 {
		return mask, false, false
	}
	a, q := &n.Allocatable, &n.Requested
	if r.MilliCPU > 0 && r.MilliCPU > a.MilliCPU-q.MilliCPU {
		mask |= fitCPU
		unresolvable = unresolvable || r.MilliCPU > a.MilliCPU
	}
	if r.Memory > 0 && r.Memory > a.Memory-q.Memory {
		mask |= fitMemory
		unresolvable = unresolvable || r.Memory > a.Memory
	}
	if r.EphemeralStorage > 0 && r.EphemeralStorage > a.EphemeralStorage-q.EphemeralStorage {
		mask |= fitEphemeral
		unresolvable = unresolvable || r.EphemeralStorage > a.EphemeralStorage
	}
	for _, name := range c.reqScalars {
		if r.Scalar[name] > a.Scalar[name]-q.Scalar[name] {
			scalarShort = true
			break
		}
	}
	return mask, unresolvable, scalarShort
}

// fitsResources is NodeResourcesFit's Filter (fitsRequest, v1.36): pod
// count, then cpu, memory, ephemeral storage and scalar resources; a
// shortfall where the request exceeds the node's allocatable outright makes
// the status UnschedulableAndUnresolvable (preemption cannot help).
func (c *Compiled) fitsResources(n *cluster.NodeInfo) sched.Status {
	mask, unresolvable, scalarShort := c.fitMask(n)
	if scalarShort {
		r, a, q := &c.req, &n.Allocatable, &n.Requested
		reasons := make([]string, 0, 4+len(c.reqScalars))
		reasons = append(reasons, fitReasons[mask]...)
		for _, name := range c.reqScalars {
			want := r.Scalar[name]
			if want > a.Scalar[name]-q.Scalar[name] {
				reasons = append(reasons, "Insufficient "+string(name))
				unresolvable = unresolvable || want > a.Scalar[name]
			}
		}
		return fitStatus(reasons, unresolvable)
	}
	if mask == 0 {
		return sched.Status{}
	}
	return fitStatus(fitReasons[mask], unresolvable)
}

// scalarShortCode is fitsResources(n).Code for a node where a scalar
// resource falls short (fitMask's scalarShort), without building the
// reasons: a shortfall is unresolvable when a request exceeds the node's
// allocatable outright (a request above allocatable is above what is
// left too).
func (c *Compiled) scalarShortCode(n *cluster.NodeInfo) sched.Code {
	_, unresolvable, _ := c.fitMask(n)
	for _, name := range c.reqScalars {
		if c.req.Scalar[name] > n.Allocatable.Scalar[name] {
			unresolvable = true
		}
	}
	if unresolvable {
		return sched.UnschedulableAndUnresolvable
	}
	return sched.Unschedulable
}

func fitStatus(reasons []string, unresolvable bool) sched.Status {
	code := sched.Unschedulable
	if unresolvable {
		code = sched.UnschedulableAndUnresolvable
	}
	return sched.Status{Code: code, Reasons: reasons}
}

// hasFeatures reports whether every required feature is declared by the node.
func hasFeatures(declared, required []string) bool {
	for _, r := range required {
		found := false
		for _, d := range declared {
			if d == r {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
