package placement

// Added by the preemption work: the dry run of DefaultPreemption needs every
// Filter plugin's verdict for one pod on one node of a view.

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// FilterNode runs PreFilter and every Filter plugin for pod on the named node
// of snap, as RunFilterPluginsWithNominatedPods does in preemption's dry run,
// and returns the first failing plugin's status (Success when all pass). The
// PreFilter node restriction is not applied (preemption only dry-runs nodes
// inside it). It compiles the pod each time: callers that try many views
// should Compile once and use (*Compiled).On and (*Compiled).Filter.
// It does not modify its arguments.
func FilterNode(snap *Snapshot, pod *corev1.Pod, node string, opts Options) (framework.Status, error) {
	c, err := Compile(snap, pod, opts)
	if err != nil {
		return sched.Status{}, err
	}
	n, ok := cluster.NodeOf(internalOf(snap), node)
	if !ok {
		return sched.Status{}, fmt.Errorf("%w %q", ErrUnknownNode, node)
	}
	return c.filter(n).Clone(), nil
}
