package placement

import (
	"fmt"
	"strings"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/taints"
)

// Hooks for the external property tests (kit_property_test.go), which
// draw their clusters from placementtest: the package's own tests cannot
// import it (placementtest imports placement).

// MinChunk is the smallest node range Schedule splits off.
const MinChunk = minChunk

// MaxVerdictIDs is the verdict table's largest bound.
const MaxVerdictIDs = maxIDs

// CheckAgainstReference asserts that Evaluate's report under limit is the
// node-by-node reference report.
func CheckAgainstReference(t require.TestingT, c *Compiled, limit int) {
	checkAgainstReference(t, c, limit)
}

// CheckFilterCode asserts that Schedule's code-only pass agrees with Filter,
// and that the statuses it rebuilds when no node fits are Filter's.
func CheckFilterCode(t require.TestingT, c *Compiled) { checkFilterCode(t, c) }

// CheckTaintIndex asserts that, for pod compiled with opts against snap,
// TaintToleration's answers read through the snapshot's distinct taint
// lists (every list, whatever indexTaints's rule) are the node's own
// taints' answers, that every tainted node of a snapshot from New has a
// list, and that no two lists are equal.
func CheckTaintIndex(t require.TestingT, snap *Snapshot, pod *corev1.Pod, opts Options) {
	c, err := Compile(snap, pod, opts)
	require.NoError(t, err)
	s := internalOf(snap)
	sets := cluster.TaintSetsOf(s)
	seen := map[string]bool{}
	for _, l := range sets[1:] {
		require.NotEmpty(t, l)
		require.False(t, seen[taintsKey(l)], "list %v twice", l)
		seen[taintsKey(l)] = true
	}
	c.taintVerdicts = c.taintVerdictsOf(sets)
	for _, n := range cluster.NodesOf(s) {
		if len(n.Taints) == 0 {
			require.Zero(t, n.TaintSet, n.Name)
			continue
		}
		require.Positive(t, n.TaintSet, n.Name)
		require.Equal(t, taintsKey(n.Taints), taintsKey(sets[n.TaintSet]), n.Name)
		require.Equal(t, taints.Untolerated(n.Taints, c.tolerations), c.untoleratedOn(n), n.Name)
		require.Equal(t, c.intolerablePreferTaints(n.Taints), c.preferTaintsOn(n), n.Name)
	}
}

// taintsKey is what TaintToleration reads of a taint list.
func taintsKey(l []corev1.Taint) string {
	var b strings.Builder
	for _, t := range l {
		fmt.Fprintf(&b, "%q=%q:%q;", t.Key, t.Value, t.Effect)
	}
	return b.String()
}

// CheckNodeAffinityIndex asserts that, for pod compiled with opts against
// snap, NodeAffinity's label-column index (the snapshot's own nodes) and
// the label maps (a copy of the node) give the same statuses and scores.
func CheckNodeAffinityIndex(t require.TestingT, snap *Snapshot, pod *corev1.Pod, opts Options) {
	c, err := Compile(snap, pod, opts)
	require.NoError(t, err)
	for _, n := range cluster.NodesOf(internalOf(snap)) {
		require.True(t, c.naIndex == nil || c.indexes(n))
		other := *n
		other.Node = n.Node.DeepCopy()
		require.False(t, c.indexes(&other))
		require.Equal(t, c.filterEach(&other), c.filterEach(n), n.Name)
		require.Equal(t, c.preferredScore(&other), c.preferredScore(n), n.Name)
	}
}

// CheckCompileDecide asserts that compileDecide, pipelined on any number
// of nodes, gives what compileSerial (compileAfter with prev) then Decide
// gives: the same error, or the same Decision and a Compiled that decides
// alike (without buffers) and shares its topology states onward. prev, when
// not nil, is a pod with the same topology key compiled on a snapshot s is
// a view of. stride, when not zero, has compileDecide score every
// stride-th passing node ahead whatever the goroutines' timing
// (aheadStride).
func CheckCompileDecide(t require.TestingT, s *Snapshot, pod *corev1.Pod, opts Options, prev *Compiled, stride int) {
	CheckCompileDecideAhead(t, s, nil, pod, opts, prev, stride, nil)
}

// CheckCompileDecideAhead is CheckCompileDecide with the pod's lookahead
// started on look (s or a snapshot s is a view of) when look is not nil:
// its ranges are all run, then the ones keep rejects are marked not done
// (as if no helper had reached them), before compileDecide takes it.
func CheckCompileDecideAhead(t require.TestingT, s, look *Snapshot, pod *corev1.Pod, opts Options, prev *Compiled, stride int, keep func(j int) bool) {
	defer func(n, st int) { pipelineMinNodes, aheadStride = n, st }(pipelineMinNodes, aheadStride)
	pipelineMinNodes, aheadStride = 0, stride
	w := NewWorkers()
	defer w.Close()
	p := Prepare(pod, opts)
	var want *Compiled
	var wantErr error
	if prev != nil {
		want, wantErr = p.compileAfter(internalOf(s), w, prev)
	} else {
		want, wantErr = p.compileSerial(internalOf(s), w, false)
	}
	var got Decision
	bufs := &decisionBuffers{}
	defer bufs.endLookaheads()
	var la *lookahead
	if look != nil {
		if la = bufs.startLookahead(p, internalOf(look), w); la != nil {
			la.job.Wait()
			for j := range la.done {
				if keep != nil && !keep(j) {
					la.done[j].Store(false)
				}
			}
		}
	}
	c, err := p.compileDecide(internalOf(s), w, bufs, prev, la, &got)
	if wantErr != nil {
		require.EqualError(t, err, wantErr.Error())
		return
	}
	require.NoError(t, err)
	require.Equal(t, want.withBuffers(&decisionBuffers{}).Decide(), got)
	plain := func(c *Compiled) Decision {
		u := *c
		u.bufs = nil
		return u.Schedule()
	}
	require.Equal(t, plain(want), plain(c))
	require.Equal(t, want.Evaluate(), c.Evaluate())
}

// CheckResultSlots asserts that the PreFilter node restriction read by
// slot (resultSlots) is the one read by name (InPreFilterResult) on every
// node of c's snapshot.
func CheckResultSlots(t require.TestingT, c *Compiled) {
	slots := c.resultSlots()
	for _, n := range cluster.NodesOf(c.snap) {
		require.Equal(t, c.InPreFilterResult(n.Name), slots == nil || slots[n.Index], "node %s (slot %d)", n.Name, n.Index)
	}
}
