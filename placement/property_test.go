package placement

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The package's property tests draw their clusters from placementtest:
// kit_property_test.go (package placement_test), with hooks into the
// package in export_test.go.

// TestNonZeroDefaultsAreScoringOnly: a best-effort pod fits a full node's
// cpu (Filter uses real requests) while Fit scores it with 100m.
func TestNonZeroDefaultsAreScoringOnly(t *testing.T) {
	node := mkNode("n1", "1", "1Gi")
	full := mkPod("full", onNode("n1"), requests("cpu", "1"))
	r, err := Evaluate(snapshotOf(t, []*corev1.Node{node}, full), mkPod("p"), Options{})
	require.NoError(t, err)
	require.Equal(t, []string{"n1"}, r.FeasibleNodes)
	_ = resource.MustParse
}
