package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/internal/scenario/scenariotest"
	"github.com/schedkit/schedkit/placement"
)

// writeTemp writes data to a file named name in a fresh directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

// TestDumpInputMatchesScenario: a public scenario written as kubectl would
// dump its objects, with the fields a real cluster adds (managedFields,
// node conditions, resourceVersion), gives the same output as the
// scenario file in both modes: as a kind List in JSON and in YAML, as a
// multi-document YAML stream, and split over two -in files; and the
// scenario itself as two scenario documents of one YAML stream (merged).
func TestDumpInputMatchesScenario(t *testing.T) {
	path := filepath.Join(casesDir, "small-1.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	opts := scenariotest.Options{ClusterFields: true}
	list, err := scenariotest.List(data, opts)
	require.NoError(t, err)
	listYAML, err := scenariotest.ListYAML(data, opts)
	require.NoError(t, err)
	multi, err := scenariotest.MultiDocYAML(data, opts)
	require.NoError(t, err)
	docs := strings.SplitAfter(string(multi), "\n---\n")
	// The scenario itself as two scenario documents in one YAML stream:
	// the cluster, then the pods.
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &fields))
	cluster, podsOnly := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	for k, v := range fields {
		if k == "pods" || k == "pending" {
			podsOnly[k] = v
		} else {
			cluster[k] = v
		}
	}
	y1, err := yaml.Marshal(cluster)
	require.NoError(t, err)
	y2, err := yaml.Marshal(podsOnly)
	require.NoError(t, err)
	scenarioDocs := append(append(append([]byte(nil), y1...), "---\n"...), y2...)

	first := writeTemp(t, "a.yaml", []byte(strings.Join(docs[:len(docs)/2], "")))
	second := writeTemp(t, "b.yaml", []byte("---\n"+strings.Join(docs[len(docs)/2:], "")))

	for _, mode := range []string{"filter-score", "schedule"} {
		want, _, err := runCmd(t, config{mode: mode, in: path, version: placement.V1_36}, nil)
		require.NoError(t, err)
		for _, tc := range []struct {
			name string
			cfg  config
		}{
			{"List JSON", config{in: writeTemp(t, "dump.json", list)}},
			{"List YAML", config{in: writeTemp(t, "dump.yaml", listYAML)}},
			{"multi-document YAML", config{in: writeTemp(t, "dump.yaml", multi)}},
			{"two -in files", config{in: first, moreIn: []string{second}}},
			{"two scenario documents", config{in: writeTemp(t, "scenario.yaml", scenarioDocs)}},
		} {
			tc.cfg.mode, tc.cfg.version = mode, placement.V1_36
			got, stderr, err := runCmd(t, tc.cfg, nil)
			require.NoError(t, err, tc.name)
			assert.Empty(t, stderr, tc.name)
			assert.Equal(t, want, got, "%s, %s", mode, tc.name)
		}

		// Objects of other kinds change nothing but one warning.
		other, err := scenariotest.ListYAML(data, scenariotest.Options{ClusterFields: true, Other: true})
		require.NoError(t, err)
		got, stderr, err := runCmd(t, config{mode: mode, in: "-", version: placement.V1_36}, other)
		require.NoError(t, err)
		assert.Equal(t, "simulate: warning: 4 object(s) of kinds the simulation does not read ignored: apps/v1 Deployment (1), events.k8s.io/v1 Event (1), v1 ConfigMap (2)\n", stderr)
		var a, b map[string]any
		require.NoError(t, json.Unmarshal([]byte(want), &a))
		require.NoError(t, json.Unmarshal([]byte(got), &b))
		meta := b["meta"].(map[string]any)
		assert.Len(t, meta["warnings"], 1)
		meta["warnings"] = []any{}
		assert.Equal(t, a, b, mode)
	}
}

