package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"sigs.k8s.io/yaml"
)

// Source is one input file: its bytes and the name messages use for it
// ("" or "-" is standard input).
type Source struct {
	Name string
	Data []byte
}

// DecodeSources decodes one or more input files into one scenario. Each
// file is JSON (one object, or several one after another) or a stream of
// YAML documents separated by "---" lines; each document is either a scenario object (the fields
// nodes, pods, pending, ...) or a Kubernetes object, a kind List of
// objects (what kubectl get -o yaml|json writes) or a typed list (PodList,
// NodeList, ...). Everything is merged in file, document and item order:
// lists of scenario documents are concatenated, and Kubernetes objects are
// sorted into the lists by apiVersion and kind (see kubeKinds): a Pod with
// spec.nodeName goes to pods, one without to pending, and a pod in phase
// Succeeded or Failed is left out, all of them named in one warning, as
// kube-scheduler's pod informer never lists terminal pods
// (pkg/scheduler/scheduler.go, newPodInformer). Objects of other kinds are
// counted in one warning.
//
// Every problem of every file is reported at once as an ErrorList naming
// the file (when there are several), the document (when its file has
// several), the item and the field path; then the scenario is nil: a
// partial scenario is never returned. An unknown top-level field of a
// scenario document is an error, with the closest valid field suggested;
// unknown fields inside objects are warnings, as kube-apiserver's are by
// default (a dump of a newer cluster carries fields these types lack).
// The sources are not retained or modified.
func DecodeSources(srcs ...Source) (*Scenario, []string, error) {
	b := &builder{
		named:   len(srcs) > 1,
		raws:    map[string][]json.RawMessage{},
		origins: map[string][]origin{},
		ignored: map[string]int{},
	}
	for _, src := range srcs {
		b.addSource(src)
	}
	return b.finish()
}

// LoadSources is DecodeSources then Normalize, without the copy (see
// Load). Problems found by normalization name the document and item the
// object came from.
func LoadSources(srcs ...Source) (*Scenario, []string, error) {
	s, warnings, err := DecodeSources(srcs...)
	if err != nil {
		return nil, warnings, err
	}
	n, more, err := normalizeInPlace(s)
	return n, append(warnings, more...), err
}

// kubeKind is where objects of one kind go, and the only apiVersion read
// for it.
type kubeKind struct {
	apiVersion string
	list       string
}

// kubeKinds are the kinds the simulation reads. Other kinds are counted
// and ignored; a known kind of another apiVersion (policy/v1beta1
// PodDisruptionBudget, whose empty selector means something else) is an
// error.
var kubeKinds = map[string]kubeKind{
	"Node":                  {"v1", "nodes"},
	"Pod":                   {"v1", "pods"}, // or pending, by spec.nodeName
	"Namespace":             {"v1", "namespaces"},
	"PodDisruptionBudget":   {"policy/v1", "pdbs"},
	"PriorityClass":         {"scheduling.k8s.io/v1", "priorityClasses"},
	"Service":               {"v1", "services"},
	"ReplicaSet":            {"apps/v1", "replicaSets"},
	"StatefulSet":           {"apps/v1", "statefulSets"},
	"ReplicationController": {"v1", "replicationControllers"},
}

func (k kubeKind) namespaced() bool {
	return k.list != "nodes" && k.list != "namespaces" && k.list != "priorityClasses"
}

