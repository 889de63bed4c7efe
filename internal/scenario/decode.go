package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/internal/jsonfast"
)

// Decode parses one input file, JSON or YAML, into typed API objects: a
// scenario document, or Kubernetes objects as kubectl writes them (see
// DecodeSources, which it calls with data as the only source). It returns
// warnings for fields no Kubernetes type knows inside objects (they are
// ignored, as kube-apiserver ignores them with a warning) and, when
// anything is malformed, an ErrorList naming every malformed object and
// field; then the scenario is nil. data is not retained.
func Decode(data []byte) (*Scenario, []string, error) {
	return DecodeSources(Source{Data: data})
}

// topLevelLists are the scenario's fields, all lists of objects.
var topLevelLists = map[string]bool{
	"nodes": true, "pods": true, "namespaces": true, "pdbs": true, "priorityClasses": true, "pending": true,
	"services": true, "replicaSets": true, "statefulSets": true, "replicationControllers": true,
}

// splitTop reads the top-level object in one streaming pass, keeping each
// list item's raw bytes, so that every byte is scanned once here and then
// once more by its item's decoder. A known field that is not a list is
// reported in wrongKind (its JSON kind); unknown fields are listed, sorted,
// and their raw values kept in extra, except "items" (a Kubernetes List's),
// which is split like a known field (and is not listed as unknown). As with
// encoding/json, a repeated field's last value wins and null is the same as
// absent.
func splitTop(data []byte) (lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, extra map[string]json.RawMessage, err error) {
	if lists, wrongKind, unknown, extra, ok := splitTopFast(data); ok {
		return lists, wrongKind, unknown, extra, nil
	}
	return splitTopDecoder(data)
}

// splitTopDecoder is splitTop through encoding/json's Decoder, whose
// errors it reports.
func splitTopDecoder(data []byte) (lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, extra map[string]json.RawMessage, err error) {
	fail := func(err error) (map[string][]json.RawMessage, map[string]string, []string, map[string]json.RawMessage, error) {
		return nil, nil, nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening brace, checked by the caller
		return fail(err)
	}
	lists = map[string][]json.RawMessage{}
	wrongKind = map[string]string{}
	extra = map[string]json.RawMessage{}
	unknownSet := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		if !topLevelLists[key] && key != "items" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail(err)
			}
			unknownSet[key] = true
			extra[key] = skip
			continue
		}
		delete(lists, key)
		delete(wrongKind, key)
		tok, err = dec.Token()
		if err != nil {
			return fail(err)
		}
		switch tok {
		case json.Delim('['):
			items := []json.RawMessage{} // not nil: present, if empty
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return fail(err)
				}
				items = append(items, raw)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return fail(err)
			}
			lists[key] = items
		case nil:
		case json.Delim('{'):
			if err := skipRest(dec); err != nil {
				return fail(err)
			}
			wrongKind[key] = "an object"
		default:
			wrongKind[key] = tokenKind(tok)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return fail(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return fail(err)
		}
		return fail(errTrailing)
	}
	for k := range unknownSet {
		unknown = append(unknown, k)
	}
	sort.Strings(unknown)
	return lists, wrongKind, unknown, extra, nil
}

// errTrailing is splitTop's error when something follows the object: the
// file is then read as a stream of JSON values.
var errTrailing = errors.New("more after the first object")

// skipRest consumes the rest of an object or list whose opening delimiter
// has been read.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

type decoder struct {
	errs     ErrorList
	warnings []string
	// unknown groups the unknown fields of objects read as Kubernetes
	// objects, by kind and path, naming the objects that carry each: a
	// dump from a newer cluster has the same new field in every pod.
	unknown map[unknownKey][]string
}

type unknownKey struct{ kind, path string }

// decodeList decodes each item on its own so that problems name the item.
// Items are independent, so they are decoded in parallel; results and
// problems are kept by index and reported in document order. Each item
// is first given to jsonfast, which decodes the common case several times
// faster than encoding/json and declines the rest (a problem, an unknown
// field, anything unusual); a declined item is decoded by decodeItem,
// which gives encoding/json's value and finds its problems.
// The items are b's of that list; their origins, when b has located
// items, say where each came from (ObjectError.Source).
func decodeList[T any](d *decoder, b *builder, list string, namespaced bool) []T {
	raws := b.raws[list]
	var origins []origin
	if b.located {
		origins = b.origins[list]
	}
	if raws == nil {
		return nil
	}
	out := make([]T, len(raws))
	type itemReport struct {
		unknown  []string
		problems []problem
	}
	reports := make([]itemReport, len(raws))
	workers := min(runtime.GOMAXPROCS(0), (len(raws)+63)/64)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(raws); i += workers {
				if jsonfast.Unmarshal(raws[i], &out[i]) {
					continue
				}
				var zero T
				out[i] = zero // what the fast path left
				reports[i].unknown, reports[i].problems = decodeItem(raws[i], &out[i])
			}
		}()
	}
	wg.Wait()
	for i, r := range reports {
		if len(r.unknown) == 0 && len(r.problems) == 0 {
			continue
		}
		name := itemName(raws[i], namespaced)
		var o origin
		if origins != nil {
			o = origins[i]
		}
		for _, u := range r.unknown {
			e := ObjectError{List: list, Index: i, Name: name, Detail: fmt.Sprintf("unknown field %q ignored", u), Source: o.Source, Kind: o.Kind}
			if o.Kind != "" {
				if d.unknown == nil {
					d.unknown = map[unknownKey][]string{}
				}
				k := unknownKey{o.Kind, u}
				who := o.Source
				if name != "" {
					who += " (" + name + ")"
				}
				d.unknown[k] = append(d.unknown[k], who)
				continue
			}
			d.warnings = append(d.warnings, e.Error())
		}
		for _, p := range r.problems {
			d.errs = append(d.errs, &ObjectError{List: list, Index: i, Name: name, Field: p.path, Detail: p.detail, Source: o.Source, Kind: o.Kind})
		}
	}
	return out
}

