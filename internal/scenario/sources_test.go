package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/internal/scenario/scenariotest"
)

// withoutTypeMeta returns s without origins and with every object's
// apiVersion and kind cleared, for comparing a dump's objects with a
// scenario's (whose items carry neither).
func withoutTypeMeta(s *Scenario) *Scenario {
	c := s.DeepCopy()
	c.origins = nil
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || !f.CanSet() {
			continue
		}
		for j := 0; j < f.Len(); j++ {
			if tm := f.Index(j).FieldByName("TypeMeta"); tm.IsValid() {
				tm.SetZero()
			}
		}
	}
	return c
}

// TestDumpMatchesScenario: a scenario written as kubectl would dump its
// objects (a kind List as JSON and as YAML, a multi-document YAML stream,
// the objects split over several files) loads to the same normalized
// objects as the scenario document.
func TestDumpMatchesScenario(t *testing.T) {
	for _, name := range []string{"tiny", "small-1"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("../../testdata/conformance/cases/" + name + ".json")
			require.NoError(t, err)
			want, wantWarnings, err := Load(data)
			require.NoError(t, err)

			list, err := scenariotest.List(data, scenariotest.Options{})
			require.NoError(t, err)
			listYAML, err := scenariotest.ListYAML(data, scenariotest.Options{})
			require.NoError(t, err)
			multi, err := scenariotest.MultiDocYAML(data, scenariotest.Options{})
			require.NoError(t, err)
			docs := strings.SplitAfter(string(multi), "\n---\n")
			half := strings.Join(docs[:len(docs)/2], "")
			rest := "---\n" + strings.Join(docs[len(docs)/2:], "")

			for _, tc := range []struct {
				name string
				srcs []Source
			}{
				{"List JSON", []Source{{"dump.json", list}}},
				{"List YAML", []Source{{"dump.yaml", listYAML}}},
				{"multi-document YAML", []Source{{"dump.yaml", multi}}},
				{"two files", []Source{{"a.yaml", []byte(half)}, {"b.yaml", []byte(rest)}}},
			} {
				got, warnings, err := LoadSources(tc.srcs...)
				require.NoError(t, err, tc.name)
				assert.Equal(t, wantWarnings, warnings, tc.name)
				assert.Equal(t, withoutTypeMeta(want), withoutTypeMeta(got), tc.name)
			}
		})
	}
}

// TestDumpRealClusterFields: what a real cluster's objects carry beside
// the scheduling fields (managedFields, node conditions and nodeInfo,
// resourceVersion) decodes without a warning, and objects of other kinds
// are counted in one warning.
func TestDumpRealClusterFields(t *testing.T) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(t, err)
	list, err := scenariotest.ListYAML(data, scenariotest.Options{ClusterFields: true, Other: true})
	require.NoError(t, err)
	s, warnings, err := Decode(list)
	require.NoError(t, err)
	assert.Equal(t, []string{"4 object(s) of kinds the simulation does not read ignored: apps/v1 Deployment (1), events.k8s.io/v1 Event (1), v1 ConfigMap (2)"}, warnings)
	require.NotEmpty(t, s.Nodes)
	require.NotEmpty(t, s.Nodes[0].ManagedFields)
	assert.Equal(t, "v1.36.3", s.Nodes[0].Status.NodeInfo.KubeletVersion)
}

