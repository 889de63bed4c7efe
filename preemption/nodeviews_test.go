package preemption_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
)

// viewModel is what a chain of views should hold, as objects: the nodes
// and, per node name, its bound pods in framework.NodeInfo's slice order
// (binds append; a removal moves the last pod into the removed one's slot,
// framework/types.go removeFromSlice), which a snapshot built from scratch
// with the pods listed in that order has too.
type viewModel struct {
	c     *placementtest.Cluster
	nodes []*corev1.Node
	pods  map[string][]*corev1.Pod
}

func (m *viewModel) input() placement.SnapshotInput {
	nodes := slices.Clone(m.nodes)
	slices.SortFunc(nodes, func(a, b *corev1.Node) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	var pods []*corev1.Pod
	for _, n := range nodes {
		pods = append(pods, m.pods[n.Name]...)
	}
	return placement.SnapshotInput{Nodes: nodes, Pods: pods, PDBs: m.c.PDBs, Namespaces: m.c.Namespaces}
}

// viewAnswers is every pending pod's Evaluate result and ScheduleQueue's
// answer (preemption included) on snap.
func viewAnswers(t *rapid.T, snap *placement.Snapshot, pending []*corev1.Pod) ([]*placement.Result, preemption.QueueResult) {
	var rs []*placement.Result
	for _, p := range pending {
		r, err := placement.Evaluate(snap, p, placement.Options{})
		require.NoError(t, err)
		rs = append(rs, r)
	}
	qr, err := preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{KeepNodeStatuses: true})
	require.NoError(t, err)
	return rs, queueAnswer(qr)
}

