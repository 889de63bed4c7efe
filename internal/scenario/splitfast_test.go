package scenario

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// jsonValue draws a JSON value: literals, numbers, strings with escapes and
// structural characters inside, and nested lists and objects, with
// arbitrary whitespace.
func jsonValue(depth int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		ws := rapid.SampledFrom([]string{"", " ", "\n\t", "\r\n  "})
		kinds := []string{"null", "true", "false", "number", "string"}
		if depth > 0 {
			kinds = append(kinds, "list", "object")
		}
		switch rapid.SampledFrom(kinds).Draw(t, "kind") {
		case "number":
			return rapid.SampledFrom([]string{"0", "-1", "3.5", "1e9", "-2.5E-3"}).Draw(t, "number")
		case "string":
			return rapid.SampledFrom([]string{`""`, `"a"`, `"x,y]}"`, `"q\"uote"`, `"back\\"`, `"\u00e9\n"`, `"{[\"]}"`, `"a\\\"b,]"`, `"\\\\"`}).Draw(t, "string")
		case "list":
			items := rapid.SliceOfN(jsonValue(depth-1), 0, 3).Draw(t, "items")
			return "[" + ws.Draw(t, "ws") + strings.Join(items, ws.Draw(t, "ws")+","+ws.Draw(t, "ws")) + ws.Draw(t, "ws") + "]"
		case "object":
			vals := rapid.SliceOfN(jsonValue(depth-1), 0, 3).Draw(t, "vals")
			var parts []string
			for i, v := range vals {
				parts = append(parts, `"k`+string(rune('a'+i))+`"`+ws.Draw(t, "ws")+":"+ws.Draw(t, "ws")+v)
			}
			return "{" + ws.Draw(t, "ws") + strings.Join(parts, ",") + ws.Draw(t, "ws") + "}"
		}
		return rapid.SampledFrom([]string{"null", "true", "false"}).Draw(t, "literal")
	})
}

// topObject draws a scenario-like top-level object: known lists, "items",
// unknown keys, repeated keys, scalars and objects where lists belong.
func topObject() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"nodes", "pods", "pending", "pdbs", "items", "meta", "x y", `\u006eodes`}), 0, 6).Draw(t, "keys")
		var parts []string
		for _, k := range keys {
			v := jsonValue(3).Draw(t, "value")
			if rapid.Bool().Draw(t, "list") {
				v = "[" + strings.Join(rapid.SliceOfN(jsonValue(3), 0, 4).Draw(t, "items"), " , ") + "]"
			}
			parts = append(parts, `"`+k+`": `+v)
		}
		return rapid.SampledFrom([]string{"", "  ", "\n"}).Draw(t, "lead") + "{" + strings.Join(parts, ",\n") + "}" +
			rapid.SampledFrom([]string{"", "\n", " \n "}).Draw(t, "trail")
	})
}

type splitResult struct {
	Lists     map[string][]string
	WrongKind map[string]string
	Unknown   []string
	Extra     map[string]string
}

func splitOf(lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, extra map[string]json.RawMessage) splitResult {
	r := splitResult{Lists: map[string][]string{}, WrongKind: wrongKind, Unknown: unknown, Extra: map[string]string{}}
	for k, items := range lists {
		r.Lists[k] = []string{}
		for _, it := range items {
			r.Lists[k] = append(r.Lists[k], string(it))
		}
	}
	for k, v := range extra {
		r.Extra[k] = string(v)
	}
	return r
}

// The fast split gives the Decoder's split on every valid object it takes,
// and takes every valid object whose keys have no escapes.
func TestSplitTopFastMatchesDecoder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := topObject().Draw(t, "doc")
		require.True(t, json.Valid([]byte(doc)), doc)
		fl, fw, fu, fe, ok := splitTopFast([]byte(doc))
		require.Equal(t, !strings.Contains(doc, `\u006eodes"`), ok, "taken: %s", doc)
		dl, dw, du, de, err := splitTopDecoder([]byte(doc))
		require.NoError(t, err)
		if ok {
			require.Equal(t, splitOf(dl, dw, du, de), splitOf(fl, fw, fu, fe), doc)
		}
	})
}

