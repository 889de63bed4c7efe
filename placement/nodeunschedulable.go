package placement

// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable,
// v1.36): the Filter rejects a cordoned node (spec.unschedulable) unless
// the pod tolerates the node.kubernetes.io/unschedulable:NoSchedule taint
// (Compile: toleratesUnschedulable). filter.go dispatches (localCode).

// reasonUnschedulable is the Filter's reason
// (nodeunschedulable.ErrReasonUnschedulable).
var reasonUnschedulable = []string{"node(s) were unschedulable"}
