package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextReportBranches covers the report's rarer shapes on hand-made
// results: a PreFilter rejection, a plugin error, ties, long node lists.
func TestTextReportBranches(t *testing.T) {
	rejected := func(name, plugin, code string, reasons ...string) nodeResult {
		return nodeResult{Node: name, Status: pluginStatus{Plugin: plugin, Code: code, Reasons: reasons},
			Filters: []pluginStatus{{Plugin: plugin, Code: code, Reasons: reasons}}}
	}
	feasible := func(name string, fit, taint int64) nodeResult {
		total := fit + taint
		return nodeResult{Node: name, Feasible: true, Status: pluginStatus{Code: "Success"},
			Scores: []pluginScore{
				{Plugin: "NodeResourcesFit", Normalized: fit, Weight: 1, Weighted: fit},
				{Plugin: "TaintToleration", Normalized: taint / 3, Weight: 3, Weighted: taint},
			}, TotalScore: &total}
	}
	out := &filterScoreOutput{
		Meta: filterScoreMeta{Mode: "filter-score", KubernetesVersion: "v1.35", Nodes: 7, PendingPods: 2, Warnings: []string{"pod x: ignored"}},
		Pods: []*podResult{
			{
				Pod: "ns/prefilter", Priority: 5,
				PreFilter: preFilterResult{Status: pluginStatus{Plugin: "PodTopologySpread", Code: "UnschedulableAndUnresolvable", Reasons: []string{"bad"}}},
				Message:   "0/7 nodes are available: 7 bad.",
				Error:     "PodTopologySpread: something broke",
			},
			{
				Pod: "ns/tied", FeasibleNodes: []string{"a", "b"}, BestNodes: []string{"a", "b"},
				Nodes: []nodeResult{
					feasible("b", 40, 300), feasible("a", 40, 300),
					rejected("c", "NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
					rejected("d", "NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
					rejected("e", "NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
					rejected("f", "NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
					rejected("g", "NodeResourcesFit", "Unschedulable", "Insufficient cpu", "Insufficient memory"),
				},
			},
		},
	}
	var b strings.Builder
	require.NoError(t, out.writeText(&b))
	got := b.String()
	for _, want := range []string{
		"Kubernetes v1.35 default profile",
		"scores are weighted: taint=TaintToleration×3, fit=NodeResourcesFit×1",
		"ns/prefilter (priority 5)\n  error: PodTopologySpread: something broke\n  unschedulable: 0/7 nodes are available: 7 bad.\n  PreFilter rejects every node: PodTopologySpread, UnschedulableAndUnresolvable: bad\n",
		"best: a, b (score 340), tied: the lowest name wins",
		"       node  total  taint  fit\n    *  a       340    300   40\n    *  b       340    300   40\n",
		"        5  Insufficient cpu     NodeResourcesFit  Unschedulable (preemption may help)  c, d, e, f and 1 more\n",
		"        1  Insufficient memory  NodeResourcesFit  Unschedulable (preemption may help)  g\n",
		"nodes each filter rejects when run on its own: NodeResourcesFit 5\n",
		"warnings:\n  pod x: ignored\n",
	} {
		assert.Contains(t, got, want)
	}
}
