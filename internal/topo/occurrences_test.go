package topo

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// Pools for the matching properties: few keys and values so that selectors
// and label sets collide, numeric values for Gt / Lt.
var (
	matchKeys = []string{"app", "tier", "n"}
	matchVals = []string{"a", "b", "1", "3"}
	matchOps  = []selection.Operator{selection.In, selection.NotIn, selection.Exists, selection.DoesNotExist,
		selection.GreaterThan, selection.LessThan}
)

// genLabels draws a label set from the small pools.
func genLabels(t *rapid.T, name string) map[string]string {
	return rapid.MapOfN(rapid.SampledFrom(matchKeys), rapid.SampledFrom(matchVals), 0, 3).Draw(t, name)
}

// genMatchSelector draws a selector over the small pools with every
// operator, or nil (matches nothing), or {} (matches everything).
func genMatchSelector(t *rapid.T, name string) labels.Selector {
	switch rapid.IntRange(0, 9).Draw(t, name+"Shape") {
	case 0:
		return labels.Nothing()
	case 1:
		return labels.Everything()
	}
	sel := labels.NewSelector()
	if rapid.Bool().Draw(t, name+"MatchLabels") {
		r, err := labels.NewRequirement(rapid.SampledFrom(matchKeys).Draw(t, name+"Key"), selection.Equals, []string{rapid.SampledFrom(matchVals).Draw(t, name+"Val")})
		if err != nil {
			t.Fatal(err)
		}
		sel = sel.Add(*r)
	}
	for range rapid.IntRange(0, 2).Draw(t, name+"Exprs") {
		op := rapid.SampledFrom(matchOps).Draw(t, name+"Op")
		var vals []string
		switch op {
		case selection.In, selection.NotIn:
			vals = rapid.SliceOfN(rapid.SampledFrom(matchVals), 1, 3).Draw(t, name+"Vals") // repeats allowed
		case selection.GreaterThan, selection.LessThan:
			vals = []string{rapid.SampledFrom([]string{"1", "2"}).Draw(t, name+"Num")}
		}
		r, err := labels.NewRequirement(rapid.SampledFrom(matchKeys).Draw(t, name+"ExprKey"), op, vals)
		if err != nil {
			t.Fatal(err)
		}
		sel = sel.Add(*r)
	}
	return sel
}

// TestMemoForAgreesWithFullMatch is a reference-model property: a memo
// made by memoCands (anchors' candidates, namespaces decided per namespace)
// gives for every label set of the snapshot and of a view that added sets
// the verdict of the full match, and spreadCounts counts on every node what
// countMatching counts on its pods.
func TestMemoForAgreesWithFullMatch(t *testing.T) {
	t.Run("candidate-filled memos equal the full matcher on every set", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			nodes := []*corev1.Node{mkNode("n0"), mkNode("n1"), mkNode("n2")}
			var pods []*corev1.Pod
			for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
				opts := []podOpt{inNamespace(rapid.SampledFrom(nsPool).Draw(t, "ns"))}
				if rapid.IntRange(0, 4).Draw(t, "deleting") == 0 {
					opts = append(opts, terminating())
				}
				p := mkPod(fmt.Sprintf("p%d", i), rapid.SampledFrom([]string{"n0", "n1", "n2"}).Draw(t, "node"), nil, opts...)
				p.Labels = genLabels(t, "labels")
				pods = append(pods, p)
			}
			snap, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: pods})
			require.NoError(t, err)
			snaps := []*cluster.Snapshot{snap}
			if rapid.Bool().Draw(t, "view") {
				p := mkPod("added", "n1", nil, inNamespace(rapid.SampledFrom(nsPool).Draw(t, "addedNs")))
				p.Labels = genLabels(t, "addedLabels")
				view, err := snap.WithPod(p)
				require.NoError(t, err)
				// Either order: the postings may already hold the view's set
				// when the parent is asked.
				if rapid.Bool().Draw(t, "viewFirst") {
					snaps = []*cluster.Snapshot{view, snap}
				} else {
					snaps = append(snaps, view)
				}
			}
			sel := genMatchSelector(t, "sel")
			m := newMatcher(sel)
			ns := rapid.SampledFrom(append([]string{""}, nsPool...)).Draw(t, "ruleNs")
			for _, s := range snaps {
				ix := newInterned(s)
				mm := mmOnly(ix.memoCands(ix.nsIs(ns), &m))
				for id, set := range ix.view.Sets {
					want := (ns == "" || set.Namespace == ns) && sel.Matches(labels.Set(set.Labels))
					if got := ix.setMatches(int32(id), &m, mm); got != want {
						t.Fatalf("set %d %s/%v, selector %q, namespace %q: memo %v, full match %v", id, set.Namespace, set.Labels, sel, ns, got, want)
					}
				}
				if ns == "" {
					continue
				}
				mm, cs := ix.memoCands(ix.nsIs(ns), &m)
				counts := ix.spreadCounts(&m, mm, cs)
				all := ix.spreadCounts(&m, mmOnly(ix.memoCands(ix.nsIs(ns), &m)), nil)
				for i, n := range cluster.NodesOf(s) {
					if want := countMatching(n.Pods, &m, ns); int(counts[i]) != want || int(all[i]) != want {
						t.Fatalf("node %s, selector %q: spreadCounts %d over candidates, %d over every set, countMatching %d", n.Name, sel, counts[i], all[i], want)
					}
				}
			}
		})
	})
}

