package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// The filter-score text report: per pending pod the verdict, the best nodes
// with each Score plugin's weighted contribution, and the rejected nodes
// grouped by reason the way kube-scheduler's "0/N nodes are available"
// message groups them (one count per reason, over every node's status).
// Everything is sorted, so the report is deterministic.

// topNodes is how many feasible nodes the score table shows.
const topNodes = 5

// maxNamesPerReason is how many node names a rejection row lists.
const maxNamesPerReason = 4

// scoreColumn names the Score plugins in table headers.
var scoreColumn = map[string]string{
	"TaintToleration":                 "taint",
	"NodeAffinity":                    "nodeAffinity",
	"NodeResourcesFit":                "fit",
	"PodTopologySpread":               "spread",
	"InterPodAffinity":                "podAffinity",
	"NodeResourcesBalancedAllocation": "balanced",
	"ImageLocality":                   "image",
}

// scoreOrder is the default profile's Score plugin order; columns follow it.
var scoreOrder = []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
	"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}

// sortPlugins orders Score plugins as the profile does; unknown names last,
// by name.
func sortPlugins(plugins []string) {
	rank := func(p string) int {
		for i, q := range scoreOrder {
			if p == q {
				return i
			}
		}
		return len(scoreOrder)
	}
	sort.SliceStable(plugins, func(i, j int) bool {
		ri, rj := rank(plugins[i]), rank(plugins[j])
		if ri != rj {
			return ri < rj
		}
		return plugins[i] < plugins[j]
	})
}

func columnName(plugin string) string {
	if c, ok := scoreColumn[plugin]; ok {
		return c
	}
	return plugin
}