// scenarioFields are the scenario document's fields, sorted, for
// suggestions.
var scenarioFields = func() []string {
	out := make([]string, 0, len(topLevelLists))
	for k := range topLevelLists {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}()

// builder gathers every document's items, by list, before they are decoded
// (in parallel, per list) by finish.
type builder struct {
	named    bool // several sources: locations start with the file name
	raws     map[string][]json.RawMessage
	origins  map[string][]origin
	located  bool // some item has an origin with a Source
	errs     ErrorList
	errSeq   []int // for each of errs, seq when it was found
	seq      int   // objects and documents met so far, for error order
	warnings []string
	ignored  map[string]int // "apiVersion Kind" -> count
	terminal []string       // terminal pods left out, by name
}

func join(loc, s string) string {
	if loc == "" {
		return s
	}
	return loc + ": " + s
}

// docWhere names a whole document that is one object: its location, or
// "document" when the input is that one document.
func docWhere(loc string) string {
	if loc == "" {
		return "document"
	}
	return loc
}

func (b *builder) fail(loc, detail string) {
	b.err(&ObjectError{Index: -1, Source: loc, Detail: detail})
}

// err records a problem found before decoding, at the current seq.
func (b *builder) err(e *ObjectError) {
	b.seq++
	b.errs = append(b.errs, e)
	b.errSeq = append(b.errSeq, b.seq)
}

func (b *builder) add(list string, raw json.RawMessage, o origin) {
	b.seq++
	o.seq = b.seq
	b.raws[list] = append(b.raws[list], raw)
	b.origins[list] = append(b.origins[list], o)
	if o.Source != "" {
		b.located = true
	}
}

// yamlDoc is one document of a YAML stream and the line it starts on.
type yamlDoc struct {
	data []byte
	line int
}

// splitYAML splits a YAML stream at its document markers: lines that are
// "---" (optionally followed by a comment, or by the document's first
// content) or "...". Inside a block scalar such lines are indented, so a
// marker at column 0 always ends a document.
func splitYAML(data []byte) []yamlDoc {
	var docs []yamlDoc
	start, startLine, line := 0, 1, 1
	for off := 0; off < len(data); line++ {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(data)
		}
		l := bytes.TrimRight(data[off:end], "\r")
		marker, rest := false, 0
		switch {
		case bytes.Equal(l, []byte("...")):
			marker, rest = true, next
		case bytes.HasPrefix(l, []byte("---")) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t'):
			marker, rest = true, next
			if c := bytes.TrimSpace(l[3:]); len(c) > 0 && c[0] != '#' {
				rest = off + 3 // "--- {a: 1}": the document starts on this line
			}
		}
		if marker {
			docs = append(docs, yamlDoc{data[start:off], startLine})
			start, startLine = rest, line
			if rest == next {
				startLine = line + 1
			}
		}
		off = next
	}
	return append(docs, yamlDoc{data[start:], startLine})
}

// addSource reads one file: one JSON document, or a YAML stream.
func (b *builder) addSource(src Source) {
	prefix := ""
	if b.named {
		prefix = src.Name
		if prefix == "" || prefix == "-" {
			prefix = "stdin"
		}
	}
	data := bytes.TrimPrefix(src.Data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		b.fail(prefix, "empty scenario document")
		return
	}
	if trimmed[0] == '{' {
		// JSON (JSON is YAML too, but the JSON path is faster and its
		// syntax errors carry better positions): one document, or a
		// stream of objects (jq's output, concatenated files).
		b.addJSON(prefix, data)
		return
	}
	type converted struct {
		json []byte
		err  error
		line int
	}
	var docs []converted
	for _, d := range splitYAML(data) {
		j, err := yaml.YAMLToJSON(d.data)
		if err == nil && bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue // empty, or comments only
		}
		docs = append(docs, converted{j, err, d.line})
	}
	if len(docs) == 0 {
		b.fail(prefix, "empty scenario document")
		return
	}
	for i, d := range docs {
		loc := prefix
		if len(docs) > 1 {
			loc = join(prefix, fmt.Sprintf("document %d at line %d", i+1, d.line))
		}
		if d.err != nil {
			b.fail(loc, "invalid YAML: "+shiftYAMLLine(d.err.Error(), d.line-1))
			continue
		}
		if t := bytes.TrimSpace(d.json); len(t) == 0 || t[0] != '{' {
			b.fail(loc, "the document must be an object: a scenario with fields such as nodes, pods and pending, or a Kubernetes object or List with apiVersion and kind")
			continue
		}
		b.addDocument(loc, d.json)
	}
}

// addJSON reads a JSON file: one object, or several one after another.
// The common case, one object, is split in one pass; only when something
// follows it is the file read as a stream.
func (b *builder) addJSON(prefix string, data []byte) {
	lists, wrongKind, unknownTop, extra, err := splitTop(data)
	if !errors.Is(err, errTrailing) {
		b.addSplit(prefix, data, lists, wrongKind, unknownTop, extra, err)
		return
	}
	b.addJSONStream(prefix, data)
}

