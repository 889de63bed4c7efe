package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// nodeSummary is what a snapshot holds about one node, with pods by key
// and interned IDs and slots resolved, so that a view and a snapshot built
// by New (whose IDs, slots and PodInfos differ) compare.
type nodeSummary struct {
	Name                                string
	Node                                *corev1.Node
	Unschedulable                       bool
	Taints                              []corev1.Taint
	Pods, Order, WithAffinity, WithAnti []string
	Allocatable, Requested, NonZero     Resource
	UsedPorts                           []HostPort // a set: sorted
	ImageStates                         map[string]ImageState
	Sets                                []string // namespace, labels, deleting
	Terms                               [4][]string
}

// summary is s's nodes (in NodesOf order), label columns and pod
// locations, resolved.
type summary struct {
	Nodes   []nodeSummary
	Columns map[string]columnSummary
	Pods    map[string]string // key -> node name (PodOf)
	NumPods int
}

// columnSummary is a Column with its slots resolved to node names.
type columnSummary struct {
	Values []string
	ID     map[string]int32
	Of     map[string]int32 // node name -> value ID
}

// checkSlots checks that s's nodes sit at their slots (NodeInfo.Index) in
// SlotsOf and every other slot is empty, that the per-slot arrays have one
// entry per slot, and that a snapshot from New numbers the slots in name
// order.
func checkSlots(t require.TestingT, s *Snapshot, fromNew bool) {
	slots := SlotsOf(s)
	live := 0
	for i, ni := range NodesOf(s) {
		require.Same(t, ni, slots[ni.Index], "node %s", ni.Name)
		if fromNew {
			require.Equal(t, i, ni.Index, "node %s", ni.Name)
		}
	}
	for _, ni := range slots {
		if ni != nil {
			live++
		}
	}
	require.Equal(t, len(NodesOf(s)), live)
	lv := s.Labels()
	require.Equal(t, len(slots), lv.NumNodes())
	require.Len(t, s.Column("zone").Of, len(slots))
}

func summarize(s *Snapshot, keys []string) summary {
	keysOf := func(l []*PodInfo) []string {
		var out []string
		for _, p := range l {
			out = append(out, p.Key)
		}
		return out
	}
	lv := s.Labels()
	out := summary{Columns: map[string]columnSummary{}, Pods: map[string]string{}, NumPods: s.NumPods()}
	for _, ni := range NodesOf(s) {
		ns := nodeSummary{Name: ni.Name, Node: ni.Node, Unschedulable: ni.Unschedulable, Taints: ni.Taints,
			Pods: keysOf(ni.Pods), Order: keysOf(ni.Order), WithAffinity: keysOf(ni.PodsWithAffinity), WithAnti: keysOf(ni.PodsWithRequiredAntiAffinity),
			Allocatable: ni.Allocatable, Requested: ni.Requested, NonZero: ni.NonZeroRequested, ImageStates: ni.ImageStates}
		ns.UsedPorts = slices.SortedFunc(slices.Values(ni.UsedPorts), func(a, b HostPort) int { return int(a.Port - b.Port) })
		nl := lv.Node(ni.Index)
		for _, id := range nl.Sets {
			deleting := id < 0
			if deleting {
				id = -1 - id
			}
			set := lv.Sets[id]
			ns.Sets = append(ns.Sets, fmt.Sprintf("%s %v %v", set.Namespace, set.Labels, deleting))
		}
		for k := range ns.Terms {
			for _, r := range TermKind(k).Refs(nl) {
				t := lv.Terms[r.Term]
				ns.Terms[k] = append(ns.Terms[k], fmt.Sprintf("%s %v %s %d", t.TopologyKey, sortedNamespaces(&t), selectorKey(t.Selector), r.Weight))
			}
		}
		out.Nodes = append(out.Nodes, ns)
	}
	for _, key := range []string{"zone", "disk"} {
		c := s.Column(key)
		cs := columnSummary{Values: c.Values, ID: c.ID, Of: map[string]int32{}}
		for _, ni := range NodesOf(s) {
			cs.Of[ni.Name] = c.Of[ni.Index]
		}
		out.Columns[key] = cs
	}
	for _, k := range keys {
		if _, ni, ok := PodOf(s, k); ok {
			out.Pods[k] = ni.Name
		}
	}
	return out
}

