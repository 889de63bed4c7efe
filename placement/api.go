package placement

// CONTRACT: the public result types of one pod's evaluation. The placement
// helper owns this file; the simulate command marshals these types directly,
// so their JSON names follow ../shared/conformance/README.md.

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Snapshot is the indexed cluster every schedkit package reads.
type Snapshot = cluster.Snapshot

// Options configures the scheduler profile. The zero value is the v1.36
// default profile.
type Options struct{}

// PluginStatus is one plugin's verdict in JSON form.
type PluginStatus struct {
	Plugin  string   `json:"plugin,omitempty"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
}

// PluginScore is one Score plugin's contribution on one node.
type PluginScore struct {
	Plugin     string `json:"plugin"`
	Raw        int64  `json:"raw"`
	Normalized int64  `json:"normalized"`
	Weight     int64  `json:"weight"`
	Weighted   int64  `json:"weighted"`
}

// NodeResult is the verdict on one node.
type NodeResult struct {
	Node                string         `json:"node"`
	Feasible            bool           `json:"feasible"`
	ExcludedByPreFilter bool           `json:"excludedByPreFilter,omitempty"`
	Status              PluginStatus   `json:"status"`
	Filters             []PluginStatus `json:"filters,omitempty"`
	Scores              []PluginScore  `json:"scores,omitempty"`
	TotalScore          int64          `json:"totalScore,omitempty"`
}

// PreFilterResult is what the PreFilter phase decided.
type PreFilterResult struct {
	Status               PluginStatus `json:"status"`
	SkippedFilterPlugins []string     `json:"skippedFilterPlugins,omitempty"`
	NodeNames            []string     `json:"nodeNames,omitempty"`
	RestrictedBy         []string     `json:"restrictedBy,omitempty"`
}

// Result is one pending pod evaluated against a snapshot.
type Result struct {
	Pod                    string          `json:"pod"`
	Priority               int32           `json:"priority"`
	Gated                  *PluginStatus   `json:"gated,omitempty"`
	PreFilter              PreFilterResult `json:"preFilter"`
	FeasibleNodes          []string        `json:"feasibleNodes"`
	PreScoreSkippedPlugins []string        `json:"preScoreSkippedPlugins,omitempty"`
	BestNodes              []string        `json:"bestNodes"`
	Message                string          `json:"message,omitempty"`
	Error                  string          `json:"error,omitempty"`
	Nodes                  []NodeResult    `json:"nodes"`
}

// Evaluate runs PreEnqueue, PreFilter, every Filter on every node and every
// Score on the feasible nodes for one pod, as kube-scheduler v1.36's
// scheduling cycle does, and reports each node's verdict. It does not modify
// its arguments.
func Evaluate(snap *Snapshot, pod *corev1.Pod, opts Options) (*Result, error) {
	_ = sched.Success
	return nil, nil
}
