package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

func antiAffinity(key, value, topologyKey string, namespaces ...string) *corev1.Affinity {
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{key: value}},
			TopologyKey:   topologyKey, Namespaces: namespaces,
		}},
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight:          5,
			PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{}, TopologyKey: topologyKey},
		}},
	}}
}

// TestNewSharesEqualAffinity: New compiles equal affinity specs once
// (framework.NewPodInfo's terms, shared as an equivalence class would), and
// every input compileAffinity reads keeps specs apart: the pod's namespace
// (the default term namespace), selector values, topology key, namespaces.
func TestNewSharesEqualAffinity(t *testing.T) {
	mk := func(ns, name string, aff *corev1.Affinity) *corev1.Pod {
		p := pod(ns, name, "n1", rl("cpu", "1"))
		p.Spec.Affinity = aff
		return p
	}
	pods := []*corev1.Pod{
		mk("a", "p1", antiAffinity("app", "web", "zone")),
		mk("a", "p2", antiAffinity("app", "web", "zone")),
		mk("b", "p3", antiAffinity("app", "web", "zone")),
		mk("a", "p4", antiAffinity("app", "db", "zone")),
		mk("a", "p5", antiAffinity("app", "web", "host")),
		mk("a", "p6", antiAffinity("app", "web", "zone", "x")),
	}
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "100"))}, Pods: pods})
	require.NoError(t, err)
	got := map[string]*PodInfo{}
	for _, pi := range NodesOf(snap)[0].Pods {
		want, err := NewPodInfo(pi.Pod)
		require.NoError(t, err)
		require.Equal(t, want.RequiredAntiAffinityTerms(), pi.RequiredAntiAffinityTerms(), pi.Key)
		require.Equal(t, want.PreferredAntiAffinityTerms(), pi.PreferredAntiAffinityTerms(), pi.Key)
		got[pi.Pod.Name] = pi
	}
	same := func(a, b string) bool {
		return &got[a].RequiredAntiAffinityTerms()[0] == &got[b].RequiredAntiAffinityTerms()[0]
	}
	require.True(t, same("p1", "p2"), "equal specs share their compiled terms")
	for _, other := range []string{"p3", "p4", "p5", "p6"} {
		require.False(t, same("p1", other), other)
	}
	require.True(t, got["p3"].RequiredAntiAffinityTerms()[0].Namespaces.Has("b"))
}

// TestPreparePodsParallelAgrees: New's per-pod pass gives the same keys,
// PodInfos and errors whether the input is split among goroutines or not
// (each goroutine takes its own chunks and keeps its own caches), and every
// interned pod is filed under its own label set.
func TestPreparePodsParallelAgrees(t *testing.T) {
	var pods []*corev1.Pod
	for i := range parallelPods + 101 {
		p := pod(fmt.Sprintf("ns-%d", i%3), fmt.Sprintf("p-%05d", i), "n1", rl("cpu", "100m", "memory", "1Gi"))
		p.Labels = map[string]string{"app": fmt.Sprintf("a-%d", i%4)}
		if i%5 == 0 {
			p.Labels["tier"] = "web"
		}
		switch i % 7 {
		case 1:
			p.Spec.Affinity = antiAffinity("app", fmt.Sprintf("a-%d", i%5), "zone")
		case 2:
			p.Spec.Containers[0].Resources.Requests = rl("cpu", "-1")
		case 3:
			p.Spec.Affinity = antiAffinity("app", "bad value!", "zone")
		case 4:
			p.Spec.Containers[0].Resources.Requests = rl("cpu", "1u", "example.com/gpu", "1")
		case 5:
			p.Name = ""
		case 6:
			if i%2 == 0 {
				p = nil
			}
		}
		pods = append(pods, p)
	}
	byName := map[string]int{"n1": 0}
	serial, _ := preparePods(pods, nil, false, byName, 1)
	parallel, _ := preparePods(pods, nil, false, byName, 4)
	require.Len(t, parallel, len(serial))
	// setKey is the label-set key internPods files pod i under: its own, or
	// its exemplar's (which worker met a set first depends on the split).
	setKey := func(prep []podPrep, i int) string {
		if j := prep[i].sameAs; j >= 0 {
			require.Less(t, int(j), i, "an exemplar comes first")
			require.Empty(t, prep[i].labelKey)
			return prep[j].labelKey
		}
		return prep[i].labelKey
	}
	errCount, shared := 0, 0
	for i := range serial {
		require.Equal(t, serial[i].key, parallel[i].key, i)
		require.Equal(t, serial[i].node, parallel[i].node, i)
		require.Equal(t, serial[i].errs, parallel[i].errs, i)
		require.Equal(t, serial[i].pi, parallel[i].pi, i)
		require.Equal(t, serial[i].interned, parallel[i].interned, i)
		if serial[i].interned {
			// A small input's sets are left to the first topology question.
			require.Empty(t, serial[i].labelKey, i)
			require.EqualValues(t, -1, serial[i].sameAs, i)
		}
		if parallel[i].interned {
			var kb keyBuf
			want := string(kb.appendLabelSet(nil, pods[i].Namespace, pods[i].Labels))
			require.Equal(t, want, setKey(parallel, i), i)
			if parallel[i].sameAs >= 0 {
				shared++
			}
		}
		if serial[i].errs != nil {
			errCount++
		}
	}
	require.Positive(t, shared, "pods with equal label sets take an exemplar's")
	require.Positive(t, errCount, "the input has invalid pods")
}