func TestSplitTopFastRefuses(t *testing.T) {
	for _, doc := range []string{
		``, `[]`, `{"nodes": [}`, `{"nodes": []} {"pods": []}`, `{"\u006eodes": []}`, `"x"`, `{"nodes": [tru]}`,
		`{"nodes": [1 2]}`, `{"nodes": [1,]}`, `{"nodes": [,1]}`, `{"nodes" []}`, `{"nodes": [] "pods": []}`, `{"nodes": [],}`,
		`{"meta": 1 2}`, `{"a` + "\t" + `": 1}`, `{"nodes": [{"a" 1}]}`, `{"nodes": [`, `{"nodes": ["x`, `{"pods": [[]]]}`, `{} x`,
		`{"nodes": [` + strings.Repeat("[", maxNestingDepth-1) + strings.Repeat("]", maxNestingDepth-1) + `]}`,
		`{"meta": ` + strings.Repeat("[", maxNestingDepth) + strings.Repeat("]", maxNestingDepth) + `}`,
	} {
		_, _, _, _, ok := splitTopFast([]byte(doc))
		require.False(t, ok, doc)
	}
}

// At encoding/json's nesting limit a document is valid, and one level
// deeper it is not; the fast split takes exactly the valid one.
func TestSplitTopFastDepthLimit(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		doc   string
		valid bool
	}{
		{`{"nodes": [` + nested(maxNestingDepth-2) + `]}`, true},
		{`{"nodes": [` + nested(maxNestingDepth-1) + `]}`, false},
		{`{"meta": ` + nested(maxNestingDepth-1) + `}`, true},
		{`{"meta": ` + nested(maxNestingDepth) + `}`, false},
	} {
		require.Equal(t, c.valid, json.Valid([]byte(c.doc)))
		_, _, _, _, ok := splitTopFast([]byte(c.doc))
		require.Equal(t, c.valid, ok)
	}
}

// FuzzSplitTop checks the fast split against the Decoder's on any input
// the fast split takes.
func FuzzSplitTop(f *testing.F) {
	f.Add([]byte(`{"nodes": [{"a": "x,]"}, 1], "meta": {"b": [2]}, "pods": null, "pdbs": 3}`))
	f.Add([]byte(`{"items": [ "\"", {"k": [[], {}]} ], "items": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, fw, fu, fe, ok := splitTopFast(data)
		if !ok {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("fast split took invalid JSON: %q", data)
		}
		dl, dw, du, de, err := splitTopDecoder(data)
		if err != nil {
			t.Fatalf("fast split took input the Decoder refuses (%v): %q", err, data)
		}
		require.Equal(t, splitOf(dl, dw, du, de), splitOf(fl, fw, fu, fe))
	})
}

// TestSplitTopFastChecksEveryValue: values are checked in batches beside
// the scan, on other goroutines; an invalid value anywhere (the first
// batch, a later one, the last one cut short, a value after the lists) is
// found, and a valid document of the same size is taken.
func TestSplitTopFastChecksEveryValue(t *testing.T) {
	const n = 1000
	doc := func(bad int, tail string) []byte {
		items := make([]string, n)
		for i := range items {
			items[i] = `{"a": [1, "x]"], "b": {"c": null}}`
			if i == bad {
				items[i] = `{"a": [1, "x]"], "b": {"c": nul}}`
			}
		}
		return []byte(`{"pods": [` + strings.Join(items, ",") + `], "meta": ` + tail + `}`)
	}
	before := runtime.NumGoroutine()
	_, _, _, _, ok := splitTopFast(doc(-1, `{"k": true}`))
	require.True(t, ok, "a valid document")
	for _, bad := range []int{0, validateBatch - 1, validateBatch, n / 2, n - 1} {
		_, _, _, _, ok := splitTopFast(doc(bad, `{"k": true}`))
		require.False(t, ok, "invalid item %d", bad)
	}
	_, _, _, _, ok = splitTopFast(doc(-1, `{"k": tru}`))
	require.False(t, ok, "an invalid value after the list")
	// A scan that fails early stops the checking goroutines too.
	broken := strings.Replace(string(doc(-1, `{}`)), `], "meta"`, `] "meta"`, 1)
	_, _, _, _, ok = splitTopFast([]byte(broken))
	require.False(t, ok, "a comma missing after the list")
	// Nothing keeps running once a split has returned.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left running")
}
