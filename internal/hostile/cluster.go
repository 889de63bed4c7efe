package hostile

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"pgregory.net/rapid"

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

// What Permuted permutes.
type Permute struct {
	Nodes, Pods, PDBs, PriorityClasses, Namespaces bool
}

// Permuted returns c with the slices p names in a drawn order (the same
// objects; the pending pods keep their order, on which the queue's ties
// depend).
func Permuted(t *rapid.T, c *placementtest.Cluster, p Permute) *placementtest.Cluster {
	out := *c
	if p.Nodes {
		out.Nodes = rapid.Permutation(c.Nodes).Draw(t, "node order")
	}
	if p.Pods {
		out.Pods = rapid.Permutation(c.Pods).Draw(t, "pod order")
	}
	if p.PDBs {
		out.PDBs = rapid.Permutation(c.PDBs).Draw(t, "budget order")
	}
	if p.PriorityClasses {
		out.PriorityClasses = rapid.Permutation(c.PriorityClasses).Draw(t, "class order")
	}
	if p.Namespaces {
		out.Namespaces = rapid.Permutation(c.Namespaces).Draw(t, "namespace order")
	}
	return &out
}

// UnrelatedLabelKeys are label keys no generator's selector uses.
var UnrelatedLabelKeys = []string{"unrelated.example.com/a", "unrelated.example.com/b"}

// Relabeled returns c with copies of its nodes and pods (bound and
// pending), each given a drawn unrelated label (UnrelatedLabelKeys) or not.
func Relabeled(t *rapid.T, c *placementtest.Cluster) *placementtest.Cluster {
	out := *c
	label := func(l map[string]string) map[string]string {
		if rapid.Bool().Draw(t, "relabel") {
			if l == nil {
				l = map[string]string{}
			}
			l[rapid.SampledFrom(UnrelatedLabelKeys).Draw(t, "key")] = rapid.SampledFrom([]string{"x", "y"}).Draw(t, "value")
		}
		return l
	}
	out.Nodes = make([]*corev1.Node, len(c.Nodes))
	for i, n := range c.Nodes {
		out.Nodes[i] = n.DeepCopy()
		out.Nodes[i].Labels = label(out.Nodes[i].Labels)
	}
	pods := func(in []*corev1.Pod) []*corev1.Pod {
		res := make([]*corev1.Pod, len(in))
		for i, p := range in {
			res[i] = p.DeepCopy()
			res[i].Labels = label(res[i].Labels)
		}
		return res
	}
	out.Pods, out.Pending = pods(c.Pods), pods(c.Pending)
	return &out
}

// Unlabeled removes UnrelatedLabelKeys from every map reachable from v
// (the labels of the objects an answer holds), so that answers about a
// Relabeled cluster compare with the original's. It returns v.
func Unlabeled[T any](v T) T {
	unlabel(reflect.ValueOf(v), map[uintptr]bool{})
	return v
}

func unlabel(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		unlabel(v.Elem(), seen)
	case reflect.Interface:
		if !v.IsNil() {
			unlabel(v.Elem(), seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				unlabel(v.Field(i), seen)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			unlabel(v.Index(i), seen)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		if v.Type().Key().Kind() == reflect.String {
			for _, k := range UnrelatedLabelKeys {
				v.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), reflect.Value{})
			}
		}
		for _, k := range v.MapKeys() {
			unlabel(v.MapIndex(k), seen)
		}
	}
}
