package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
)

func namespace(name string, kv ...string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: testbuild.AddLabels(map[string]string{"kubernetes.io/metadata.name": name}, kv...)}}
}

func withNamespaces(t corev1.PodAffinityTerm, names ...string) corev1.PodAffinityTerm {
	t.Namespaces = names
	return t
}

func withNamespaceSelector(t corev1.PodAffinityTerm, sel *metav1.LabelSelector) corev1.PodAffinityTerm {
	t.NamespaceSelector = sel
	return t
}

// TestAffinityFilter mirrors interpodaffinity's TestRequiredAffinitySingleNode
// and TestRequiredAffinityMultipleNodes (filtering_test.go, v1.36):
// satisfyPodAffinity, satisfyPodAntiAffinity and
// satisfyExistingPodsAntiAffinity, in that order.
func TestAffinityFilter(t *testing.T) {
	zone, host := corev1.LabelTopologyZone, corev1.LabelHostname
	appA := selector("app", "a")
	tests := []struct {
		name  string
		nodes []*corev1.Node
		nss   []*corev1.Namespace
		pods  []*corev1.Pod
		pod   *corev1.Pod
		want  map[string]string
		skip  bool
	}{
		{
			name:  "no terms and no existing anti-affinity: PreFilter skips",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"))},
			pod:   mkPod("p", "", lbl("app", "a")),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
			skip:  true,
		},
		{
			name:  "required zone affinity: only the zone holding a match",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"))},
			pod:   mkPod("p", "", lbl("app", "b"), requiredAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": nope, "node-y": nope},
		},
		{
			name:  "first-pod rule: no match anywhere and the pod matches its own term",
			nodes: fourNodes(),
			pod:   mkPod("p", "", lbl("app", "a"), requiredAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "first-pod rule still needs the topology key on the node",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), mkNode("node-b", host, "node-b")},
			pod:   mkPod("p", "", lbl("app", "a"), requiredAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": ok, "node-b": nope},
		},
		{
			name:  "no match anywhere and the pod does not match itself: nowhere",
			nodes: fourNodes(),
			pod:   mkPod("p", "", lbl("app", "b"), requiredAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": nope, "node-b": nope, "node-x": nope, "node-y": nope},
		},
		{
			name:  "affinity counts only pods matching all terms",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("app", "a")),
				mkPod("x1", "node-x", lbl("app", "a", "tier", "web")),
			},
			pod:  mkPod("p", "", lbl("app", "a"), requiredAffinity(term(zone, appA), term(host, selector("tier", "web")))),
			want: map[string]string{"node-a": nope, "node-b": nope, "node-x": ok, "node-y": nope},
		},
		{
			name:  "affinity in other namespaces via the namespaces list",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("x1", "node-x", lbl("app", "a"), inNamespace("ns1"))},
			pod:   mkPod("p", "", lbl("app", "b"), requiredAffinity(withNamespaces(term(zone, appA), "ns1"))),
			want:  map[string]string{"node-a": nope, "node-b": nope, "node-x": ok, "node-y": ok},
		},
		{
			name:  "affinity in other namespaces via the namespace selector",
			nodes: fourNodes(),
			nss:   []*corev1.Namespace{namespace("ns1", "team", "t1"), namespace("ns2", "team", "t2")},
			pods: []*corev1.Pod{
				mkPod("x1", "node-x", lbl("app", "a"), inNamespace("ns1")),
				mkPod("a1", "node-a", lbl("app", "a"), inNamespace("ns2")),
			},
			pod:  mkPod("p", "", lbl("app", "b"), requiredAffinity(withNamespaceSelector(term(zone, appA), selector("team", "t1")))),
			want: map[string]string{"node-a": nope, "node-b": nope, "node-x": ok, "node-y": ok},
		},
		{
			name:  "an empty namespace selector selects every namespace",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"), inNamespace("elsewhere"))},
			pod:   mkPod("p", "", lbl("app", "b"), requiredAffinity(withNamespaceSelector(term(zone, appA), &metav1.LabelSelector{}))),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": nope, "node-y": nope},
		},
		{
			name:  "pods of other namespaces do not match a term without namespaces",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"), inNamespace("ns1"))},
			pod:   mkPod("p", "", lbl("app", "a"), requiredAntiAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "required hostname anti-affinity",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a")), mkPod("x1", "node-x", lbl("app", "b"))},
			pod:   mkPod("p", "", lbl("app", "a"), requiredAntiAffinity(term(host, appA))),
			want:  map[string]string{"node-a": no, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "anti-affinity ignores nodes without the key",
			nodes: []*corev1.Node{zoned("node-a", "zone1"), mkNode("node-b", host, "node-b")},
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"))},
			pod:   mkPod("p", "", lbl("app", "a"), requiredAntiAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": no, "node-b": ok},
		},
		{
			name:  "terminating pods still count for affinity",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"), terminating())},
			pod:   mkPod("p", "", lbl("app", "a"), requiredAntiAffinity(term(zone, appA))),
			want:  map[string]string{"node-a": no, "node-b": no, "node-x": ok, "node-y": ok},
		},
		{
			name:  "symmetry: an existing pod's anti-affinity rejects the incoming pod",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), requiredAntiAffinity(term(zone, appA)))},
			pod:   mkPod("p", "", lbl("app", "a")),
			want:  map[string]string{"node-a": no, "node-b": no, "node-x": ok, "node-y": ok},
		},
		{
			name:  "symmetry honours the existing term's namespace selector against the pod's namespace labels",
			nodes: fourNodes(),
			nss:   []*corev1.Namespace{namespace("default", "team", "t1"), namespace("ns1")},
			pods: []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), inNamespace("ns1"),
				requiredAntiAffinity(withNamespaceSelector(term(host, appA), selector("team", "t1"))))},
			pod:  mkPod("p", "", lbl("app", "a")),
			want: map[string]string{"node-a": no, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "an existing anti-affinity term that does not match the pod: skip",
			nodes: fourNodes(),
			pods:  []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), requiredAntiAffinity(term(zone, appA)))},
			pod:   mkPod("p", "", lbl("app", "b")),
			want:  map[string]string{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
			skip:  true,
		},
		{
			name:  "affinity is checked before anti-affinity",
			nodes: fourNodes(),
			pods: []*corev1.Pod{
				mkPod("a1", "node-a", lbl("app", "a")),
				mkPod("x1", "node-x", lbl("app", "c"), requiredAntiAffinity(term(zone, selector("app", "b")))),
			},
			pod:  mkPod("p", "", lbl("app", "b"), requiredAffinity(term(zone, appA)), requiredAntiAffinity(term(host, appA))),
			want: map[string]string{"node-a": no, "node-b": ok, "node-x": nope, "node-y": nope},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshotOf(t, cluster.Input{Nodes: tt.nodes, Pods: tt.pods, Namespaces: tt.nss})
			a, err := NewInterPodAffinity(podInfo(t, tt.pod), snap, AffinityOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.skip, a.FilterSkipped(), "skip")
			assert.Equal(t, tt.want, codes(snap, a.Filter))
			// The same nodes from another snapshot of the input are not the
			// state's: their values are looked up by name.
			other := snapshotOf(t, cluster.Input{Nodes: tt.nodes, Pods: tt.pods, Namespaces: tt.nss})
			assert.Equal(t, tt.want, codes(other, a.Filter), "nodes of another snapshot")
			for _, n := range append(cluster.NodesOf(snap), cluster.NodesOf(other)...) {
				assert.Equal(t, a.Filter(n).Code, a.FilterCode(n), "FilterCode on %s", n.Name)
			}
		})
	}
}

