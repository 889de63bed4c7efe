package labelmatch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"
)

// requireSameSelector: AsSelector gives what
// metav1.LabelSelectorAsSelector gives, selector and error alike. (With
// several invalid labels LabelSelectorAsSelector reports the first in map
// order, which varies between calls: then only the failure is compared.)
func requireSameSelector(t require.TestingT, ls *metav1.LabelSelector) {
	want, wantErr := metav1.LabelSelectorAsSelector(ls)
	got, err := AsSelector(ls)
	if wantErr != nil {
		require.Error(t, err)
		invalid := 0
		for k, v := range ls.MatchLabels {
			if len(validation.IsQualifiedName(k)) > 0 || len(validation.IsValidLabelValue(v)) > 0 {
				invalid++
			}
		}
		if invalid <= 1 {
			require.EqualError(t, err, wantErr.Error())
		}
		return
	}
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, want.String(), got.String())
}

// TestAsSelectorFastPath: the regexp-free path for plain matchLabels selectors
// builds the selector metav1.LabelSelectorAsSelector builds, and anything it
// cannot vouch for is left to LabelSelectorAsSelector (same errors).
func TestAsSelectorFastPath(t *testing.T) {
	long := strings.Repeat("a", 63)
	tests := []struct {
		name string
		ls   *metav1.LabelSelector
	}{
		{"nil matches nothing", nil},
		{"empty matches everything", &metav1.LabelSelector{}},
		{"empty labels map", &metav1.LabelSelector{MatchLabels: map[string]string{}}},
		{"plain labels, sorted by key", &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "front", "app": "web", "b": ""}}},
		{"prefixed key", &metav1.LabelSelector{MatchLabels: map[string]string{"example.com/app": "Web_1.x"}}},
		{"63-character name and value", &metav1.LabelSelector{MatchLabels: map[string]string{long: long}}},
		{"64-character value", &metav1.LabelSelector{MatchLabels: map[string]string{"app": long + "a"}}},
		{"64-character name", &metav1.LabelSelector{MatchLabels: map[string]string{long + "a": "x"}}},
		{"value with a space", &metav1.LabelSelector{MatchLabels: map[string]string{"app": "bad value"}}},
		{"value ending in a dash", &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web-"}}},
		{"key with two slashes", &metav1.LabelSelector{MatchLabels: map[string]string{"a/b/c": "x"}}},
		{"empty prefix", &metav1.LabelSelector{MatchLabels: map[string]string{"/app": "x"}}},
		{"empty name", &metav1.LabelSelector{MatchLabels: map[string]string{"example.com/": "x"}}},
		{"upper-case prefix", &metav1.LabelSelector{MatchLabels: map[string]string{"Example.com/app": "x"}}},
		{"empty key", &metav1.LabelSelector{MatchLabels: map[string]string{"": "x"}}},
		{"253-character prefix", &metav1.LabelSelector{MatchLabels: map[string]string{strings.Repeat("a.", 126) + "a/x": "y"}}},
		{"255-character prefix", &metav1.LabelSelector{MatchLabels: map[string]string{strings.Repeat("a.", 127) + "a/x": "y"}}},
		{"prefix with an empty label", &metav1.LabelSelector{MatchLabels: map[string]string{"a..b/x": "y"}}},
		{"prefix label ending in a dash", &metav1.LabelSelector{MatchLabels: map[string]string{"a-.b/x": "y"}}},
		{"labels with expressions", &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpExists}}}},
		{"bad operator", &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Bogus"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { requireSameSelector(t, tt.ls) })
	}
}

// labelChars draws strings over the characters that decide label syntax.
var labelChars = rapid.StringOfN(rapid.SampledFrom([]rune("aZ09-_./ A")), 0, 8, -1)

// TestValidKeyAndValueProperty: ValidKey and ValidValue decide as
// apimachinery's validation (IsQualifiedName, IsValidLabelValue), on
// strings drawn from the characters and lengths that matter.
func TestValidKeyAndValueProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := labelChars.Draw(t, "s")
		switch rapid.IntRange(0, 3).Draw(t, "pad") {
		case 1:
			s = strings.Repeat("a", rapid.IntRange(55, 64).Draw(t, "n")) + s
		case 2:
			s = strings.Repeat("a.", rapid.IntRange(120, 128).Draw(t, "n")) + "a/x" + s
		case 3:
			s = s + "/" + labelChars.Draw(t, "name")
		}
		assert.Equal(t, len(validation.IsQualifiedName(s)) == 0, ValidKey(s), "key %q", s)
		assert.Equal(t, len(validation.IsValidLabelValue(s)) == 0, ValidValue(s), "value %q", s)
	})
}

// TestAsSelectorFastPathProperty: AsSelector equals LabelSelectorAsSelector
// on selectors drawn from valid and invalid keys and values.
func TestAsSelectorFastPathProperty(t *testing.T) {
	keys := []string{"app", "tier", "example.com/app", "a/b/c", "bad key", "-x", "Example.com/x"}
	values := []string{"", "web", "db-1", "bad value", "x-", strings.Repeat("v", 64)}
	rapid.Check(t, func(t *rapid.T) {
		var ls *metav1.LabelSelector
		if rapid.IntRange(0, 5).Draw(t, "nil") > 0 {
			ls = &metav1.LabelSelector{MatchLabels: map[string]string{}}
			for range rapid.IntRange(0, 3).Draw(t, "labels") {
				ls.MatchLabels[rapid.SampledFrom(keys).Draw(t, "k")] = rapid.SampledFrom(values).Draw(t, "v")
			}
		}
		requireSameSelector(t, ls)
	})
}

// FuzzAsSelectorFastPath: for any matchLabels, AsSelector agrees with
// metav1.LabelSelectorAsSelector.
func FuzzAsSelectorFastPath(f *testing.F) {
	f.Add("app", "web", "example.com/tier", "")
	f.Add("a/b", "x y", "", "-")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		requireSameSelector(t, &metav1.LabelSelector{MatchLabels: map[string]string{k1: v1, k2: v2}})
	})
}
