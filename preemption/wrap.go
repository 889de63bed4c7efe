package preemption

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
)

// Preemption walks the snapshot's internal nodes and pods; these convert
// between them and the public values placement takes and returns (package
// wrap: no copy).

func snapshotOf(s *placement.Snapshot) *cluster.Snapshot { return wrap.Cast[cluster.Snapshot](s) }

func publicSnapshot(s *cluster.Snapshot) *placement.Snapshot { return wrap.Cast[placement.Snapshot](s) }

func publicNode(n *cluster.NodeInfo) *placement.NodeInfo { return wrap.Cast[placement.NodeInfo](n) }

func publicNodes(ns []*cluster.NodeInfo) []*placement.NodeInfo {
	return wrap.Slice[placement.NodeInfo](ns)
}

func publicPods(ps []*cluster.PodInfo) []*placement.PodInfo { return wrap.Slice[placement.PodInfo](ps) }

// podInfoOf returns the compiled pod's internal PodInfo.
func podInfoOf(c *placement.Compiled) *cluster.PodInfo {
	return wrap.Cast[cluster.PodInfo](c.PodInfo())
}
