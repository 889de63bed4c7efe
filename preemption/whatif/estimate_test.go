package whatif

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/preemption"
)

func ptrTo[T any](v T) *T { return &v }

// nodeTemplate draws, inside a property, a node template of the kit's
// node and, sometimes, a DaemonSet pod of the kit without topology
// constraints.
func nodeTemplate(t *rapid.T) NodeTemplate {
	tmpl := NodeTemplate{Node: placementtest.NodeOf(kit, "tmpl").Draw(t, "template node")}
	if rapid.Bool().Draw(t, "daemonset") {
		ds := placementtest.PodOf(kit, "ds").Draw(t, "ds")
		ds.Spec.Affinity, ds.Spec.TopologySpreadConstraints = nil, nil
		tmpl.DaemonSetPods = []*corev1.Pod{ds}
	}
	return tmpl
}

// referenceFirstFit is cluster-autoscaler's binpacking loop written the
// obvious way: every check builds the cluster from its objects and asks
// placement.Evaluate whether the node is feasible.
func referenceFirstFit(t *rapid.T, w world, pending []*corev1.Pod, tmpl NodeTemplate) (placements []preemption.PodPlacement, count int) {
	nodes := append([]*corev1.Node(nil), w.nodes...)
	pods := append([]*corev1.Pod(nil), w.pods...)
	fitsOn := func(p *corev1.Pod, node string) bool {
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: pods})
		require.NoError(t, err)
		r, err := placement.Evaluate(snap, p, placement.Options{})
		require.NoError(t, err)
		for _, nr := range r.Nodes {
			if nr.Node == node {
				return nr.Feasible
			}
		}
		return false
	}
	bind := func(p *corev1.Pod, node string) {
		b := p.DeepCopy()
		b.Spec.NodeName = node
		pods = append(pods, b)
		placements = append(placements, preemption.PodPlacement{Pod: namespace(p) + "/" + p.Name, Node: node})
	}
	// Groups: same controller and spec; the reference compares specs
	// directly.
	var groups [][]*corev1.Pod
	for _, p := range pending {
		joined := false
		for gi, g := range groups {
			q := g[0]
			if len(p.OwnerReferences) > 0 && len(q.OwnerReferences) > 0 && p.OwnerReferences[0].UID == q.OwnerReferences[0].UID &&
				reflect.DeepEqual(p.Spec, q.Spec) && reflect.DeepEqual(p.Labels, q.Labels) {
				groups[gi] = append(groups[gi], p)
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, []*corev1.Pod{p})
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		return decreasingScore(groups[i][0], tmpl.Node) > decreasingScore(groups[j][0], tmpl.Node)
	})
	var added []string
	used := map[string]bool{}
	for _, g := range groups {
		i := 0
		for ; i < len(g) && len(added) > 0; i++ {
			found := ""
			for k := len(added) - 1; k >= 0 && found == ""; k-- {
				if fitsOn(g[i], added[k]) {
					found = added[k]
				}
			}
			if found == "" {
				break
			}
			bind(g[i], found)
			used[found] = true
		}
		for _, p := range g[i:] {
			if len(added) > 0 {
				last := added[len(added)-1]
				if fitsOn(p, last) {
					bind(p, last)
					used[last] = true
					continue
				}
				if !used[last] {
					continue
				}
			}
			n, ds := tmpl.newNode(len(added))
			nodes = append(nodes, n)
			pods = append(pods, ds...)
			added = append(added, n.Name)
			if fitsOn(p, n.Name) {
				bind(p, n.Name)
				used[n.Name] = true
			}
		}
	}
	return placements, len(used)
}

func TestEstimateProperties(t *testing.T) {
	t.Run("FirstFit agrees with the reference binpacking loop", rapid.MakeCheck(func(t *rapid.T) {
		c := placementtest.ClusterOf(kit).Draw(t, "cluster")
		w, pending := worldOf(c), c.Pending
		tmpl := nodeTemplate(t)
		got, err := Estimate(w.snapshot(t), pending, tmpl, EstimateOptions{})
		require.NoError(t, err)
		want, count := referenceFirstFit(t, w, pending, tmpl)
		if want == nil {
			want = []preemption.PodPlacement{}
		}
		require.Equal(t, want, got.Placements)
		require.Equal(t, count, got.NodeCount)
		require.Equal(t, len(pending), len(got.Placements)+len(got.Unplaced))
	}))

	t.Run("Scheduler: with one node fewer, fewer pods are placed", rapid.MakeCheck(func(t *rapid.T) {
		c := placementtest.ClusterOf(kit).Draw(t, "cluster")
		w, pending := worldOf(c), c.Pending
		snap := w.snapshot(t)
		tmpl := nodeTemplate(t)
		got, err := Estimate(snap, pending, tmpl, EstimateOptions{Mode: Scheduler})
		require.NoError(t, err)
		require.Equal(t, len(pending), len(got.Placements)+len(got.Unplaced))
		if got.NodeCount == 0 {
			return
		}
		if got.NodeCount > 1 {
			fewer, err := Estimate(snap, pending, tmpl, EstimateOptions{Mode: Scheduler, MaxNodes: got.NodeCount - 1})
			require.NoError(t, err)
			require.Less(t, len(fewer.Placements), len(got.Placements))
			return
		}
		// No node at all: the queue on the cluster as it is.
		never := make([]*corev1.Pod, len(pending))
		for i, p := range pending {
			never[i] = Options{}.prepare(p)
		}
		qr, err := preemption.ScheduleQueue(snap, never, preemption.QueueOptions{})
		require.NoError(t, err)
		placedNow := 0
		for _, r := range qr.Results {
			if r.Outcome == preemption.Scheduled {
				placedNow++
			}
		}
		require.Less(t, placedNow, len(got.Placements))
	}))

	t.Run("the node limit bounds the nodes added", rapid.MakeCheck(func(t *rapid.T) {
		c := placementtest.ClusterOf(kit).Draw(t, "cluster")
		limit := rapid.IntRange(1, 3).Draw(t, "limit")
		got, err := Estimate(worldOf(c).snapshot(t), c.Pending, nodeTemplate(t), EstimateOptions{MaxNodes: limit})
		require.NoError(t, err)
		require.LessOrEqual(t, len(got.NewNodes), limit)
	}))
}

func TestEstimateEach(t *testing.T) {
	snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: []*corev1.Node{exampleNodeT("a")}})
	require.NoError(t, err)
	var backlog []*corev1.Pod
	for i := range 4 {
		p := benchTemplate("")
		p.Name = fmt.Sprintf("job-%d", i)
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3")}
		backlog = append(backlog, p)
	}
	small, big := exampleNodeT("small"), exampleNodeT("big")
	small.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse("4")
	big.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse("16")
	rs, err := EstimateEach(snap, backlog, []NodeTemplate{{Node: small}, {Node: big}}, EstimateOptions{})
	require.NoError(t, err)
	require.Equal(t, 4, rs[0].NodeCount, "one 3-cpu job per 4-cpu node")
	require.Equal(t, 1, rs[1].NodeCount, "all four on one 16-cpu node")
	_, err = EstimateEach(snap, backlog, []NodeTemplate{{}}, EstimateOptions{})
	require.ErrorIs(t, err, ErrInvalidQuestion)
}
