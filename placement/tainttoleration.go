package placement

import (
	corev1 "k8s.io/api/core/v1"

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
