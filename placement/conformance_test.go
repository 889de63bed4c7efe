package placement

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement/framework"
)

// The conformance cases under testdata/conformance are upstream's answers
// (kube-scheduler v1.36.3 run in-process on each scenario, copied verbatim
// from the shared conformance set); they are never rewritten from schedkit's
// output. The test checks what compare.py checks in filter-score mode: per
// pod the gate, PreFilter code, feasible and best nodes, FitError message;
// per node the verdict, status reasons, every plugin's filter verdict, and for
// feasible nodes the weighted scores and total.

type expectedFile struct {
	Pods []expectedPod `json:"pods"`
}

type expectedPod struct {
	Pod       string      `json:"pod"`
	Gated     *wireStatus `json:"gated"`
	PreFilter *struct {
		Status wireStatus `json:"status"`
	} `json:"preFilter"`
	Feasible []string       `json:"feasibleNodes"`
	Best     []string       `json:"bestNodes"`
	Message  string         `json:"message"`
	Nodes    []expectedNode `json:"nodes"`
}

type expectedNode struct {
	Node     string       `json:"node"`
	Feasible bool         `json:"feasible"`
	Status   wireStatus   `json:"status"`
	Filters  []wireStatus `json:"filters"`
	Scores   []wireScore  `json:"scores"`
	Total    *int64       `json:"totalScore"`
}

func loadScenario(t *testing.T, path string) (*Snapshot, []*corev1.Pod) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s, _, err := scenario.Decode(data)
	require.NoError(t, err)
	s, _, err = scenario.Normalize(s)
	require.NoError(t, err)
	in := s.ClusterInput(false)
	snap, _, err := newTestSnapshot(in)
	require.NoError(t, err)
	pending := make([]*corev1.Pod, len(s.Pending))
	for i := range s.Pending {
		pending[i] = &s.Pending[i]
	}
	return snap, pending
}

func passCode(c string) string {
	if c == "" || c == "Skip" {
		return "Success"
	}
	return c
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// wireStatus and wireScore read the conformance format's statuses and
// scores (codes by name).
type wireStatus struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

type wireScore struct {
	Plugin   string `json:"plugin"`
	Weighted int64  `json:"weighted"`
}

func weightedWire(scores []wireScore) map[string]int64 {
	out := map[string]int64{}
	for _, s := range scores {
		if s.Weighted != 0 {
			out[s.Plugin] = s.Weighted
		}
	}
	return out
}

func weighted(scores []PluginScore) map[string]int64 {
	out := map[string]int64{}
	for _, s := range scores {
		if s.Weighted != 0 {
			out[s.Plugin] = s.Weighted
		}
	}
	return out
}

// filterScoreCases names the conformance scenarios with filter-score
// answers (testdata/conformance/NAME.filter-score.json).
func filterScoreCases(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/conformance/*.filter-score.json")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(strings.TrimSuffix(p, ".filter-score.json"))
	}
	return names
}

func TestConformanceFilterScore(t *testing.T) {
	for _, name := range filterScoreCases(t) {
		expPath := filepath.Join("testdata/conformance", name+".filter-score.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(expPath)
			require.NoError(t, err)
			var exp expectedFile
			require.NoError(t, json.Unmarshal(data, &exp))
			snap, pending := loadScenario(t, filepath.Join("testdata/conformance", name+".json"))
			got := map[string]*Result{}
			for _, p := range pending {
				r, err := Evaluate(snap, p, Options{})
				require.NoError(t, err)
				got[r.Pod] = r
			}
			for _, ep := range exp.Pods {
				ap := got[ep.Pod]
				require.NotNil(t, ap, ep.Pod)
				assert.Equal(t, ep.Gated != nil, ap.Gated != nil, "%s gated", ep.Pod)
				if ep.Gated != nil {
					continue
				}
				assert.Equal(t, passCode(ep.PreFilter.Status.Code), passCode(ap.PreFilter.Status.Code.String()), "%s prefilter", ep.Pod)
				assert.Equal(t, sortedCopy(ep.Feasible), sortedCopy(ap.FeasibleNodes), "%s feasible", ep.Pod)
				assert.Equal(t, sortedCopy(ep.Best), sortedCopy(ap.BestNodes), "%s best", ep.Pod)
				if ep.Message != "" {
					assert.Equal(t, ep.Message, ap.Message, "%s message", ep.Pod)
				}
				nodes := map[string]*NodeResult{}
				for i := range ap.Nodes {
					nodes[ap.Nodes[i].Node] = &ap.Nodes[i]
				}
				for _, en := range ep.Nodes {
					an := nodes[en.Node]
					require.NotNil(t, an, "%s on %s", ep.Pod, en.Node)
					assert.Equal(t, en.Feasible, an.Feasible, "%s on %s feasible", ep.Pod, en.Node)
					assert.Equal(t, passCode(en.Status.Code), passCode(an.Status.Code.String()), "%s on %s code", ep.Pod, en.Node)
					assert.Equal(t, sortedCopy(en.Status.Reasons), sortedCopy(an.Status.Reasons), "%s on %s reasons", ep.Pod, en.Node)
					if en.Filters != nil {
						af := map[string]framework.Status{}
						for _, f := range an.Filters {
							af[f.Plugin] = f
						}
						for _, f := range en.Filters {
							assert.Equal(t, passCode(f.Code), passCode(af[f.Plugin].Code.String()), "%s on %s %s", ep.Pod, en.Node, f.Plugin)
							assert.Equal(t, sortedCopy(f.Reasons), sortedCopy(af[f.Plugin].Reasons), "%s on %s %s", ep.Pod, en.Node, f.Plugin)
						}
					}
					if en.Feasible {
						assert.Equal(t, weightedWire(en.Scores), weighted(an.Scores), "%s on %s scores", ep.Pod, en.Node)
						require.NotNil(t, en.Total)
						assert.Equal(t, *en.Total, an.Total(), "%s on %s total", ep.Pod, en.Node)
					}
				}
			}
		})
	}
}

// TestScheduleAgreesWithEvaluate: Schedule picks the first of Evaluate's best
// nodes and reports the same feasible count and message.
func TestScheduleAgreesWithEvaluate(t *testing.T) {
	snap, pending := loadScenario(t, "testdata/conformance/small-1.json")
	for _, p := range pending {
		c, err := Compile(snap, p, Options{})
		require.NoError(t, err)
		r := c.Evaluate()
		d := c.Schedule()
		if r.Gated != nil {
			assert.NotNil(t, d.Gated)
			continue
		}
		assert.Equal(t, len(r.FeasibleNodes), d.Feasible, r.Pod)
		assert.Equal(t, r.Message, d.Message, r.Pod)
		if len(r.BestNodes) > 0 {
			assert.Equal(t, r.BestNodes[0], d.Node, r.Pod)
		} else {
			assert.Empty(t, d.Node, r.Pod)
		}
	}
}
