package main

// Schedule mode (-mode schedule): the pending pods scheduled one by one in
// queue order with preemption, written in the conformance format
// (../shared/conformance/README.md, "schedule") or as a text report.

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/schedkit/schedkit/internal/par"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// scheduleOutput is the schedule-mode document.
type scheduleOutput struct {
	Meta       scheduleMeta     `json:"meta"`
	QueueOrder []string         `json:"queueOrder"`
	Results    []scheduleResult `json:"results"`
	Final      scheduleFinal    `json:"final"`
	// explain: the report is -explain's one pod, with its node statuses;
	// turn, when set, is that pod evaluated at its turn (explainAtTurn).
	explain bool
	turn    *podResult
	turnCtx *textContext
	// raw, when set, are the queue's results not yet converted: the JSON
	// report is written from them (appendJSON) and Results is nil.
	raw []preemption.PodOutcome
}

type scheduleMeta struct {
	Mode              string       `json:"mode"`
	KubernetesVersion string       `json:"kubernetesVersion"`
	Profile           *profileMeta `json:"profile,omitempty"`
	TieBreak          string       `json:"tieBreak"`
	Warnings          []string     `json:"warnings"`
}

type scheduleFinal struct {
	Placements map[string]string `json:"placements"`
	Evicted    []string          `json:"evicted"`
}

type preFilterOut struct {
	Status pluginStatus `json:"status"`
}

type nodeStatusOut struct {
	Node   string       `json:"node"`
	Status pluginStatus `json:"status"`
}

type scheduleResult struct {
	Pod           string          `json:"pod"`
	Priority      int32           `json:"priority"`
	QueuePosition int             `json:"queuePosition"`
	Outcome       string          `json:"outcome"`
	Node          string          `json:"node,omitempty"`
	FeasibleNodes int             `json:"feasibleNodes"`
	TotalScore    *int64          `json:"totalScore,omitempty"`
	TiedNodes     []string        `json:"tiedNodes,omitempty"`
	PreFilter     *preFilterOut   `json:"preFilter,omitempty"`
	Gated         *pluginStatus   `json:"gated,omitempty"`
	Message       string          `json:"message,omitempty"`
	Preemption    *preemptionOut  `json:"preemption,omitempty"`
	NodeStatuses  []nodeStatusOut `json:"nodeStatuses,omitempty"`
	Error         string          `json:"error,omitempty"`
}

type victimOut struct {
	Pod        string   `json:"pod"`
	Node       string   `json:"node"`
	Priority   int32    `json:"priority"`
	BrokenPDBs []string `json:"brokenPDBs,omitempty"`
}

type candidateOut struct {
	Node             string   `json:"node"`
	Victims          []string `json:"victims"`
	NumPDBViolations int      `json:"numPDBViolations"`
	LostAt           string   `json:"lostAt,omitempty"`
	LostReason       string   `json:"lostReason,omitempty"`
}

type preemptionOut struct {
	Status           pluginStatus    `json:"status"`
	NominatedNode    string          `json:"nominatedNode,omitempty"`
	Victims          []victimOut     `json:"victims,omitempty"`
	NumPDBViolations int             `json:"numPDBViolations"`
	PotentialNodes   int             `json:"potentialNodes"`
	NotEligible      string          `json:"notEligible,omitempty"`
	Candidates       []candidateOut  `json:"candidates,omitempty"`
	DryRunStatuses   []nodeStatusOut `json:"dryRunStatuses,omitempty"`
}

// queueOptions are the schedule mode's options for the profile options
// given. The queue is sequential (each pod sees the previous bindings), so
// the cores can only share each pod's work: its per-pod phases (filter,
// scores, topology PreFilters, 20-100 us on 1000 nodes) and preemption's
// dry runs. Waking an idle core costs about as much on small VMs (100 us),
// so Queue.Schedule keeps helpers for its run (placement.Workers), which
// stay awake between the phases and exit when the run ends; the caller
// never waits for one to wake. Results do not depend on it.
func queueOptions(opts placement.Options) preemption.QueueOptions {
	opts.Parallelism = runtime.GOMAXPROCS(0)
	return preemption.QueueOptions{Placement: opts, Preemption: preemption.Options{Parallelism: opts.Parallelism}, KeepNodeStatuses: true}
}

// prepareQueue prepares the scenario's pending pods (preemption.PrepareQueue);
// it reads neither the snapshot nor the warnings, so evaluate runs it
// beside the snapshot's building.
func prepareQueue(in *input) {
	in.queue, in.queueErr = preemption.PrepareQueue(in.pending, queueOptions(in.opts))
}

