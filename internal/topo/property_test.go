package topo

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// Generators draw from small pools so that domains collide and counts tie.
var (
	zones   = []string{"z1", "z2", "z3"}
	apps    = []string{"a", "b", "c"}
	nsPool  = []string{"default", "other"}
	keyPool = []string{corev1.LabelTopologyZone, corev1.LabelHostname}
)

type world struct {
	nodes []*corev1.Node
	pods  []*corev1.Pod
}

func genWorld(t *rapid.T) world {
	var w world
	nn := rapid.IntRange(1, 7).Draw(t, "nodes")
	for i := 0; i < nn; i++ {
		name := fmt.Sprintf("n%d", i)
		n := mkNode(name, corev1.LabelHostname, name)
		if rapid.IntRange(0, 5).Draw(t, "hasZone") > 0 {
			n.Labels[corev1.LabelTopologyZone] = rapid.SampledFrom(zones).Draw(t, "zone")
		}
		if rapid.Bool().Draw(t, "tainted") {
			tainted(n, "dedicated")
		}
		w.nodes = append(w.nodes, n)
	}
	np := rapid.IntRange(0, 15).Draw(t, "pods")
	for i := 0; i < np; i++ {
		node := w.nodes[rapid.IntRange(0, nn-1).Draw(t, "node")].Name
		opts := []podOpt{inNamespace(rapid.SampledFrom(nsPool).Draw(t, "ns"))}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			opts = append(opts, terminating())
		}
		if rapid.IntRange(0, 3).Draw(t, "anti") == 0 {
			opts = append(opts, requiredAntiAffinity(term(rapid.SampledFrom(keyPool).Draw(t, "antiKey"),
				selector("app", rapid.SampledFrom(apps).Draw(t, "antiApp")))))
		}
		// Preferred terms of bound pods, which InterPodAffinity's score
		// matches against the incoming pod.
		if rapid.IntRange(0, 5).Draw(t, "preferred") == 0 {
			opts = append(opts, preferredAffinity(int32(rapid.IntRange(1, 100).Draw(t, "boundWeight")),
				term(rapid.SampledFrom(keyPool).Draw(t, "boundPrefKey"), selector("app", rapid.SampledFrom(apps).Draw(t, "boundPrefApp")))))
		}
		w.pods = append(w.pods, mkPod(fmt.Sprintf("p%d", i), node, lbl("app", rapid.SampledFrom(apps).Draw(t, "app")), opts...))
	}
	return w
}

func genIncoming(t *rapid.T) *corev1.Pod {
	app := rapid.SampledFrom(apps).Draw(t, "incomingApp")
	var opts []podOpt
	// The API server refuses two constraints with the same topologyKey and
	// whenUnsatisfiable (ValidateSpreadConstraints): a repeat is skipped.
	seen := map[[2]string]bool{}
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "constraints"); i < n; i++ {
		when := corev1.DoNotSchedule
		if rapid.Bool().Draw(t, "soft") {
			when = corev1.ScheduleAnyway
		}
		var mods []func(*corev1.TopologySpreadConstraint)
		if rapid.Bool().Draw(t, "minDomains") {
			mods = append(mods, minDomains(int32(rapid.IntRange(1, 4).Draw(t, "min"))))
		}
		if rapid.Bool().Draw(t, "honorTaints") {
			mods = append(mods, policies("", corev1.NodeInclusionPolicyHonor))
		}
		skew, key := int32(rapid.IntRange(1, 3).Draw(t, "maxSkew")), rapid.SampledFrom(keyPool).Draw(t, "key")
		sel := selector("app", rapid.SampledFrom(apps).Draw(t, "selApp"))
		if seen[[2]string{key, string(when)}] {
			continue
		}
		seen[[2]string{key, string(when)}] = true
		opts = append(opts, spreadOn(skew, key, when, sel, mods...))
	}
	switch rapid.IntRange(0, 3).Draw(t, "affinity") {
	case 1:
		opts = append(opts, requiredAffinity(term(rapid.SampledFrom(keyPool).Draw(t, "affKey"), selector("app", rapid.SampledFrom(apps).Draw(t, "affApp")))))
	case 2:
		opts = append(opts, requiredAntiAffinity(term(rapid.SampledFrom(keyPool).Draw(t, "antiKey"), selector("app", rapid.SampledFrom(apps).Draw(t, "antiApp")))))
	case 3:
		opts = append(opts, preferredAffinity(int32(rapid.IntRange(1, 100).Draw(t, "w")), term(rapid.SampledFrom(keyPool).Draw(t, "prefKey"), selector("app", rapid.SampledFrom(apps).Draw(t, "prefApp")))))
	}
	return mkPod("incoming", "", lbl("app", app), opts...)
}

