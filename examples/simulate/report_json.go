package main

import (
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
)

// The filter-score document's wire form (../shared/conformance/README.md):
// placement's typed report with codes as their names.

// pluginStatus is one plugin's verdict in JSON form.
type pluginStatus struct {
	Plugin  string   `json:"plugin,omitempty"`  // the plugin's name; "" for a status no single plugin gave
	Code    string   `json:"code"`              // Code.String(): "Success", "Unschedulable", ...
	Reasons []string `json:"reasons,omitempty"` // upstream's reason texts, in upstream's order
}

// pluginScore is one Score plugin's contribution on one node.
type pluginScore struct {
	Plugin     string `json:"plugin"`     // the Score plugin's name
	Raw        int64  `json:"raw"`        // Score's value before NormalizeScore
	Normalized int64  `json:"normalized"` // in [0, MaxNodeScore]
	Weight     int64  `json:"weight"`     // the profile's weight of the plugin
	Weighted   int64  `json:"weighted"`   // Normalized * Weight, what the total adds
}

// nodeResult is the verdict on one node. Nodes whose filters all gave the
// same verdicts share one Filters list (Evaluate): treat a report as
// read-only.
type nodeResult struct {
	Node                string         `json:"node"`                          // the node's name
	Feasible            bool           `json:"feasible"`                      // every filter passed
	ExcludedByPreFilter bool           `json:"excludedByPreFilter,omitempty"` // outside PreFilter's node restriction
	Status              pluginStatus   `json:"status"`                        // what upstream records: the first failure
	Filters             []pluginStatus `json:"filters,omitempty"`             // every Filter plugin run on its own, in profile order
	Scores              []pluginScore  `json:"scores,omitempty"`              // feasible nodes only, in profile order
	TotalScore          *int64         `json:"totalScore,omitempty"`          // the sum of Scores' Weighted; nil when not scored
}

// Total returns TotalScore, 0 when the node was not scored.
func (n *nodeResult) Total() int64 {
	if n.TotalScore == nil {
		return 0
	}
	return *n.TotalScore
}

// preFilterResult is what the PreFilter phase decided.
type preFilterResult struct {
	Status               pluginStatus `json:"status"`                         // the aggregated PreFilter status
	SkippedFilterPlugins []string     `json:"skippedFilterPlugins,omitempty"` // PreFilter returned Skip, sorted
	NodeNames            []string     `json:"nodeNames,omitempty"`            // the node restriction, sorted; empty: none
	RestrictedBy         []string     `json:"restrictedBy,omitempty"`         // the plugins that restricted the nodes
}

// podResult is one pending pod evaluated against a snapshot
// (placement.Result).
type podResult struct {
	Pod                    string          `json:"pod"`                              // namespace/name
	Priority               int32           `json:"priority"`                         // spec.priority, 0 when unset
	Gated                  *pluginStatus   `json:"gated,omitempty"`                  // SchedulingGates' rejection; nothing else ran
	PreFilter              preFilterResult `json:"preFilter"`                        // what PreFilter decided
	FeasibleNodes          []string        `json:"feasibleNodes"`                    // in name order; [] when none
	PreScoreSkippedPlugins []string        `json:"preScoreSkippedPlugins,omitempty"` // sorted
	BestNodes              []string        `json:"bestNodes"`                        // feasible nodes with the top total, name order; [] when none
	Message                string          `json:"message,omitempty"`                // FitError's text when no node is feasible
	Error                  string          `json:"error,omitempty"`                  // invalid input or a plugin Error
	Nodes                  []nodeResult    `json:"nodes"`                            // every node, in name order
}

// statusOut is a status in the wire form.
func statusOut(s framework.Status) pluginStatus {
	return pluginStatus{Plugin: s.Plugin, Code: s.Code.String(), Reasons: s.Reasons}
}

func statusesOut(ss []framework.Status) []pluginStatus {
	if ss == nil {
		return nil
	}
	out := make([]pluginStatus, len(ss))
	for i, s := range ss {
		out[i] = statusOut(s)
	}
	return out
}

// resultOut is r in the wire form. Nodes that share one Filters list in r
// share one here too.
func resultOut(r *placement.Result) *podResult {
	if r == nil {
		return nil
	}
	out := &podResult{Pod: r.Pod, Priority: r.Priority, FeasibleNodes: r.FeasibleNodes,
		PreScoreSkippedPlugins: r.PreScoreSkippedPlugins, BestNodes: r.BestNodes, Message: r.Message, Error: r.Error,
		PreFilter: preFilterResult{Status: statusOut(r.PreFilter.Status), SkippedFilterPlugins: r.PreFilter.SkippedFilterPlugins,
			NodeNames: r.PreFilter.NodeNames, RestrictedBy: r.PreFilter.RestrictedBy}}
	if r.Gated != nil {
		// PreFilter did not run: its status is left out (code "").
		g := statusOut(*r.Gated)
		out.Gated = &g
		out.PreFilter.Status = pluginStatus{}
	}
	out.Nodes = make([]nodeResult, len(r.Nodes))
	shared := map[*framework.Status][]pluginStatus{}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		var filters []pluginStatus
		if len(n.Filters) > 0 {
			key := &n.Filters[0]
			if filters = shared[key]; filters == nil {
				filters = statusesOut(n.Filters)
				shared[key] = filters
			}
		}
		var scores []pluginScore
		if n.Scores != nil {
			scores = make([]pluginScore, len(n.Scores))
			for j, s := range n.Scores {
				scores[j] = pluginScore(s)
			}
		}
		out.Nodes[i] = nodeResult{Node: n.Node, Feasible: n.Feasible, ExcludedByPreFilter: n.ExcludedByPreFilter,
			Status: statusOut(n.Status), Filters: filters, Scores: scores, TotalScore: n.TotalScore}
	}
	return out
}
