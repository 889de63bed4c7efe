package jsonfast

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// strict is the slow path Unmarshal stands beside: encoding/json's Decoder
// with DisallowUnknownFields, one value and nothing after it.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return io.ErrUnexpectedEOF // anything after the value
	}
	return nil
}

// agrees checks Unmarshal's contract on data decoded as a *T: when the fast
// path decodes, the strict decoder also does, to an equal value. It
// reports whether the fast path decoded.
func agrees[T any](t require.TestingT, data []byte) bool {
	var fast, slow T
	ok := Unmarshal(data, &fast)
	if !ok {
		return false
	}
	err := strict(data, &slow)
	require.NoError(t, err, "fast path decoded what encoding/json rejects: %s", data)
	require.True(t, reflect.DeepEqual(fast, slow), "fast path differs from encoding/json on %s\nfast: %#v\nslow: %#v", data, fast, slow)
	return true
}

// item is one object of the bundled scenarios, with the check for its type.
type item struct {
	list  string
	raw   []byte
	check func(require.TestingT, []byte) bool
}

var checks = map[string]func(require.TestingT, []byte) bool{
	"nodes":           agrees[corev1.Node],
	"pods":            agrees[corev1.Pod],
	"pending":         agrees[corev1.Pod],
	"pdbs":            agrees[policyv1.PodDisruptionBudget],
	"priorityClasses": agrees[schedulingv1.PriorityClass],
	"services":        agrees[corev1.Service],
	"replicaSets":     agrees[appsv1.ReplicaSet],
	"statefulSets":    agrees[appsv1.StatefulSet],
	"namespaces":      agrees[corev1.Namespace],
}

