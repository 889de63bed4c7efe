package cluster

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// prewarmWorld is a cluster large enough for New's parallel path
// (parallelPods): nodes with shared and unique labels, pods of a few
// workloads in three namespaces, some with affinity terms, some deleting,
// some on an unknown node.
func prewarmWorld() Input {
	var in Input
	for i := range 40 {
		labels := map[string]string{"zone": fmt.Sprintf("z%d", i%3), "host": fmt.Sprintf("n%02d", i)}
		if i%4 == 0 {
			labels["rack"] = fmt.Sprintf("r%d", i%8)
		}
		if i == 0 {
			labels["rare"] = "x" // on one node in 40: left to Snapshot.Column
		}
		in.Nodes = append(in.Nodes, node(fmt.Sprintf("n%02d", i), labels, rl("cpu", "1000")))
	}
	for i := range parallelPods + 500 {
		nodeName := fmt.Sprintf("n%02d", (i*7)%41) // n40 is unknown
		p := pod(fmt.Sprintf("ns-%d", i%3), fmt.Sprintf("p-%05d", i), nodeName, rl("cpu", "10m"))
		p.Labels = map[string]string{"app": fmt.Sprintf("a%d", i%5)}
		if i%3 == 0 {
			p.Labels["tier"] = "front"
		}
		switch i % 11 {
		case 1:
			p.Spec.Affinity = antiAffinity("app", fmt.Sprintf("a%d", i%4), "zone")
		case 2:
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
					LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
						{Key: "tier", Operator: metav1.LabelSelectorOpExists}}},
					TopologyKey: "rack", Namespaces: []string{"ns-1", "ns-0"},
				}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
					Weight: int32(i%7 + 1),
					PodAffinityTerm: corev1.PodAffinityTerm{
						LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a1"}},
						NamespaceSelector: &metav1.LabelSelector{},
						TopologyKey:       "host",
					},
				}},
			}}
		case 3:
			now := metav1.Now()
			p.DeletionTimestamp = &now
		}
		in.Pods = append(in.Pods, p)
	}
	return in
}

// TestPrewarmAgreesWithLazyIndex: the index New prepares on two goroutines
// (prewarm: node label sets and terms, postings, columns) holds what the
// index built lazily by the first topology question holds, node by node
// and pod by pod; IDs may differ, so sets are compared by content and
// terms by their interning key.
func TestPrewarmAgreesWithLazyIndex(t *testing.T) {
	build := func(procs int) *Snapshot {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		in := prewarmWorld()
		in.Parallelism = procs
		s, _, err := New(in)
		require.NoError(t, err)
		return s
	}
	warm, lazy := build(2), build(1)
	require.Equal(t, SlotsOf(warm), warm.labels.baseSlots, "New prewarmed the index")
	require.Equal(t, len(warm.labels.sets), warm.labels.setPost.upTo, "set postings are up to date")
	require.Nil(t, lazy.labels.baseSlots, "a serial New leaves the index to the first question")
	require.Contains(t, warm.labels.columns, "rack", "a key on a quarter of the nodes is prebuilt")
	require.NotContains(t, warm.labels.columns, "rare", "a key on one node in 40 is not")

	require.Greater(t, requireSameIndex(t, warm, lazy, []string{"zone", "host", "rack", "rare", "absent"}), parallelPods)

	// The pod location index of a parallel New finds every bound pod on
	// the node a serial New does.
	located := 0
	for _, p := range prewarmWorld().Pods {
		key := p.Namespace + "/" + p.Name
		_, wn, wok := PodOf(warm, key)
		_, ln, lok := PodOf(lazy, key)
		require.Equal(t, lok, wok, key)
		if lok {
			require.Equal(t, ln.Name, wn.Name, key)
			require.Equal(t, p.Spec.NodeName, wn.Name, key)
			located++
		}
	}
	require.Greater(t, located, parallelPods)
}

