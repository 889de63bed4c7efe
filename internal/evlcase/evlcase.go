package evlcase

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
)

// Case is one case of a conformance file.
type Case struct {
	Kind     string          `json:"kind"`     // which upstream function answers it, e.g. "eviction"
	Name     string          `json:"name"`     // unique within the file
	Input    json.RawMessage `json:"input"`    // the kind's input document
	Expected any             `json:"expected"` // upstream's answer as generic JSON
}

// Load reads the cases of a conformance file, in file order.
func Load(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Cases []Case `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f.Cases, nil
}

// Normalize round-trips v through JSON so that it compares like the
// expected answers (numbers as float64, objects as map[string]any).
func Normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// Compare is compare.py's compare_case: "" when act agrees with upstream's
// exp, else the first difference.
func Compare(kind string, exp, act any) string {
	if act == nil {
		return "no answer"
	}
	if kind == "memory-ranking" || kind == "pid-ranking" {
		e, _ := exp.(map[string]any)
		a, ok := act.(map[string]any)
		if !ok {
			return "expected an object"
		}
		return compareRanking(e, a)
	}
	return FirstDiff(exp, act, "")
}

// IsZero reports whether v is a JSON zero value, which a missing field
// stands for.
func IsZero(v any) bool {
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

// FirstDiff is compare.py's first_diff: the first place, in sorted key
// order, where act lacks or differs from exp, prefixed with path; "" when
// there is none.
func FirstDiff(exp, act any, path string) string {
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
				if IsZero(e[k]) {
					continue
				}
				return fmt.Sprintf("%s.%s: missing (expected %v)", path, k, e[k])
			}
			if d := FirstDiff(e[k], av, path+"."+k); d != "" {
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
			if d := FirstDiff(e[i], a[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
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

// compareRanking compares orders with each upstream tie run as a set.
func compareRanking(exp, act map[string]any) string {
	order, _ := exp["order"].([]any)
	tieOf := map[any]int{}
	ties, _ := exp["ties"].([]any)
	for i, run := range ties {
		members, _ := run.([]any)
		for _, n := range members {
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