// TestBadInput: every bad input gives an error naming the file, document,
// object and field, and no output at all (the command exits 1).
func TestBadInput(t *testing.T) {
	tiny, err := os.ReadFile(tinyPath())
	require.NoError(t, err)
	list, err := scenariotest.List(tiny, scenariotest.Options{})
	require.NoError(t, err)
	badPod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "abc"}}}]}}`
	dir := t.TempDir()
	tests := []struct {
		name  string
		files map[string]string // written to dir
		in    []string          // names in dir, or absolute paths
		want  string            // the whole error, with dir replaced by DIR
	}{
		{
			name:  "unknown top-level key",
			files: map[string]string{"s.yaml": "nodes: []\npendng: []\n"},
			in:    []string{"s.yaml"},
			want:  `DIR/s.yaml: unknown field "pendng" (did you mean "pending"?)`,
		},
		{
			name:  "invalid object of a known kind in a List",
			files: map[string]string{"dump.json": `{"apiVersion": "v1", "kind": "List", "items": [` + badPod + `]}`},
			in:    []string{"dump.json"},
			want:  `DIR/dump.json: items[0] (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`,
		},
		{
			name: "invalid objects in two files",
			files: map[string]string{
				"a.yaml": "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n" + badPod + "\n",
				"b.yaml": "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\n",
			},
			in: []string{"a.yaml", "b.yaml"},
			want: "2 problems:\n" +
				"  DIR/a.yaml: document 2 at line 5 (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity \"abc\"\n" +
				"  DIR/b.yaml (PodDisruptionBudget default/pdb): apiVersion: Unsupported value: \"policy/v1beta1\": supported values: \"policy/v1\"",
		},
		{
			name:  "truncated dump",
			files: map[string]string{"cut.json": string(list[:len(list)/2])},
			in:    []string{"cut.json"},
			want:  "DIR/cut.json: invalid JSON: line 169, column 20: unexpected end of JSON input",
		},
		{
			name: "missing file",
			in:   []string{"missing.yaml"},
			want: "open DIR/missing.yaml: no such file or directory",
		},
		{
			name: "a directory",
			in:   []string{"."},
			want: "read DIR: is a directory",
		},
		{
			name:  "an empty file",
			files: map[string]string{"empty.yaml": "\n# nothing\n---\n"},
			in:    []string{"empty.yaml"},
			want:  "DIR/empty.yaml: empty scenario document",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, content := range tt.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
			}
			cfg := config{version: placement.V1_36}
			for i, name := range tt.in {
				p := filepath.Join(dir, name)
				if i == 0 {
					cfg.in = p
				} else {
					cfg.moreIn = append(cfg.moreIn, p)
				}
			}
			for _, mode := range []string{"filter-score", "schedule"} {
				cfg.mode = mode
				out, _, err := runCmd(t, cfg, nil)
				require.Error(t, err)
				assert.Equal(t, tt.want, strings.ReplaceAll(err.Error(), dir, "DIR"), mode)
				assert.Empty(t, out, "no partial answer")
			}
		})
	}

	_, _, err = runCmd(t, config{mode: "schedule", in: "-", moreIn: []string{"-"}}, nil)
	var ue usageError
	require.ErrorAs(t, err, &ue, "stdin twice")
}

// TestExampleDump: testdata/tiny-cluster.yaml, the tiny scenario as
// kubectl get -o yaml would print its objects (the README's example of a
// real cluster's dump), is what scenariotest writes (rewrite with -update:
// it is made from the scenario, not from an answer) and simulate answers
// it exactly as the scenario, in both modes.
func TestExampleDump(t *testing.T) {
	data, err := os.ReadFile(tinyPath())
	require.NoError(t, err)
	dump, err := scenariotest.ListYAML(data, scenariotest.Options{ClusterFields: true})
	require.NoError(t, err)
	path := filepath.Join("testdata", "tiny-cluster.yaml")
	if *update {
		require.NoError(t, os.WriteFile(path, dump, 0o644))
	}
	committed, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(dump), string(committed))
	for _, mode := range []string{"filter-score", "schedule"} {
		want, _, err := runCmd(t, config{mode: mode, in: tinyPath(), version: placement.V1_36}, nil)
		require.NoError(t, err)
		got, stderr, err := runCmd(t, config{mode: mode, in: path, version: placement.V1_36}, nil)
		require.NoError(t, err)
		assert.Empty(t, stderr)
		assert.Equal(t, want, got, mode)
	}
}

// TestExplain: -explain names a pending pod (namespace "default" when
// omitted); filter-score then evaluates that pod alone, in both formats,
// with the same verdict as in the full run; an unknown pod is an error
// with no output.
func TestExplain(t *testing.T) {
	full, _, err := runCmd(t, config{mode: "filter-score", in: tinyPath(), version: placement.V1_36}, nil)
	require.NoError(t, err)
	one, _, err := runCmd(t, config{mode: "filter-score", in: tinyPath(), version: placement.V1_36, explain: "p-big"}, nil)
	require.NoError(t, err)
	var a, b filterScoreOutput
	require.NoError(t, json.Unmarshal([]byte(full), &a))
	require.NoError(t, json.Unmarshal([]byte(one), &b))
	require.Len(t, b.Pods, 1)
	var want *podResult
	for _, r := range a.Pods {
		if r.Pod == "default/p-big" {
			want = r
		}
	}
	assert.Equal(t, want, b.Pods[0])

	for _, mode := range []string{"filter-score", "schedule"} {
		out, _, err := runCmd(t, config{mode: mode, in: tinyPath(), version: placement.V1_36, explain: "team/nope", format: "text"}, nil)
		require.EqualError(t, err, "-explain team/nope: no pending pod of that name (pending: default/p-small, default/p-big, default/p-ssd, default/p-n3, default/p-gated)")
		assert.Empty(t, out)
	}
}

// TestExplainAtTurn: -explain's evaluation of a pod at its turn in the
// schedule mode (the initial cluster with the earlier pods' bindings and
// evictions) is the one the queue made: the same number of feasible
// nodes, the same chosen node, the same fit error.
func TestExplainAtTurn(t *testing.T) {
	for _, name := range []string{"tiny", "small-1", "crowded-1"} {
		t.Run(name, func(t *testing.T) {
			in, out := scheduleCase(t, filepath.Join(casesDir, name+".json"), true)
			checked := 0
			for _, r := range out.Results {
				if r.Gated != nil || r.Error != "" {
					continue
				}
				in.explain = r.Pod
				res, ctx, err := explainAtTurn(in, out)
				require.NoError(t, err)
				require.NotNil(t, res, r.Pod)
				require.NotNil(t, ctx)
				assert.Equal(t, r.FeasibleNodes, len(res.FeasibleNodes), r.Pod)
				switch r.Outcome {
				case "Scheduled":
					require.NotEmpty(t, res.BestNodes, r.Pod)
					assert.Equal(t, r.Node, res.BestNodes[0], r.Pod)
				case "PreemptionNominated":
					assert.Equal(t, r.Message, res.Message, r.Pod)
				case "Unschedulable":
					assert.True(t, strings.HasPrefix(r.Message, res.Message), "%s: %q does not start with %q", r.Pod, r.Message, res.Message)
				}
				checked++
			}
			assert.NotZero(t, checked)
		})
	}
}
