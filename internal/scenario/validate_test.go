package scenario

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"pgregory.net/rapid"
)

// The memoized requirement check gives labels.NewRequirement's answer,
// first time and every time after, whatever keys and values repeat
// (values that would join alike included).
func TestRequirementProblemIsNewRequirements(t *testing.T) {
	long := strings.Repeat("a", 63)
	keys := []string{"app", "kubernetes.io/hostname", "bad key", "-x", "", "a/b/c", long, long + "b", "Example.com/x"}
	values := []string{"web", "", "1", "x y", "a\x00b", "a", "b", "-bad-", "12", long, long + "b"}
	ops := []selection.Operator{selection.In, selection.NotIn, selection.Equals, selection.DoubleEquals, selection.NotEquals,
		selection.Exists, selection.DoesNotExist, selection.GreaterThan, selection.LessThan, "bogus"}
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SampledFrom(keys).Draw(t, "key")
		op := rapid.SampledFrom(ops).Draw(t, "op")
		vals := rapid.SliceOfN(rapid.SampledFrom(values), 0, 3).Draw(t, "values")
		want := ""
		if _, err := labels.NewRequirement(key, op, append([]string(nil), vals...)); err != nil {
			want = flatten(err)
		}
		before := slices.Clone(vals)
		require.Equal(t, want, requirementProblem(key, op, vals))
		require.Equal(t, want, requirementProblem(key, op, vals), "memoized")
		require.Equal(t, before, vals, "values unchanged")
	})
	// ["a\x00b"] and ["a", "b"] must not share an answer.
	require.Empty(t, requirementProblem("app", selection.In, []string{"a", "b"}))
	require.NotEmpty(t, requirementProblem("app", selection.In, []string{"a\x00b"}))
}
