package placement

// Added by the preemption work: the dry run of DefaultPreemption needs every
// Filter plugin's verdict for one pod on one node of a view.

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// FilterNode runs PreFilter and every Filter plugin for pod on the named node
// of snap, as RunFilterPluginsWithNominatedPods does in preemption's dry run,
// and returns the first failing plugin's status (Success when all pass).
// It does not modify its arguments.
func FilterNode(snap *Snapshot, pod *corev1.Pod, node string, opts Options) (sched.Status, error) {
	r, err := Evaluate(snap, pod, opts)
	if err != nil {
		return sched.Status{}, err
	}
	if r == nil {
		return sched.Status{}, fmt.Errorf("placement: no evaluation")
	}
	for _, n := range r.Nodes {
		if n.Node != node {
			continue
		}
		return toStatus(n.Status), nil
	}
	return sched.Status{}, fmt.Errorf("placement: unknown node %q", node)
}

func toStatus(p PluginStatus) sched.Status {
	st := sched.Status{Plugin: p.Plugin, Reasons: p.Reasons}
	switch p.Code {
	case "", "Success", "Skip":
		st.Code = sched.Success
	case "Unschedulable":
		st.Code = sched.Unschedulable
	case "UnschedulableAndUnresolvable":
		st.Code = sched.UnschedulableAndUnresolvable
	default:
		st.Code = sched.Error
	}
	return st
}
