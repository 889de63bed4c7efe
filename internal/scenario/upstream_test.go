package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNormalizeMatchesUpstream compares Load with what upstream's own code
// (legacyscheme defaulting, the Priority admission plugin and the pod
// strategy's create mutations, run by the oracle) stores for the same
// scenarios, object by object. Services and StatefulSets are left out: their
// spec defaults are deliberately not applied (doc.go).
func TestNormalizeMatchesUpstream(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/*.normalized.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".normalized.json")
		t.Run(name, func(t *testing.T) {
			input := filepath.Join("../../testdata/conformance/cases", name+".json")
			if _, err := os.Stat(input); err != nil {
				input = filepath.Join("../../testdata/conformance/hand", name+".json")
			}
			data, err := os.ReadFile(input)
			require.NoError(t, err)
			got, _, err := Load(data)
			require.NoError(t, err)
			gotJSON, err := json.Marshal(got)
			require.NoError(t, err)

			want := map[string]any{}
			have := map[string]any{}
			upstream, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(upstream, &want))
			require.NoError(t, json.Unmarshal(gotJSON, &have))
			for _, list := range []string{"nodes", "pods", "pending", "namespaces", "pdbs", "priorityClasses", "replicaSets", "replicationControllers"} {
				assert.Equal(t, want[list], have[list], list)
			}
		})
	}
}