// requireSameIndex compares the interned nodes, terms and columns of two
// snapshots of one input: node by node and pod by pod, sets by content and
// terms by their interning key (IDs may differ). It returns the number of
// pods compared.
func requireSameIndex(t require.TestingT, warm, lazy *Snapshot, columns []string) int {
	wv, lv := warm.Labels(), lazy.Labels()
	require.Equal(t, lv.NumNodes(), wv.NumNodes())
	type termUse struct {
		key    string
		weight int32
	}
	uses := func(v *LabelView, refs []TermRef) []termUse {
		var out []termUse
		for _, r := range refs {
			k, _ := termKey(&v.Terms[r.Term])
			out = append(out, termUse{k, r.Weight})
		}
		return out
	}
	checked := 0
	for i := range lv.NumNodes() {
		w, l := wv.Node(i), lv.Node(i)
		require.Len(t, w.Sets, len(l.Sets), i)
		for j := range l.Sets {
			ws, ls := w.Sets[j], l.Sets[j]
			require.Equal(t, ls < 0, ws < 0, "deleting pod %d/%d", i, j)
			if ls < 0 {
				ws, ls = -1-ws, -1-ls
			}
			require.Equal(t, lv.Sets[ls].Namespace, wv.Sets[ws].Namespace)
			require.Equal(t, lv.Sets[ls].Labels, wv.Sets[ws].Labels)
			checked++
		}
		require.Equal(t, uses(&lv, l.RequiredAffinity), uses(&wv, w.RequiredAffinity), i)
		require.Equal(t, uses(&lv, l.PreferredAffinity), uses(&wv, w.PreferredAffinity), i)
		require.Equal(t, uses(&lv, l.PreferredAntiAffinity), uses(&wv, w.PreferredAntiAffinity), i)
		require.Equal(t, uses(&lv, l.RequiredAntiAffinity), uses(&wv, w.RequiredAntiAffinity), i)
	}
	for _, key := range columns {
		require.Equal(t, lazy.Column(key), warm.Column(key), key)
	}
	for id, m := range wv.TermMatchers {
		require.Equal(t, wv.Terms[id].TopologyKey, wv.TopologyKeys[m.KeyID])
	}
	return checked
}

// TestPrewarmAgreesWithLazyIndexProperty: the same agreement on random
// inputs: a few pod templates (namespace, labels, affinity, deletion) drawn
// from small pools, spread over random nodes (one name unknown) in numbers
// that take New's parallel path.
func TestPrewarmAgreesWithLazyIndexProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in Input
		nodes := rapid.IntRange(1, 12).Draw(t, "nodes")
		for i := range nodes {
			labels := map[string]string{"host": fmt.Sprintf("n%02d", i)}
			if z := rapid.IntRange(0, 2).Draw(t, "zone"); z < 2 {
				labels["zone"] = fmt.Sprintf("z%d", z)
			}
			in.Nodes = append(in.Nodes, node(fmt.Sprintf("n%02d", i), labels, rl("cpu", "1000")))
		}
		type template struct {
			ns       string
			labels   map[string]string
			aff      *corev1.Affinity
			deleting bool
		}
		templates := make([]template, rapid.IntRange(1, 6).Draw(t, "templates"))
		for i := range templates {
			tp := &templates[i]
			tp.ns = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
			tp.labels = rapid.MapOfN(rapid.SampledFrom([]string{"app", "tier"}), rapid.SampledFrom([]string{"web", "db"}), 0, 2).Draw(t, "labels")
			if rapid.Bool().Draw(t, "hasAffinity") {
				tp.aff = genAffinity(t)
			}
			tp.deleting = rapid.IntRange(0, 4).Draw(t, "deleting") == 0
		}
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		for i := range parallelPods + rapid.IntRange(0, 64).Draw(t, "extra") {
			tp := templates[r.IntN(len(templates))]
			p := pod(tp.ns, fmt.Sprintf("p-%05d", i), fmt.Sprintf("n%02d", r.IntN(nodes+1)), rl("cpu", "1m"))
			p.Labels, p.Spec.Affinity = tp.labels, tp.aff
			if tp.deleting {
				now := metav1.Now()
				p.DeletionTimestamp = &now
			}
			in.Pods = append(in.Pods, p)
		}
		build := func(procs int) *Snapshot {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			in := in
			in.Parallelism = procs
			s, _, err := New(in)
			require.NoError(t, err)
			return s
		}
		warm, lazy := build(2), build(1)
		require.Equal(t, SlotsOf(warm), warm.labels.baseSlots, "New prewarmed the index")
		require.Positive(t, requireSameIndex(t, warm, lazy, []string{"zone", "host", "absent"}))
	})
}

// TestParallelNewFailsLikeSerial: a large input with a problem (a
// duplicate pod) fails New on two goroutines with the serial build's
// errors and warnings, and leaves no goroutine behind: the indexer, which
// waits for the ordered pass's bound pods, is ended when New fails
// instead.
func TestParallelNewFailsLikeSerial(t *testing.T) {
	in := prewarmWorld()
	dup := *in.Pods[len(in.Pods)/2]
	in.Pods = append(in.Pods, &dup)
	build := func(procs int) ([]Warning, error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		in := in
		in.Parallelism = procs
		s, w, err := New(in)
		require.Nil(t, s)
		return w, err
	}
	before := runtime.NumGoroutine()
	warm, warmErr := build(2)
	// A goroutine that has closed the channel New waits on may still be
	// returning: poll briefly, on this goroutine (testify's Eventually
	// would add one of its own).
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before, "New's goroutines exit when it fails")
	lazy, lazyErr := build(1)
	require.Error(t, warmErr)
	require.Contains(t, warmErr.Error(), "Duplicate value")
	require.Equal(t, lazyErr.Error(), warmErr.Error())
	require.Equal(t, lazy, warm)
}