// withAffinity is a pod of namespace ns bound to n1 with the given affinity.
func withAffinity(ns, name string, aff *corev1.Affinity) *corev1.Pod {
	p := pod(ns, name, "n1", rl("cpu", "100m"))
	p.Spec.Affinity = aff
	return p
}

// termsOf are the four compiled lists of a PodInfo, for comparing whole.
func termsOf(pi *PodInfo) [4]any {
	return [4]any{pi.RequiredAffinityTerms(), pi.RequiredAntiAffinityTerms(), pi.PreferredAffinityTerms(), pi.PreferredAntiAffinityTerms()}
}

// TestAffinityCacheKeepsSpecsApart: each variant differs from the base spec
// in one thing compileAffinity reads (framework.NewPodInfo's terms); New
// must compile each pod as if alone, so a cache that conflated any two of
// these specs fails here. Equal specs written differently (nil versus empty
// lists, matchLabels in another insertion order) do share.
func TestAffinityCacheKeepsSpecsApart(t *testing.T) {
	base := func() *corev1.Affinity {
		return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "front"}},
				TopologyKey:   "zone",
			}},
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
				Weight:          5,
				PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{}, TopologyKey: "host"},
			}},
		}}
	}
	req := func(a *corev1.Affinity) *corev1.PodAffinityTerm {
		return &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0]
	}
	variants := []struct {
		name   string
		ns     string
		change func(a *corev1.Affinity)
	}{
		{"another matchLabels value", "a", func(a *corev1.Affinity) { req(a).LabelSelector.MatchLabels["app"] = "db" }},
		{"another matchLabels key", "a", func(a *corev1.Affinity) {
			req(a).LabelSelector.MatchLabels = map[string]string{"app": "web", "tie": "front"}
		}},
		{"a label moved into an expression", "a", func(a *corev1.Affinity) {
			req(a).LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"front"}}}}
		}},
		{"an expression with another operator", "a", func(a *corev1.Affinity) {
			req(a).LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"front"}}}}
		}},
		{"a nil label selector (matches nothing)", "a", func(a *corev1.Affinity) { req(a).LabelSelector = nil }},
		{"an empty label selector (matches everything)", "a", func(a *corev1.Affinity) { req(a).LabelSelector = &metav1.LabelSelector{} }},
		{"an empty namespace selector (all namespaces)", "a", func(a *corev1.Affinity) { req(a).NamespaceSelector = &metav1.LabelSelector{} }},
		{"a namespace selector", "a", func(a *corev1.Affinity) {
			req(a).NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		}},
		{"explicit namespaces", "a", func(a *corev1.Affinity) { req(a).Namespaces = []string{"x"} }},
		{"another topology key", "a", func(a *corev1.Affinity) { req(a).TopologyKey = "host" }},
		{"another weight", "a", func(a *corev1.Affinity) {
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight = 6
		}},
		{"the required term made preferred", "a", func(a *corev1.Affinity) {
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
				corev1.WeightedPodAffinityTerm{Weight: 1, PodAffinityTerm: *req(a)})
			a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
		}},
		{"affinity instead of anti-affinity", "a", func(a *corev1.Affinity) {
			a.PodAffinity = &corev1.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution:  a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution,
				PreferredDuringSchedulingIgnoredDuringExecution: a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			}
			a.PodAntiAffinity = nil
		}},
		{"a second term", "a", func(a *corev1.Affinity) {
			r := &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
			*r = append(*r, (*r)[0])
		}},
		{"another pod namespace (the default term namespace)", "b", func(*corev1.Affinity) {}},
	}
	pods := []*corev1.Pod{withAffinity("a", "base", base())}
	for i, v := range variants {
		a := base()
		v.change(a)
		pods = append(pods, withAffinity(v.ns, fmt.Sprintf("v%02d", i), a))
	}
	// Written differently, read the same: these share the base's terms.
	same := base()
	same.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchLabels = map[string]string{"tier": "front", "app": "web"}
	same.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].Namespaces = []string{}
	pods = append(pods, withAffinity("a", "same", same))

	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "100"))}, Pods: pods})
	require.NoError(t, err)
	got := map[string]*PodInfo{}
	for _, pi := range NodesOf(snap)[0].Pods {
		alone, err := NewPodInfo(pi.Pod)
		require.NoError(t, err)
		require.Equal(t, termsOf(alone), termsOf(pi), "%s compiles as if alone", pi.Key)
		got[pi.Pod.Name] = pi
	}
	for i, v := range variants {
		name := fmt.Sprintf("v%02d", i)
		assert.NotEqual(t, termsOf(got["base"]), termsOf(got[name]), v.name)
	}
	require.Same(t, &got["base"].RequiredAntiAffinityTerms()[0], &got["same"].RequiredAntiAffinityTerms()[0], "an equal spec shares")
}