// addJSONStream reads a JSON file of several values, each a document.
func (b *builder) addJSONStream(prefix string, data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var docs []json.RawMessage
	var starts []int64
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(docs) == 0 {
				b.addDocument(prefix, data) // reports the error with its position
				return
			}
			// The error is inside this value: find its position from the
			// value's start, then count from the file's start.
			for start < int64(len(data)) && isJSONSpace(data[start]) {
				start++
			}
			msg := "unexpected end of input"
			if werr := json.Unmarshal(data[start:], new(json.RawMessage)); werr != nil {
				var se *json.SyntaxError
				if errors.As(werr, &se) {
					line, col := position(data, start+se.Offset)
					msg = fmt.Sprintf("line %d, column %d: %s", line, col, se.Error())
				}
			}
			line, _ := position(data, start+1)
			b.fail(join(prefix, fmt.Sprintf("document %d at line %d", len(docs)+1, line)), "invalid JSON: "+msg)
			return
		}
		docs = append(docs, raw)
		starts = append(starts, start)
	}
	if len(docs) == 1 {
		b.addDocument(prefix, data)
		return
	}
	for i, d := range docs {
		line, _ := position(data, starts[i]+1)
		if t := bytes.TrimSpace(d); len(t) == 0 || t[0] != '{' {
			b.fail(join(prefix, fmt.Sprintf("document %d at line %d", i+1, line)), "the document must be an object: a scenario with fields such as nodes, pods and pending, or a Kubernetes object or List with apiVersion and kind")
			continue
		}
		b.addDocument(join(prefix, fmt.Sprintf("document %d at line %d", i+1, line)), d)
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var yamlLine = regexp.MustCompile(`^yaml: line (\d+):`)

// shiftYAMLLine makes the line number of a YAML error, counted from the
// start of its document, count from the start of the file.
func shiftYAMLLine(msg string, by int) string {
	m := yamlLine.FindStringSubmatchIndex(msg)
	if m == nil || by == 0 {
		return msg
	}
	n, err := strconv.Atoi(msg[m[2]:m[3]])
	if err != nil {
		return msg
	}
	return msg[:m[2]] + strconv.Itoa(n+by) + msg[m[3]:]
}

// addDocument reads one JSON object: a scenario or a Kubernetes object.
func (b *builder) addDocument(loc string, data []byte) {
	lists, wrongKind, unknownTop, extra, err := splitTop(data)
	b.addSplit(loc, data, lists, wrongKind, unknownTop, extra, err)
}

// addSplit reads one JSON object split by splitTop (err is splitTop's).
func (b *builder) addSplit(loc string, data []byte, lists map[string][]json.RawMessage, wrongKind map[string]string, unknownTop []string, extra map[string]json.RawMessage, err error) {
	if err != nil {
		// The streaming decoder's syntax errors count offsets from the
		// start of the value being read; a whole-document check gives the
		// position in the document.
		var whole json.RawMessage
		if werr := json.Unmarshal(data, &whole); werr != nil {
			err = werr
		}
		b.fail(loc, "invalid JSON: "+describeSyntax(data, err))
		return
	}
	if _, ok := extra["kind"]; ok {
		h := header{items: lists["items"], hasItems: lists["items"] != nil}
		if !h.read(extra["apiVersion"], extra["kind"]) {
			b.badHeader(docWhere(loc), extra["apiVersion"], extra["kind"])
			return
		}
		if kind, ok := wrongKind["items"]; ok {
			b.err(&ObjectError{Index: -1, Source: docWhere(loc), Kind: h.kind, Field: "items", Detail: "expected a list, got " + kind})
			return
		}
		b.addObject(loc, data, h, true)
		return
	}

	// A scenario document.
	for _, k := range unknownTop {
		b.fail(loc, unknownFieldDetail(k))
	}
	if _, ok := wrongKind["items"]; ok || lists["items"] != nil {
		b.fail(loc, unknownFieldDetail("items"))
	}
	for _, name := range scenarioFields {
		if kind, ok := wrongKind[name]; ok {
			b.err(&ObjectError{List: name, Index: -1, Source: join(loc, name), Detail: "expected a list, got " + kind})
			continue
		}
		for i, raw := range lists[name] {
			o := origin{}
			if loc != "" {
				o.Source = join(loc, name+"["+strconv.Itoa(i)+"]")
			}
			b.add(name, raw, o)
		}
	}
}

// header is what is read of a Kubernetes object before it is decoded.
type header struct {
	apiVersion, kind string
	items            []json.RawMessage
	hasItems         bool
}

// read sets apiVersion and kind from their raw values; false when either
// is not a string.
func (h *header) read(apiVersion, kind json.RawMessage) bool {
	if apiVersion != nil && json.Unmarshal(apiVersion, &h.apiVersion) != nil {
		return false
	}
	return kind == nil || json.Unmarshal(kind, &h.kind) == nil
}

func (b *builder) badHeader(loc string, apiVersion, kind json.RawMessage) {
	var s string
	if apiVersion != nil && json.Unmarshal(apiVersion, &s) != nil {
		b.err(&ObjectError{Index: -1, Source: loc, Field: "apiVersion", Detail: "expected a string, got " + rawKind(apiVersion)})
	}
	if kind != nil && json.Unmarshal(kind, &s) != nil {
		b.err(&ObjectError{Index: -1, Source: loc, Field: "kind", Detail: "expected a string, got " + rawKind(kind)})
	}
}

func rawKind(raw json.RawMessage) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return "invalid JSON"
	}
	return genericKind(v)
}