// occurrencesOf is s's Occurrences resolved: by label set (namespace and
// labels), the node names of its pods (with "-" for a pod being deleted),
// changed nodes read from the view as a reader does.
func occurrencesOf(s *Snapshot) map[string][]string {
	lv := s.Labels()
	occ := s.Occurrences()
	nodes := SlotsOf(s)
	out := map[string][]string{}
	setName := func(id int32) string { return fmt.Sprintf("%s %v", lv.Sets[id].Namespace, lv.Sets[id].Labels) }
	for id := range int32(occ.NumSets()) {
		for _, n := range occ.BasePods(id) {
			name := "+"
			if n < 0 {
				n, name = -1-n, "-"
			}
			if !occ.Stale(n) {
				out[setName(id)] = append(out[setName(id)], name+nodes[n].Name)
			}
		}
	}
	for _, i := range occ.Changed() {
		for _, id := range lv.Node(int(i)).Sets {
			name := "+"
			if id < 0 {
				id, name = -1-id, "-"
			}
			out[setName(id)] = append(out[setName(id)], name+nodes[i].Name)
		}
	}
	for _, l := range out {
		slices.Sort(l)
	}
	return out
}

// TestNodeViewChainsEqualNew: chains of mixed views (pods bound and
// removed, nodes added, removed and replaced) hold at every step what New
// builds from the same objects (nodes in name order, each at its slot,
// pods in both orders, sums, ports, image counts, label columns, interned
// pods and terms, occurrences, pod locations), whatever was asked of the
// snapshots on the way (the label index's cached lists differ with it);
// each view leaves its receiver as it was.
func TestNodeViewChainsEqualNew(t *testing.T) {
	zones, disks, images := []string{"a", "b", "c"}, []string{"ssd", "hdd"}, []string{"img:1", "img:2", "img:3"}
	genNode := func(t *rapid.T, name string) *corev1.Node {
		labels := map[string]string{"zone": rapid.SampledFrom(zones).Draw(t, "zone")}
		if rapid.Bool().Draw(t, "has disk") {
			labels["disk"] = rapid.SampledFrom(disks).Draw(t, "disk")
		}
		n := node(name, labels, rl("cpu", rapid.SampledFrom([]string{"1", "4"}).Draw(t, "cpu"), "memory", "8Gi", "pods", "110"))
		for _, img := range rapid.SliceOfDistinct(rapid.SampledFrom(images), func(s string) string { return s }).Draw(t, "images") {
			n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: []string{img}, SizeBytes: rapid.Int64Range(1, 1<<30).Draw(t, "size")})
		}
		if rapid.IntRange(0, 3).Draw(t, "tainted") == 0 {
			n.Spec.Taints = []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}
		}
		return n
	}
	// Host ports are the pod's own: removing a pod takes its ports off
	// the node even when another pod declared them (HostPortInfo.Remove),
	// which New from the remaining pods would not.
	port := int32(0)
	genPod := func(t *rapid.T, name, on string) *corev1.Pod {
		ns := rapid.SampledFrom([]string{"default", "other"}).Draw(t, "namespace")
		p := pod(ns, name, on, rl("cpu", rapid.SampledFrom([]string{"100m", "1"}).Draw(t, "pod cpu")))
		p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"x", "y"}).Draw(t, "app")}
		switch rapid.IntRange(0, 4).Draw(t, "affinity") {
		case 0:
			p.Spec.Affinity = antiAffinity("app", p.Labels["app"], rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key"))
		case 2:
			// Required anti-affinity alone: a pod with affinity that
			// existing-pod scoring does not count.
			a := antiAffinity("app", p.Labels["app"], "zone")
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = nil
			p.Spec.Affinity = a
		case 1:
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
				Weight: 10, PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "zone"}}}}}
		}
		if rapid.IntRange(0, 3).Draw(t, "host port") == 0 {
			port++
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: port}}
		}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			p.DeletionTimestamp = &metav1.Time{}
		}
		return p
	}
	rapid.Check(t, func(t *rapid.T) {
		port = 0
		var nodes []*corev1.Node
		for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
			nodes = append(nodes, genNode(t, fmt.Sprintf("n%d", i)))
		}
		// Per node name, its pods in framework order (binds append, a
		// removal moves the last pod into its slot).
		order := map[string][]*corev1.Pod{}
		var keys []string
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			n := rapid.SampledFrom(nodes).Draw(t, "on").Name
			p := genPod(t, fmt.Sprintf("p%d", i), n)
			order[n] = append(order[n], p)
			keys = append(keys, p.Namespace+"/"+p.Name)
		}
		input := func() Input { return inputOf(nodes, order) }
		cur, _, err := New(input())
		require.NoError(t, err)
		// A large input's New prewarms the index as the first question
		// would; a small one's is built on the first question, here or
		// not at all before the first view.
		if rapid.Bool().Draw(t, "asked first") {
			summarize(cur, keys)
		}
		added := 0
		for step := range rapid.IntRange(1, 30).Draw(t, "steps") {
			before := summarize(cur, keys)
			beforeOcc := occurrencesOf(cur)
			var next *Snapshot
			podView := true
			kinds := []string{"bind", "add nodes"}
			if len(nodes) > 0 {
				kinds = append(kinds, "remove nodes", "replace node", "unbind")
			}
			switch kind := rapid.SampledFrom(kinds).Draw(t, "kind"); kind {
			case "bind":
				if len(nodes) == 0 {
					continue
				}
				n := rapid.SampledFrom(nodes).Draw(t, "on").Name
				p := genPod(t, fmt.Sprintf("q%d", added), n)
				added++
				next, err = cur.WithPod(p)
				order[n] = append(order[n], p)
				keys = append(keys, p.Namespace+"/"+p.Name)
			case "unbind":
				n := rapid.SampledFrom(nodes).Draw(t, "from").Name
				l := order[n]
				if len(l) == 0 {
					continue
				}
				k := rapid.IntRange(0, len(l)-1).Draw(t, "pod")
				next = cur.WithoutPods(l[k].Namespace + "/" + l[k].Name)
				l[k] = l[len(l)-1]
				order[n] = l[:len(l)-1]
			case "add nodes":
				var more []*corev1.Node
				for range rapid.IntRange(1, 3).Draw(t, "added") {
					// "n12" sorts between "n1" and "n2".
					more = append(more, genNode(t, fmt.Sprintf("n%d", 10+added)))
					added++
				}
				next, err = cur.WithNodes(more...)
				nodes = append(nodes, more...)
				podView = false
			case "remove nodes":
				var names []string
				for range rapid.IntRange(1, min(3, len(nodes))).Draw(t, "removed") {
					i := rapid.IntRange(0, len(nodes)-1).Draw(t, "node")
					names = append(names, nodes[i].Name)
					delete(order, nodes[i].Name)
					nodes = slices.Delete(nodes, i, i+1)
				}
				next, err = cur.WithoutNodes(names...)
				podView = false
			case "replace node":
				i := rapid.IntRange(0, len(nodes)-1).Draw(t, "node")
				n := genNode(t, nodes[i].Name)
				if rapid.Bool().Draw(t, "spec only") {
					n = nodes[i].DeepCopy()
					n.Spec.Unschedulable = !n.Spec.Unschedulable
				}
				next, err = cur.WithNode(n)
				podView = cur.SharesIndex(next)
				nodes[i] = n
			}
			require.NoError(t, err)
			changed, ok := next.ChangedFrom(cur)
			require.Equal(t, podView, ok, "step %d: ChangedFrom", step)
			require.Equal(t, podView, next.SharesIndex(cur), "step %d: SharesIndex", step)
			for _, i := range changed {
				require.NotSame(t, SlotsOf(cur)[i], SlotsOf(next)[i])
			}
			want, _, err := New(input())
			require.NoError(t, err)
			checkSlots(t, next, false)
			checkSlots(t, want, true)
			// Asked in either order: the view first, or its receiver again.
			if rapid.Bool().Draw(t, "receiver first") {
				require.Equal(t, before, summarize(cur, keys), "step %d: receiver changed", step)
			}
			require.Equal(t, summarize(want, keys), summarize(next, keys), "step %d", step)
			require.Equal(t, occurrencesOf(want), occurrencesOf(next), "step %d: occurrences", step)
			require.Equal(t, before, summarize(cur, keys), "step %d: receiver changed", step)
			require.Equal(t, beforeOcc, occurrencesOf(cur), "step %d: receiver's occurrences changed", step)
			for name, n := range maps.All(want.imageNodes) {
				require.Equal(t, n, ImageNodesOf(next, name))
			}
			require.Len(t, next.imageNodes, len(want.imageNodes))
			// MayHavePodAffinity is exact for New and may only err on the
			// side of true for a view.
			require.Equal(t, anyPodAffinity(want), MayHavePodAffinity(want), "step %d: New's MayHavePodAffinity", step)
			if anyPodAffinity(next) {
				require.True(t, MayHavePodAffinity(next), "step %d: a view's MayHavePodAffinity", step)
			}
			// So is MayHaveScoredPodAffinity (genPod's required
			// anti-affinity alone is not scored, its other terms are).
			require.Equal(t, anyScoredAffinity(want), MayHaveScoredPodAffinity(want), "step %d: New's MayHaveScoredPodAffinity", step)
			if anyScoredAffinity(next) {
				require.True(t, MayHaveScoredPodAffinity(next), "step %d: a view's MayHaveScoredPodAffinity", step)
			}
			cur = next
		}
	})
}