// TestAffinitySpecKeyUnambiguous: specs that differ only in where one
// string ends and the next begins, or in a list's split, get different
// keys (every string is length-prefixed and every list counted).
func TestAffinitySpecKeyUnambiguous(t *testing.T) {
	sel := func(ml map[string]string) *corev1.Affinity {
		return &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: &metav1.LabelSelector{MatchLabels: ml}, TopologyKey: "zone",
			}},
		}}
	}
	terms := func(ns ...[]string) *corev1.Affinity {
		a := &corev1.Affinity{PodAffinity: &corev1.PodAffinity{}}
		for _, n := range ns {
			a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution,
				corev1.PodAffinityTerm{Namespaces: n, TopologyKey: "zone"})
		}
		return a
	}
	pairs := [][2]*corev1.Pod{
		{withAffinity("a", "p", sel(map[string]string{"ab": "c"})), withAffinity("a", "q", sel(map[string]string{"a": "bc"}))},
		{withAffinity("a", "p", sel(map[string]string{"a": "b", "c": "d"})), withAffinity("a", "q", sel(map[string]string{"a": "bc", "": "d"}))},
		{withAffinity("ab", "p", sel(nil)), withAffinity("a", "q", sel(map[string]string{"b": ""}))},
		{withAffinity("a", "p", terms([]string{"x", "y"}, nil)), withAffinity("a", "q", terms([]string{"x"}, []string{"y"}))},
	}
	var c affinityCache
	for i, pq := range pairs {
		kp := string(c.appendSpecKey(nil, pq[0]))
		kq := string(c.appendSpecKey(nil, pq[1]))
		assert.NotEqual(t, kp, kq, i)
	}
}

