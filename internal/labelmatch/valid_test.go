package labelmatch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"
)

// upstreamValidKey and upstreamValidValue are the checks
// labels.NewRequirement makes, which ValidKey and ValidValue replace.
func upstreamValidKey(k string) bool   { return len(content.IsLabelKey(k)) == 0 }
func upstreamValidValue(v string) bool { return len(validation.IsValidLabelValue(v)) == 0 }

func TestValidKeyAndValueAsUpstream(t *testing.T) {
	long := strings.Repeat("a", 63)
	for _, s := range []string{
		"", "a", "A", "-", "a-", "-a", "a.b", "a_b", "a..b", "_a", "a_", "app", "pod-template-hash",
		long, long + "b", "/", "a/", "/a", "a/b", "a/b/c", "example.com/x", "Example.com/x",
		"ex_ample.com/x", "ex-.com/x", "-ex.com/x", "ex..com/x", ".ex.com/x", "ex.com./x",
		"1.2.3/x", "topology.kubernetes.io/zone", "kubernetes.io/hostname", strings.Repeat("a.", 126) + "a/x",
		strings.Repeat("a.", 127) + "a/x", "a b", "a\n", "é", "a/b c", "x/" + long, "x/" + long + "c",
	} {
		require.Equal(t, upstreamValidKey(s), ValidKey(s), "key %q", s)
		require.Equal(t, upstreamValidValue(s), ValidValue(s), "value %q", s)
	}
}

func FuzzValidKeyAndValue(f *testing.F) {
	for _, s := range []string{"a", "a/b", "example.com/Na-me_1", "-", "a/b/c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidKey(s) != upstreamValidKey(s) {
			t.Fatalf("key %q: ValidKey %v, upstream %v", s, ValidKey(s), upstreamValidKey(s))
		}
		if ValidValue(s) != upstreamValidValue(s) {
			t.Fatalf("value %q: ValidValue %v, upstream %v", s, ValidValue(s), upstreamValidValue(s))
		}
	})
}