// runSchedule schedules the prepared queue against snap with the given
// profile options (preemption.Queue.Schedule, what ScheduleQueue does) and
// returns the schedule-mode document. warnings are the normalization
// warnings to report in meta.
func runSchedule(snap *placement.Snapshot, q *preemption.Queue, warnings []string, opts placement.Options, reasons bool) (*scheduleOutput, error) {
	opts.Parallelism = runtime.GOMAXPROCS(0)
	qr, err := q.Schedule(snap)
	if err != nil {
		return nil, err
	}
	if warnings == nil {
		warnings = []string{}
	}
	out := &scheduleOutput{
		Meta: scheduleMeta{Mode: "schedule", KubernetesVersion: opts.Version.String(), Warnings: warnings,
			TieBreak: "highest weighted total score wins; ties are broken by the lowest node name; preemption candidates tied on every criterion too"},
		QueueOrder: qr.QueueOrder,
		Final:      scheduleFinal{Placements: map[string]string{}, Evicted: qr.Evicted},
	}
	if len(out.QueueOrder) == 0 {
		out.QueueOrder = nil // as upstream's answer writes it: null, not []
	}
	for _, p := range qr.Placements {
		out.Final.Placements[p.Pod] = p.Node
	}
	if !reasons {
		// The JSON report: written from the results themselves.
		out.raw = qr.Results
		return out, nil
	}
	// Each result is converted on its own (a failed pod's node statuses are
	// the bulk), on every core.
	out.Results = make([]scheduleResult, len(qr.Results))
	par.Run(opts.Parallelism, len(qr.Results), func(i int) { out.Results[i] = convertResult(&qr.Results[i], reasons) })
	if len(out.Results) == 0 {
		out.Results = nil
	}
	return out, nil
}

// convertResult is r in the wire form; reasons adds every losing
// candidate's lostReason (a text per candidate node: the text report and
// -explain show them, the batch JSON report gives lostAt alone).
func convertResult(r *preemption.PodOutcome, reasons bool) scheduleResult {
	sr := scheduleResult{
		Pod: r.Pod, Priority: r.Priority, QueuePosition: r.QueuePosition, Outcome: string(r.Outcome),
		Node: r.Node, FeasibleNodes: r.FeasibleNodes, TotalScore: r.TotalScore,
		Message: r.Message, Error: r.Error,
	}
	if r.Gated != nil {
		g := statusOut(*r.Gated)
		sr.Gated = &g
		return sr
	}
	if r.Outcome != preemption.Failed || r.PreFilter.Code != sched.Success {
		sr.PreFilter = &preFilterOut{Status: statusOut(r.PreFilter)}
	}
	if r.NodeStatuses.Len() > 0 && r.PreFilter.Code == sched.Success {
		sr.NodeStatuses = make([]nodeStatusOut, 0, r.NodeStatuses.Len())
		for node, st := range r.NodeStatuses.All() {
			sr.NodeStatuses = append(sr.NodeStatuses, nodeStatusOut{Node: node, Status: statusOut(st)})
		}
	}
	if p := r.Preemption; p != nil {
		po := &preemptionOut{Status: statusOut(p.Status), NominatedNode: p.NominatedNode,
			NumPDBViolations: p.NumPDBViolations, PotentialNodes: p.PotentialNodes, NotEligible: p.NotEligible}
		for _, v := range p.Victims {
			po.Victims = append(po.Victims, victimOut{Pod: v.Key, Node: v.Node, Priority: v.Priority, BrokenPDBs: v.BrokenPDBs})
		}
		// One array for every candidate's victim keys: a report of every
		// candidate of every preemptor holds as many as there are nodes.
		numVictims := 0
		for _, c := range p.Candidates {
			numVictims += len(c.Victims)
		}
		keys := make([]string, 0, numVictims)
		if len(p.Candidates) > 0 {
			po.Candidates = make([]candidateOut, 0, len(p.Candidates))
		}
		for _, c := range p.Candidates {
			start := len(keys)
			for _, v := range c.Victims {
				keys = append(keys, v.Key)
			}
			co := candidateOut{Node: c.Node, Victims: keys[start:len(keys):len(keys)], NumPDBViolations: c.NumPDBViolations}
			if reasons {
				co.LostReason = c.LostReason()
			}
			if c.LostAt != preemption.ChosenNode {
				co.LostAt = c.LostAt.String()
			}
			po.Candidates = append(po.Candidates, co)
		}
		if len(p.Rejected) > 0 {
			po.DryRunStatuses = make([]nodeStatusOut, 0, len(p.Rejected))
		}
		for _, d := range p.Rejected {
			po.DryRunStatuses = append(po.DryRunStatuses, nodeStatusOut{Node: d.Node, Status: statusOut(d.Status)})
		}
		sr.Preemption = po
	}
	return sr
}

