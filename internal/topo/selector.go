package topo

import (
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// matcher is labelmatch.Matcher under topology's names: a labels.Selector
// flattened for the hot loops that walk every bound pod (one map lookup and
// a few string compares per requirement, no interface call, no allocation).
// The wrappers inline, so the loops call the shared code directly.
type matcher struct {
	labelmatch.Matcher
}

// newMatcher flattens a selector. A nil selector matches nothing, as
// metav1.LabelSelectorAsSelector(nil) does.
func newMatcher(sel labels.Selector) matcher { return matcher{labelmatch.New(sel)} }

// empty mirrors labels.Selector.Empty: true for a selector without
// requirements (labels.Everything), false for labels.Nothing.
func (m *matcher) empty() bool { return m.Matcher.Empty() }

// matches reports whether the label set satisfies every requirement.
func (m *matcher) matches(l map[string]string) bool { return m.Matcher.Matches(l) }

func hasValue(values []string, v string) bool { return labelmatch.HasValue(values, v) }