var corpus = sync.OnceValues(func() ([]item, error) {
	files, err := filepath.Glob("../../testdata/conformance/cases/*.json")
	if err != nil {
		return nil, err
	}
	var out []item
	for _, f := range files {
		if strings.Count(filepath.Base(f), ".") > 1 {
			continue // an answer file (NAME.MODE.json), not a scenario
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		for list, check := range checks {
			var raws []json.RawMessage
			if err := json.Unmarshal(doc[list], &raws); err != nil || len(raws) == 0 {
				continue
			}
			// A few items of each list and file keep the corpus small.
			for i, r := range raws {
				if i%max(1, len(raws)/20) == 0 {
					out = append(out, item{list, r, check})
				}
			}
		}
	}
	return out, nil
})

// The bundled scenarios' objects decode on the fast path, to what
// encoding/json decodes; a change that makes the fast path decline them
// (and so lose its speed) fails here too.
func TestCorpusAgrees(t *testing.T) {
	items, err := corpus()
	require.NoError(t, err)
	require.NotEmpty(t, items)
	declined := map[string]int{}
	for _, it := range items {
		if !it.check(t, it.raw) {
			declined[it.list]++
		}
	}
	assert.Empty(t, declined, "items of the bundled scenarios the fast path declined, by list")
}

func TestEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		json string
		fast bool // whether the fast path decodes it
	}{
		{"empty object", `{}`, true},
		{"nulls everywhere", `{"metadata":{"labels":null,"creationTimestamp":null,"ownerReferences":null,"name":null},"spec":null,"status":{"startTime":null}}`, true},
		{"empty lists and maps stay non-nil", `{"metadata":{"labels":{},"finalizers":[]},"spec":{"containers":[]}}`, true},
		{"quantities and int-or-string", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"1Gi"},"limits":{"cpu":2}}}]}}`, true},
		{"white space", " \n{ \"metadata\" : { \"name\" : \"a\" } }\t\r\n", true},
		{"unicode text", `{"metadata":{"name":"a","annotations":{"k":"héllo ☃"}}}`, true},
		{"integers", `{"spec":{"priority":-7,"terminationGracePeriodSeconds":0,"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`, true},
		{"unknown field", `{"metadata":{"name":"a","bogus":1}}`, false},
		{"case-insensitive key", `{"Metadata":{"name":"a"}}`, false},
		{"repeated key", `{"metadata":{"name":"a","name":"b"}}`, false},
		{"repeated map key", `{"metadata":{"labels":{"a":"1","a":"2"}}}`, false},
		{"escape", `{"metadata":{"name":"a\u0062"}}`, false},
		{"escaped key", `{"metadata":{"n\u0061me":"a"}}`, false},
		{"invalid UTF-8", "{\"metadata\":{\"name\":\"a\xff\"}}", false},
		{"fraction into integer", `{"spec":{"priority":1.0}}`, false},
		{"exponent into integer", `{"spec":{"priority":1e3}}`, false},
		{"overflowing int32", `{"spec":{"priority":2147483648}}`, false},
		{"string into integer", `{"spec":{"priority":"1"}}`, false},
		{"number into string", `{"metadata":{"name":1}}`, false},
		{"bad quantity", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}}`, false},
		{"trailing value", `{} {}`, false},
		{"trailing comma", `{"metadata":{"name":"a",}}`, false},
		{"truncated", `{"metadata":{"name":"a"}`, false},
		{"leading zero", `{"spec":{"priority":01}}`, false},
		{"bare word", `{"spec":{"hostNetwork":truth}}`, false},
		{"control character", "{\"metadata\":{\"name\":\"a\tb\"}}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.fast, agrees[corev1.Pod](t, []byte(tc.json)))
		})
	}
}

// TestTimes: metav1.Time's strings are parsed beside its UnmarshalJSON
// (decodeTime); every form agrees with encoding/json, and only what the
// method refuses is declined.
func TestTimes(t *testing.T) {
	for _, tc := range []struct {
		value string
		fast  bool
	}{
		{`"2025-01-01T00:00:14Z"`, true},
		{`"2025-01-01T00:00:14.123456789+02:00"`, true},
		{`"2025-01-01T00:00:14-07:30"`, true},
		{` "2025-01-01T00:00:14Z" `, true},
		{`null`, true},
		{`"\u0032025-01-01T00:00:14Z"`, true}, // an escape: UnmarshalJSON itself
		{`"2025-13-01T00:00:14Z"`, false},
		{`"2025-01-01 00:00:14Z"`, false},
		{`"2025-01-01T00:00:14"`, false},
		{`""`, false},
		{`"2025-06-30T23:59:60Z"`, false},
		{`1735689614`, false},
		{`"2025-01-01T00:00:14Zÿ"`, false},
	} {
		t.Run(tc.value, func(t *testing.T) {
			doc := `{"metadata":{"creationTimestamp":` + tc.value + `},"status":{"startTime":` + tc.value + `}}`
			assert.Equal(t, tc.fast, agrees[corev1.Pod](t, []byte(doc)))
		})
	}
}

// Embedded structs' fields are promoted; names that would collide make
// the fast path decline the type; tags and options are read as
// encoding/json reads them.
func TestStructFieldNames(t *testing.T) {
	type Inner struct {
		A string `json:"a"`
		B int    `json:"b,omitempty"`
	}
	type inner struct{ C string }
	type Outer struct {
		Inner
		inner
		D       string `json:"-"`
		E       string `json:"-,"`
		F       string `json:"bad\\name"`
		G       *Inner `json:"g"`
		private string
	}
	_ = Outer{}.private
	assert.True(t, agrees[Outer](t, []byte(`{"a":"x","b":2,"C":"y","-":"e","F":"f","g":{"a":"z"}}`)))
	assert.False(t, agrees[Outer](t, []byte(`{"D":"d"}`)), "a field tagged - is unknown")
	assert.False(t, agrees[Outer](t, []byte(`{"private":"p"}`)), "an unexported field is unknown")

	type Clash struct {
		Inner
		A string `json:"a"`
	}
	assert.False(t, agrees[Clash](t, []byte(`{"a":"x"}`)), "colliding names are left to encoding/json")
	type Str struct {
		N int `json:"n,string"`
	}
	assert.False(t, agrees[Str](t, []byte(`{"n":"1"}`)))
	type Iface struct {
		V any `json:"v"`
	}
	assert.False(t, agrees[Iface](t, []byte(`{"v":1}`)))
	type Self struct {
		Name string `json:"name"`
		Next *Self  `json:"next"`
		Kids []Self `json:"kids"`
	}
	assert.True(t, agrees[Self](t, []byte(`{"name":"a","next":{"name":"b","next":null},"kids":[{"name":"c"},{"kids":[]}]}`)))
}

// Random edits of the corpus's objects (a key renamed, repeated, dropped
// or recased, a value replaced by another JSON value, a byte inserted or
// deleted) never make the fast path disagree with encoding/json.
func TestMutationsAgree(t *testing.T) {
	items, err := corpus()
	require.NoError(t, err)
	values := []string{`null`, `0`, `-1`, `1.5`, `1e3`, `"x"`, `""`, `"\u00e9"`, `true`, `[]`, `{}`, `[1]`, `{"a":"b"}`, `"1Gi"`, `"100m"`, `2147483648`}
	rapid.Check(t, func(rt *rapid.T) {
		it := rapid.SampledFrom(items).Draw(rt, "item")
		b := []byte(string(it.raw))
		for range rapid.IntRange(1, 3).Draw(rt, "edits") {
			b = mutate(rt, b, values)
		}
		it.check(rt, b)
	})
}

// mutate makes one random edit of b.
func mutate(rt *rapid.T, b []byte, values []string) []byte {
	s := string(b)
	switch rapid.IntRange(0, 5).Draw(rt, "kind") {
	case 0: // replace the value after a colon
		cols := indexesOf(s, ":")
		if len(cols) == 0 {
			return b
		}
		at := rapid.SampledFrom(cols).Draw(rt, "colon") + 1
		end := valueEnd(s, at)
		return []byte(s[:at] + rapid.SampledFrom(values).Draw(rt, "value") + s[end:])
	case 1: // recase or rename a key
		keys := indexesOf(s, `":`)
		if len(keys) == 0 {
			return b
		}
		at := rapid.SampledFrom(keys).Draw(rt, "key")
		start := strings.LastIndexByte(s[:at], '"')
		if start < 0 {
			return b
		}
		name := s[start+1 : at]
		repl := rapid.SampledFrom([]string{strings.ToUpper(name), strings.ToLower(name), name + "x", "metadata", "name", "spec"}).Draw(rt, "rename")
		return []byte(s[:start+1] + repl + s[at:])
	case 2: // repeat a member
		start, end, ok := someMember(rt, s)
		if !ok {
			return b
		}
		return []byte(s[:end] + "," + s[start:end] + s[end:])
	case 3: // delete a byte
		i := rapid.IntRange(0, len(s)-1).Draw(rt, "at")
		return []byte(s[:i] + s[i+1:])
	case 4: // insert a byte
		i := rapid.IntRange(0, len(s)).Draw(rt, "at")
		c := rapid.SampledFrom([]string{" ", ",", "\"", "{", "}", "[", "]", "\\", "0", "n", ":", "\xff"}).Draw(rt, "byte")
		return []byte(s[:i] + c + s[i:])
	default: // drop a member
		start, end, ok := someMember(rt, s)
		if !ok {
			return b
		}
		if end < len(s) && s[end] == ',' {
			end++
		}
		return []byte(s[:start] + s[end:])
	}
}

