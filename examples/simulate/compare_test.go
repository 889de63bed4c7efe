package main

// A port of ../shared/conformance/compare.py: the same categories, the same
// checks and the same notion of equality (Python's == on JSON values), so
// that "conformance: A/T checks agree" here means what it means there.

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

type tally struct {
	ok, total map[string]int
	diffs     []string
}

func newTally() *tally { return &tally{ok: map[string]int{}, total: map[string]int{}} }

func (t *tally) check(category, where string, expected, actual any) bool {
	t.total[category]++
	if reflect.DeepEqual(expected, actual) {
		t.ok[category]++
		return true
	}
	t.diffs = append(t.diffs, fmt.Sprintf("%s: %s: expected %s, got %s", category, where, pyRepr(expected), pyRepr(actual)))
	return false
}

func (t *tally) sums() (ok, total int) {
	for c, n := range t.total {
		total += n
		ok += t.ok[c]
	}
	return ok, total
}

// summary lists each category's counts, sorted, then the conformance line.
func (t *tally) summary() string {
	cats := make([]string, 0, len(t.total))
	for c := range t.total {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	for _, c := range cats {
		fmt.Fprintf(&b, "  %-14s %d/%d\n", c, t.ok[c], t.total[c])
	}
	ok, total := t.sums()
	fmt.Fprintf(&b, "conformance: %d/%d checks agree", ok, total)
	return b.String()
}

// compareMode runs compare.py's checks for mode ("filter-score" or
// "schedule") on one case, adds its counts to total and returns the case's
// own tally.
func compareMode(mode string, exp, act obj, total *tally) *tally {
	tl := newTally()
	switch mode {
	case "filter-score":
		compareFilterScore(exp, act, tl)
	case "schedule":
		compareSchedule(exp, act, tl)
	}
	for c, n := range tl.total {
		total.total[c] += n
		total.ok[c] += tl.ok[c]
	}
	return tl
}

// report is the first maxReportedDiffs disagreements, one a line, then the
// summary.
func (t *tally) report() string {
	diffs := t.diffs
	if len(diffs) > maxReportedDiffs {
		diffs = append(diffs[:maxReportedDiffs:maxReportedDiffs], fmt.Sprintf("... and %d more", len(t.diffs)-maxReportedDiffs))
	}
	return strings.Join(diffs, "\n") + "\n" + t.summary()
}

func pyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprintf("%v", v)
}

// Generic JSON accessors: missing keys and wrong types read as nil, as
// Python's dict.get does.

type obj = map[string]any

func getObj(v any, key string) obj {
	m, _ := v.(obj)
	o, _ := m[key].(obj)
	return o
}

func get(v any, key string) any {
	m, _ := v.(obj)
	return m[key]
}

func getList(v any, key string) []any {
	l, _ := get(v, key).([]any)
	return l
}

// truthy is Python's truthiness for JSON values.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case obj:
		return len(x) > 0
	}
	return true
}

func codeOf(status obj) any {
	if c := status["code"]; truthy(c) {
		return c
	}
	return "Success"
}

