package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/placement"
)

// whatifDirs hold what-if questions with upstream's answers (see
// testdata/conformance/README.md): NAME.json, NAME.replicas.json or
// NAME.drain.json with NAME.nodes.
var whatifDirs = []string{
	"../../testdata/conformance/cases-replicas",
	"../../testdata/conformance/cases-drain",
	"../../testdata/conformance/whatif-gen",
}

// TestWhatIfConformance runs -mode replicas (-replicas 10) and -mode drain
// on every what-if case and checks what compare_whatif.py checks: per
// template requested, placed, nodes in order and message; per drain the
// moved pods in queue order, each one's outcome, node and message, the pods
// that stayed and drainable.
func TestWhatIfConformance(t *testing.T) {
	n := 0
	for _, dir := range whatifDirs {
		for _, mode := range []string{"replicas", "drain"} {
			expected, err := filepath.Glob(filepath.Join(dir, "*."+mode+".json"))
			require.NoError(t, err)
			sort.Strings(expected)
			for _, expPath := range expected {
				n++
				name := strings.TrimSuffix(filepath.Base(expPath), "."+mode+".json")
				t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
					cfg := config{mode: mode, in: filepath.Join(dir, name+".json"), out: "-", format: "json",
						version: placement.V1_36, replicas: 10}
					if mode == "drain" {
						nodes, err := os.ReadFile(filepath.Join(dir, name+".nodes"))
						require.NoError(t, err)
						cfg.drainNodes = splitNodes(strings.TrimSpace(string(nodes)))
					}
					var stdout, stderr bytes.Buffer
					require.NoError(t, run(cfg, nil, &stdout, &stderr))
					data, err := os.ReadFile(expPath)
					require.NoError(t, err)
					if mode == "replicas" {
						compareReplicas(t, data, stdout.Bytes())
					} else {
						compareDrain(t, data, stdout.Bytes())
					}
				})
			}
		}
	}
	require.Greater(t, n, 0, "no what-if cases found")
}

func compareReplicas(t *testing.T, expData, actData []byte) {
	var exp, act replicasOutput
	require.NoError(t, json.Unmarshal(expData, &exp))
	require.NoError(t, json.Unmarshal(actData, &act))
	got := map[string]templateAnswer{}
	for _, a := range act.Templates {
		got[a.Template] = a
	}
	for _, e := range exp.Templates {
		a, ok := got[e.Template]
		if !assert.True(t, ok, "template %s missing", e.Template) {
			continue
		}
		assert.Equal(t, e.Requested, a.Requested, "%s: requested", e.Template)
		assert.Equal(t, e.Placed, a.Placed, "%s: placed", e.Template)
		assert.Equal(t, append([]string{}, e.Nodes...), append([]string{}, a.Nodes...), "%s: nodes", e.Template)
		if e.Message != "" {
			assert.Equal(t, e.Message, a.Message, "%s: message", e.Template)
		}
	}
}

func compareDrain(t *testing.T, expData, actData []byte) {
	var exp, act drainOutput
	require.NoError(t, json.Unmarshal(expData, &exp))
	require.NoError(t, json.Unmarshal(actData, &act))
	keys := func(ps []drainPod) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.Pod)
		}
		return out
	}
	assert.Equal(t, keys(exp.Pods), keys(act.Pods), "moved pods in queue order")
	got := map[string]drainPod{}
	for _, p := range act.Pods {
		got[p.Pod] = p
	}
	for _, e := range exp.Pods {
		a, ok := got[e.Pod]
		if !assert.True(t, ok, "pod %s missing", e.Pod) {
			continue
		}
		assert.Equal(t, [2]string{e.Outcome, e.Node}, [2]string{a.Outcome, a.Node}, "%s: outcome and node", e.Pod)
		if e.Message != "" {
			assert.Equal(t, e.Message, a.Message, "%s: message", e.Pod)
		}
	}
	es, as := append([]string{}, exp.Stayed...), append([]string{}, act.Stayed...)
	sort.Strings(es)
	sort.Strings(as)
	assert.Equal(t, es, as, "stayed")
	assert.Equal(t, exp.Drainable, act.Drainable, "drainable")
}
