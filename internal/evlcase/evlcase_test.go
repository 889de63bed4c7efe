package evlcase

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCompareCatchesDifferences proves the comparison fails on a wrong
// answer, so the conformance tests built on it can fail.
func TestCompareCatchesDifferences(t *testing.T) {
	exp := map[string]any{"code": 429.0, "pdbs": []any{map[string]any{"updated": false}}}
	assert.Empty(t, Compare("eviction", exp, map[string]any{"code": 429.0, "pdbs": []any{map[string]any{}}}), "a missing zero field is fine")
	assert.NotEmpty(t, Compare("eviction", exp, map[string]any{"code": 201.0, "pdbs": []any{map[string]any{}}}))
	assert.NotEmpty(t, Compare("eviction", map[string]any{"message": "x"}, map[string]any{}), "a missing non-zero field is not")
	assert.NotEmpty(t, Compare("eviction", map[string]any{"l": []any{1.0}}, map[string]any{"l": []any{1.0, 2.0}}))
	assert.Equal(t, "no answer", Compare("eviction", exp, nil))
	rank := map[string]any{"order": []any{"a", "b", "c"}, "ties": []any{[]any{"a", "b"}}}
	assert.Empty(t, Compare("memory-ranking", rank, map[string]any{"order": []any{"b", "a", "c"}}), "ties as sets")
	assert.NotEmpty(t, Compare("memory-ranking", rank, map[string]any{"order": []any{"a", "c", "b"}}))
	assert.NotEmpty(t, Compare("pid-ranking", rank, map[string]any{"order": []any{"a", "b", "c", "d"}}))
}

// TestNormalize: numbers come back as float64, structs as objects.
func TestNormalize(t *testing.T) {
	got, err := Normalize(struct {
		N int    `json:"n"`
		S string `json:"s,omitempty"`
	}{N: 3})
	assert.NoError(t, err)
	assert.Equal(t, map[string]any{"n": 3.0}, got)
}