// sortedStrings is sorted(x or []) for a list of strings.
func sortedStrings(v any) []string {
	out := []string{}
	l, _ := v.([]any)
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func reasonsOf(status obj) []string { return sortedStrings(status["reasons"]) }

func byKey(items []any, key string) map[any]obj {
	out := map[any]obj{}
	for _, it := range items {
		if m, ok := it.(obj); ok {
			out[m[key]] = m
		}
	}
	return out
}

func weightedScores(node obj) map[any]any {
	out := map[any]any{}
	for _, s := range getList(node, "scores") {
		w := get(s, "weighted")
		if w == nil {
			w = 0.0
		}
		if w != 0.0 {
			out[get(s, "plugin")] = w
		}
	}
	return out
}

func passCode(code any) any {
	switch code {
	case "Success", "Skip", nil, "":
		return "Success"
	}
	return code
}

func tuple(v ...any) []any { return v }

func present(m obj) string {
	if m != nil {
		return "present"
	}
	return "missing"
}

func compareFilterScore(exp, act obj, t *tally) {
	apods := byKey(getList(act, "pods"), "pod")
	for _, e := range getList(exp, "pods") {
		ep, _ := e.(obj)
		name := ep["pod"]
		ap := apods[name]
		where := fmt.Sprint(name)
		if !t.check("pods", where, "present", present(ap)) {
			continue
		}
		egated, agated := truthy(ep["gated"]), truthy(ap["gated"])
		if !t.check("gated", where, egated, agated) || egated {
			continue
		}
		t.check("prefilter", where, codeOf(getObj(getObj(ep, "preFilter"), "status")), codeOf(getObj(getObj(ap, "preFilter"), "status")))
		t.check("feasible", where, sortedStrings(ep["feasibleNodes"]), sortedStrings(ap["feasibleNodes"]))
		t.check("best", where, sortedStrings(ep["bestNodes"]), sortedStrings(ap["bestNodes"]))
		if truthy(ep["message"]) {
			t.check("message", where, ep["message"], ap["message"])
		}
		anodes := byKey(getList(ap, "nodes"), "node")
		for _, en0 := range getList(ep, "nodes") {
			en, _ := en0.(obj)
			nwhere := fmt.Sprintf("%s on %v", where, en["node"])
			an := anodes[en["node"]]
			if !t.check("nodes", nwhere, "present", present(an)) {
				continue
			}
			t.check("verdict", nwhere, tuple(truthy(en["feasible"]), codeOf(getObj(en, "status"))),
				tuple(truthy(an["feasible"]), codeOf(getObj(an, "status"))))
			t.check("reasons", nwhere, reasonsOf(getObj(en, "status")), reasonsOf(getObj(an, "status")))
			if efilters, ok := en["filters"].([]any); ok {
				afilters := byKey(getList(an, "filters"), "plugin")
				for _, ef0 := range efilters {
					ef, _ := ef0.(obj)
					plugin := ef["plugin"]
					af := afilters[plugin]
					ecode, acode := passCode(ef["code"]), passCode(af["code"])
					if plugin == "NodeDeclaredFeatures" && ecode == "Success" {
						continue
					}
					t.check("filters", fmt.Sprintf("%s %v", nwhere, plugin), tuple(ecode, sortedStrings(ef["reasons"])),
						tuple(acode, sortedStrings(af["reasons"])))
				}
			}
			if truthy(en["feasible"]) {
				t.check("scores", nwhere+" per plugin (weighted)", weightedScores(en), weightedScores(an))
				t.check("total", nwhere, en["totalScore"], an["totalScore"])
			}
		}
	}
}

func victimsOf(result obj) []string {
	out := []string{}
	for _, v := range getList(getObj(result, "preemption"), "victims") {
		if m, ok := v.(obj); ok {
			s, _ := m["pod"].(string)
			out = append(out, s)
		} else {
			s, _ := v.(string)
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

func numPDBViolations(result obj) any {
	p := getObj(result, "preemption")
	if v, ok := p["numPDBViolations"]; ok {
		return v
	}
	return 0.0
}

func compareSchedule(exp, act obj, t *tally) {
	t.check("queue", "queueOrder", exp["queueOrder"], act["queueOrder"])
	aresults := byKey(getList(act, "results"), "pod")
	for _, e := range getList(exp, "results") {
		er, _ := e.(obj)
		name := er["pod"]
		where := fmt.Sprint(name)
		ar := aresults[name]
		if !t.check("pods", where, "present", present(ar)) {
			continue
		}
		t.check("outcome", where, tuple(er["outcome"], orEmpty(er["node"])), tuple(ar["outcome"], orEmpty(ar["node"])))
		t.check("feasible", where, er["feasibleNodes"], ar["feasibleNodes"])
		if truthy(er["message"]) {
			t.check("message", where, er["message"], ar["message"])
		}
		if er["preemption"] != nil {
			t.check("victims", where, victimsOf(er), victimsOf(ar))
			t.check("pdbViolations", where, numPDBViolations(er), numPDBViolations(ar))
		}
	}
	ef, af := getObj(exp, "final"), getObj(act, "final")
	t.check("final", "placements", ef["placements"], af["placements"])
	t.check("final", "evicted", sortedStrings(ef["evicted"]), sortedStrings(af["evicted"]))
}
