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

	// SamePodLocal reports whether two *placement.Prepared pods, prepared
	// with the same options, get the same node-local filter verdicts and
	// raw scores on every node (a class of a scheduling loop's memo).
	SamePodLocal func(a, b any) bool
	// NewMemo returns an empty memo for the nodes of a *placement.Compiled's
	// snapshot: one per class of equivalent pods and scheduling loop, over
	// snapshots with the same nodes (only pods bound or removed).
	NewMemo func(c any) any
	// WithMemo returns the *placement.Compiled c deciding through memo m.
	WithMemo func(c, m any) any
)
