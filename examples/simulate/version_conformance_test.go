package main

// Conformance of the version profiles (-kubernetes-version): upstream
// v1.35.4's and v1.34.4's answers for the public scenarios, and every
// release's answers for the hand-written and generated scenarios that
// exercise the rules that differ between releases. All expected files are
// upstream's output, copied verbatim (testdata/conformance/README.md).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/placement"
)

// versionCasesDir is where upstream v1.35.4's and v1.34.4's answers for the
// public scenarios live; the scenarios themselves are in casesDir.
func versionCasesDir(v placement.Version) string {
	return "../../testdata/conformance/cases-" + v.String()
}

// versionsDir holds scenarios written to tell the releases apart
// (NAME.json) with each release's answers (NAME.v1.3x.MODE.json).
const versionsDir = "../../testdata/conformance/versions"

// TestConformanceOlderVersions runs simulate -kubernetes-version 1.35 and
// 1.34 on every public scenario, in both modes, and compares with that
// release's answers using compare.py's checks (compare_test.go).
func TestConformanceOlderVersions(t *testing.T) {
	for _, v := range []placement.Version{placement.V1_35, placement.V1_34} {
		for _, mode := range []string{"filter-score", "schedule"} {
			expected, err := filepath.Glob(filepath.Join(versionCasesDir(v), "*."+mode+".json"))
			require.NoError(t, err)
			require.NotEmpty(t, expected, "no %s cases in %s", v, versionCasesDir(v))
			sort.Strings(expected)
			total := newTally()
			t.Run(v.String()+"/"+mode, func(t *testing.T) {
				for _, expPath := range expected {
					name := strings.TrimSuffix(filepath.Base(expPath), "."+mode+".json")
					t.Run(name, func(t *testing.T) {
						compareVersionCase(t, v, mode, filepath.Join(casesDir, name+".json"), expPath, total)
					})
				}
			})
			t.Logf("%s %s, all public cases:\n%s", v, mode, total.summary())
		}
	}
}

// TestConformanceVersionScenarios runs every release on the scenarios of
// testdata/conformance/versions: image volumes, pods that need declared node
// features, bound pods resized at pod level, balanced-allocation scores.
func TestConformanceVersionScenarios(t *testing.T) {
	scenarios, err := filepath.Glob(filepath.Join(versionsDir, "*.json"))
	require.NoError(t, err)
	var names []string
	for _, p := range scenarios {
		base := filepath.Base(p)
		if strings.Count(base, ".") == 1 { // NAME.json, not NAME.v1.36.MODE.json
			names = append(names, strings.TrimSuffix(base, ".json"))
		}
	}
	require.NotEmpty(t, names)
	sort.Strings(names)
	for _, v := range placement.Versions() {
		for _, mode := range []string{"filter-score", "schedule"} {
			t.Run(v.String()+"/"+mode, func(t *testing.T) {
				for _, name := range names {
					t.Run(name, func(t *testing.T) {
						expPath := filepath.Join(versionsDir, name+"."+v.String()+"."+mode+".json")
						_, err := os.Stat(expPath)
						require.NoError(t, err, "every version scenario has every release's answers")
						compareVersionCase(t, v, mode, filepath.Join(versionsDir, name+".json"), expPath, newTally())
					})
				}
			})
		}
	}
}

// compareVersionCase compares one scenario's output at version v with the
// expected file and adds the counts to total.
func compareVersionCase(t *testing.T, v placement.Version, mode, scenarioPath, expPath string, total *tally) {
	t.Helper()
	var exp obj
	data, err := os.ReadFile(expPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &exp))
	meta := getObj(exp, "meta")
	require.Equal(t, mode, get(meta, "mode"), "expected file's meta.mode")
	oracle, _ := get(meta, "oracle").(string)
	require.Contains(t, oracle, "k8s.io/kubernetes "+v.String()+".", "expected file answered by the right release")

	act, err := simulateCaseAt(scenarioPath, mode, v)
	require.NoError(t, err)
	tl := compareMode(mode, exp, act, total)
	if ok, all := tl.sums(); ok == all {
		return
	}
	t.Errorf("disagreements with kube-scheduler %s:\n%s", oracle, tl.report())
}

// simulateCaseAt runs the command in-process at version v and returns its
// JSON output as generic JSON.
func simulateCaseAt(path, mode string, v placement.Version) (out obj, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var stdout, stderr bytes.Buffer
	cfg := config{mode: mode, in: path, out: "-", format: "json", version: v}
	if err := run(cfg, nil, &stdout, &stderr); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("output is not JSON: %w", err)
	}
	return out, nil
}

// TestVersionReportNamesVersion: the text report says which release's rules
// it reproduced.
func TestVersionReportNamesVersion(t *testing.T) {
	for _, v := range placement.Versions() {
		for _, mode := range []string{"filter-score", "schedule"} {
			var stdout, stderr bytes.Buffer
			cfg := config{mode: mode, in: filepath.Join(casesDir, "tiny.json"), out: "-", format: "text", version: v}
			require.NoError(t, run(cfg, nil, &stdout, &stderr))
			assert.Contains(t, stdout.String(), "Kubernetes "+v.String(), "%s %s report", v, mode)
		}
	}
}