// itemPeek is what is read of a list item to place it.
type itemPeek struct {
	APIVersion json.RawMessage   `json:"apiVersion"`
	Kind       json.RawMessage   `json:"kind"`
	Items      []json.RawMessage `json:"items"`
	Spec       struct {
		NodeName string `json:"nodeName"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase"`
	} `json:"status"`
}

// addObject places one Kubernetes object (or the items of a list) read at
// loc. top is true for a whole document (then loc names the document and
// the object is "document"), false for a list item (loc names the item).
// A typed list's items (PodList, ...) may omit apiVersion and kind, as
// the API server's responses do; they are the list's.
func (b *builder) addObject(loc string, raw json.RawMessage, h header, top bool) {
	where := loc
	if top {
		where = docWhere(loc)
	}
	if h.kind == "" {
		b.err(&ObjectError{Index: -1, Source: where, Field: "kind", Detail: "Required value"})
		return
	}
	if h.kind == "List" || (strings.HasSuffix(h.kind, "List") && h.hasItems) {
		var defaultAPIVersion, defaultKind string
		if h.kind != "List" {
			defaultAPIVersion, defaultKind = h.apiVersion, strings.TrimSuffix(h.kind, "List")
		}
		items := h.items
		if !top {
			var p itemPeek
			_ = json.Unmarshal(raw, &p)
			items = p.Items
		}
		for i, item := range items {
			itemLoc := join(loc, "items["+strconv.Itoa(i)+"]")
			if string(item) == "null" {
				continue
			}
			if t := bytes.TrimSpace(item); len(t) == 0 || t[0] != '{' {
				b.err(&ObjectError{Index: -1, Source: itemLoc, Detail: "expected an object, got " + rawKind(item)})
				continue
			}
			var p itemPeek
			_ = json.Unmarshal(item, &p) // type errors leave fields empty; decoding reports them
			ih := header{hasItems: p.Items != nil}
			if !ih.read(p.APIVersion, p.Kind) {
				b.badHeader(itemLoc, p.APIVersion, p.Kind)
				continue
			}
			if ih.kind == "" && p.Kind == nil {
				ih.kind = defaultKind
			}
			if ih.apiVersion == "" && p.APIVersion == nil {
				ih.apiVersion = defaultAPIVersion
			}
			if ih.kind == "Pod" && ih.apiVersion == "v1" {
				b.addPod(itemLoc, item, p.Spec.NodeName, p.Status.Phase)
				continue
			}
			b.addObject(itemLoc, item, ih, false)
		}
		return
	}
	k, known := kubeKinds[h.kind]
	if !known {
		b.ignored[strings.TrimSpace(h.apiVersion+" "+h.kind)]++
		return
	}
	switch h.apiVersion {
	case k.apiVersion:
	case "":
		b.err(&ObjectError{Index: -1, Source: where, Kind: h.kind, Name: itemName(raw, k.namespaced()), Field: "apiVersion", Detail: "Required value"})
		return
	default:
		b.err(&ObjectError{Index: -1, Source: where, Kind: h.kind, Name: itemName(raw, k.namespaced()), Field: "apiVersion",
			Detail: fmt.Sprintf("Unsupported value: %q: supported values: %q", h.apiVersion, k.apiVersion)})
		return
	}
	if h.kind == "Pod" {
		var p itemPeek
		_ = json.Unmarshal(raw, &p)
		b.addPod(where, raw, p.Spec.NodeName, p.Status.Phase)
		return
	}
	b.add(k.list, raw, origin{Source: where, Kind: h.kind})
}

// addPod sorts a Pod into pods (bound) or pending (unbound). A pod in
// phase Succeeded or Failed, bound or not, is left out and counted for one
// warning: kube-scheduler's pod informer never lists terminal pods
// (pkg/scheduler/scheduler.go, newPodInformer), and a real cluster's dump
// may hold thousands of finished Job pods.
func (b *builder) addPod(loc string, raw json.RawMessage, nodeName, phase string) {
	switch {
	case phase == string(corev1.PodSucceeded) || phase == string(corev1.PodFailed):
		b.terminal = append(b.terminal, itemName(raw, true))
	case nodeName != "":
		b.add("pods", raw, origin{Source: loc, Kind: "Pod"})
	default:
		b.add("pending", raw, origin{Source: loc, Kind: "Pod"})
	}
}

