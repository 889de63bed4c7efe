package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// evKinds are the case kinds the eviction package answers.
var evKinds = map[string]bool{
	"eviction": true, "pdb-status": true, "drain-filter": true,
	"memory-ranking": true, "pid-ranking": true, "taint-eviction-time": true,
}

// TestEvictionConformance answers every eviction-package case of the
// upstream-answered files in testdata/evl (evl oracle: kube-apiserver's
// EvictionREST.Create, the disruption controller's sync, kubelet's
// rankMemoryPressure/rankPIDPressure, the taint-eviction controller's
// processPodOnNode and kubectl drain's GetPodsForDeletion) through the
// eviction package's public API and compares with upstream's answer under
// compare.py's rules: every field upstream gives must be equal, missing
// fields only when upstream's value is zero, ranking ties as sets.
func TestEvictionConformance(t *testing.T) {
	for _, file := range []string{"../../testdata/evl/cases.json", "../../testdata/evl/eviction-seeds.json", "../../testdata/evl/eviction-hand.json"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var f struct {
				Cases []struct {
					Kind     string          `json:"kind"`
					Name     string          `json:"name"`
					Input    json.RawMessage `json:"input"`
					Expected any             `json:"expected"`
				} `json:"cases"`
			}
			require.NoError(t, json.Unmarshal(data, &f))
			n := 0
			for _, c := range f.Cases {
				if !evKinds[c.Kind] {
					continue
				}
				n++
				got, ok, err := answerEviction(c.Kind, c.Input)
				require.True(t, ok, c.Name)
				require.NoError(t, err, c.Name)
				// Round-trip through JSON, as the command writes it.
				b, err := json.Marshal(got)
				require.NoError(t, err)
				var act any
				require.NoError(t, json.Unmarshal(b, &act))
				if d := evCompareCase(c.Kind, c.Expected, act); d != "" {
					t.Errorf("%s: %s", c.Name, d)
				}
			}
			require.Positive(t, n, "no eviction cases in %s", file)
		})
	}
}

// TestEvictionCompareCatchesDifferences proves the comparison fails on a
// wrong answer, so the conformance test can fail.
func TestEvictionCompareCatchesDifferences(t *testing.T) {
	exp := map[string]any{"code": 429.0, "pdbs": []any{map[string]any{"updated": false}}}
	require.Empty(t, evCompareCase("eviction", exp, map[string]any{"code": 429.0, "pdbs": []any{map[string]any{}}}))
	require.NotEmpty(t, evCompareCase("eviction", exp, map[string]any{"code": 201.0, "pdbs": []any{map[string]any{}}}))
	require.NotEmpty(t, evCompareCase("eviction", map[string]any{"message": "x"}, map[string]any{}))
	rank := map[string]any{"order": []any{"a", "b", "c"}, "ties": []any{[]any{"a", "b"}}}
	require.Empty(t, evCompareCase("memory-ranking", rank, map[string]any{"order": []any{"b", "a", "c"}}))
	require.NotEmpty(t, evCompareCase("memory-ranking", rank, map[string]any{"order": []any{"a", "c", "b"}}))
}

// evCompareCase is compare.py's compare_case.
func evCompareCase(kind string, exp, act any) string {
	if act == nil {
		return "no answer"
	}
	if kind == "memory-ranking" || kind == "pid-ranking" {
		return evCompareRanking(exp.(map[string]any), act.(map[string]any))
	}
	return evFirstDiff(exp, act, "")
}

func evIsZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case float64:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func evFirstDiff(exp, act any, path string) string {
	switch e := exp.(type) {
	case map[string]any:
		a, ok := act.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %v", path, act)
		}
		keys := make([]string, 0, len(e))
		for k := range e {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			av, present := a[k]
			if !present {
				if evIsZero(e[k]) {
					continue
				}
				return fmt.Sprintf("%s.%s: missing (expected %v)", path, k, e[k])
			}
			if d := evFirstDiff(e[k], av, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		a, ok := act.([]any)
		if !ok || len(a) != len(e) {
			return fmt.Sprintf("%s: expected %v, got %v", path, exp, act)
		}
		for i := range e {
			if d := evFirstDiff(e[i], a[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(exp, act) {
		return fmt.Sprintf("%s: expected %v, got %v", path, exp, act)
	}
	return ""
}

// evCompareRanking compares orders with each upstream tie run as a set.
func evCompareRanking(exp, act map[string]any) string {
	order, _ := exp["order"].([]any)
	tieOf := map[any]int{}
	ties, _ := exp["ties"].([]any)
	for i, run := range ties {
		for _, n := range run.([]any) {
			tieOf[n] = i
		}
	}
	var groups []map[any]bool
	seen := map[int]bool{}
	for _, n := range order {
		if ti, ok := tieOf[n]; ok {
			if seen[ti] {
				continue
			}
			seen[ti] = true
			g := map[any]bool{}
			for _, m := range order {
				if t2, ok := tieOf[m]; ok && t2 == ti {
					g[m] = true
				}
			}
			groups = append(groups, g)
			continue
		}
		groups = append(groups, map[any]bool{n: true})
	}
	got, _ := act["order"].([]any)
	pos := 0
	for _, g := range groups {
		if pos+len(g) > len(got) {
			return fmt.Sprintf(".order: expected %v, got %v", order, got)
		}
		for _, n := range got[pos : pos+len(g)] {
			if !g[n] {
				return fmt.Sprintf(".order: expected %v (ties %v), got %v", order, ties, got)
			}
		}
		pos += len(g)
	}
	if pos != len(got) {
		return fmt.Sprintf(".order: extra pods %v", got[pos:])
	}
	return ""
}
