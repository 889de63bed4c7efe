package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/placement"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt golden files from the current output (never upstream's answers)")

func tinyPath() string { return filepath.Join(casesDir, "tiny.json") }

func runCmd(t *testing.T, cfg config, stdin []byte) (stdout, stderr string, err error) {
	t.Helper()
	if cfg.out == "" {
		cfg.out = "-"
	}
	if cfg.format == "" {
		cfg.format = "json"
	}
	var o, e bytes.Buffer
	err = run(cfg, bytes.NewReader(stdin), &o, &e)
	return o.String(), e.String(), err
}

// TestMalformedInput: a clear error naming the object and field, and no
// output at all.
func TestMalformedInput(t *testing.T) {
	doc := `{"nodes": [{"metadata": {"name": "n1"}}],
	  "pending": [{"metadata": {"name": "web-1"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "abc"}}}]}}]}`
	for _, mode := range []string{"filter-score", "schedule"} {
		out, _, err := runCmd(t, config{mode: mode, in: "-"}, []byte(doc))
		require.Error(t, err)
		assert.Equal(t, `pending[0] (default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`, err.Error())
		assert.Empty(t, out)
	}

	_, _, err := runCmd(t, config{mode: "filter-score", in: "/nonexistent/scenario.json"}, nil)
	require.Error(t, err)

	dup := `{"nodes": [{"metadata": {"name": "n1"}}], "pods": [{"metadata": {"name": "a"}}], "pending": [{"metadata": {"name": "a"}}]}`
	out, _, err := runCmd(t, config{mode: "filter-score", in: "-"}, []byte(dup))
	require.Error(t, err)
	assert.Equal(t, `pending[0] (default/a): metadata.name: Duplicate value: same namespace/name as pods[0]`, err.Error())
	assert.Empty(t, out)
}

func TestUsageErrors(t *testing.T) {
	_, _, err := runCmd(t, config{mode: "nope", in: tinyPath()}, nil)
	var ue usageError
	require.ErrorAs(t, err, &ue)
	_, _, err = runCmd(t, config{mode: "filter-score", in: tinyPath(), format: "xml"}, nil)
	require.ErrorAs(t, err, &ue)
}

// TestYAMLFromStdinMatchesJSONFile: the same scenario as a YAML stream on
// stdin and as a JSON file gives the same output.
func TestYAMLFromStdinMatchesJSONFile(t *testing.T) {
	data, err := os.ReadFile(tinyPath())
	require.NoError(t, err)
	y, err := yaml.JSONToYAML(data)
	require.NoError(t, err)
	for _, mode := range []string{"filter-score", "schedule"} {
		fromFile, _, err := runCmd(t, config{mode: mode, in: tinyPath()}, nil)
		require.NoError(t, err)
		fromStdin, _, err := runCmd(t, config{mode: mode, in: "-"}, y)
		require.NoError(t, err)
		assert.Equal(t, fromFile, fromStdin, mode)
		assert.True(t, json.Valid([]byte(fromFile)))
	}
}

