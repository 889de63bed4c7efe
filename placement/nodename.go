package placement

// NodeName (pkg/scheduler/framework/plugins/nodename, v1.36): the Filter
// rejects every node but the one spec.nodeName names, when it names one.
// filter.go dispatches (localCode).

// reasonNodeName is the Filter's reason (nodename.ErrReason).
var reasonNodeName = []string{"node(s) didn't match the requested node name"}
