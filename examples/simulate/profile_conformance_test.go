package main

// Conformance of -config: upstream's answers with custom profiles
// (testdata/conformance/cases-config/SCENARIO.CONFIG.MODE.json, for
// cases/SCENARIO.json run with configs/CONFIG.yaml), and the extra
// configurations checked with the oracle (testdata/conformance/profiles:
// NAME.json scenarios, CONFIG.yaml profiles, NAME.CONFIG.MODE.json answers).
// Every expected file is upstream's output, copied verbatim.

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

const (
	configsDir      = "../../testdata/conformance/configs"
	casesConfigDir  = "../../testdata/conformance/cases-config"
	profileCasesDir = "../../testdata/conformance/profiles"
)

// TestConformanceProfiles runs every public profile case in both modes and
// requires full agreement.
func TestConformanceProfiles(t *testing.T) {
	runProfileCases(t, casesConfigDir, casesDir, configsDir)
}

// TestConformanceExtraProfiles runs the further configurations checked
// against the oracle (testdata/conformance/profiles).
func TestConformanceExtraProfiles(t *testing.T) {
	if _, err := os.Stat(profileCasesDir); os.IsNotExist(err) {
		t.Skip("no extra profile cases")
	}
	runProfileCases(t, profileCasesDir, profileCasesDir, profileCasesDir)
}

// runProfileCases compares every SCENARIO.CONFIG.MODE.json of expDir.
func runProfileCases(t *testing.T, expDir, scenarioDir, configDir string) {
	t.Helper()
	expected, err := filepath.Glob(filepath.Join(expDir, "*.*.*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, expected)
	sort.Strings(expected)
	n := 0
	for _, expPath := range expected {
		parts := strings.Split(strings.TrimSuffix(filepath.Base(expPath), ".json"), ".")
		if len(parts) != 3 {
			continue
		}
		scen, conf, mode := parts[0], parts[1], parts[2]
		if mode != "filter-score" && mode != "schedule" {
			continue
		}
		n++
		t.Run(scen+"/"+conf+"/"+mode, func(t *testing.T) {
			var exp obj
			data, err := os.ReadFile(expPath)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &exp))
			meta := getObj(exp, "meta")
			require.Equal(t, mode, get(meta, "mode"))
			require.Equal(t, conf+".yaml", get(getObj(meta, "profile"), "config"), "answered with this configuration")
			scenPath := filepath.Join(scenarioDir, scen+".json")
			if _, err := os.Stat(scenPath); err != nil {
				scenPath = filepath.Join(casesDir, scen+".json") // a public scenario
			}
			act, err := simulateProfileCase(scenPath, filepath.Join(configDir, conf+".yaml"), mode)
			require.NoError(t, err)
			assert.Equal(t, conf+".yaml", get(getObj(getObj(act, "meta"), "profile"), "config"), "meta.profile records the configuration")
			tl := compareMode(mode, exp, act, newTally())
			if ok, all := tl.sums(); ok != all {
				t.Errorf("disagreements with kube-scheduler:\n%s", tl.report())
			}
		})
	}
	require.NotZero(t, n, "no SCENARIO.CONFIG.MODE.json in %s", expDir)
}

// simulateProfileCase runs the command in-process with -config.
func simulateProfileCase(path, configPath, mode string) (out obj, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var stdout, stderr bytes.Buffer
	cfg := config{mode: mode, in: path, out: "-", format: "json", version: placement.V1_36, configPath: configPath}
	if err := run(cfg, nil, &stdout, &stderr); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("output is not JSON: %w", err)
	}
	return out, nil
}

// TestConfigOtherSchedulerName: a pending pod whose spec.schedulerName names
// another profile is left pending with a warning; a refused configuration
// is an error naming the file.
func TestConfigOtherSchedulerName(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"), 0o644))
	doc := `{"nodes":[{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"10"}}}],
"pending":[{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}},
           {"metadata":{"name":"b"},"spec":{"schedulerName":"other","containers":[{"name":"c"}]}}]}`
	for _, mode := range []string{"filter-score", "schedule"} {
		out, stderr, err := runCmd(t, config{mode: mode, in: "-", configPath: cfgPath}, []byte(doc))
		require.NoError(t, err)
		assert.Contains(t, stderr, `pod default/b: spec.schedulerName "other" is not the configured profile "default-scheduler"`)
		assert.NotContains(t, out, `"default/b"`, mode)
		assert.Contains(t, out, `"schedulerName":"default-scheduler"`, mode)
	}
	require.NoError(t, os.WriteFile(cfgPath, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 50\n"), 0o644))
	_, _, err := runCmd(t, config{mode: "schedule", in: "-", configPath: cfgPath}, []byte(doc))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "percentageOfNodesToScore: 50 is not supported")
	assert.Contains(t, err.Error(), cfgPath)
}