// TestDecodeSourcesPlacement: objects go to the list their kind and state
// say, in document order.
func TestDecodeSourcesPlacement(t *testing.T) {
	doc := `
# a comment before the first document
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: bound}, spec: {nodeName: n1}, status: {phase: Running}}
- {apiVersion: v1, kind: Pod, metadata: {name: waiting}, status: {phase: Pending}}
- {apiVersion: v1, kind: Pod, metadata: {name: done}, status: {phase: Succeeded}}
- {apiVersion: v1, kind: Pod, metadata: {name: old}, spec: {nodeName: n1}, status: {phase: Failed}}
- {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Node, metadata: {name: n2}}]}
---
apiVersion: v1
kind: NodeList
items:
- metadata: {name: n1}
--- # a scenario document is merged too
pending:
- metadata: {name: later}
...
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 10
---
`
	s, warnings, err := Decode([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, []string{`2 pod(s) in phase Succeeded or Failed left out, as kube-scheduler's informer leaves terminal pods out: default/done, default/old`}, warnings)
	names := func(n int, name func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = name(i)
		}
		return out
	}
	assert.Equal(t, []string{"n2", "n1"}, names(len(s.Nodes), func(i int) string { return s.Nodes[i].Name }))
	assert.Equal(t, []string{"bound"}, names(len(s.Pods), func(i int) string { return s.Pods[i].Name }))
	assert.Equal(t, []string{"waiting", "later"}, names(len(s.Pending), func(i int) string { return s.Pending[i].Name }))
	require.Len(t, s.PriorityClasses, 1)
	assert.Equal(t, int32(10), s.PriorityClasses[0].Value)
}

