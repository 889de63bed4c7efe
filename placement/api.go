package placement

// CONTRACT: the public result types of one pod's evaluation. The placement
// helper owns this file; the simulate command marshals these types directly,
// so their JSON names follow ../shared/conformance/README.md.

import (
	"github.com/schedkit/schedkit/internal/cluster"
)

// Snapshot is the indexed cluster every schedkit package reads: nodes in
// name order with their bound pods and summed requests, built once by
// NewSnapshot, with cheap copy-on-write views (WithPod, WithoutPods).
type Snapshot = cluster.Snapshot

// SnapshotInput is what NewSnapshot indexes: nodes and bound pods, plus
// namespaces (namespaceSelector), workloads (PodTopologySpread's system
// default constraints) and PDBs (preemption).
type SnapshotInput = cluster.Input

// SnapshotWarning is an input object NewSnapshot left out, and why.
type SnapshotWarning = cluster.Warning

// NodeInfo is one node of a snapshot with its bound pods and sums.
type NodeInfo = cluster.NodeInfo

// PodInfo is a pod with its requests and affinity terms computed once.
type PodInfo = cluster.PodInfo

// The field types of NodeInfo and PodInfo, so callers can name what they
// read: Resource is a request or allocatable vector (milli-CPU, bytes,
// pods, extended resources), HostPort a used host port, ImageState an
// image's size and spread, AffinityTerm and WeightedAffinityTerm a compiled
// pod (anti-)affinity term.
type (
	Resource             = cluster.Resource
	HostPort             = cluster.HostPort
	ImageState           = cluster.ImageState
	AffinityTerm         = cluster.AffinityTerm
	WeightedAffinityTerm = cluster.WeightedAffinityTerm
)

// NewSnapshot indexes the input as the scheduler cache does:
// it validates every object and reports all problems at once as a
// field.ErrorList aggregate with paths (duplicate names, negative
// quantities, unparsable affinity selectors); pods without spec.nodeName,
// bound to an unknown node or in phase Succeeded/Failed are left out with a
// warning. The input objects are not modified and must not be modified
// while the snapshot is in use.
func NewSnapshot(in SnapshotInput) (*Snapshot, []SnapshotWarning, error) { return cluster.New(in) }

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

// NodeResult is the verdict on one node. Nodes whose filters all gave the
// same verdicts share one Filters list (Evaluate): treat a report as
// read-only.
type NodeResult struct {
	Node                string         `json:"node"`
	Feasible            bool           `json:"feasible"`
	ExcludedByPreFilter bool           `json:"excludedByPreFilter,omitempty"`
	Status              PluginStatus   `json:"status"`
	Filters             []PluginStatus `json:"filters,omitempty"`
	Scores              []PluginScore  `json:"scores,omitempty"`
	TotalScore          int64          `json:"totalScore"`
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
