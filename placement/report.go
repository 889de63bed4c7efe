package placement

import "github.com/schedkit/schedkit/placement/framework"

// Result is one pending pod evaluated against a snapshot (Evaluate): every
// node's verdict with every plugin's status and score, what kube-scheduler's
// cycle computes for the pod, kept rather than thrown away. A Result is the
// caller's: no other call changes it. Nodes whose filters all gave the same
// verdicts share one Filters list.
type Result struct {
	Pod                    string            // namespace/name
	Priority               int32             // spec.priority, 0 when unset
	Gated                  *framework.Status // SchedulingGates' rejection; nothing else ran
	PreFilter              PreFilterResult   // what PreFilter decided
	FeasibleNodes          []string          // in name order; empty (not nil) when none
	PreScoreSkippedPlugins []string          // PreScore returned Skip, sorted
	BestNodes              []string          // feasible nodes with the top total, name order; empty (not nil) when none
	Message                string            // FitError's text when no node is feasible
	Error                  string            // invalid input or a plugin Error
	Nodes                  []NodeResult      // every node, in name order
}

// PreFilterResult is what the PreFilter phase decided.
type PreFilterResult struct {
	Status               framework.Status // the aggregated PreFilter status
	SkippedFilterPlugins []string         // PreFilter returned Skip, sorted
	NodeNames            []string         // the node restriction, sorted; empty: none
	RestrictedBy         []string         // the plugins that restricted the nodes
}

// NodeResult is the verdict on one node.
type NodeResult struct {
	Node                string             // the node's name
	Feasible            bool               // every filter passed
	ExcludedByPreFilter bool               // outside PreFilter's node restriction
	Status              framework.Status   // what upstream records: the first failure
	Filters             []framework.Status // every Filter plugin run on its own, in profile order
	Scores              []PluginScore      // feasible nodes only, in profile order
	TotalScore          *int64             // the sum of Scores' Weighted; nil when not scored
}

// Total returns TotalScore, 0 when the node was not scored.
func (n *NodeResult) Total() int64 {
	if n.TotalScore == nil {
		return 0
	}
	return *n.TotalScore
}

// PluginScore is one Score plugin's contribution on one node.
type PluginScore struct {
	Plugin     string // the Score plugin's name
	Raw        int64  // Score's value before NormalizeScore
	Normalized int64  // in [0, framework.MaxNodeScore]
	Weight     int64  // the profile's weight of the plugin
	Weighted   int64  // Normalized * Weight, what the total adds
}