// TestNodeViewsConcurrent: node views made and asked from several
// goroutines while their receiver is asked too (they share the receiver's
// interning tables and its lock); run with -race.
func TestNodeViewsConcurrent(t *testing.T) {
	var nodes []*corev1.Node
	var pods []*corev1.Pod
	for i := range 40 {
		nodes = append(nodes, node(fmt.Sprintf("n%02d", i), map[string]string{"zone": fmt.Sprintf("z%d", i%3)}, nil))
		for k := range 3 {
			p := pod("default", fmt.Sprintf("p%d-%d", i, k), nodes[i].Name, nil)
			p.Labels = map[string]string{"app": fmt.Sprintf("a%d", k)}
			p.Spec.Affinity = antiAffinity("app", p.Labels["app"], "zone")
			pods = append(pods, p)
		}
	}
	snap, _, err := New(Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	snap.Labels()
	// Each goroutine's change, as the objects New is given.
	change := func(g int) ([]*corev1.Node, *corev1.Node) {
		switch g % 3 {
		case 0:
			return slices.Delete(slices.Clone(nodes), g, g+1), nil
		case 1:
			n := node(fmt.Sprintf("n%02d-new", g), map[string]string{"zone": "z9"}, nil)
			return append(slices.Clone(nodes), n), n
		default:
			n := nodes[g].DeepCopy()
			n.Labels = map[string]string{"zone": "z8"}
			out := slices.Clone(nodes)
			out[g] = n
			return out, n
		}
	}
	extra := func(g int) *corev1.Pod { return pod("default", fmt.Sprintf("q%d", g), nodes[20].Name, nil) }
	got := make([]summary, 8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			_, n := change(g)
			var v *Snapshot
			var err error
			switch g % 3 {
			case 0:
				v, err = snap.WithoutNodes(nodes[g].Name)
			case 1:
				v, err = snap.WithNodes(n)
			default:
				v, err = snap.WithNode(n)
			}
			if err != nil {
				panic(err)
			}
			v.Occurrences()
			snap.Occurrences()
			w, err := v.WithPod(extra(g))
			if err != nil {
				panic(err)
			}
			w.Occurrences()
			got[g] = summarize(w, nil)
		})
	}
	wg.Wait()
	for g := range 8 {
		in, _ := change(g)
		want, _, err := New(Input{Nodes: in, Pods: append(slices.Clone(pods), extra(g))})
		require.NoError(t, err)
		w := summarize(want, nil)
		// The objects of the nodes replaced are the goroutines' own.
		for i := range w.Nodes {
			w.Nodes[i].Node = got[g].Nodes[i].Node
		}
		require.Equal(t, w, got[g], "goroutine %d", g)
	}
	fresh, _, err := New(Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	require.Equal(t, summarize(fresh, nil), summarize(snap, nil))
}