// verdicts evaluates both plugins on every node and returns a comparable
// summary keyed by node name.
func verdicts(t require.TestingT, snap *cluster.Snapshot, pod *corev1.Pod) map[string]string {
	out, err := verdictsOf(snap, pod)
	require.NoError(t, err)
	return out
}

// verdictsOf is verdicts without a test handle, for goroutines.
func verdictsOf(snap *cluster.Snapshot, pod *corev1.Pod) (map[string]string, error) {
	pi, err := cluster.NewPodInfo(pod)
	if err != nil {
		return nil, err
	}
	s, err := NewSpread(pi, snap, SpreadOptions{})
	if err != nil {
		return nil, err
	}
	a, err := NewInterPodAffinity(pi, snap, AffinityOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	nodes := cluster.NodesOf(snap)
	sRaw, sNorm, sSkip := s.Score(nodes)
	aRaw, aNorm, aSkip := a.Score(nodes)
	for i, n := range nodes {
		out[n.Name] = fmt.Sprintf("%v|%v|%d/%d/%v|%d/%d/%v", s.Filter(n), a.Filter(n), sRaw[i], sNorm[i], sSkip, aRaw[i], aNorm[i], aSkip)
	}
	out["skips"] = fmt.Sprint(s.FilterSkipped(), a.FilterSkipped())
	return out, nil
}

func TestProperties(t *testing.T) {
	t.Run("input order of nodes and pods does not change any verdict or score", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := genWorld(t)
			pod := genIncoming(t)
			snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
			require.NoError(t, err)
			want := verdicts(t, snap, pod)

			nodes := rapid.Permutation(w.nodes).Draw(t, "nodeOrder")
			pods := rapid.Permutation(w.pods).Draw(t, "podOrder")
			snap2, _, err := cluster.New(cluster.Input{Nodes: nodes, Pods: pods})
			require.NoError(t, err)
			require.Equal(t, want, verdicts(t, snap2, pod))
		})
	})

	t.Run("placing a pod where the spread filter accepts it keeps the skew within maxSkew", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := genWorld(t)
			key := rapid.SampledFrom(keyPool).Draw(t, "key")
			maxSkew := int32(rapid.IntRange(1, 3).Draw(t, "maxSkew"))
			app := rapid.SampledFrom(apps).Draw(t, "app")
			pod := mkPod("incoming", "", lbl("app", app), spreadOn(maxSkew, key, corev1.DoNotSchedule, selector("app", app)))
			snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
			require.NoError(t, err)
			before := skewOf(snap, key, app)
			if before < 0 || before > int(maxSkew) {
				t.Skip("the constraint does not hold before")
			}
			s, err := NewSpread(podInfo(t, pod), snap, SpreadOptions{})
			require.NoError(t, err)
			for _, n := range cluster.NodesOf(snap) {
				if !s.Filter(n).OK() {
					continue
				}
				placed := pod.DeepCopy()
				placed.Name = "placed-" + n.Name
				placed.UID = ""
				placed.Spec.NodeName = n.Name
				after, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: append(append([]*corev1.Pod{}, w.pods...), placed)})
				require.NoError(t, err)
				require.LessOrEqual(t, skewOf(after, key, app), int(maxSkew), "placed on %s", n.Name)
			}
		})
	})
}

// skewOf is a deliberately simple reference: max - min of the matching pods
// (namespace default, not terminating, app label) over the domains of the
// nodes that carry the key; -1 when no node carries it.
func skewOf(snap *cluster.Snapshot, key, app string) int {
	counts := map[string]int{}
	for _, n := range cluster.NodesOf(snap) {
		v, ok := n.Node.Labels[key]
		if !ok {
			continue
		}
		counts[v] += 0
		for _, p := range n.Pods {
			if p.Pod.Namespace == "default" && p.Pod.DeletionTimestamp == nil && p.Pod.Labels["app"] == app {
				counts[v]++
			}
		}
	}
	if len(counts) == 0 {
		return -1
	}
	lo, hi := -1, 0
	for _, c := range counts {
		if lo < 0 || c < lo {
			lo = c
		}
		hi = max(hi, c)
	}
	return hi - lo
}

