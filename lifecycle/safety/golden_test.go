package safety_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/scenarios/*.txt")

// TestScenarioFiles runs the event scripts of testdata/scenarios: a config
// block, "----", the events, "----", then the expected log and verdict
// (schedkit's own output, rewritten with -update after review).
func TestScenarioFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			parts := strings.SplitN(string(data), "----\n", 3)
			require.Len(t, parts, 3, "want config ---- events ---- output")
			cfg := safety.Config{Start: start}
			for _, line := range strings.Split(parts[0], "\n") {
				key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
				if !ok || strings.HasPrefix(key, "#") {
					continue
				}
				val = strings.TrimSpace(val)
				switch key {
				case "nodes":
					cfg.Nodes = strings.Split(val, ",")
				case "identities":
					cfg.Identities = strings.Split(val, ",")
				case "volumes":
					cfg.Volumes = val == "true"
				case "grace":
					g, err := strconv.ParseInt(val, 10, 64)
					require.NoError(t, err)
					cfg.TerminationGracePeriodSeconds = &g
				default:
					t.Fatalf("unknown config key %q", key)
				}
			}
			events, err := safety.ParseEvents(parts[1])
			require.NoError(t, err)
			c, err := safety.New(cfg)
			require.NoError(t, err)
			var out strings.Builder
			for _, e := range events {
				lines, err := c.Apply(e)
				require.NoError(t, err)
				for _, l := range lines {
					fmt.Fprintln(&out, l)
				}
			}
			v := c.Check()
			if v.AtMostOne {
				fmt.Fprintln(&out, "verdict: at most one instance per identity")
			}
			for _, viol := range v.Violations {
				fmt.Fprintln(&out, "verdict: "+c.Explain(viol))
			}
			for _, inc := range c.Incidents() {
				fmt.Fprintln(&out, "incident: "+c.Explain(inc))
			}
			if *update {
				require.NoError(t, os.WriteFile(file, []byte(parts[0]+"----\n"+parts[1]+"----\n"+out.String()), 0o644))
				return
			}
			assert.Equal(t, parts[2], out.String())
		})
	}
}