// TestViewChainsEqualRebuild: a long chain of mixed what-ifs (bind and remove
// pods, add, remove and replace nodes, each view made from the last)
// answers at every step as a snapshot built from scratch with the same
// objects: every filter status, score and best node of every pending pod
// (topology spread, inter-pod affinity and image locality included), and
// the queue's decisions and preemptions. A pod compiled on the step's
// receiver moves to a view of the same nodes (Compiled.On) with the same
// answer, and is refused by a node view. The snapshot the chain started
// from still answers as before.
func TestViewChainsEqualRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 5, MaxPods: 12, MaxPending: 2, Crowded: rapid.Bool().Draw(t, "crowded"), Preemption: true}).Draw(t, "cluster")
		m := &viewModel{c: c, nodes: slices.Clone(c.Nodes), pods: map[string][]*corev1.Pod{}}
		for _, p := range c.Pods {
			m.pods[p.Spec.NodeName] = append(m.pods[p.Spec.NodeName], p)
		}
		start, _, err := placement.NewSnapshot(c.SnapshotInput())
		require.NoError(t, err)
		startRs, startQ := viewAnswers(t, start, c.Pending)
		cur := start
		nextNode, nextPod := 0, 0
		for step := range rapid.IntRange(1, 20).Draw(t, "steps") {
			compiled, err := placement.Compile(cur, c.Pending[0], placement.Options{})
			require.NoError(t, err)
			var next *placement.Snapshot
			sameNodes := true // a view of the same nodes (Compiled.On moves to it)
			kinds := []string{"bind", "add nodes"}
			if len(m.nodes) > 0 {
				kinds = append(kinds, "remove nodes", "replace node")
			}
			if len(m.pods) > 0 {
				kinds = append(kinds, "unbind")
			}
			switch kind := rapid.SampledFrom(kinds).Draw(t, "kind"); kind {
			case "bind":
				if len(m.nodes) == 0 {
					continue
				}
				p := placementtest.PodOf(placementtest.Config{Preemption: true}, fmt.Sprintf("added-%d", nextPod)).Draw(t, "pod")
				nextPod++
				n := rapid.SampledFrom(m.nodes).Draw(t, "on")
				p.Spec.NodeName = n.Name
				// Later than every generated pod, each its own time.
				started := metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Minute * time.Duration(nextPod)))
				p.Status = corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &started}
				next, err = cur.WithPod(p)
				m.pods[n.Name] = append(m.pods[n.Name], p)
			case "unbind":
				var names []string
				for name, l := range m.pods {
					if len(l) > 0 {
						names = append(names, name)
					}
				}
				if len(names) == 0 {
					continue
				}
				slices.Sort(names)
				name := rapid.SampledFrom(names).Draw(t, "from")
				l := m.pods[name]
				k := rapid.IntRange(0, len(l)-1).Draw(t, "pod")
				if sharesHostPort(l, k) {
					// Removing it takes the port off the node although
					// another pod declares it (HostPortInfo.Remove), which
					// a snapshot built from the remaining pods does not.
					continue
				}
				next, err = cur.WithoutPods(l[k].Namespace + "/" + l[k].Name)
				l[k] = l[len(l)-1]
				m.pods[name] = l[:len(l)-1]
			case "add nodes":
				var added []*corev1.Node
				for range rapid.IntRange(1, 2).Draw(t, "added") {
					// Names sort among the others ("node-12" < "node-2").
					added = append(added, placementtest.NodeOf(placementtest.Config{}, fmt.Sprintf("node-%d", 10+nextNode)).Draw(t, "node"))
					nextNode++
				}
				next, err = cur.WithNodes(added...)
				m.nodes = append(m.nodes, added...)
				sameNodes = false
			case "remove nodes":
				k := rapid.IntRange(1, min(2, len(m.nodes))).Draw(t, "removed")
				var names []string
				for range k {
					i := rapid.IntRange(0, len(m.nodes)-1).Draw(t, "node")
					names = append(names, m.nodes[i].Name)
					delete(m.pods, m.nodes[i].Name)
					m.nodes = slices.Delete(m.nodes, i, i+1)
				}
				next, err = cur.WithoutNodes(names...)
				sameNodes = false
			case "replace node":
				i := rapid.IntRange(0, len(m.nodes)-1).Draw(t, "node")
				n := m.nodes[i].DeepCopy()
				switch change := rapid.SampledFrom([]string{"zone", "disk", "cpu", "taint", "cordon", "image"}).Draw(t, "change"); change {
				case "zone":
					n.Labels[corev1.LabelTopologyZone] = rapid.SampledFrom(placementtest.Zones).Draw(t, "zone")
				case "disk":
					delete(n.Labels, "disk")
					if rapid.Bool().Draw(t, "has disk") {
						n.Labels["disk"] = rapid.SampledFrom(placementtest.DiskTypes).Draw(t, "disk")
					}
				case "cpu":
					n.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse(rapid.SampledFrom([]string{"500m", "1", "2", "8"}).Draw(t, "cpu"))
				case "taint":
					if len(n.Spec.Taints) > 0 {
						n.Spec.Taints = nil
					} else {
						n.Spec.Taints = []corev1.Taint{{Key: rapid.SampledFrom(placementtest.TaintKeys).Draw(t, "taint"), Effect: corev1.TaintEffectNoSchedule}}
					}
				case "cordon":
					n.Spec.Unschedulable = !n.Spec.Unschedulable
				case "image":
					n.Status.Images = nil
					if rapid.Bool().Draw(t, "has image") {
						n.Status.Images = []corev1.ContainerImage{{Names: []string{rapid.SampledFrom(placementtest.Images).Draw(t, "image")},
							SizeBytes: rapid.Int64Range(50<<20, 900<<20).Draw(t, "size")}}
					}
				}
				next, err = cur.WithNode(n)
				m.nodes[i] = n
				sameNodes = wrap.Cast[cluster.Snapshot](cur).SharesIndex(wrap.Cast[cluster.Snapshot](next))
			}
			require.NoError(t, err, "step %d", step)
			rebuilt, _, err := placement.NewSnapshot(m.input())
			require.NoError(t, err)
			gotRs, gotQ := viewAnswers(t, next, c.Pending)
			wantRs, wantQ := viewAnswers(t, rebuilt, c.Pending)
			require.Equal(t, wantRs, gotRs, "step %d", step)
			require.Equal(t, wantQ, gotQ, "step %d", step)
			moved, err := compiled.On(next)
			if sameNodes {
				require.NoError(t, err)
				require.Equal(t, wantRs[0], moved.Evaluate(), "step %d: Compiled.On", step)
			} else {
				require.ErrorIs(t, err, placement.ErrNotAView)
			}
			cur = next
		}
		rs, q := viewAnswers(t, start, c.Pending)
		require.Equal(t, startRs, rs)
		require.Equal(t, startQ, q)
	})
}

// sharesHostPort reports whether pods[k] declares a host port that another
// of pods declares too.
func sharesHostPort(pods []*corev1.Pod, k int) bool {
	ports := func(p *corev1.Pod) map[int32]bool {
		out := map[int32]bool{}
		for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for _, c := range cs {
				for _, port := range c.Ports {
					if port.HostPort > 0 {
						out[port.HostPort] = true
					}
				}
			}
		}
		return out
	}
	mine := ports(pods[k])
	for j, p := range pods {
		if j == k {
			continue
		}
		for port := range ports(p) {
			if mine[port] {
				return true
			}
		}
	}
	return false
}