// TestNodeViewChurn: a long chain of node views that remove a node, add
// one and bind a pod, again and again, leaves more empty slots than nodes
// until the view is renumbered (reshape); at every step it holds what New
// builds from the same objects, asked or not on the way.
func TestNodeViewChurn(t *testing.T) {
	var nodes []*corev1.Node
	order := map[string][]*corev1.Pod{}
	for i := range 4 {
		nodes = append(nodes, node(fmt.Sprintf("n%03d", i*50), map[string]string{"zone": fmt.Sprintf("z%d", i%3)}, nil))
	}
	input := func() Input { return inputOf(nodes, order) }
	cur, _, err := New(input())
	require.NoError(t, err)
	renumbered := false
	for step := range 200 {
		gone := nodes[(step*7)%len(nodes)]
		nodes = slices.DeleteFunc(nodes, func(n *corev1.Node) bool { return n == gone })
		delete(order, gone.Name)
		next, err := cur.WithoutNodes(gone.Name)
		require.NoError(t, err)
		// Names before, between and after the others.
		n := node(fmt.Sprintf("n%03d", (step*37)%200), map[string]string{"zone": fmt.Sprintf("z%d", step%4)}, nil)
		if _, ok := NodeOf(next, n.Name); ok {
			n.Name += "x"
		}
		if next, err = next.WithNodes(n); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, n)
		on := nodes[step%len(nodes)].Name
		p := pod("default", fmt.Sprintf("p%d", step), on, nil)
		p.Labels = map[string]string{"app": fmt.Sprintf("a%d", step%2)}
		p.Spec.Affinity = antiAffinity("app", "a0", "zone")
		order[on] = append(order[on], p)
		if next, err = next.WithPod(p); err != nil {
			t.Fatal(err)
		}
		// Only a renumbering gives fewer slots.
		renumbered = renumbered || len(SlotsOf(next)) < len(SlotsOf(cur))
		want, _, err := New(input())
		require.NoError(t, err)
		checkSlots(t, next, false)
		if step%3 == 0 {
			require.Equal(t, summarize(want, nil), summarize(next, nil), "step %d", step)
			require.Equal(t, occurrencesOf(want), occurrencesOf(next), "step %d: occurrences", step)
		}
		require.LessOrEqual(t, len(SlotsOf(next)), 2*len(NodesOf(next))+64+1)
		cur = next
	}
	require.True(t, renumbered)
}

// inputOf is the input a chain of node views stands for: the nodes in name
// order, each node's pods (order[name]) in their framework order.
func inputOf(nodes []*corev1.Node, order map[string][]*corev1.Pod) Input {
	sorted := slices.SortedFunc(slices.Values(nodes), func(a, b *corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	in := Input{Nodes: sorted}
	for _, n := range sorted {
		in.Pods = append(in.Pods, order[n.Name]...)
	}
	return in
}

// anyPodAffinity reports whether a node of s has a pod with pod affinity.
// anyScoredAffinity reports whether a bound pod of s has a term that
// existing-pod scoring counts, read from every pod's terms.
func anyScoredAffinity(s *Snapshot) bool {
	for _, n := range s.nodes {
		for _, p := range n.Pods {
			if len(p.RequiredAffinityTerms())+len(p.PreferredAffinityTerms())+len(p.PreferredAntiAffinityTerms()) > 0 {
				return true
			}
		}
	}
	return false
}

func anyPodAffinity(s *Snapshot) bool {
	for _, n := range s.nodes {
		if len(n.PodsWithAffinity) > 0 {
			return true
		}
	}
	return false
}