// someMember draws an object member of s (best effort on broken input):
// the offsets of its key's opening quote and of its value's end.
func someMember(rt *rapid.T, s string) (start, end int, ok bool) {
	cols := indexesOf(s, ":")
	if len(cols) == 0 {
		return 0, 0, false
	}
	at := rapid.SampledFrom(cols).Draw(rt, "colon")
	start = strings.LastIndexByte(s[:max(at-1, 0)], '"')
	if start < 0 {
		return 0, 0, false
	}
	return start, valueEnd(s, at+1), true
}

func indexesOf(s, sub string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + 1
	}
}

// valueEnd is the end of the JSON value starting at or after at (best
// effort on broken input: the mutations need not keep it valid).
func valueEnd(s string, at int) int {
	d := reader{b: []byte(s), i: at}
	if _, ok := d.skip(0); ok {
		return d.i
	}
	return at
}

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		json  string
		valid bool
	}{
		{`{}`, true}, {` [1, -0, 1.5e+3, "a\u00e9\n", true, false, null, {"a": []}] `, true},
		{"\"\xff\"", true}, // encoding/json does not check UTF-8
		{``, false}, {`{`, false}, {`[1,]`, false}, {`01`, false}, {`1.`, false}, {`.5`, false},
		{`truex`, false}, {`"a\x"`, false}, {`"\u12"`, false}, {"\"\t\"", false}, {`{} {}`, false},
		{`{"a" 1}`, false}, {`{1: 2}`, false}, {`-`, false}, {`1e`, false},
	} {
		assert.Equal(t, tc.valid, Valid([]byte(tc.json)), tc.json)
		assert.Equal(t, tc.valid, json.Valid([]byte(tc.json)), "encoding/json on %s", tc.json)
	}
	deep := strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2)
	assert.False(t, Valid([]byte(deep)), "deeper than maxDepth: left to encoding/json")
	assert.True(t, json.Valid([]byte(deep)))
}

// Valid never accepts what encoding/json's Valid rejects.
func FuzzValid(f *testing.F) {
	items, err := corpus()
	if err != nil {
		f.Fatal(err)
	}
	for i, it := range items {
		if i%10 == 0 {
			f.Add(it.raw)
		}
	}
	for _, s := range []string{`[1,2]`, `{"a":"\u00e9"}`, `-0.5E-3`, `"\ud800"`, `[[[]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if Valid(data) && !json.Valid(data) {
			t.Fatalf("Valid accepts what encoding/json rejects: %q", data)
		}
	})
}

func FuzzUnmarshalPod(f *testing.F) {
	items, err := corpus()
	if err != nil {
		f.Fatal(err)
	}
	for i, it := range items {
		if it.list == "pods" || it.list == "pending" {
			if i%5 == 0 {
				f.Add(it.raw)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agrees[corev1.Pod](t, data)
	})
}

func FuzzUnmarshalNode(f *testing.F) {
	items, err := corpus()
	if err != nil {
		f.Fatal(err)
	}
	for _, it := range items {
		if it.list == "nodes" {
			f.Add(it.raw)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agrees[corev1.Node](t, data)
	})
}

func BenchmarkPods(b *testing.B) {
	items, err := corpus()
	require.NoError(b, err)
	var pods [][]byte
	size := 0
	for _, it := range items {
		if it.list == "pods" {
			pods = append(pods, it.raw)
			size += len(it.raw)
		}
	}
	b.Run("jsonfast", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, p := range pods {
				var pod corev1.Pod
				if !Unmarshal(p, &pod) {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, p := range pods {
				var pod corev1.Pod
				if err := strict(p, &pod); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