// TestAffinityFilterReasons checks the three reason texts and codes of
// interpodaffinity.Filter.
func TestAffinityFilterReasons(t *testing.T) {
	zone := corev1.LabelTopologyZone
	snap := snapshotOf(t, cluster.Input{Nodes: fourNodes(), Pods: []*corev1.Pod{
		mkPod("a1", "node-a", lbl("app", "a")),
		mkPod("x1", "node-x", lbl("app", "db"), requiredAntiAffinity(term(zone, selector("role", "p")))),
	}})
	node := func(name string) *cluster.NodeInfo { n, _ := cluster.NodeOf(snap, name); return n }

	a, err := NewInterPodAffinity(podInfo(t, mkPod("p", "", lbl("role", "p"), requiredAffinity(term(zone, selector("app", "a"))))), snap, AffinityOptions{})
	require.NoError(t, err)
	assert.Equal(t, "UnschedulableAndUnresolvable (InterPodAffinity): node(s) didn't match pod affinity rules", a.Filter(node("node-x")).String())

	a, err = NewInterPodAffinity(podInfo(t, mkPod("p", "", lbl("role", "q"), requiredAntiAffinity(term(zone, selector("app", "a"))))), snap, AffinityOptions{})
	require.NoError(t, err)
	assert.Equal(t, "Unschedulable (InterPodAffinity): node(s) didn't match pod anti-affinity rules", a.Filter(node("node-a")).String())

	a, err = NewInterPodAffinity(podInfo(t, mkPod("p", "", lbl("role", "p"))), snap, AffinityOptions{})
	require.NoError(t, err)
	assert.Equal(t, "Unschedulable (InterPodAffinity): node(s) didn't satisfy existing pods anti-affinity rules", a.Filter(node("node-y")).String())
	assert.True(t, a.Filter(node("node-a")).OK())
}