// TestConcurrentUse evaluates one compiled pod from several goroutines, and
// compiles pods concurrently against one fresh snapshot (its label index is
// built lazily under a lock): every result equals the sequential one. Run
// with -race to check the claim of the type docs.
func TestConcurrentUse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		fresh, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		want := verdicts(t, snap, pod)
		const workers = 4
		got := make([]map[string]string, workers)
		done := make(chan int, workers)
		for g := 0; g < workers; g++ {
			go func(g int) {
				defer func() { done <- g }()
				got[g], _ = verdictsOf(fresh, pod) // nil on error: the comparison below fails
			}(g)
		}
		for g := 0; g < workers; g++ {
			<-done
		}
		for g := 0; g < workers; g++ {
			require.Equal(t, want, got[g], "goroutine %d", g)
		}
	})
}

// TestOnViewEqualsFresh derives both plugins for views of a snapshot
// (pods not being deleted removed, then some added back, as preemption's dry
// run does) and checks that On gives exactly what compiling afresh on the
// view gives.
func TestOnViewEqualsFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		genNodeAffinity(t, pod)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		pi, s, a := plugins(t, snap, pod)

		view := snap
		var removed []*corev1.Pod
		for _, p := range w.pods {
			// A pod being deleted moves spread counts in On but not in a
			// fresh PreFilter (upstream's updateWithPod has no deletion
			// check; TestSpreadOnCountsDeletedPods): keep those.
			if p.DeletionTimestamp == nil && rapid.Bool().Draw(t, "remove") {
				removed = append(removed, p)
				view = view.WithoutPods(p.Namespace + "/" + p.Name)
			}
		}
		for _, p := range removed {
			if rapid.Bool().Draw(t, "addBack") {
				view, err = view.WithPod(p)
				require.NoError(t, err)
			}
		}
		// New pods whose terms the index may not have interned yet: the
		// view's tables then grow past the states'.
		for i, n := 0, rapid.IntRange(0, 2).Draw(t, "extra"); i < n; i++ {
			key, app := rapid.SampledFrom(keyPool).Draw(t, "extraKey"), rapid.SampledFrom(apps).Draw(t, "extraApp")
			extra := mkPod(fmt.Sprintf("extra-%d", i), w.nodes[rapid.IntRange(0, len(w.nodes)-1).Draw(t, "extraNode")].Name,
				lbl("app", rapid.SampledFrom(apps).Draw(t, "extraLabel")),
				inNamespace(rapid.SampledFrom(nsPool).Draw(t, "extraNS")),
				preferredAffinity(int32(rapid.IntRange(1, 100).Draw(t, "extraWeight")), term(key, selector("app", app, "extra", "yes"))),
				requiredAntiAffinity(term(key, selector("app", app, "tier", "x"))))
			view, err = view.WithPod(extra)
			require.NoError(t, err)
		}
		s2, err := s.On(view)
		require.NoError(t, err)
		a2, err := a.On(view)
		require.NoError(t, err)
		fs, err := NewSpread(pi, view, SpreadOptions{})
		require.NoError(t, err)
		fa, err := NewInterPodAffinity(pi, view, AffinityOptions{})
		require.NoError(t, err)
		require.Equal(t, fs.FilterSkipped(), s2.FilterSkipped())
		require.Equal(t, fa.FilterSkipped(), a2.FilterSkipped())
		for _, n := range cluster.NodesOf(view) {
			require.Equal(t, fs.Filter(n), s2.Filter(n), "spread on %s", n.Name)
			require.Equal(t, fa.Filter(n), a2.Filter(n), "affinity on %s", n.Name)
		}
		r1, n1, k1 := fs.Score(cluster.NodesOf(view))
		r2, n2, k2 := s2.Score(cluster.NodesOf(view))
		require.Equal(t, []any{r1, n1, k1}, []any{r2, n2, k2})
		r1, n1, k1 = fa.Score(cluster.NodesOf(view))
		r2, n2, k2 = a2.Score(cluster.NodesOf(view))
		require.Equal(t, []any{r1, n1, k1}, []any{r2, n2, k2})
	})
}

