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

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// Decode parses one scenario document, JSON or YAML, into typed API objects.
// It returns warnings for fields no Kubernetes type knows (they are
// ignored, as kube-apiserver ignores them with a warning) and, when any item
// is malformed, an ErrorList naming every malformed object and field; then
// the scenario is nil. data is not retained.
func Decode(data []byte) (*Scenario, []string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil, ErrorList{{Index: -1, Detail: "empty scenario document"}}
	}
	if trimmed[0] != '{' {
		// Not JSON: YAML (JSON is YAML too, but the JSON path is faster
		// and its syntax errors carry better positions).
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil, nil, ErrorList{{Index: -1, Detail: "invalid YAML: " + err.Error()}}
		}
		trimmed = bytes.TrimSpace(j)
		data = j
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return nil, nil, ErrorList{{Index: -1, Detail: "the scenario must be an object with fields such as nodes, pods and pending"}}
		}
	}
	lists, wrongKind, unknownTop, err := splitTop(data)
	if err != nil {
		// The streaming decoder's syntax errors count offsets from the
		// start of the value being read; a whole-document check gives the
		// position in the document.
		var whole json.RawMessage
		if werr := json.Unmarshal(data, &whole); werr != nil {
			err = werr
		}
		return nil, nil, ErrorList{{Index: -1, Detail: "invalid JSON: " + describeSyntax(data, err)}}
	}

	d := &decoder{}
	s := &Scenario{}
	list := func(name string) []json.RawMessage {
		if kind, ok := wrongKind[name]; ok {
			d.errs = append(d.errs, &ObjectError{List: name, Index: -1, Detail: "expected a list, got " + kind})
		}
		return lists[name]
	}
	s.Nodes = decodeList[corev1.Node](d, "nodes", list("nodes"), false)
	s.Pods = decodeList[corev1.Pod](d, "pods", list("pods"), true)
	s.Namespaces = decodeList[corev1.Namespace](d, "namespaces", list("namespaces"), false)
	s.PDBs = decodeList[policyv1.PodDisruptionBudget](d, "pdbs", list("pdbs"), true)
	s.PriorityClasses = decodeList[schedulingv1.PriorityClass](d, "priorityClasses", list("priorityClasses"), false)
	s.Pending = decodeList[corev1.Pod](d, "pending", list("pending"), true)
	s.Services = decodeList[corev1.Service](d, "services", list("services"), true)
	s.ReplicaSets = decodeList[appsv1.ReplicaSet](d, "replicaSets", list("replicaSets"), true)
	s.StatefulSets = decodeList[appsv1.StatefulSet](d, "statefulSets", list("statefulSets"), true)
	s.ReplicationControllers = decodeList[corev1.ReplicationController](d, "replicationControllers", list("replicationControllers"), true)

	warnings := make([]string, 0, len(unknownTop)+len(d.warnings))
	for _, k := range unknownTop {
		warnings = append(warnings, fmt.Sprintf("unknown field %q ignored", k))
	}
	warnings = append(warnings, d.warnings...)
	if len(d.errs) > 0 {
		return nil, warnings, d.errs
	}
	return s, warnings, nil
}

// topLevelLists are the scenario's fields, all lists of objects.
var topLevelLists = map[string]bool{
	"nodes": true, "pods": true, "namespaces": true, "pdbs": true, "priorityClasses": true, "pending": true,
	"services": true, "replicaSets": true, "statefulSets": true, "replicationControllers": true,
}

// splitTop reads the top-level object in one streaming pass, keeping each
// list item's raw bytes, so that every byte is scanned once here and then
// once more by its item's decoder. A known field that is not a list is
// reported in wrongKind (its JSON kind); unknown fields are listed, sorted.
// As with encoding/json, a repeated field's last value wins and null is
// the same as absent.
func splitTop(data []byte) (lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening brace, checked by the caller
		return nil, nil, nil, err
	}
	lists = map[string][]json.RawMessage{}
	wrongKind = map[string]string{}
	unknownSet := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, nil, err
		}
		key, _ := tok.(string)
		if !topLevelLists[key] {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, nil, err
			}
			unknownSet[key] = true
			continue
		}
		delete(lists, key)
		delete(wrongKind, key)
		tok, err = dec.Token()
		if err != nil {
			return nil, nil, nil, err
		}
		switch tok {
		case json.Delim('['):
			var items []json.RawMessage
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return nil, nil, nil, err
				}
				items = append(items, raw)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, nil, nil, err
			}
			lists[key] = items
		case nil:
		case json.Delim('{'):
			if err := skipRest(dec); err != nil {
				return nil, nil, nil, err
			}
			wrongKind[key] = "an object"
		default:
			wrongKind[key] = tokenKind(tok)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, nil, nil, err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, nil, nil, err
		}
		return nil, nil, nil, fmt.Errorf("unexpected %v after the scenario object", tok)
	}
	for k := range unknownSet {
		unknown = append(unknown, k)
	}
	sort.Strings(unknown)
	return lists, wrongKind, unknown, nil
}

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
}

// decodeList decodes each item on its own so that problems name the item.
// Items are independent, so they are decoded in parallel; results and
// problems are kept by index and reported in document order.
func decodeList[T any](d *decoder, list string, raws []json.RawMessage, namespaced bool) []T {
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
		for _, u := range r.unknown {
			e := ObjectError{List: list, Index: i, Name: name, Detail: fmt.Sprintf("unknown field %q ignored", u)}
			d.warnings = append(d.warnings, e.Error())
		}
		for _, p := range r.problems {
			d.errs = append(d.errs, &ObjectError{List: list, Index: i, Name: name, Field: p.path, Detail: p.detail})
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