// TestAffinityCacheProperty: over specs drawn from small pools (so that
// equal and nearly equal specs are common), New gives every pod the terms
// compileAffinity gives it alone, and two specs with one key always
// compile alike.
func TestAffinityCacheProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "pods")
		pods := make([]*corev1.Pod, n)
		for i := range pods {
			pods[i] = withAffinity(rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns"), fmt.Sprintf("p%d", i), genAffinity(t))
		}
		snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "100"))}, Pods: pods})
		if err != nil {
			return // an invalid selector was drawn; errors are TestNewValidates' business
		}
		alone := map[*corev1.Pod]*PodInfo{}
		for _, pi := range NodesOf(snap)[0].Pods {
			want, err := NewPodInfo(pi.Pod)
			require.NoError(t, err)
			require.Equal(t, termsOf(want), termsOf(pi), pi.Key)
			alone[pi.Pod] = want
		}
		for _, p := range pods {
			for _, q := range pods {
				var c affinityCache
				if hasPodAffinity(p) && hasPodAffinity(q) && string(c.appendSpecKey(nil, p)) == string(c.appendSpecKey(nil, q)) {
					require.Equal(t, termsOf(alone[p]), termsOf(alone[q]), "%s and %s called equal", p.Name, q.Name)
				}
			}
		}
	})
}

func genSelector(t *rapid.T, label string) *metav1.LabelSelector {
	switch rapid.IntRange(0, 3).Draw(t, label+"kind") {
	case 0:
		return nil
	case 1:
		return &metav1.LabelSelector{}
	}
	s := &metav1.LabelSelector{}
	for range rapid.IntRange(0, 2).Draw(t, label+"labels") {
		if s.MatchLabels == nil {
			s.MatchLabels = map[string]string{}
		}
		s.MatchLabels[rapid.SampledFrom([]string{"app", "tier"}).Draw(t, label+"k")] = rapid.SampledFrom([]string{"web", "db"}).Draw(t, label+"v")
	}
	for range rapid.IntRange(0, 1).Draw(t, label+"exprs") {
		s.MatchExpressions = append(s.MatchExpressions, metav1.LabelSelectorRequirement{
			Key:      rapid.SampledFrom([]string{"app", "tier"}).Draw(t, label+"ek"),
			Operator: rapid.SampledFrom([]metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn}).Draw(t, label+"op"),
			Values:   rapid.SliceOfN(rapid.SampledFrom([]string{"web", "db"}), 1, 2).Draw(t, label+"ev"),
		})
	}
	return s
}

func genTerm(t *rapid.T) corev1.PodAffinityTerm {
	term := corev1.PodAffinityTerm{
		LabelSelector:     genSelector(t, "sel"),
		NamespaceSelector: genSelector(t, "nssel"),
		TopologyKey:       rapid.SampledFrom([]string{"zone", "host"}).Draw(t, "key"),
	}
	if rapid.Bool().Draw(t, "hasNamespaces") {
		term.Namespaces = rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b"}), 0, 2).Draw(t, "namespaces")
	}
	return term
}

func genAffinity(t *rapid.T) *corev1.Affinity {
	terms := func() []corev1.PodAffinityTerm {
		var out []corev1.PodAffinityTerm
		for range rapid.IntRange(0, 2).Draw(t, "terms") {
			out = append(out, genTerm(t))
		}
		return out
	}
	weighted := func() []corev1.WeightedPodAffinityTerm {
		var out []corev1.WeightedPodAffinityTerm
		for range rapid.IntRange(0, 1).Draw(t, "weighted") {
			out = append(out, corev1.WeightedPodAffinityTerm{Weight: int32(rapid.IntRange(1, 2).Draw(t, "weight")), PodAffinityTerm: genTerm(t)})
		}
		return out
	}
	a := &corev1.Affinity{}
	if rapid.Bool().Draw(t, "affinity") {
		a.PodAffinity = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms(), PreferredDuringSchedulingIgnoredDuringExecution: weighted()}
	}
	if a.PodAffinity == nil || rapid.Bool().Draw(t, "anti") {
		a.PodAntiAffinity = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms(), PreferredDuringSchedulingIgnoredDuringExecution: weighted()}
	}
	return a
}
