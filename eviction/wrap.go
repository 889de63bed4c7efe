package eviction

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
)

// Drain planning reads the snapshot's internal nodes (their pods in the
// scheduler's NodeInfo order); these convert between them and placement's
// public values (package wrap: no copy).

func snapshotOf(s *placement.Snapshot) *cluster.Snapshot { return wrap.Cast[cluster.Snapshot](s) }

func publicNode(n *cluster.NodeInfo) *placement.NodeInfo { return wrap.Cast[placement.NodeInfo](n) }

func publicSnapshot(s *cluster.Snapshot) *placement.Snapshot { return wrap.Cast[placement.Snapshot](s) }

// podInfoOf returns the compiled pod's internal PodInfo.
func podInfoOf(c *placement.Compiled) *cluster.PodInfo {
	return wrap.Cast[cluster.PodInfo](c.PodInfo())
}
