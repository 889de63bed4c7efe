package labelmatch

import (
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Two invalid matchLabels pairs: metav1.LabelSelectorAsSelector reports
// whichever its map iteration meets first; AsSelector always reports the
// first in key order.
func TestAsSelectorDeterministicError(t *testing.T) {
	ls := &metav1.LabelSelector{MatchLabels: map[string]string{
		"b/bad/key": "x", "a": "bad value!", "c": "ok", "d/also/bad": "y",
	}}
	_, want := AsSelector(ls)
	require.Error(t, want)
	require.Contains(t, want.Error(), "bad value!")
	seen := map[string]bool{}
	for range 200 {
		_, err := AsSelector(ls)
		require.EqualError(t, err, want.Error())
		_, up := metav1.LabelSelectorAsSelector(ls)
		require.Error(t, up)
		seen[up.Error()] = true
	}
	// The table is only meaningful if upstream's text does vary.
	require.Greater(t, len(seen), 1, "upstream gave one error text in 200 runs")
}

// Valid selectors, nil, empty and matchExpressions errors are upstream's.
func TestAsSelectorAsUpstream(t *testing.T) {
	for _, ls := range []*metav1.LabelSelector{
		nil,
		{},
		{MatchLabels: map[string]string{"app": "web", "tier": "fe"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn}}},
		{MatchLabels: map[string]string{"app": "web", "x": "y"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}},
	} {
		got, gotErr := AsSelector(ls)
		want, wantErr := metav1.LabelSelectorAsSelector(ls)
		if wantErr != nil {
			require.EqualError(t, gotErr, wantErr.Error())
			continue
		}
		require.NoError(t, gotErr)
		require.Equal(t, want.String(), got.String())
	}
}

// AsSelector accepts exactly what upstream accepts, builds the same
// selector, and gives one error text per input.
func FuzzAsSelector(f *testing.F) {
	f.Add("app", "web", "tier", "fe", "zone", "In", "a")
	f.Add("b/bad/key", "x", "a", "bad value!", "k", "Bogus", "")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, ek, op, ev string) {
		ls := &metav1.LabelSelector{MatchLabels: map[string]string{k1: v1, k2: v2}}
		if ek != "" {
			ls.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: ek, Operator: metav1.LabelSelectorOperator(op), Values: []string{ev}}}
		}
		got, gotErr := AsSelector(ls)
		want, wantErr := metav1.LabelSelectorAsSelector(ls)
		require.Equal(t, wantErr == nil, gotErr == nil)
		if wantErr == nil {
			require.Equal(t, want.String(), got.String())
			return
		}
		_, again := AsSelector(ls)
		require.EqualError(t, again, gotErr.Error())
	})
}
