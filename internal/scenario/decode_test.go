package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

const tinyCase = "../../testdata/conformance/cases/tiny.json"

// TestDecodeErrors checks that malformed input is refused with every problem
// named by list, index, object and field path (kube-apiserver's decoder
// names only the field; the scenario adds which object).
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{
			name: "bad quantity names the pod and the resource",
			doc: `{"pods": [{"metadata": {"name": "ok"}},
			   {"metadata": {"name": "web-1"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "abc"}}}]}}]}`,
			want: []string{`pods[1] (default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"`},
		},
		{
			name: "every malformed item is reported, in document order",
			doc: `{"nodes": [{"metadata": {"name": "n1"}, "status": {"allocatable": {"memory": "1Qi"}}}],
			   "pending": [{"metadata": {"name": "p", "namespace": "team"}, "spec": {"topologySpreadConstraints": [{"maxSkew": "two"}]}}]}`,
			want: []string{
				`nodes[0] (n1): status.allocatable.memory: invalid quantity "1Qi"`,
				`pending[0] (team/p): spec.topologySpreadConstraints[0].maxSkew: invalid value "two" (expected an integer of type int32)`,
			},
		},
		{
			name: "bad time",
			doc:  `{"pods": [{"metadata": {"name": "p", "creationTimestamp": "yesterday"}}]}`,
			want: []string{`pods[0] (default/p): metadata.creationTimestamp: invalid time "yesterday" (expected RFC 3339, e.g. "2024-01-02T15:04:05Z")`},
		},
		{
			name: "object where a list is expected",
			doc:  `{"nodes": {"metadata": {"name": "n1"}}}`,
			want: []string{`nodes: expected a list, got an object`},
		},
		{
			name: "list where an object is expected inside an item",
			doc:  `{"pdbs": [{"metadata": {"name": "b"}, "spec": {"selector": []}}]}`,
			want: []string{`pdbs[0] (default/b): spec.selector: expected an object, got a list`},
		},
		{
			name: "item without a name is named by index only",
			doc:  `{"priorityClasses": [{"value": "high"}]}`,
			want: []string{`priorityClasses[0]: value: invalid value "high" (expected an integer of type int32)`},
		},
		{
			name: "JSON syntax error has a position",
			doc:  "{\"nodes\": [\n  {\"metadata\": }\n]}",
			want: []string{`invalid JSON: line 2, column 16: invalid character '}' looking for beginning of value`},
		},
		{
			name: "empty document",
			doc:  "  \n",
			want: []string{`empty scenario document`},
		},
		{
			name: "a YAML list is not a scenario",
			doc:  "- a\n- b\n",
			want: []string{`the document must be an object: a scenario with fields such as nodes, pods and pending, or a Kubernetes object or List with apiVersion and kind`},
		},
		{
			name: "YAML boolean where a string is expected",
			doc:  "nodes:\n- metadata: {name: n1, labels: {gpu: yes}}\n",
			want: []string{`nodes[0] (n1): metadata.labels.gpu: invalid value true (expected a string); in YAML, quote yes/no/on/off/true/false to keep them strings`},
		},
		{
			name: "YAML syntax error",
			doc:  "nodes:\n  - metadata: {name: n1\n",
			want: []string{`invalid YAML: yaml: line 2: did not find expected ',' or '}'`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := Decode([]byte(tt.doc))
			require.Error(t, err)
			assert.Nil(t, s, "no partial result")
			var list ErrorList
			require.ErrorAs(t, err, &list)
			got := make([]string, len(list))
			for i, e := range list {
				got[i] = e.Error()
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, strings.Join(tt.want, "\n"), err.Error())
		})
	}
}