// TestAffinityScore mirrors interpodaffinity's TestPreferredAffinity
// (scoring_test.go, v1.36): weighted matches per topology pair, existing
// pods' terms, HardPodAffinityWeight, min-max normalization and PreScore's
// Skip.
func TestAffinityScore(t *testing.T) {
	zone, host := corev1.LabelTopologyZone, corev1.LabelHostname
	appA := selector("app", "a")
	tests := []struct {
		name     string
		pods     []*corev1.Pod
		pod      *corev1.Pod
		opts     AffinityOptions
		wantRaw  []int64 // node-a, node-b, node-x, node-y
		wantNorm []int64
		skipped  bool
	}{
		{
			name:    "nothing with affinity anywhere: skip",
			pods:    []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a"))},
			pod:     mkPod("p", "", lbl("app", "a")),
			wantRaw: []int64{0, 0, 0, 0}, wantNorm: []int64{0, 0, 0, 0}, skipped: true,
		},
		{
			name:     "preferred zone affinity",
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a")), mkPod("a2", "node-b", lbl("app", "a"))},
			pod:      mkPod("p", "", nil, preferredAffinity(5, term(zone, appA))),
			wantRaw:  []int64{10, 10, 0, 0},
			wantNorm: []int64{100, 100, 0, 0},
		},
		{
			name: "preferred anti-affinity subtracts",
			pods: []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "a")), mkPod("x1", "node-x", lbl("app", "a")), mkPod("x2", "node-x", lbl("app", "a"))},
			pod:  mkPod("p", "", nil, preferredAntiAffinity(3, term(host, appA))),
			// a: -3, x: -6; min -6, max 0.
			wantRaw:  []int64{-3, 0, -6, 0},
			wantNorm: []int64{50, 100, 0, 100},
		},
		{
			name:     "existing pods' required affinity counts with HardPodAffinityWeight",
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), requiredAffinity(term(zone, selector("role", "web"))))},
			pod:      mkPod("p", "", lbl("role", "web")),
			opts:     AffinityOptions{HardPodAffinityWeight: weightPtr(7)},
			wantRaw:  []int64{7, 7, 0, 0},
			wantNorm: []int64{100, 100, 0, 0},
		},
		{
			// processExistingPod: the term counts only with a weight above
			// 0; nothing else counts here, so PreScore skips.
			name:     "HardPodAffinityWeight 0 leaves existing pods' required affinity out",
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), requiredAffinity(term(zone, selector("role", "web"))))},
			pod:      mkPod("p", "", lbl("role", "web")),
			opts:     AffinityOptions{HardPodAffinityWeight: weightPtr(0)},
			wantRaw:  []int64{0, 0, 0, 0},
			wantNorm: []int64{0, 0, 0, 0},
			skipped:  true,
		},
		{
			name:     "no HardPodAffinityWeight is the default 1",
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "db"), requiredAffinity(term(zone, selector("role", "web"))))},
			pod:      mkPod("p", "", lbl("role", "web")),
			wantRaw:  []int64{1, 1, 0, 0},
			wantNorm: []int64{100, 100, 0, 0},
		},
		{
			name:     "existing pods' preferred anti-affinity counts",
			pods:     []*corev1.Pod{mkPod("x1", "node-x", lbl("app", "db"), preferredAntiAffinity(4, term(host, selector("role", "web"))))},
			pod:      mkPod("p", "", lbl("role", "web")),
			wantRaw:  []int64{0, 0, -4, 0},
			wantNorm: []int64{100, 100, 0, 100},
		},
		{
			name:     "IgnorePreferredTermsOfExistingPods skips when the pod has no preferred term",
			pods:     []*corev1.Pod{mkPod("x1", "node-x", lbl("app", "db"), preferredAntiAffinity(4, term(host, selector("role", "web"))))},
			pod:      mkPod("p", "", lbl("role", "web")),
			opts:     AffinityOptions{IgnorePreferredTermsOfExistingPods: true},
			wantRaw:  []int64{0, 0, 0, 0},
			wantNorm: []int64{0, 0, 0, 0},
			skipped:  true,
		},
		{
			name: "IgnorePreferredTermsOfExistingPods still counts existing terms when the pod has preferred terms",
			pods: []*corev1.Pod{
				mkPod("x1", "node-x", lbl("app", "db"), preferredAntiAffinity(4, term(host, selector("role", "web")))),
				mkPod("a1", "node-a", lbl("app", "a")),
			},
			pod:      mkPod("p", "", lbl("role", "web"), preferredAffinity(2, term(host, appA))),
			opts:     AffinityOptions{IgnorePreferredTermsOfExistingPods: true},
			wantRaw:  []int64{2, 0, -4, 0},
			wantNorm: []int64{100, 66, 0, 66},
		},
		{
			name:     "terms that match nowhere with a key: skip",
			pods:     []*corev1.Pod{mkPod("a1", "node-a", lbl("app", "b"))},
			pod:      mkPod("p", "", nil, preferredAffinity(5, term(zone, appA))),
			wantRaw:  []int64{0, 0, 0, 0},
			wantNorm: []int64{0, 0, 0, 0},
			skipped:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshotOf(t, cluster.Input{Nodes: fourNodes(), Pods: tt.pods})
			a, err := NewInterPodAffinity(podInfo(t, tt.pod), snap, tt.opts)
			require.NoError(t, err)
			raw, norm, skipped := a.Score(cluster.NodesOf(snap))
			assert.Equal(t, tt.skipped, skipped, "skipped")
			assert.Equal(t, tt.wantRaw, raw, "raw")
			assert.Equal(t, tt.wantNorm, norm, "normalized")
			// The same nodes from another snapshot of the input are not the
			// state's: their values are looked up by name.
			other := snapshotOf(t, cluster.Input{Nodes: fourNodes(), Pods: tt.pods})
			raw, norm, skipped = a.Score(cluster.NodesOf(other))
			assert.Equal(t, tt.skipped, skipped, "skipped, nodes of another snapshot")
			assert.Equal(t, tt.wantRaw, raw, "raw, nodes of another snapshot")
			assert.Equal(t, tt.wantNorm, norm, "normalized, nodes of another snapshot")
		})
	}
}