// TestPreparedSpreadEqualsFresh: NewSpreadPrepared with one PrepareSpread
// of the pod, used for several snapshots in turn (its own constraints are
// shared by every Spread made from it), gives what NewSpread (a fresh
// preparation) gives on each, and its Filter what the plain reference
// gives; a prep made for another pod is ignored.
func TestPreparedSpreadEqualsFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		genNodeAffinity(t, pod)
		other := genIncoming(t)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		pi, err := cluster.NewPodInfo(pod)
		require.NoError(t, err)
		prep := PrepareSpread(pod)
		view := snap
		for _, p := range w.pods {
			if rapid.Bool().Draw(t, "remove") {
				view = view.WithoutPods(p.Namespace + "/" + p.Name)
			}
		}
		for _, s := range []*cluster.Snapshot{snap, view, snap} {
			for _, pr := range []*PodSpread{prep, PrepareSpread(other), nil} {
				if got := requireSpreadAsFresh(t, pi, s, SpreadOptions{}, pr); got != nil {
					for _, n := range cluster.NodesOf(s) {
						require.Equal(t, refSpreadFilter(s, pod, n.Node), got.Filter(n).Code.String(), "reference on %s", n.Name)
					}
				}
			}
		}
	})
}

// TestPreparedSpreadFollowsSnapshots: one PodSpread, used (and warmed, or
// not) in any order on snapshots with other Services, other label indexes,
// views that removed pods and views that replaced a node's taints, under
// the system or a custom list of default constraints, gives on each what a
// fresh NewSpread gives. The default constraints it keeps between uses are
// for the snapshot's Workloads index and for the options' list of
// defaults, never the last ones it compiled: keying them on less fails it.
func TestPreparedSpreadFollowsSnapshots(t *testing.T) {
	honor := corev1.NodeInclusionPolicyHonor
	custom := []corev1.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule, NodeTaintsPolicy: &honor},
		{MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway},
	}
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		pod := genIncoming(t)
		if rapid.Bool().Draw(t, "defaults") {
			pod.Spec.TopologySpreadConstraints = nil
		}
		genNodeAffinity(t, pod)
		plain, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		// The Service selects the pod: its default constraints then count.
		svc := service(pod.Namespace, "svc", "app", pod.Labels["app"])
		served, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods, Services: []*corev1.Service{svc}})
		require.NoError(t, err)
		snaps := []*cluster.Snapshot{plain, served}
		if len(w.pods) > 0 {
			p := w.pods[rapid.IntRange(0, len(w.pods)-1).Draw(t, "removed")]
			snaps = append(snaps, served.WithoutPods(p.Namespace+"/"+p.Name))
		}
		// A node whose taints change keeps its slot and the label index.
		n := w.nodes[rapid.IntRange(0, len(w.nodes)-1).Draw(t, "retainted")].DeepCopy()
		if len(n.Spec.Taints) > 0 {
			n.Spec.Taints = nil
		} else {
			tainted(n, "dedicated")
		}
		retainted, err := served.WithNode(n)
		require.NoError(t, err)
		require.True(t, served.SharesIndex(retainted))
		snaps = append(snaps, retainted)
		pi, err := cluster.NewPodInfo(pod)
		require.NoError(t, err)
		prep := PrepareSpread(pod)
		for step := range rapid.IntRange(1, 8).Draw(t, "steps") {
			s := snaps[rapid.IntRange(0, len(snaps)-1).Draw(t, fmt.Sprintf("snap%d", step))]
			opts := SpreadOptions{}
			if rapid.Bool().Draw(t, fmt.Sprintf("custom%d", step)) {
				opts.DefaultConstraints = custom
			}
			if rapid.Bool().Draw(t, fmt.Sprintf("warm%d", step)) {
				prep.Warm(s, opts)
			}
			requireSpreadAsFresh(t, pi, s, opts, prep)
		}
	})
}

// requireSpreadAsFresh checks that NewSpreadPrepared of pi with prep on s
// under opts gives what a fresh NewSpread gives: the same error, or the
// same Filter on every node and the same scores. It returns the prepared
// Spread (nil on an error).
func requireSpreadAsFresh(t *rapid.T, pi *cluster.PodInfo, s *cluster.Snapshot, opts SpreadOptions, prep *PodSpread) *Spread {
	fresh, ferr := NewSpread(pi, s, opts)
	got, gerr := NewSpreadPrepared(pi, s, opts, prep)
	if ferr != nil {
		require.EqualError(t, gerr, ferr.Error())
		return nil
	}
	require.NoError(t, gerr)
	require.Equal(t, fresh.FilterSkipped(), got.FilterSkipped())
	for _, n := range cluster.NodesOf(s) {
		require.Equal(t, fresh.Filter(n), got.Filter(n), "spread on %s", n.Name)
	}
	r1, n1, k1 := fresh.Score(cluster.NodesOf(s))
	r2, n2, k2 := got.Score(cluster.NodesOf(s))
	require.Equal(t, []any{r1, n1, k1}, []any{r2, n2, k2})
	return got
}