// TestDecodeUnknownFields: an unknown top-level field of a scenario is an
// error suggesting the closest field (a typo there would drop a whole list);
// unknown fields inside objects are ignored with a warning naming them, as
// kube-apiserver's "unknown field" warnings do.
func TestDecodeUnknownFields(t *testing.T) {
	doc := `{"nodes": [{"metadata": {"name": "n1", "lables": {"a": "b"}}, "spec": {"unschedulable": true}}],
	         "pending": [{"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "cpu": 1}]}}]}`
	s, warnings, err := Decode([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, []string{
		`nodes[0] (n1): unknown field "metadata.lables" ignored`,
		`pending[0] (default/p): unknown field "spec.containers[0].cpu" ignored`,
	}, warnings)
	require.Len(t, s.Nodes, 1)
	assert.True(t, s.Nodes[0].Spec.Unschedulable, "known fields of an item with unknown ones are kept")
	require.Len(t, s.Pending, 1)
	assert.Equal(t, "c", s.Pending[0].Spec.Containers[0].Name)

	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"typo", `{"pendng": [], "nodes": []}`, `unknown field "pendng" (did you mean "pending"?)`},
		{"case", `{"PriorityClasses": []}`, `unknown field "PriorityClasses" (did you mean "priorityClasses"?)`},
		{"singular", `{"pdb": []}`, `unknown field "pdb" (did you mean "pdbs"?)`},
		{"far from every field", `{"workloads": []}`, `unknown field "workloads" (the fields are namespaces, nodes, pdbs, pending, pods, priorityClasses, replicaSets, replicationControllers, services, statefulSets)`},
		{"a List without kind", `{"apiVersion": "v1", "items": []}`, "unknown field \"apiVersion\" (a Kubernetes object or List needs apiVersion and kind)\n" +
			`unknown field "items" (a Kubernetes object or List needs apiVersion and kind)`},
		{"YAML", "nodes: []\npendng: []\n", `unknown field "pendng" (did you mean "pending"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := Decode([]byte(tt.doc))
			require.Error(t, err)
			assert.Nil(t, s, "no partial result")
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestDecodeYAMLAndJSONAgree: the same scenario as JSON and as YAML decodes
// to the same objects.
func TestDecodeYAMLAndJSONAgree(t *testing.T) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(t, err)
	fromJSON, w1, err := Decode(data)
	require.NoError(t, err)
	y, err := yaml.JSONToYAML(data)
	require.NoError(t, err)
	require.NotEqual(t, byte('{'), y[0], "the YAML path is taken")
	fromYAML, w2, err := Decode(y)
	require.NoError(t, err)
	assert.Equal(t, fromJSON, fromYAML)
	assert.Equal(t, w1, w2)
	require.NotEmpty(t, fromJSON.Nodes)
	require.NotEmpty(t, fromJSON.Pending)

	handYAML := `
nodes:
- metadata: {name: n1, labels: {zone: a}}
  status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
pending:
- metadata: {name: p}
  spec:
    containers:
    - name: c
      resources: {limits: {cpu: 500m}}
`
	handJSON := `{"nodes": [{"metadata": {"name": "n1", "labels": {"zone": "a"}},
	  "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}}],
	  "pending": [{"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "500m"}}}]}}]}`
	a, _, err := Decode([]byte(handYAML))
	require.NoError(t, err)
	b, _, err := Decode([]byte(handJSON))
	require.NoError(t, err)
	assert.Equal(t, b, a)
	for _, doc := range []string{handYAML, handJSON} {
		withBOM, _, err := Decode(append([]byte("\xef\xbb\xbf"), doc...))
		require.NoError(t, err, "a byte order mark is ignored")
		assert.Equal(t, b, withBOM)
	}
}

// FuzzDecode: decoding and normalizing caller input never panics, and a
// document either decodes or is refused with a non-empty error list.
func FuzzDecode(f *testing.F) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(f, err)
	f.Add(data)
	f.Add([]byte(`{"pods": [{"metadata": {"name": "p"}, "spec": {"containers": [{"resources": {"requests": {"cpu": "abc"}}}]}}]}`))
	f.Add([]byte(`{"pending": [{"metadata": {"name": "p"}, "spec": {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"a": "b"}}, "matchLabelKeys": ["a"], "topologyKey": "zone"}]}}}}]}`))
	f.Add([]byte("nodes:\n- metadata: {name: n1}\n"))
	f.Add([]byte(`{"nodes": [null], "pods": null, "pending": [1, "x", []]}`))
	f.Add([]byte(`{"priorityClasses": [{"metadata": {"name": "a"}, "value": 5, "globalDefault": true}], "pending": [{"metadata": {"name": "p"}, "spec": {"priorityClassName": "zz"}}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, _, err := Decode(doc)
		if err != nil {
			var list ErrorList
			require.ErrorAs(t, err, &list)
			require.NotEmpty(t, list)
			require.Nil(t, s)
			return
		}
		require.NotNil(t, s)
		n, _, err := Normalize(s)
		loaded, _, lerr := Load(doc)
		if err != nil {
			require.Nil(t, n)
			require.Equal(t, err, lerr, "Load reports what Decode then Normalize report")
			return
		}
		require.NoError(t, lerr)
		require.Len(t, n.Pending, len(s.Pending))
		require.Equal(t, n, loaded, "Load gives what Decode then Normalize give")
	})
}

// A list decoded in parallel, each item on the fast path or declined to
// decodeItem, gives, item for item, what decodeItem alone gives: the same
// objects, and the same unknown fields and problems, whatever items fail
// and wherever they are.
func TestDecodeListStreamMatchesItems(t *testing.T) {
	items := []string{
		`{"metadata": {"name": "ok", "labels": {"a": "b"}}, "spec": {"nodeName": "n1"}}`,
		`{"metadata": {"name": "unknown"}, "bogus": 1}`,
		`{"metadata": {"name": 5}}`,
		`{"metadata": {"name": "q"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "abc"}}}]}}`,
		`3`, `null`, `"x"`, `[]`, `{}`,
		`{"metadata": {"name": "ok2"}, "status": {"phase": "Running"}}`,
	}
	rapid.Check(t, func(t *rapid.T) {
		picks := rapid.SliceOfN(rapid.IntRange(0, len(items)-1), 0, 300).Draw(t, "items")
		raws := make([]json.RawMessage, len(picks))
		for i, k := range picks {
			raws[i] = json.RawMessage(items[k])
		}
		d := &decoder{}
		got := decodeList[corev1.Pod](d, &builder{raws: map[string][]json.RawMessage{"pods": raws}}, "pods", true)
		var wantErrs []string
		var wantWarnings []string
		for i, raw := range raws {
			var want corev1.Pod
			unknown, problems := decodeItem(raw, &want)
			require.Equal(t, want, got[i], "item %d: %s", i, raw)
			for _, u := range unknown {
				wantWarnings = append(wantWarnings, fmt.Sprintf("pods[%d]: %s", i, u))
			}
			for _, p := range problems {
				wantErrs = append(wantErrs, fmt.Sprintf("pods[%d]: %s: %s", i, p.path, p.detail))
			}
		}
		var gotErrs []string
		for _, e := range d.errs {
			gotErrs = append(gotErrs, fmt.Sprintf("%s[%d]: %s: %s", e.List, e.Index, e.Field, e.Detail))
		}
		require.Equal(t, wantErrs, gotErrs)
		require.Len(t, d.warnings, len(wantWarnings))
	})
}
