package labelmatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"pgregory.net/rapid"
)

// TestMatcher mirrors labels.Requirement.Matches for each operator class and
// labels.Everything / labels.Nothing.
func TestMatcher(t *testing.T) {
	req := func(key string, op selection.Operator, vals ...string) labels.Requirement {
		return mustRequirement(t, key, op, vals...)
	}
	tests := []struct {
		name  string
		m     Matcher
		l     map[string]string
		want  bool
		empty bool
	}{
		{"zero matcher matches all", Matcher{}, map[string]string{"a": "1"}, true, true},
		{"everything", New(labels.Everything()), nil, true, true},
		{"nothing", New(labels.Nothing()), map[string]string{}, false, false},
		{"nil selector is nothing", New(nil), map[string]string{}, false, false},
		{"in", FromRequirements([]labels.Requirement{req("a", selection.In, "1", "2")}), map[string]string{"a": "2"}, true, false},
		{"in, absent key", FromRequirements([]labels.Requirement{req("a", selection.In, "1")}), map[string]string{}, false, false},
		{"notin, absent key", FromRequirements([]labels.Requirement{req("a", selection.NotIn, "1")}), map[string]string{}, true, false},
		{"notin, listed value", FromRequirements([]labels.Requirement{req("a", selection.NotIn, "1")}), map[string]string{"a": "1"}, false, false},
		{"exists", FromRequirements([]labels.Requirement{req("a", selection.Exists)}), map[string]string{"a": ""}, true, false},
		{"does not exist", FromRequirements([]labels.Requirement{req("a", selection.DoesNotExist)}), map[string]string{"a": ""}, false, false},
		{"gt", FromRequirements([]labels.Requirement{req("a", selection.GreaterThan, "3")}), map[string]string{"a": "4"}, true, false},
		{"lt, not a number", FromRequirements([]labels.Requirement{req("a", selection.LessThan, "3")}), map[string]string{"a": "x"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.m.Matches(tt.l))
			assert.Equal(t, tt.empty, tt.m.Empty())
		})
	}
}

// TestMatcherAgreesWithSelector is a reference-model property: the flattened
// matcher decides as the labels.Selector it was built from.
func TestMatcherAgreesWithSelector(t *testing.T) {
	keys := []string{"a", "b", "c"}
	vals := []string{"1", "2", "x"}
	ops := []selection.Operator{selection.In, selection.NotIn, selection.Exists, selection.DoesNotExist,
		selection.Equals, selection.NotEquals, selection.GreaterThan, selection.LessThan}
	t.Run("matcher and selector agree on every label set", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			sel := labels.NewSelector()
			for range rapid.IntRange(0, 3).Draw(t, "nreqs") {
				op := rapid.SampledFrom(ops).Draw(t, "op")
				var vs []string
				switch op {
				case selection.In, selection.NotIn:
					vs = rapid.SliceOfNDistinct(rapid.SampledFrom(vals), 1, 2, rapid.ID[string]).Draw(t, "vals")
				case selection.Equals, selection.NotEquals:
					vs = []string{rapid.SampledFrom(vals).Draw(t, "val")}
				case selection.GreaterThan, selection.LessThan:
					vs = []string{rapid.SampledFrom([]string{"1", "2"}).Draw(t, "num")}
				}
				r, err := labels.NewRequirement(rapid.SampledFrom(keys).Draw(t, "key"), op, vs)
				if err != nil {
					t.Fatalf("generator built an invalid requirement: %v", err)
				}
				sel = sel.Add(*r)
			}
			l := rapid.MapOfN(rapid.SampledFrom(keys), rapid.SampledFrom(vals), 0, 3).Draw(t, "labels")
			m := New(sel)
			if got, want := m.Matches(l), sel.Matches(labels.Set(l)); got != want {
				t.Fatalf("matcher %v, selector %v (%s) on %v", got, want, sel, l)
			}
			if m.Empty() != sel.Empty() {
				t.Fatalf("empty: matcher %v, selector %v", m.Empty(), sel.Empty())
			}
		})
	})
}

// TestAnchors checks which requirements a label set can only satisfy by
// carrying a label (labels.Requirement.Matches returns false without the
// key for In, Equals, Exists, Gt and Lt) and the single-anchor shape whose
// candidates need no further matching.
func TestAnchors(t *testing.T) {
	req := func(key string, op selection.Operator, vals ...string) labels.Requirement {
		return mustRequirement(t, key, op, vals...)
	}
	tests := []struct {
		name   string
		m      Matcher
		want   []Anchor // per requirement; zero Anchor when not one
		single bool
	}{
		{"everything", New(labels.Everything()), nil, false},
		{"nothing", New(labels.Nothing()), nil, false},
		{"equals", FromRequirements([]labels.Requirement{req("a", selection.Equals, "1")}), []Anchor{{Key: "a", Values: []string{"1"}}}, true},
		{"in", FromRequirements([]labels.Requirement{req("a", selection.In, "1", "2")}), []Anchor{{Key: "a", Values: []string{"1", "2"}}}, true},
		{"exists", FromRequirements([]labels.Requirement{req("a", selection.Exists)}), []Anchor{{Key: "a", Exists: true}}, true},
		{"gt anchors on its key but is not exact", FromRequirements([]labels.Requirement{req("n", selection.GreaterThan, "1")}), []Anchor{{Key: "n", Exists: true}}, false},
		{"lt", FromRequirements([]labels.Requirement{req("n", selection.LessThan, "1")}), []Anchor{{Key: "n", Exists: true}}, false},
		{"notin is no anchor", FromRequirements([]labels.Requirement{req("a", selection.NotIn, "1")}), []Anchor{{}}, false},
		{"not equals is no anchor", FromRequirements([]labels.Requirement{req("a", selection.NotEquals, "1")}), []Anchor{{}}, false},
		{"does not exist is no anchor", FromRequirements([]labels.Requirement{req("a", selection.DoesNotExist)}), []Anchor{{}}, false},
		{"two requirements are not a single anchor", FromRequirements([]labels.Requirement{req("a", selection.Equals, "1"), req("b", selection.DoesNotExist)}),
			[]Anchor{{Key: "a", Values: []string{"1"}}, {}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Anchor
			for i := range tt.m.NumRequirements() {
				a, ok := tt.m.AnchorAt(i)
				assert.Equal(t, ok, a.Key != "", "ok iff an anchor")
				got = append(got, a)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.single, tt.m.SingleAnchor())
		})
	}
}

// mustRequirement builds a valid requirement for a table.
func mustRequirement(t *testing.T, key string, op selection.Operator, vals ...string) labels.Requirement {
	t.Helper()
	r, err := labels.NewRequirement(key, op, vals)
	require.NoError(t, err)
	return *r
}