type problem struct{ path, detail string }

// decodeItem decodes raw into into. The common case is one strict decode;
// only when it fails is the item walked field by field to find every
// unknown field and the path of every malformed value.
func decodeItem(raw json.RawMessage, into any) (unknown []string, problems []problem) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err == nil {
		return nil, nil
	}
	rv := reflect.ValueOf(into).Elem()
	rv.SetZero()
	lenientErr := json.Unmarshal(raw, into)

	var generic any
	gd := json.NewDecoder(bytes.NewReader(raw))
	gd.UseNumber()
	if err := gd.Decode(&generic); err != nil {
		return nil, []problem{{"", "invalid JSON: " + err.Error()}}
	}
	w := &walker{fields: map[reflect.Type]map[string]reflect.Type{}}
	w.walk(generic, rv.Type(), "")
	if lenientErr == nil {
		return w.unknown, nil
	}
	if len(w.problems) == 0 {
		w.problems = []problem{{"", strings.TrimPrefix(lenientErr.Error(), "json: ")}}
	}
	return w.unknown, w.problems
}

// itemName extracts "namespace/name" (or "name") from an item, tolerating
// any malformation elsewhere in it.
func itemName(raw json.RawMessage, namespaced bool) string {
	var m struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(raw, &m)
	if m.Metadata.Name == "" {
		return ""
	}
	if !namespaced {
		return m.Metadata.Name
	}
	ns := m.Metadata.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	return ns + "/" + m.Metadata.Name
}

// walker compares a generic JSON value with the Go type it should decode
// into, the way encoding/json does, recording unknown fields and values
// that do not decode, each with its path.
type walker struct {
	unknown  []string
	problems []problem
	fields   map[reflect.Type]map[string]reflect.Type
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	quantityType    = reflect.TypeFor[resource.Quantity]()
	timeType        = reflect.TypeFor[metav1.Time]()
	microTimeType   = reflect.TypeFor[metav1.MicroTime]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
)

func childPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (w *walker) walk(v any, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return // null leaves the zero value, as encoding/json does
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) || isLeaf(t) {
		data, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(data, reflect.New(t).Interface())
		}
		if err != nil {
			w.problems = append(w.problems, problem{path, describeValue(t, v, data)})
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			w.problems = append(w.problems, problem{path, "expected an object, got " + genericKind(v)})
			return
		}
		fields := w.structFields(t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				// encoding/json falls back to a case-insensitive match.
				for name, t2 := range fields {
					if strings.EqualFold(name, k) {
						ft, ok = t2, true
						break
					}
				}
			}
			if !ok {
				w.unknown = append(w.unknown, childPath(path, k))
				continue
			}
			w.walk(m[k], ft, childPath(path, k))
		}
	case reflect.Slice, reflect.Array:
		a, ok := v.([]any)
		if !ok {
			w.problems = append(w.problems, problem{path, "expected a list, got " + genericKind(v)})
			return
		}
		for i, e := range a {
			w.walk(e, t.Elem(), path+"["+strconv.Itoa(i)+"]")
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			w.problems = append(w.problems, problem{path, "expected an object, got " + genericKind(v)})
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.walk(m[k], t.Elem(), childPath(path, k))
		}
	}
}

func isLeaf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8 // []byte is a base64 string
	}
	return false
}

// structFields maps a struct's JSON field names (inline members flattened)
// to their types.
func (w *walker) structFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := w.fields[t]; ok {
		return f
	}
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range w.structFields(et) {
					if _, dup := out[k]; !dup {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	w.fields[t] = out
	return out
}

func describeValue(t reflect.Type, v any, data []byte) string {
	text := string(data)
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	switch t {
	case quantityType:
		if s, ok := v.(string); ok {
			return fmt.Sprintf("invalid quantity %q", s)
		}
		return "invalid quantity " + text
	case timeType, microTimeType:
		return "invalid time " + text + " (expected RFC 3339, e.g. \"2024-01-02T15:04:05Z\")"
	case intOrStringType:
		return "invalid value " + text + " (expected an integer or a string)"
	}
	var want string
	switch t.Kind() {
	case reflect.Bool:
		want = "a boolean"
	case reflect.String:
		want = "a string"
	case reflect.Float32, reflect.Float64:
		want = "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		want = "an integer of type " + t.Kind().String()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "a non-negative integer of type " + t.Kind().String()
	case reflect.Slice:
		want = "a base64 string"
	default:
		want = "a " + t.String()
	}
	msg := "invalid value " + text + " (expected " + want + ")"
	if _, isBool := v.(bool); isBool && t.Kind() == reflect.String {
		msg += "; in YAML, quote yes/no/on/off/true/false to keep them strings"
	}
	return msg
}

func genericKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// describeSyntax adds a line and column to JSON syntax errors.
func describeSyntax(data []byte, err error) string {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return fmt.Sprintf("line %d, column %d: %s", line, col, se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "unexpected end of input"
	}
	return err.Error()
}

func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte{'\n'}) + 1
	// Offset counts the offending byte; report its own column.
	col = int(offset) - 1 - bytes.LastIndexByte(before, '\n')
	if col < 1 {
		col = 1
	}
	return line, col
}
