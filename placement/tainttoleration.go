package placement

import (
	"encoding/binary"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/taints"
)

// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration, v1.36):
// the Filter rejects a node with a NoSchedule or NoExecute taint the pod does
// not tolerate (UnschedulableAndUnresolvable); the Score counts the
// untolerated PreferNoSchedule taints, normalized in reverse. Compile keeps
// the tolerations that can match each effect; filter.go dispatches
// (localCode) and score.go normalizes.

// reasonTaint is the Filter's reason (tainttoleration Filter).
var reasonTaint = []string{"node(s) had untolerated taint(s)"}

// taintVerdict is the pod's TaintToleration answer for one of the
// snapshot's distinct taint lists (cluster.TaintSetsOf).
type taintVerdict struct {
	untolerated bool  // Filter: a NoSchedule or NoExecute taint is not tolerated
	prefer      int64 // Score: the untolerated PreferNoSchedule taints
}

// indexTaints answers the pod's tolerations against each distinct taint
// list of the snapshot, once, so that the filter and score passes read a
// node's answer by its NodeInfo.TaintSet instead of matching its taints
// (which, on a large cluster, also means a cache miss per node). nil,
// leaving every node to its own taints, when the lists are not many fewer
// than the nodes or a PreFilter result keeps the pass to a few nodes.
func (c *Compiled) indexTaints() []taintVerdict {
	sets := cluster.TaintSetsOf(c.snap)
	if !c.indexesTaints(sets) {
		return nil
	}
	return c.taintVerdictsOf(sets)
}

// indexesTaints reports whether indexTaints answers the pod per taint list
// of sets (the snapshot's).
func (c *Compiled) indexesTaints(sets [][]corev1.Taint) bool {
	return len(sets) > 1 && !c.restricted && 4*(len(sets)-1) <= len(cluster.NodesOf(c.snap))
}

// taintMemo keeps the taint verdicts of a series of decisions on one
// snapshot's views (a scheduling queue) by tolerations: the views share
// the snapshot's taint lists, most pods of a queue share their
// tolerations with others, and a pod's verdicts depend on nothing else
// (taints.Untolerated and intolerablePreferTaints read the tolerations'
// key, operator, value and effect). Answering every list again was 5 us
// of each pod's serial path on a 1000-node mixed queue with 50 lists.
type taintMemo struct {
	sets     [][]corev1.Taint // the lists the verdicts are for
	verdicts map[string][]taintVerdict
	key      []byte
}

// maxTaintMemo bounds the tolerations a taintMemo keeps verdicts for.
const maxTaintMemo = 1024

// indexTaints is c.indexTaints() through m (nil: none): the verdicts of an
// earlier pod with the same tolerations on the same taint lists, shared
// (read-only, as every Compiled's are).
func (m *taintMemo) indexTaints(c *Compiled) []taintVerdict {
	if m == nil {
		return c.indexTaints()
	}
	sets := cluster.TaintSetsOf(c.snap)
	if !c.indexesTaints(sets) {
		return nil
	}
	if len(m.sets) != len(sets) || &m.sets[0] != &sets[0] {
		m.sets, m.verdicts = sets, map[string][]taintVerdict{}
	}
	m.key = appendTolerationsKey(m.key[:0], c.tolerations)
	if v, ok := m.verdicts[string(m.key)]; ok {
		return v
	}
	v := c.taintVerdictsOf(sets)
	if len(m.verdicts) < maxTaintMemo {
		m.verdicts[string(m.key)] = v
	}
	return v
}

// appendTolerationsKey appends an unambiguous encoding of what
// taints.Tolerates reads of each toleration, in order.
func appendTolerationsKey(b []byte, ts []corev1.Toleration) []byte {
	b = binary.AppendUvarint(b, uint64(len(ts)))
	for i := range ts {
		t := &ts[i]
		for _, f := range [4]string{t.Key, string(t.Operator), t.Value, string(t.Effect)} {
			b = cluster.AppendKeyString(b, f)
		}
	}
	return b
}

// taintVerdictsOf is the pod's taintVerdict for each of sets (by ID).
func (c *Compiled) taintVerdictsOf(sets [][]corev1.Taint) []taintVerdict {
	v := make([]taintVerdict, len(sets))
	for id := 1; id < len(sets); id++ {
		v[id] = taintVerdict{untolerated: taints.Untolerated(sets[id], c.tolerations), prefer: c.intolerablePreferTaints(sets[id])}
	}
	return v
}

// untoleratedOn is taints.Untolerated for n's taints and the pod's
// tolerations, through the snapshot's taint lists when n's is one of them.
func (c *Compiled) untoleratedOn(n *cluster.NodeInfo) bool {
	if id := int(n.TaintSet); id > 0 && id < len(c.taintVerdicts) {
		return c.taintVerdicts[id].untolerated
	}
	return len(n.Taints) > 0 && taints.Untolerated(n.Taints, c.tolerations)
}

// preferTaintsOn is intolerablePreferTaints for n's taints, as
// untoleratedOn reads them.
func (c *Compiled) preferTaintsOn(n *cluster.NodeInfo) int64 {
	if id := int(n.TaintSet); id > 0 && id < len(c.taintVerdicts) {
		return c.taintVerdicts[id].prefer
	}
	return c.intolerablePreferTaints(n.Taints)
}

// intolerablePreferTaints counts the node's PreferNoSchedule taints that no
// toleration with an empty or PreferNoSchedule effect tolerates.
func (c *Compiled) intolerablePreferTaints(nodeTaints []corev1.Taint) int64 {
	var n int64
	for i := range nodeTaints {
		t := &nodeTaints[i]
		if t.Effect != corev1.TaintEffectPreferNoSchedule {
			continue
		}
		if !taints.ToleratesAny(c.preferTolerations, t) {
			n++
		}
	}
	return n
}