// TestDecodeSourcesErrors: every bad input is refused with every problem
// named by file (when there are several), document (when its file has
// several), item and field, and no partial scenario.
func TestDecodeSourcesErrors(t *testing.T) {
	badPod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "abc"}}}]}}`
	tests := []struct {
		name string
		srcs []Source
		want []string
	}{
		{
			name: "invalid object in a List",
			srcs: []Source{{"dump.json", []byte(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}, ` + badPod + `]}`)}},
			want: []string{`items[1] (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`},
		},
		{
			name: "invalid object in the second document",
			srcs: []Source{{"dump.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n" + badPod + "\n")}},
			want: []string{`document 2 at line 5 (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`},
		},
		{
			name: "invalid object in one of several files",
			srcs: []Source{
				{"a.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")},
				{"b.yaml", []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {memory: 1Qi}}}\n")},
			},
			want: []string{`b.yaml: items[0] (Node n2): status.allocatable.memory: invalid quantity "1Qi"`},
		},
		{
			name: "a single object that is the whole document",
			srcs: []Source{{"pod.yaml", []byte(badPod)}},
			want: []string{`document (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`},
		},
		{
			name: "known kind, other apiVersion",
			srcs: []Source{{"", []byte(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "x"}}, {"kind": "Node", "metadata": {"name": "n"}}]}`)}},
			want: []string{
				`items[0] (PodDisruptionBudget x/b): apiVersion: Unsupported value: "policy/v1beta1": supported values: "policy/v1"`,
				`items[1] (Node n): apiVersion: Required value`,
			},
		},
		{
			name: "item without kind, item not an object, kind not a string",
			srcs: []Source{{"", []byte(`{"apiVersion": "v1", "kind": "List", "items": [{"metadata": {"name": "x"}}, 3, {"apiVersion": "v1", "kind": 5}]}`)}},
			want: []string{`items[0]: kind: Required value`, `items[1]: expected an object, got a number`, `items[2]: kind: expected a string, got a number`},
		},
		{
			name: "items not a list",
			srcs: []Source{{"", []byte(`{"apiVersion": "v1", "kind": "List", "items": {"a": 1}}`)}},
			want: []string{`document (List): items: expected a list, got an object`},
		},
		{
			name: "truncated List",
			srcs: []Source{{"", []byte(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name"`)}},
			want: []string{`invalid JSON: line 1, column 102: unexpected end of JSON input`},
		},
		{
			name: "YAML error in a later document, line counted from the file's start",
			srcs: []Source{{"", []byte("nodes: []\n---\npending:\n  - metadata: {name: p\n")}},
			want: []string{`document 2 at line 3: invalid YAML: yaml: line 4: did not find expected ',' or '}'`},
		},
		{
			name: "unknown top-level field in the second scenario document",
			srcs: []Source{{"", []byte("nodes: []\n---\npendng: []\n")}},
			want: []string{`document 2 at line 3: unknown field "pendng" (did you mean "pending"?)`},
		},
		{
			name: "an empty file among several",
			srcs: []Source{{"a.yaml", []byte("nodes: []\n")}, {"-", []byte("# nothing\n")}},
			want: []string{`stdin: empty scenario document`},
		},
		{
			name: "a JSON stream with an error in its second object",
			srcs: []Source{{"", []byte("{\"nodes\": []}\n  {\"pending\": [{\"metadata\": {\"name\": }}]}\n")}},
			want: []string{`document 2 at line 2: invalid JSON: line 2, column 38: invalid character '}' looking for beginning of value`},
		},
		{
			name: "a JSON stream with a list in it",
			srcs: []Source{{"", []byte("{\"nodes\": []}\n[1]\n")}},
			want: []string{`document 2 at line 2: the document must be an object: a scenario with fields such as nodes, pods and pending, or a Kubernetes object or List with apiVersion and kind`},
		},
		{
			name: "invalid object in a JSON stream",
			srcs: []Source{{"", []byte("{\"nodes\": []}\n" + badPod)}},
			want: []string{`document 2 at line 2 (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`},
		},
		{
			name: "the same node in two documents",
			srcs: []Source{{"", []byte("nodes: [{metadata: {name: n1}}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")}},
			want: []string{`document 2 at line 3 (Node n1): metadata.name: Duplicate value: same name as document 1 at line 1: nodes[0]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := LoadSources(tt.srcs...)
			require.Error(t, err)
			assert.Nil(t, s, "no partial result")
			var list ErrorList
			require.ErrorAs(t, err, &list)
			got := make([]string, len(list))
			for i, e := range list {
				got[i] = e.Error()
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestDecodeJSONStream: a file of several JSON objects one after another
// (jq's output, concatenated files) is read as several documents.
func TestDecodeJSONStream(t *testing.T) {
	doc := `{"nodes": [{"metadata": {"name": "n1"}}]}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}
{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2"}}]}`
	s, warnings, err := Decode([]byte(doc))
	require.NoError(t, err)
	assert.Empty(t, warnings)
	require.Len(t, s.Nodes, 2)
	assert.Equal(t, "n2", s.Nodes[1].Name)
	require.Len(t, s.Pending, 1)
	assert.Equal(t, "p", s.Pending[0].Name)
}

// TestDumpUnknownFields: unknown fields inside a dump's objects (a newer
// cluster's) are warnings, one per kind and field whatever the number of
// objects carrying it.
func TestDumpUnknownFields(t *testing.T) {
	doc := `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {newThing: 1, containers: [{name: c}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {newThing: 2}}
- {apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {newThing: 3}, status: {newStatus: x}}
- {apiVersion: v1, kind: Pod, metadata: {name: d}, spec: {newThing: 4}}
- {apiVersion: v1, kind: Node, metadata: {name: n1}, spec: {newThing: 5}}
`
	s, warnings, err := Decode([]byte(doc))
	require.NoError(t, err)
	require.Len(t, s.Pending, 4)
	assert.Equal(t, []string{
		`unknown field "spec.newThing" of Node ignored in 1 object(s): items[4] (n1)`,
		`unknown field "spec.newThing" of Pod ignored in 4 object(s): items[0] (default/a), items[1] (default/b), items[2] (default/c) and 1 more`,
		`unknown field "status.newStatus" of Pod ignored in 1 object(s): items[2] (default/c)`,
	}, warnings)
}

// TestSplitYAML pins the document markers.
func TestSplitYAML(t *testing.T) {
	doc := "a: 1\n---\nb: |\n  ---\n  x\n--- # c\nc: 2\n...\n--- {d: 3}\n"
	var got []string
	var lines []int
	for _, d := range splitYAML([]byte(doc)) {
		got = append(got, string(d.data))
		lines = append(lines, d.line)
	}
	assert.Equal(t, []string{"a: 1\n", "b: |\n  ---\n  x\n", "c: 2\n", "", " {d: 3}\n"}, got)
	assert.Equal(t, []int{1, 3, 7, 9, 9}, lines)
}

// FuzzDecodeSources: decoding any two files never panics; it either gives
// a scenario or refuses with a non-empty error list and no scenario; one
// file decodes as Decode decodes it.
func FuzzDecodeSources(f *testing.F) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(f, err)
	list, err := scenariotest.List(data, scenariotest.Options{ClusterFields: true, Other: true})
	require.NoError(f, err)
	multi, err := scenariotest.MultiDocYAML(data, scenariotest.Options{})
	require.NoError(f, err)
	f.Add(list, []byte{})
	f.Add(multi, data)
	f.Add([]byte("apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p}\n"), []byte("---\n---\nnodes: []\n...\n"))
	f.Add([]byte(`{"apiVersion": "v1", "kind": "List", "items": [{"kind": "List", "items": [null, 1]}]}`), []byte("kind: Pod\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		s, _, err := DecodeSources(Source{"a", a}, Source{"b", b})
		if err != nil {
			var list ErrorList
			require.ErrorAs(t, err, &list)
			require.NotEmpty(t, list)
			require.Nil(t, s)
		} else {
			require.NotNil(t, s)
			_, _, _ = Normalize(s)
		}
		one, w1, err1 := DecodeSources(Source{"a", a})
		two, w2, err2 := Decode(a)
		require.Equal(t, err1, err2)
		require.Equal(t, w1, w2)
		require.Equal(t, one, two)
	})
}

