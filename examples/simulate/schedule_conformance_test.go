package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scheduleGenDir holds generated preemption-heavy scenarios with upstream's
// schedule-mode answers (see its README.md).
const scheduleGenDir = "../../testdata/conformance/schedule-gen"

// TestConformanceScheduleGenerated runs schedule mode on the generated
// preemption-heavy scenarios: compare.py's checks, then the details of every
// preemption that compare.py leaves out (candidates with their victims and
// PDB violations, dry-run statuses, potential nodes, PostFilter status,
// victim order), all as kube-scheduler v1.36.3 decided them.
func TestConformanceScheduleGenerated(t *testing.T) {
	expected, err := filepath.Glob(filepath.Join(scheduleGenDir, "*.schedule.json"))
	require.NoError(t, err)
	require.NotEmpty(t, expected)
	sort.Strings(expected)
	total := newTally()
	for _, expPath := range expected {
		name := strings.TrimSuffix(filepath.Base(expPath), ".schedule.json")
		t.Run(name, func(t *testing.T) {
			runConformanceCase(t, "schedule", scheduleGenDir, "schedule-gen/"+name, expPath, total)

			data, err := os.ReadFile(expPath)
			require.NoError(t, err)
			var exp scheduleDoc
			require.NoError(t, json.Unmarshal(data, &exp))
			act, err := simulateCase(filepath.Join(scheduleGenDir, name+".json"), "schedule")
			require.NoError(t, err)
			raw, err := json.Marshal(act)
			require.NoError(t, err)
			var got scheduleDoc
			require.NoError(t, json.Unmarshal(raw, &got))
			byPod := map[string]scheduleDocResult{}
			for _, r := range got.Results {
				byPod[r.Pod] = r
			}
			for _, e := range exp.Results {
				if e.Preemption == nil {
					continue
				}
				g := byPod[e.Pod]
				require.NotNil(t, g.Preemption, "%s: no preemption report", e.Pod)
				assert.Equal(t, e.Preemption.normalized(), g.Preemption.normalized(), "%s: preemption details", e.Pod)
			}
		})
	}
}

type scheduleDoc struct {
	Results []scheduleDocResult `json:"results"`
}

type scheduleDocResult struct {
	Pod        string         `json:"pod"`
	Preemption *preemptionDoc `json:"preemption"`
}

type statusDoc struct {
	Code    string   `json:"code"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
}

type preemptionDoc struct {
	Status         statusDoc `json:"status"`
	NominatedNode  string    `json:"nominatedNode"`
	PotentialNodes int       `json:"potentialNodes"`
	Victims        []struct {
		Pod string `json:"pod"`
	} `json:"victims"`
	NumPDBViolations int `json:"numPDBViolations"`
	Candidates       []struct {
		Node             string   `json:"node"`
		Victims          []string `json:"victims"`
		NumPDBViolations int      `json:"numPDBViolations"`
	} `json:"candidates"`
	DryRunStatuses []struct {
		Node   string    `json:"node"`
		Status statusDoc `json:"status"`
	} `json:"dryRunStatuses"`
}

// normalized keeps the fields both sides report, in comparable form.
func (p *preemptionDoc) normalized() map[string]any {
	out := map[string]any{
		"status":           p.Status,
		"nominatedNode":    p.NominatedNode,
		"potentialNodes":   p.PotentialNodes,
		"numPDBViolations": p.NumPDBViolations,
	}
	var victims []string
	for _, v := range p.Victims {
		victims = append(victims, v.Pod)
	}
	out["victims (in order)"] = victims
	var cands []string
	for _, c := range p.Candidates {
		vs := append([]string(nil), c.Victims...)
		sort.Strings(vs)
		b, _ := json.Marshal([]any{c.Node, vs, c.NumPDBViolations})
		cands = append(cands, string(b))
	}
	out["candidates"] = cands
	var dry []string
	for _, d := range p.DryRunStatuses {
		b, _ := json.Marshal([]any{d.Node, d.Status})
		dry = append(dry, string(b))
	}
	out["dryRunStatuses"] = dry
	return out
}
