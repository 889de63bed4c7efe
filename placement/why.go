package placement

import (
	"fmt"
	"strings"
)

// Why explains the verdict on one node in a sentence or two: the plugin and
// reasons that rejected it (and every other plugin that would have rejected
// it too), or its total score and the plugins that made it. It reads only the
// receiver.
func (n *NodeResult) Why() string {
	var b strings.Builder
	if n.Feasible {
		fmt.Fprintf(&b, "%s: feasible, score %d", n.Node, n.Total())
		var parts []string
		for _, s := range n.Scores {
			if s.Weighted != 0 {
				parts = append(parts, fmt.Sprintf("%s %d×%d", s.Plugin, s.Normalized, s.Weight))
			}
		}
		if len(parts) > 0 {
			b.WriteString(" (" + strings.Join(parts, ", ") + ")")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s: rejected", n.Node)
	if n.Status.Plugin != "" {
		fmt.Fprintf(&b, " by %s", n.Status.Plugin)
	}
	fmt.Fprintf(&b, " (%s)", n.Status.Code)
	if len(n.Status.Reasons) > 0 {
		b.WriteString(": " + strings.Join(n.Status.Reasons, ", "))
	}
	var also []string
	for _, f := range n.Filters {
		if f.Code.Passes() || f.Plugin == n.Status.Plugin {
			continue
		}
		also = append(also, fmt.Sprintf("%s: %s", f.Plugin, strings.Join(f.Reasons, ", ")))
	}
	if len(also) > 0 {
		b.WriteString("; also " + strings.Join(also, "; "))
	}
	return b.String()
}

// Why explains the verdict on every node, one line per node in name order,
// after a first line with the outcome.
func (r *Result) Why() string {
	var b strings.Builder
	switch {
	case r.Gated != nil:
		fmt.Fprintf(&b, "%s: gated by %s: %s\n", r.Pod, r.Gated.Plugin, strings.Join(r.Gated.Reasons, ", "))
		return b.String()
	case r.Error != "":
		fmt.Fprintf(&b, "%s: error: %s\n", r.Pod, r.Error)
	case len(r.BestNodes) > 0:
		fmt.Fprintf(&b, "%s: %d/%d nodes feasible, best %s\n", r.Pod, len(r.FeasibleNodes), len(r.Nodes), r.BestNodes[0])
	default:
		fmt.Fprintf(&b, "%s: %s\n", r.Pod, r.Message)
	}
	for i := range r.Nodes {
		b.WriteString("  " + r.Nodes[i].Why() + "\n")
	}
	return b.String()
}