// finish decodes every gathered item into its typed list.
func (b *builder) finish() (*Scenario, []string, error) {
	d := &decoder{}
	s := &Scenario{}
	s.Nodes = decodeList[corev1.Node](d, b, "nodes", false)
	s.Pods = decodeList[corev1.Pod](d, b, "pods", true)
	s.Namespaces = decodeList[corev1.Namespace](d, b, "namespaces", false)
	s.PDBs = decodeList[policyv1.PodDisruptionBudget](d, b, "pdbs", true)
	s.PriorityClasses = decodeList[schedulingv1.PriorityClass](d, b, "priorityClasses", false)
	s.Pending = decodeList[corev1.Pod](d, b, "pending", true)
	s.Services = decodeList[corev1.Service](d, b, "services", true)
	s.ReplicaSets = decodeList[appsv1.ReplicaSet](d, b, "replicaSets", true)
	s.StatefulSets = decodeList[appsv1.StatefulSet](d, b, "statefulSets", true)
	s.ReplicationControllers = decodeList[corev1.ReplicationController](d, b, "replicationControllers", true)
	if b.located {
		s.origins = b.origins
	}

	warnings := b.warnings
	if len(b.terminal) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d pod(s) in phase Succeeded or Failed left out, as kube-scheduler's informer leaves terminal pods out: %s",
			len(b.terminal), nameListN(b.terminal, 5)))
	}
	if len(b.ignored) > 0 {
		kinds := make([]string, 0, len(b.ignored))
		total := 0
		for k, n := range b.ignored {
			kinds = append(kinds, k)
			total += n
		}
		sort.Strings(kinds)
		for i, k := range kinds {
			kinds[i] = fmt.Sprintf("%s (%d)", k, b.ignored[k])
		}
		warnings = append(warnings, fmt.Sprintf("%d object(s) of kinds the simulation does not read ignored: %s", total, strings.Join(kinds, ", ")))
	}
	warnings = append(warnings, d.warnings...)
	keys := make([]unknownKey, 0, len(d.unknown))
	for k := range d.unknown {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].kind != keys[j].kind {
			return keys[i].kind < keys[j].kind
		}
		return keys[i].path < keys[j].path
	})
	for _, k := range keys {
		who := d.unknown[k]
		warnings = append(warnings, fmt.Sprintf("unknown field %q of %s ignored in %d object(s): %s", k.path, k.kind, len(who), nameListN(who, 3)))
	}
	if len(b.errs)+len(d.errs) > 0 {
		// In input order: problems found while reading documents, and
		// those found decoding their items, by the seq of each.
		seq := append([]int(nil), b.errSeq...)
		errs := append(ErrorList(nil), b.errs...)
		for _, e := range d.errs {
			s := b.seq + 1 // one scenario document: after its own problems
			if o := b.origins[e.List]; b.located && e.Index >= 0 && e.Index < len(o) {
				s = o[e.Index].seq
			}
			errs = append(errs, e)
			seq = append(seq, s)
		}
		idx := make([]int, len(errs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return seq[idx[i]] < seq[idx[j]] })
		sorted := make(ErrorList, len(errs))
		for i, k := range idx {
			sorted[i] = errs[k]
		}
		return nil, warnings, sorted
	}
	return s, warnings, nil
}

// nameListN joins up to n names, then says how many more there are.
func nameListN(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// unknownFieldDetail refuses an unknown top-level field of a scenario
// document, suggesting the closest valid field.
func unknownFieldDetail(k string) string {
	switch k {
	case "items", "apiVersion", "metadata", "spec", "status":
		return fmt.Sprintf("unknown field %q (a Kubernetes object or List needs apiVersion and kind)", k)
	}
	best, bestD := "", -1
	for _, f := range scenarioFields {
		if d := editDistance(strings.ToLower(k), strings.ToLower(f)); bestD < 0 || d < bestD {
			best, bestD = f, d
		}
	}
	if bestD <= 2 || bestD*3 <= len(best) {
		return fmt.Sprintf("unknown field %q (did you mean %q?)", k, best)
	}
	return fmt.Sprintf("unknown field %q (the fields are %s)", k, strings.Join(scenarioFields, ", "))
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
