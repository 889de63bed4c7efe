package cluster

import (
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"
)

// TestSelectorSelectsMatchesSelector: selectorSelects answers as a selector
// built by labels.SelectorFromValidatedSet does (helper.DefaultSelector's
// service check), empty selectors included.
func TestSelectorSelectsMatchesSelector(t *testing.T) {
	pool := rapid.SampledFrom([]string{"a", "b", "c"})
	genMap := rapid.MapOfN(pool, pool, 0, 3)
	rapid.Check(t, func(t *rapid.T) {
		sel, pod := genMap.Draw(t, "selector"), genMap.Draw(t, "pod")
		want := labels.SelectorFromValidatedSet(labels.Set(sel)).Matches(labels.Set(pod))
		if got := selectorSelects(sel, pod); got != want {
			t.Fatalf("selectorSelects(%v, %v) = %v, want %v", sel, pod, got, want)
		}
	})
}

// TestServicesSelectingMatchesScan: the services found through their filed
// pair are exactly those a scan of the namespace's services in input order
// selects, over selectors and labels from small pools (empty selectors,
// several services under one pair, the empty key).
func TestServicesSelectingMatchesScan(t *testing.T) {
	pool := rapid.SampledFrom([]string{"", "a", "b"})
	genMap := rapid.MapOfN(pool, pool, 0, 3)
	rapid.Check(t, func(t *rapid.T) {
		in := &Input{}
		for i := range rapid.IntRange(0, 6).Draw(t, "services") {
			in.Services = append(in.Services, service(rapid.SampledFrom([]string{"", "default", "x"}).Draw(t, "ns"), string(rune('a'+i)), genMap.Draw(t, "selector")))
		}
		w := in.Workloads()
		for range rapid.IntRange(1, 3).Draw(t, "pods") {
			ns, podLabels := rapid.SampledFrom([]string{"default", "x"}).Draw(t, "podns"), genMap.Draw(t, "pod")
			var want []string
			for _, svc := range w.Services(ns) {
				if labels.SelectorFromValidatedSet(svc.Spec.Selector).Matches(labels.Set(podLabels)) {
					want = append(want, svc.Name)
				}
			}
			var got []string
			for _, svc := range w.ServicesSelecting(ns, podLabels) {
				got = append(got, svc.Name)
			}
			if len(want) != len(got) {
				t.Fatalf("pod %s %v: got %v, want %v", ns, podLabels, got, want)
			}
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("pod %s %v: got %v, want %v", ns, podLabels, got, want)
				}
			}
		}
	})
}