// scores are one plugin's Score results.
type scores struct {
	raw, normalized []int64
	skipped         bool
}

// checkScratchScores draws a world and a few incoming pods, of several
// namespaces (a memo of namespace verdicts left over from the last pod
// would answer for the wrong one), with one scratch per plugin reused
// across them. For each pod, before runs first (and may end the pod's
// turn); then, on drawn feasible nodes, both plugins' scores through the
// scratches (score) must be what Score gives with buffers of its own.
func checkScratchScores(t *testing.T,
	before func(t *rapid.T, s *Spread, a *InterPodAffinity, sp *SpreadScratch, af *AffinityScratch) (next bool),
	score func(s *Spread, a *InterPodAffinity, feasible []*cluster.NodeInfo, sp *SpreadScratch, af *AffinityScratch) (spread, affinity scores)) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		snap, _, err := cluster.New(cluster.Input{Nodes: w.nodes, Pods: w.pods})
		require.NoError(t, err)
		var sp SpreadScratch
		var af AffinityScratch
		own := func(r scores) scores {
			return scores{append([]int64{}, r.raw...), append([]int64{}, r.normalized...), r.skipped}
		}
		for range rapid.IntRange(2, 6).Draw(t, "pods") {
			pod := genIncoming(t)
			genNodeAffinity(t, pod)
			pod.Namespace = rapid.SampledFrom(nsPool).Draw(t, "incoming namespace")
			_, s, a := plugins(t, snap, pod)
			if before != nil && before(t, s, a, &sp, &af) {
				continue
			}
			var feasible []*cluster.NodeInfo
			for _, n := range cluster.NodesOf(snap) {
				if rapid.Bool().Draw(t, "feasible") {
					feasible = append(feasible, n)
				}
			}
			var want scores
			want.raw, want.normalized, want.skipped = s.Score(feasible)
			gotSpread, gotAffinity := score(s, a, feasible, &sp, &af)
			require.Equal(t, own(want), own(gotSpread), "PodTopologySpread")
			want.raw, want.normalized, want.skipped = a.Score(feasible)
			require.Equal(t, own(want), own(gotAffinity), "InterPodAffinity")
		}
	})
}

// ScoreWith of both plugins, with one scratch each reused across pods and
// node subsets, gives what Score gives with buffers of its own.
func TestScoreWithReusedScratch(t *testing.T) {
	checkScratchScores(t, nil, func(s *Spread, a *InterPodAffinity, feasible []*cluster.NodeInfo, sp *SpreadScratch, af *AffinityScratch) (spread, affinity scores) {
		spread.raw, spread.normalized, spread.skipped = s.ScoreWith(feasible, sp)
		affinity.raw, affinity.normalized, affinity.skipped = a.ScoreWith(feasible, af)
		return spread, affinity
	})
}

// Both plugins' PreScore counts (PreScoreWith) are made before the
// feasible nodes are known, as a scheduling loop makes them beside the
// filters: ScoreFeasible on any feasible nodes then gives what Score
// gives. With scratches reused across pods, a PreScore left unread by one
// pod (its decision found one feasible node or none) does not leak into
// the next, and ScoreFeasible without a pending PreScore does it all.
func TestPreScoreBeforeFeasibleNodes(t *testing.T) {
	checkScratchScores(t, func(t *rapid.T, s *Spread, a *InterPodAffinity, sp *SpreadScratch, af *AffinityScratch) bool {
		if rapid.Bool().Draw(t, "counted first") {
			s.PreScoreWith(sp)
			a.PreScoreWith(af)
		}
		return rapid.Bool().Draw(t, "left unread")
	}, func(s *Spread, a *InterPodAffinity, feasible []*cluster.NodeInfo, sp *SpreadScratch, af *AffinityScratch) (spread, affinity scores) {
		spread.raw, spread.normalized, spread.skipped = s.ScoreFeasible(feasible, sp)
		affinity.raw, affinity.normalized, affinity.skipped = a.ScoreFeasible(feasible, af)
		return spread, affinity
	})
}
