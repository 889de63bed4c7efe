package hostile

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedkit/schedkit/placement/placementtest"
)

// FreezeCluster freezes every object of c (nodes, bound and pending pods,
// budgets, priority classes, namespaces).
func FreezeCluster(c *placementtest.Cluster) *Frozen {
	f := &Frozen{}
	for _, o := range c.Nodes {
		f.Add(o)
	}
	for _, o := range c.Pods {
		f.Add(o)
	}
	for _, o := range c.Pending {
		f.Add(o)
	}
	for _, o := range c.PDBs {
		f.Add(o)
	}
	for _, o := range c.PriorityClasses {
		f.Add(o)
	}
	for _, o := range c.Namespaces {
		f.Add(o)
	}
	return f
}

// Objects returns objs as runtime.Objects, for Freeze.
func Objects[T runtime.Object](objs []T) []runtime.Object {
	out := make([]runtime.Object, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}
