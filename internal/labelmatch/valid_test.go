package labelmatch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"
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

// labelish draws strings from the characters that decide validity: half
// of them from characters a valid key or value may hold.
func labelish() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.StringOfN(rapid.SampledFrom([]rune("ab1Z-_./")), 0, 70, -1),
		rapid.StringOfN(rapid.SampledFrom([]rune("aZ09-_./ é\n")), 0, 70, -1),
	)
}

func TestValidKeyAndValueProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := labelish().Draw(t, "s")
		if ValidKey(s) != upstreamValidKey(s) {
			t.Fatalf("key %q: ValidKey %v, upstream %v", s, ValidKey(s), upstreamValidKey(s))
		}
		if ValidValue(s) != upstreamValidValue(s) {
			t.Fatalf("value %q: ValidValue %v, upstream %v", s, ValidValue(s), upstreamValidValue(s))
		}
	})
}

// A matchLabels selector built on the fast path is the one upstream
// builds, and an invalid one still gets upstream's error.
func TestAsSelectorMatchLabelsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.MapOfN(labelish(), labelish(), 1, 4).Draw(t, "matchLabels")
		ls := &metav1.LabelSelector{MatchLabels: m}
		got, err := AsSelector(ls)
		want, upErr := metav1.LabelSelectorAsSelector(ls)
		if (err == nil) != (upErr == nil) {
			t.Fatalf("%v: error %v, upstream %v", m, err, upErr)
		}
		if err == nil {
			require.Equal(t, want, got)
			require.Equal(t, want.String(), got.String())
		}
	})
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