func (out *filterScoreOutput) writeText(w io.Writer) error {
	var b strings.Builder
	m := out.Meta
	fmt.Fprintf(&b, "filter-score: %d pending pod(s) evaluated alone against %d node(s) and %d bound pod(s), Kubernetes v%s %s\n",
		m.PendingPods, m.Nodes, m.BoundPods, strings.TrimPrefix(m.KubernetesVersion, "v"), m.Profile.describe())
	var schedulable, unschedulable, gated int
	for _, r := range out.Pods {
		switch {
		case r.Gated != nil:
			gated++
		case len(r.FeasibleNodes) > 0:
			schedulable++
		default:
			unschedulable++
		}
	}
	fmt.Fprintf(&b, "%d schedulable, %d unschedulable, %d gated\n", schedulable, unschedulable, gated)
	if legend := scoreLegend(out.Pods); legend != "" {
		fmt.Fprintf(&b, "scores are weighted: %s\n", legend)
	}
	if n := len(m.Warnings); n > 0 {
		fmt.Fprintf(&b, "%d warning(s), listed at the end\n", n)
	}
	for _, r := range out.Pods {
		b.WriteString("\n")
		writePodText(&b, r, out.ctx)
	}
	if len(m.Warnings) > 0 {
		b.WriteString("\nwarnings:\n")
		for _, wn := range m.Warnings {
			fmt.Fprintf(&b, "  %s\n", wn)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// scoreLegend lists "column=Plugin×weight" for every Score plugin seen.
func scoreLegend(results []*podResult) string {
	weights := map[string]int64{}
	var plugins []string
	for _, r := range results {
		for _, n := range r.Nodes {
			for _, s := range n.Scores {
				if _, seen := weights[s.Plugin]; !seen {
					weights[s.Plugin] = s.Weight
					plugins = append(plugins, s.Plugin)
				}
			}
		}
	}
	sortPlugins(plugins)
	parts := make([]string, len(plugins))
	for i, p := range plugins {
		parts[i] = fmt.Sprintf("%s=%s×%d", columnName(p), p, weights[p])
	}
	return strings.Join(parts, ", ")
}

func writePodText(b *strings.Builder, r *podResult, ctx *textContext) {
	fmt.Fprintf(b, "%s (priority %d)\n", r.Pod, r.Priority)
	if r.Gated != nil {
		fmt.Fprintf(b, "  gated by %s: %s; not evaluated\n", r.Gated.Plugin, strings.Join(r.Gated.Reasons, ", "))
		return
	}
	if r.Error != "" {
		fmt.Fprintf(b, "  error: %s\n", r.Error)
	}
	total := len(r.Nodes)
	if len(r.FeasibleNodes) == 0 {
		fmt.Fprintf(b, "  unschedulable: %s\n", r.Message)
	} else {
		best := ""
		if len(r.BestNodes) > 0 {
			best = fmt.Sprintf("; best: %s (score %d)", strings.Join(r.BestNodes, ", "), bestTotal(r))
			if len(r.BestNodes) > 1 {
				best += ", tied: the lowest name wins"
			}
		}
		fmt.Fprintf(b, "  schedulable on %d of %d node(s)%s\n", len(r.FeasibleNodes), total, best)
	}
	if st := r.PreFilter.Status; st.Code != "" && st.Code != "Success" {
		fmt.Fprintf(b, "  PreFilter rejects every node: %s, %s: %s\n", st.Plugin, st.Code, strings.Join(st.Reasons, ", "))
	} else if len(r.PreFilter.RestrictedBy) > 0 {
		fmt.Fprintf(b, "  PreFilter: candidates restricted to %s by %s\n", nameList(r.PreFilter.NodeNames, maxNamesPerReason), strings.Join(r.PreFilter.RestrictedBy, ", "))
	}
	writeScoreTable(b, r)
	writeSkipped(b, r)
	writeRejections(b, r)
	writePreemptionHint(b, r, ctx)
	writeClosest(b, r, ctx)
	if ctx != nil && ctx.explain {
		writeEveryNode(b, r, ctx)
	}
}

func bestTotal(r *podResult) int64 {
	for _, n := range r.Nodes {
		if len(r.BestNodes) > 0 && n.Node == r.BestNodes[0] {
			return n.Total()
		}
	}
	return 0
}

// writeScoreTable shows the best feasible nodes (highest total, then lowest
// name) with each plugin's weighted score.
func writeScoreTable(b *strings.Builder, r *podResult) {
	var feasible []*nodeResult
	var plugins []string
	seen := map[string]bool{}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if !n.Feasible {
			continue
		}
		feasible = append(feasible, n)
		for _, s := range n.Scores {
			if !seen[s.Plugin] {
				seen[s.Plugin] = true
				plugins = append(plugins, s.Plugin)
			}
		}
	}
	if len(feasible) == 0 {
		return
	}
	sortPlugins(plugins)
	sort.SliceStable(feasible, func(i, j int) bool {
		if feasible[i].Total() != feasible[j].Total() {
			return feasible[i].Total() > feasible[j].Total()
		}
		return feasible[i].Node < feasible[j].Node
	})
	shown := feasible
	if len(shown) > topNodes {
		shown = shown[:topNodes]
	}
	header := []string{"", "node", "total"}
	for _, p := range plugins {
		header = append(header, columnName(p))
	}
	t := table{rightAligned: map[int]bool{}}
	for c := 2; c < len(header); c++ {
		t.rightAligned[c] = true
	}
	t.add(header...)
	best := map[string]bool{}
	for _, n := range r.BestNodes {
		best[n] = true
	}
	for _, n := range shown {
		mark := ""
		if best[n.Node] {
			mark = "*"
		}
		row := []string{mark, n.Node, strconv.FormatInt(n.Total(), 10)}
		byPlugin := map[string]int64{}
		for _, s := range n.Scores {
			byPlugin[s.Plugin] = s.Weighted
		}
		for _, p := range plugins {
			row = append(row, strconv.FormatInt(byPlugin[p], 10))
		}
		t.add(row...)
	}
	b.WriteString("\n")
	t.write(b, "    ")
	if len(feasible) > len(shown) {
		fmt.Fprintf(b, "    ... %d more feasible node(s)\n", len(feasible)-len(shown))
	}
}

// rejection is one row of the "why not" table: a reason, the plugin and code
// that gave it, and the nodes it was given on.
type rejection struct {
	reason, plugin, code string
	nodes                []string
}

// writeRejections groups the infeasible nodes' statuses by reason, as
// FitError's histogram does, and lists which filters reject each node when
// run on their own.
func writeRejections(b *strings.Builder, r *podResult) {
	byKey := map[string]*rejection{}
	var rows []*rejection
	rejectedNodes := 0
	// independent counts, per Filter plugin in profile order, the nodes it
	// rejects when run on its own.
	independent := map[string]int{}
	var pluginOrder []string
	for _, n := range r.Nodes {
		for _, f := range n.Filters {
			if _, ok := independent[f.Plugin]; !ok {
				independent[f.Plugin] = 0
				pluginOrder = append(pluginOrder, f.Plugin)
			}
			if f.Code == "Unschedulable" || f.Code == "UnschedulableAndUnresolvable" || f.Code == "Error" {
				independent[f.Plugin]++
			}
		}
		if n.Feasible {
			continue
		}
		rejectedNodes++
		plugin := n.Status.Plugin
		if plugin == "" {
			plugin = "PreFilter"
		}
		for _, reason := range n.Status.Reasons {
			key := reason + "\x00" + plugin + "\x00" + n.Status.Code
			row, ok := byKey[key]
			if !ok {
				row = &rejection{reason: reason, plugin: plugin, code: n.Status.Code}
				byKey[key] = row
				rows = append(rows, row)
			}
			row.nodes = append(row.nodes, n.Node)
		}
	}
	if rejectedNodes == 0 {
		return
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if len(rows[i].nodes) != len(rows[j].nodes) {
			return len(rows[i].nodes) > len(rows[j].nodes)
		}
		if rows[i].reason != rows[j].reason {
			return rows[i].reason < rows[j].reason
		}
		return rows[i].plugin < rows[j].plugin
	})
	fmt.Fprintf(b, "\n  rejected on %d node(s), by the first failing filter:\n", rejectedNodes)
	t := table{rightAligned: map[int]bool{0: true}}
	t.add("nodes", "reason", "plugin", "code", "on")
	for _, row := range rows {
		sort.Strings(row.nodes)
		t.add(strconv.Itoa(len(row.nodes)), row.reason, row.plugin, shortCode(row.code), nameList(row.nodes, maxNamesPerReason))
	}
	t.write(b, "    ")
	var parts []string
	for _, p := range pluginOrder {
		if independent[p] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p, independent[p]))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "  nodes each filter rejects when run on its own: %s\n", strings.Join(parts, ", "))
	}
}

// shortCode says whether preemption can help, in a word.
func shortCode(code string) string {
	switch code {
	case "Unschedulable":
		return "Unschedulable (preemption may help)"
	case "UnschedulableAndUnresolvable":
		return "Unresolvable"
	}
	return code
}

func nameList(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// table aligns columns; numeric columns are right-aligned. The last column
// is never padded.
type table struct {
	rows         [][]string
	rightAligned map[int]bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(b *strings.Builder, indent string) {
	var widths []int
	for _, row := range t.rows {
		for c, cell := range row {
			if c >= len(widths) {
				widths = append(widths, 0)
			}
			if n := len([]rune(cell)); n > widths[c] {
				widths[c] = n
			}
		}
	}
	for _, row := range t.rows {
		var line strings.Builder
		line.WriteString(indent)
		for c, cell := range row {
			if c > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[c]-len([]rune(cell)))
			switch {
			case t.rightAligned[c]:
				line.WriteString(pad + cell)
			case c == len(row)-1:
				line.WriteString(cell)
			default:
				line.WriteString(cell + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
