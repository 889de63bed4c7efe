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

func publicNodes(ns []*cluster.NodeInfo) []*placement.NodeInfo {
	return wrap.Slice[placement.NodeInfo](ns)
}

// podInfoOf returns the compiled pod's internal PodInfo.
func podInfoOf(c *placement.Compiled) *cluster.PodInfo {
	return wrap.Cast[cluster.PodInfo](c.PodInfo())
}
