package placement

// CONTRACT: the public result types of one pod's evaluation. The placement
// helper owns this file; the simulate command marshals these types directly,
// so their JSON names follow ../shared/conformance/README.md.

// PluginStatus is one plugin's verdict in JSON form.
type PluginStatus struct {
	Plugin  string   `json:"plugin,omitempty"`  // the plugin's name; "" for a status no single plugin gave
	Code    string   `json:"code"`              // Code.String(): "Success", "Unschedulable", ...
	Reasons []string `json:"reasons,omitempty"` // upstream's reason texts, in upstream's order
}

// PluginScore is one Score plugin's contribution on one node.
type PluginScore struct {
	Plugin     string `json:"plugin"`     // the Score plugin's name
	Raw        int64  `json:"raw"`        // Score's value before NormalizeScore
	Normalized int64  `json:"normalized"` // in [0, MaxNodeScore]
	Weight     int64  `json:"weight"`     // the profile's weight of the plugin
	Weighted   int64  `json:"weighted"`   // Normalized * Weight, what the total adds
}

// NodeResult is the verdict on one node. Nodes whose filters all gave the
// same verdicts share one Filters list (Evaluate): treat a report as
// read-only.
type NodeResult struct {
	Node                string         `json:"node"`                          // the node's name
	Feasible            bool           `json:"feasible"`                      // every filter passed
	ExcludedByPreFilter bool           `json:"excludedByPreFilter,omitempty"` // outside PreFilter's node restriction
	Status              PluginStatus   `json:"status"`                        // what upstream records: the first failure
	Filters             []PluginStatus `json:"filters,omitempty"`             // every Filter plugin run on its own, in profile order
	Scores              []PluginScore  `json:"scores,omitempty"`              // feasible nodes only, in profile order
	TotalScore          *int64         `json:"totalScore,omitempty"`          // the sum of Scores' Weighted; nil when not scored
}

// Total returns TotalScore, 0 when the node was not scored.
func (n *NodeResult) Total() int64 {
	if n.TotalScore == nil {
		return 0
	}
	return *n.TotalScore
}

// PreFilterResult is what the PreFilter phase decided.
type PreFilterResult struct {
	Status               PluginStatus `json:"status"`                         // the aggregated PreFilter status
	SkippedFilterPlugins []string     `json:"skippedFilterPlugins,omitempty"` // PreFilter returned Skip, sorted
	NodeNames            []string     `json:"nodeNames,omitempty"`            // the node restriction, sorted; empty: none
	RestrictedBy         []string     `json:"restrictedBy,omitempty"`         // the plugins that restricted the nodes
}

// Result is one pending pod evaluated against a snapshot.
type Result struct {
	Pod                    string          `json:"pod"`                              // namespace/name
	Priority               int32           `json:"priority"`                         // spec.priority, 0 when unset
	Gated                  *PluginStatus   `json:"gated,omitempty"`                  // SchedulingGates' rejection; nothing else ran
	PreFilter              PreFilterResult `json:"preFilter"`                        // what PreFilter decided
	FeasibleNodes          []string        `json:"feasibleNodes"`                    // in name order; [] when none
	PreScoreSkippedPlugins []string        `json:"preScoreSkippedPlugins,omitempty"` // sorted
	BestNodes              []string        `json:"bestNodes"`                        // feasible nodes with the top total, name order; [] when none
	Message                string          `json:"message,omitempty"`                // FitError's text when no node is feasible
	Error                  string          `json:"error,omitempty"`                  // invalid input or a plugin Error
	Nodes                  []NodeResult    `json:"nodes"`                            // every node, in name order
}