// TestTimingAndWarnings: -timing prints exactly one timing line; warnings go
// to stderr and into meta.warnings.
func TestTimingAndWarnings(t *testing.T) {
	doc := `{"nodes": [{"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}}],
	  "pods": [{"metadata": {"name": "lost"}, "spec": {"nodeName": "n9", "containers": [{"name": "c"}]}}],
	  "pending": [{"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}, "status": {"nominatedNodeName": "n1"}}]}`
	out, stderr, err := runCmd(t, config{mode: "filter-score", in: "-", timing: true}, []byte(doc))
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`(?m)^timing: evaluation \d+\.\d{3}s \(snapshot \d+\.\d{3}s, filter-score \d+\.\d{3}s\)$`), stderr)
	assert.Equal(t, 1, strings.Count(stderr, "timing:"))

	var got struct {
		Meta filterScoreMeta `json:"meta"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "filter-score", got.Meta.Mode)
	assert.Equal(t, 1, got.Meta.Nodes)
	assert.Equal(t, 0, got.Meta.BoundPods)
	assert.Equal(t, 1, got.Meta.PendingPods)
	require.Len(t, got.Meta.Warnings, 2)
	assert.Contains(t, got.Meta.Warnings[0], `status.nominatedNodeName "n1" ignored`)
	assert.Contains(t, got.Meta.Warnings[1], `default/lost`)
	for _, w := range got.Meta.Warnings {
		assert.Contains(t, stderr, "simulate: warning: "+w)
	}
}

// TestFilterScoreDeterministic: the output does not depend on the number of
// goroutines evaluating the pods.
func TestFilterScoreDeterministic(t *testing.T) {
	path := filepath.Join(casesDir, "medium-1.json")
	prev := runtime.GOMAXPROCS(1)
	one, _, err := runCmd(t, config{mode: "filter-score", in: path}, nil)
	runtime.GOMAXPROCS(4)
	four, _, err2 := runCmd(t, config{mode: "filter-score", in: path}, nil)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	require.NoError(t, err2)
	assert.Equal(t, one, four)
}

// TestTextReport compares the text reports with golden files (schedkit's
// own output, reviewed by reading them; rewrite with -update after a
// deliberate change): filter-score and schedule, and -explain for one pod.
func TestTextReport(t *testing.T) {
	for _, tc := range []struct {
		scenario, mode, explain string
	}{
		{"tiny", "filter-score", ""},
		{"small-2", "filter-score", ""},
		{"crowded-1", "filter-score", ""},
		{"tiny", "schedule", ""},
		{"crowded-1", "schedule", ""},
		{"tiny", "filter-score", "default/p-big"},
		{"tiny", "schedule", "default/p-big"},
		{"tiny", "schedule", "default/p-small"},
		{"crowded-1", "schedule", "team-a/proxy-13-h8d52lt6s-slzcv"},
		{"crowded-1", "schedule", "default/batch-37-7"},
		// A kind cluster's dump as kubectl writes it (testdata/kind-cluster.yaml).
		{"kind-cluster", "filter-score", ""},
		{"kind-cluster", "schedule", ""},
	} {
		in := filepath.Join(casesDir, tc.scenario+".json")
		if tc.scenario == "kind-cluster" {
			in = filepath.Join("testdata", "kind-cluster.yaml")
		}
		golden := tc.scenario + "." + tc.mode
		if tc.explain != "" {
			golden += ".explain-" + tc.explain[strings.LastIndex(tc.explain, "/")+1:]
		}
		golden = filepath.Join("testdata", golden+".txt")
		t.Run(golden, func(t *testing.T) {
			out, _, err := runCmd(t, config{mode: tc.mode, in: in, format: "text", explain: tc.explain}, nil)
			require.NoError(t, err)
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run with -update to create it")
			assert.Equal(t, string(want), out)
		})
	}
}

func BenchmarkFilterScore(b *testing.B) {
	for _, name := range []string{"small-1", "medium-1", "crowded-1"} {
		b.Run(name, func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(casesDir, name+".json"))
			require.NoError(b, err)
			in, err := prepare(data, config{version: placement.V1_36})
			require.NoError(b, err)
			warnings := in.warnings
			for b.Loop() {
				in.warnings = warnings[:len(warnings):len(warnings)]
				snap, err := buildSnapshot(in)
				if err != nil {
					b.Fatal(err)
				}
				in.snap = snap
				if _, err := runFilterScore(in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(in.pending)), "pods/op")
		})
	}
}

// FuzzSimulate: whatever the scenario, simulate either answers or refuses
// the input with an error; it never panics, in either mode, and a refusal
// writes nothing.
func FuzzSimulate(f *testing.F) {
	for _, name := range []string{"tiny.json"} {
		data, err := os.ReadFile(filepath.Join(casesDir, name))
		require.NoError(f, err)
		f.Add(data)
	}
	hand, err := os.ReadFile(filepath.Join(handDir, "normalization.json"))
	require.NoError(f, err)
	f.Add(hand)
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1","pods":"3"}}}],"pending":[{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}]}`))
	dump, err := os.ReadFile(filepath.Join("testdata", "tiny-cluster.yaml"))
	require.NoError(f, err)
	f.Add(dump)
	f.Add([]byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', pods: '3'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, mode := range []string{"filter-score", "schedule"} {
			out, _, err := runCmd(t, config{mode: mode, in: "-", version: placement.V1_36}, doc)
			if err != nil {
				require.Empty(t, out)
				continue
			}
			require.True(t, json.Valid([]byte(out)), mode)
		}
	})
}

// TestHugePagesDoNotChangeAnswers: the evaluation's collector setting
// follows cfg.hugePages; the output must not.
func TestHugePagesDoNotChangeAnswers(t *testing.T) {
	in, err := os.ReadFile("testdata/kind-cluster.yaml")
	require.NoError(t, err)
	for _, mode := range []string{"filter-score", "schedule"} {
		off, _, err := runCmd(t, config{mode: mode, in: "-"}, in)
		require.NoError(t, err)
		on, _, err := runCmd(t, config{mode: mode, in: "-", hugePages: true}, in)
		require.NoError(t, err)
		assert.Equal(t, off, on, mode)
	}
}

// TestHeapReserve: sixteen times the input files' total size, at least
// 1 GiB; stdin and unreadable paths count nothing.
func TestHeapReserve(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // sparse: no disk used
	require.NoError(t, f.Close())
	assert.Equal(t, 1<<30, heapReserve(config{in: "-"}))
	assert.Equal(t, 1<<30, heapReserve(config{in: "testdata/kind-cluster.yaml"}))
	assert.Equal(t, 1600<<20, heapReserve(config{in: big}))
	assert.Equal(t, 3200<<20, heapReserve(config{in: big, moreIn: []string{big, "no-such-file"}}))
}

// The evaluation's GOGC with huge pages: 400 % of a heap of 128 MiB or
// more, enough for windowHeadroom of growth below that, at most 5000 %,
// and 400 % when the live heap is unknown.
func TestHugePageWindowGC(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 400},
		{1 * mib, 5000},
		{10 * mib, 5000},
		{26 * mib, 1969},
		{128 * mib, 400},
		{300 * mib, 400},
	} {
		require.Equal(t, tc.want, hugePageWindowGC(tc.live), "live %d MiB", tc.live/mib)
	}
	keep := make([]byte, 4<<20)
	runtime.GC()
	require.GreaterOrEqual(t, liveHeap(), uint64(len(keep)), "the runtime reports the live heap")
	runtime.KeepAlive(keep)
}
