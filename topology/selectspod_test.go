package topology

import (
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"
)

// TestSelectsPodMatchesSelector: selectsPod answers as a selector built by
// labels.SelectorFromValidatedSet does (helper.DefaultSelector's service
// check), empty selectors included.
func TestSelectsPodMatchesSelector(t *testing.T) {
	pool := rapid.SampledFrom([]string{"a", "b", "c"})
	genMap := rapid.MapOfN(pool, pool, 0, 3)
	rapid.Check(t, func(t *rapid.T) {
		sel, pod := genMap.Draw(t, "selector"), genMap.Draw(t, "pod")
		want := labels.SelectorFromValidatedSet(labels.Set(sel)).Matches(labels.Set(pod))
		if got := selectsPod(sel, pod); got != want {
			t.Fatalf("selectsPod(%v, %v) = %v, want %v", sel, pod, got, want)
		}
	})
}