func weightPtr(w int32) *int32 { return &w }

// The sparse form of a key's counts (keyCounts) holds the same counts as
// the dense one. The property tests of the topology states run again with
// every key sparse, and turning dense after two entries, so that the test
// clusters (smaller than minSparseValues nodes) take the sparse paths too.
func TestSparseKeyCounts(t *testing.T) {
	defer func(minValues, most int) { minSparseValues, maxSparse = minValues, most }(minSparseValues, maxSparse)
	minSparseValues, maxSparse = 0, 2
	t.Run("filters against the reference", TestFiltersAgainstReference)
	t.Run("a state moved onto a view equals a fresh one", TestOnViewEqualsFresh)
	t.Run("a trial equals its view", TestTrialEqualsOnView)
	t.Run("filter", TestAffinityFilter)
	t.Run("score", TestAffinityScore)
	t.Run("a reused scratch scores as a fresh one", TestScoreWithReusedScratch)

	k := &keyCounts{col: &cluster.Column{Values: make([]string, 10)}, nz: make([]uint64, 1)}
	var c topoCounts
	c.add(k, 3, 2)
	c.add(k, 7, 1)
	assert.Equal(t, []int64{0, 0, 0, 2, 0, 0, 0, 1, 0, 0}, denseOf(k), "sparse")
	c.add(k, 3, -2)
	c.add(k, 9, 4) // a third entry: dense from now on
	assert.Nil(t, k.nz)
	assert.Equal(t, []int64{0, 0, 0, 0, 0, 0, 0, 1, 0, 4}, denseOf(k), "dense")
	assert.Equal(t, 2, c.positive)
}

func denseOf(k *keyCounts) []int64 {
	out := make([]int64, len(k.col.Values))
	for d := range out {
		out[d] = k.get(int32(d))
	}
	return out
}
