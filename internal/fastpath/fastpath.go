// Package fastpath gives schedkit's own packages the filters of package
// placement without the copies its public methods make for callers.
//
// placement.Compiled.Filter and placement.Trial.Filter return a status whose
// reasons are the caller's (a copy of the shared reason texts). Preemption's
// dry run asks them about every candidate node of every preemptor and only
// reads the answers; copying there was most of its allocations. Package
// placement sets these functions when it is initialized; their statuses'
// reasons are shared and must not be modified or handed to callers.
package fastpath

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

var (
	// Filter is (*placement.Compiled).Filter(c, n) with shared reasons.
	Filter func(c any, n *cluster.NodeInfo) sched.Status
	// TrialFilter is (*placement.Trial).Filter(t, n, removed) with shared
	// reasons.
	TrialFilter func(t any, n *cluster.NodeInfo, removed []*cluster.PodInfo) sched.Status

	// PodKeys returns a *placement.Prepared pod's class keys: pods
	// prepared with the same options and equal local keys get the same
	// node-local filter verdicts and raw scores on every node (a class of
	// a scheduling loop's memo); equal topology keys, the same whole
	// scheduling input.
	PodKeys func(p any) (local, topology string)
	// NewMemo returns an empty memo for the nodes of a *placement.Compiled's
	// snapshot: one per class of equivalent pods and scheduling loop, over
	// snapshots with the same nodes (only pods bound or removed).
	NewMemo func(c any) any
	// WithMemo makes the *placement.Compiled c, which must be the caller's
	// own (compiled for it, read by no one else), decide through memo m,
	// and returns it.
	// Its Decision's Codes and Statuses share one array each among the
	// memo's pods: they are valid until the next of them is decided, and
	// the statuses' reasons are shared texts, never to be modified.
	WithMemo func(c, m any) any
	// NewBuffers returns the per-node arrays for a scheduling loop's
	// decisions without a memo, and WithBuffers makes the
	// *placement.Compiled c, which must be the caller's own, fill them and
	// returns it: its Decision's Codes and Statuses are valid until the
	// next decision through the same buffers (reasons shared, as with a
	// memo).
	NewBuffers  func() any
	WithBuffers func(c, b any) any
	// CompileSerial is (*placement.Prepared).CompileWith(snap, w) with the
	// PreFilters run on the calling goroutine alone when they are short
	// (a small snapshot, and a pod of a memo class, memoized, or without a
	// required topology term of its own); the decision shares its work as
	// before. The result is the same.
	CompileSerial func(p any, snap *cluster.Snapshot, w any, memoized bool) (any, error)
	// CompileAfter is (*placement.Prepared).CompileWith(snap, w) for a pod
	// with the topology key of the *placement.Compiled prev: prev's topology
	// PreFilter states are moved onto snap (derived from the nodes that
	// changed) instead of built afresh. The result is the same.
	CompileAfter func(p any, snap *cluster.Snapshot, w any, prev any) (any, error)
	// CompileDecide is CompileSerial (CompileAfter when prev, a
	// *placement.Compiled, is not nil), then WithBuffers(bufs) and Decide,
	// the decision written to d (a *placement.Decision): the same
	// Compiled, Decision and error, with the topology PreFilters and the
	// node-local filters overlapped. w must not be nil.
	CompileDecide func(p any, snap *cluster.Snapshot, w, bufs, prev, la, d any) (any, error)
	// StartLookahead starts, on w's idle helpers, the node-local work of
	// the *placement.Prepared p on snap (its filter verdicts and raw
	// scores on every node), for the CompileDecide of p (la) on a later
	// snapshot of the same nodes, made with the same bufs: it takes the
	// answers of the nodes the two snapshots share. It returns nil when
	// CompileDecide would not take them. A started lookahead must be
	// given to that CompileDecide, which ends it (waiting for what a
	// helper still runs of it), before snap's node list may be reused
	// (cluster.Retire); EndLookaheads(bufs) ends one a caller stopping
	// early leaves. The decisions are the same with or without it.
	StartLookahead func(p any, snap *cluster.Snapshot, w, bufs any) any
	// EndLookaheads ends every lookahead started with bufs: a queue
	// calls it before it returns, so that no helper works for it
	// afterwards.
	EndLookaheads func(bufs any)
	// SetPipelineMinNodes sets the fewest nodes on which CompileDecide
	// overlaps the PreFilters with the decision (the tests lower it to
	// reach small snapshots), and returns the previous value.
	SetPipelineMinNodes func(n int) int
)