// TestViewsCompileAsFresh is a metamorphic property of the occurrences
// that views share with their base (cluster.Occurrences): compiling both
// plugins on a view made by binds and removals gives every verdict and
// score that compiling on the same pods indexed afresh gives, whichever
// snapshot of the chain was compiled first (and so became the base).
func TestViewsCompileAsFresh(t *testing.T) {
	t.Run("a view's verdicts and scores equal those of the same cluster built afresh", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := genWorld(t)
			for i := range w.pods {
				switch rapid.IntRange(0, 3).Draw(t, "existingPreferred") {
				case 1:
					preferredAffinity(int32(rapid.IntRange(1, 5).Draw(t, "w")), term(rapid.SampledFrom(keyPool).Draw(t, "k"), selector("app", rapid.SampledFrom(apps).Draw(t, "a"))))(w.pods[i])
				case 2:
					preferredAntiAffinity(int32(rapid.IntRange(1, 5).Draw(t, "w")), term(rapid.SampledFrom(keyPool).Draw(t, "k"), selector("app", rapid.SampledFrom(apps).Draw(t, "a"))))(w.pods[i])
				case 3:
					requiredAffinity(term(rapid.SampledFrom(keyPool).Draw(t, "k"), selector("app", rapid.SampledFrom(apps).Draw(t, "a"))))(w.pods[i])
				}
			}
			snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
			require.NoError(t, err)
			pod := genIncoming(t)
			genNodeAffinity(t, pod)
			if rapid.Bool().Draw(t, "incomingPreferredAnti") {
				preferredAntiAffinity(int32(rapid.IntRange(1, 5).Draw(t, "w")), term(rapid.SampledFrom(keyPool).Draw(t, "k"), selector("app", rapid.SampledFrom(apps).Draw(t, "a"))))(pod)
			}
			chain := []*cluster.Snapshot{snap}
			view := snap
			for i := range rapid.IntRange(1, 4).Draw(t, "steps") {
				var keys []string
				for _, n := range cluster.NodesOf(view) {
					for _, pi := range n.Pods {
						keys = append(keys, pi.Key)
					}
				}
				if len(keys) > 0 && rapid.Bool().Draw(t, "remove") {
					view = view.WithoutPods(rapid.SampledFrom(keys).Draw(t, "victim"))
				} else {
					node := rapid.SampledFrom(w.nodes).Draw(t, "bindNode").Name
					p := mkPod(fmt.Sprintf("bound%d", i), node, lbl("app", rapid.SampledFrom(apps).Draw(t, "boundApp")),
						inNamespace(rapid.SampledFrom(nsPool).Draw(t, "boundNs")))
					if rapid.Bool().Draw(t, "boundAnti") {
						requiredAntiAffinity(term(rapid.SampledFrom(keyPool).Draw(t, "k"), selector("app", rapid.SampledFrom(apps).Draw(t, "a"))))(p)
					}
					view, err = view.WithPod(p)
					require.NoError(t, err)
				}
				chain = append(chain, view)
			}
			order := rapid.Permutation(chain).Draw(t, "compileOrder")
			for _, s := range order {
				var pods []*corev1.Pod
				for _, n := range cluster.NodesOf(s) {
					for _, pi := range n.Pods {
						pods = append(pods, pi.Pod)
					}
				}
				fresh, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: pods})
				require.NoError(t, err)
				require.Equal(t, verdicts(t, fresh, pod), verdicts(t, s, pod))
			}
		})
	})
}

