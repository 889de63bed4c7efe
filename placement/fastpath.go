package placement

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/internal/sched"
)

func init() {
	fastpath.Filter = func(c any, n *cluster.NodeInfo) sched.Status { return c.(*Compiled).filter(n) }
	fastpath.TrialFilter = func(t any, n *cluster.NodeInfo, removed []*cluster.PodInfo) sched.Status {
		return t.(*Trial).filter(n, removed)
	}
}