// writeScheduleText writes the human-readable schedule report: one block per
// pod in queue order; for each preemption the victims with the budgets they
// break, the losing candidates with the criterion each lost on, and why the
// other dry-run nodes could not help.
func writeScheduleText(w io.Writer, out *scheduleOutput) error {
	var b strings.Builder
	preemption := "with DefaultPreemption"
	if p := out.Meta.Profile; p != nil && len(p.Plugins["postFilter"]) == 0 {
		preemption = "without preemption"
	}
	fmt.Fprintf(&b, "schedule: %d pending pod(s) in queue order, Kubernetes v%s %s %s\n",
		len(out.QueueOrder), strings.TrimPrefix(out.Meta.KubernetesVersion, "v"), out.Meta.Profile.describe(), preemption)
	explained := ""
	if out.explain && len(out.Results) == 1 {
		explained = out.Results[0].Pod
		fmt.Fprintf(&b, "-explain: %s alone (the whole queue ran)\n", explained)
	}
	for _, wn := range out.Meta.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	for _, r := range out.Results {
		fmt.Fprintf(&b, "\n%d. %s (priority %d): %s", r.QueuePosition+1, r.Pod, r.Priority, r.Outcome)
		if r.Node != "" {
			fmt.Fprintf(&b, " on %s", r.Node)
		}
		b.WriteString("\n")
		switch {
		case r.Gated != nil:
			fmt.Fprintf(&b, "   gated: %s\n", strings.Join(r.Gated.Reasons, ", "))
			continue
		case r.Outcome == "Scheduled":
			fmt.Fprintf(&b, "   %d feasible node(s)", r.FeasibleNodes)
			if r.TotalScore != nil {
				fmt.Fprintf(&b, ", best score %d", *r.TotalScore)
			}
			b.WriteString("\n")
		}
		if r.Error != "" {
			fmt.Fprintf(&b, "   error: %s\n", r.Error)
		}
		if r.Message != "" {
			fmt.Fprintf(&b, "   %s\n", r.Message)
		}
		if out.explain && out.turn == nil {
			writeNodeStatuses(&b, r)
		}
		if out.turn != nil {
			b.WriteString("   evaluated at its turn, after the earlier pods' bindings and evictions (as -mode filter-score reports):\n")
			var t strings.Builder
			writePodText(&t, out.turn, out.turnCtx)
			for _, line := range strings.Split(strings.TrimRight(t.String(), "\n"), "\n") {
				if line == "" {
					b.WriteString("\n")
					continue
				}
				b.WriteString("   " + line + "\n")
			}
		}
		p := r.Preemption
		if p == nil {
			continue
		}
		if p.NominatedNode != "" {
			fmt.Fprintf(&b, "   preemption on %s: %d victim(s), %d PDB violation(s), %d candidate(s) of %d potential node(s)\n",
				p.NominatedNode, len(p.Victims), p.NumPDBViolations, len(p.Candidates), p.PotentialNodes)
			for _, v := range p.Victims {
				fmt.Fprintf(&b, "     evict %s (priority %d)", v.Pod, v.Priority)
				if len(v.BrokenPDBs) > 0 {
					fmt.Fprintf(&b, ", breaks PDB %s", strings.Join(v.BrokenPDBs, ", "))
				}
				b.WriteString("\n")
			}
			for _, c := range p.Candidates {
				if c.LostAt == "" {
					continue
				}
				fmt.Fprintf(&b, "     candidate %s lost on %s: %s (victims %s)\n", c.Node, c.LostAt, c.LostReason, strings.Join(c.Victims, ", "))
			}
		} else if p.NotEligible != "" {
			fmt.Fprintf(&b, "   preemption not attempted: %s\n", p.NotEligible)
		} else {
			fmt.Fprintf(&b, "   preemption: no candidate among %d potential node(s) (only nodes whose filter status was Unschedulable are tried)\n", p.PotentialNodes)
		}
		for _, d := range p.DryRunStatuses {
			who := d.Status.Plugin
			if who == "" {
				who = "DefaultPreemption"
			}
			fmt.Fprintf(&b, "     %s cannot help: %s (%s)\n", d.Node, strings.Join(d.Status.Reasons, ", "), who)
		}
	}
	b.WriteString("\nfinal placements:\n")
	for _, k := range out.QueueOrder {
		if explained != "" && k != explained {
			continue
		}
		n := out.Final.Placements[k]
		if n == "" {
			n = "(none)"
		}
		fmt.Fprintf(&b, "  %s -> %s\n", k, n)
	}
	if len(out.Final.Evicted) > 0 {
		fmt.Fprintf(&b, "evicted: %s\n", strings.Join(out.Final.Evicted, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