// TestDumpProperties: metamorphic properties of reading a dump.
func TestDumpProperties(t *testing.T) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(t, err)
	objs, err := scenariotest.Objects(data, scenariotest.Options{ClusterFields: true})
	require.NoError(t, err)
	whole, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": objs})
	require.NoError(t, err)
	want, wantWarnings, err := LoadSources(Source{Name: "dump.json", Data: whole})
	require.NoError(t, err)

	t.Run("splitting the objects over files and documents in any way, JSON or YAML, changes nothing", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			// Cut the object sequence into files, each a List, a stream of
			// documents or a mix; order is kept.
			var srcs []Source
			for i := 0; i < len(objs); {
				n := rapid.IntRange(1, len(objs)-i).Draw(t, "objects in file")
				chunk := objs[i : i+n]
				i += n
				var doc []byte
				switch rapid.IntRange(0, 2).Draw(t, "format") {
				case 0: // a List in JSON
					items := make([]any, len(chunk))
					for j := range chunk {
						items[j] = chunk[j]
					}
					doc, err = json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
					require.NoError(t, err)
				case 1: // a List in YAML
					items := make([]any, len(chunk))
					for j := range chunk {
						items[j] = chunk[j]
					}
					doc, err = yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
					require.NoError(t, err)
				default: // one YAML document per object
					for _, o := range chunk {
						y, err := yaml.Marshal(o)
						require.NoError(t, err)
						if rapid.Bool().Draw(t, "separator first") || len(doc) > 0 {
							doc = append(doc, "---\n"...)
						}
						doc = append(doc, y...)
					}
				}
				srcs = append(srcs, Source{Name: fmt.Sprintf("f%d", len(srcs)), Data: doc})
			}
			got, warnings, err := LoadSources(srcs...)
			require.NoError(t, err)
			assert.Equal(t, wantWarnings, warnings)
			assert.Equal(t, withoutTypeMeta(want), withoutTypeMeta(got))
		})
	})

	t.Run("an invalid object is reported, and nothing else is returned, wherever it is", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			k := rapid.IntRange(0, len(objs)).Draw(t, "position")
			bad := map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": "bad"},
				"status": map[string]any{"allocatable": map[string]any{"cpu": "lots"}}}
			list := append(append(append([]map[string]any{}, objs[:k]...), bad), objs[k:]...)
			items := make([]any, len(list))
			for j := range list {
				items[j] = list[j]
			}
			doc, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
			require.NoError(t, err)
			s, _, err := LoadSources(Source{Name: "dump.json", Data: doc})
			require.Nil(t, s)
			require.EqualError(t, err, fmt.Sprintf(`items[%d] (Node bad): status.allocatable.cpu: invalid quantity "lots"`, k))
		})
	})
}