// genNodeAffinity gives the pod, at random, a zone nodeSelector and a
// required node affinity term over zones (In or NotIn), which spread's node
// inclusion policy honors by default.
func genNodeAffinity(t *rapid.T, pod *corev1.Pod) {
	if rapid.Bool().Draw(t, "nodeSelector") {
		pod.Spec.NodeSelector = map[string]string{corev1.LabelTopologyZone: rapid.SampledFrom(zones).Draw(t, "selZone")}
	}
	if rapid.Bool().Draw(t, "requiredNodeAffinity") {
		op := rapid.SampledFrom([]corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}).Draw(t, "nodeOp")
		a := ensureAffinity(pod)
		a.NodeAffinity = &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: corev1.LabelTopologyZone, Operator: op, Values: []string{rapid.SampledFrom(zones).Draw(t, "nodeZone")}},
			}}},
		}}
	}
}

func mmOnly(mm memo, _ cands) memo { return mm }

// TestMemoCandsTable checks memoCands on a snapshot and on a view that
// interned new label sets, for each way a selector is decided: by a single
// anchor's postings (In, Exists), by the narrowest anchor then the full
// match (In with NotIn, Gt), by exclusions alone (NotIn, DoesNotExist), or
// by the full match of every set (labels.Everything); verdicts are
// labels.Selector.Matches' within the namespace.
func TestMemoCandsTable(t *testing.T) {
	nodes := []*corev1.Node{mkNode("n0"), mkNode("n1")}
	pods := []*corev1.Pod{
		mkPod("p0", "n0", lbl("app", "a", "n", "5")),
		mkPod("p1", "n0", lbl("app", "b", "tier", "web")),
		mkPod("p2", "n1", lbl("tier", "db")),
		mkPod("p3", "n1", lbl("app", "a"), inNamespace("other")),
	}
	snap, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	view, err := snap.WithPod(mkPod("p4", "n1", lbl("app", "a", "n", "1", "tier", "web")))
	require.NoError(t, err)
	for _, sel := range []string{"app=a", "tier", "app=a,tier notin (web)", "n>2", "n<2,app", "app notin (a)", "!tier", "app notin (b),!n", ""} {
		for _, s := range []*cluster.Snapshot{snap, view} {
			t.Run(fmt.Sprintf("%q on %d sets", sel, len(s.Labels().Sets)), func(t *testing.T) {
				parsed, err := labels.Parse(sel)
				require.NoError(t, err)
				m := newMatcher(parsed)
				ix := newInterned(s)
				mm, cs := ix.memoCands(ix.nsIs("default"), &m)
				var got, want []string
				for id, set := range ix.view.Sets {
					name := fmt.Sprintf("%s/%v", set.Namespace, set.Labels)
					if ix.setMatches(int32(id), &m, mm) {
						got = append(got, name)
					}
					if set.Namespace == "default" && parsed.Matches(labels.Set(set.Labels)) {
						want = append(want, name)
					}
				}
				assert.Equal(t, want, got)
				counts := ix.spreadCounts(&m, mm, cs)
				for i, n := range cluster.NodesOf(s) {
					assert.Equal(t, countMatching(n.Pods, &m, "default"), int(counts[i]), "node %s", n.Name)
				}
			})
		}
	}
}
