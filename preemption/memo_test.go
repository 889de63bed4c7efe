package preemption

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/fastpath"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// A scheduling loop reuses, per class of equivalent pods, the node-local
// verdicts and raw scores of the nodes no binding or eviction changed
// (placement's memo), and hands the other pods' decisions one set of
// per-node arrays. The run must be the one that computes every pod from
// scratch, each decision with arrays of its own: same outcomes, nodes,
// scores, messages, node statuses, preemptions and final placements.
func TestQueueMemoMatchesFromScratch(t *testing.T) {
	families := []placementtest.Family{placementtest.AnyFamily, placementtest.Resources, placementtest.NodeSelection,
		placementtest.Spread, placementtest.InterPod, placementtest.HostPorts, placementtest.PriorityClasses}
	rapid.Check(t, func(t *rapid.T) {
		cfg := placementtest.Config{
			Owners:     true, // replicas of a few ReplicaSets: classes with several pods
			MaxPending: 12,
			Family:     rapid.SampledFrom(families).Draw(t, "family"),
			Crowded:    rapid.Bool().Draw(t, "crowded"),
			Preemption: rapid.Bool().Draw(t, "preemption"),
			Mixed:      rapid.Bool().Draw(t, "mixed"),
			Extended:   rapid.Bool().Draw(t, "extended"),
			Overcommit: rapid.Bool().Draw(t, "overcommit"),
		}
		c := placementtest.ClusterOf(cfg).Draw(t, "cluster")
		// Classes big enough for a memo (minMemoClass): more replicas of
		// a drawn pending pod, under its workload.
		copies := rapid.IntRange(0, 2*minMemoClass).Draw(t, "copies")
		tmpl := c.Pending[rapid.IntRange(0, len(c.Pending)-1).Draw(t, "template")]
		for i := range copies {
			p := tmpl.DeepCopy()
			p.Name = fmt.Sprintf("%s-copy-%d", tmpl.Name, i)
			p.UID = types.UID(p.Name)
			c.Pending = append(c.Pending, p)
		}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: c.Nodes, Pods: c.Pods, PDBs: c.PDBs, Namespaces: c.Namespaces})
		require.NoError(t, err)
		opts := QueueOptions{KeepNodeStatuses: true}
		if rapid.Bool().Draw(t, "profile") {
			// A profile's weights (0 disables a plugin) and fit strategy
			// change what the memo's host selection sums.
			opts.Placement.ScoreWeights = map[string]int64{}
			for _, p := range []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread",
				"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"} {
				opts.Placement.ScoreWeights[p] = rapid.Int64Range(0, 3).Draw(t, "weight "+p)
			}
			opts.Placement.ScoringStrategy.Type = rapid.SampledFrom([]placement.ScoringStrategyType{
				placement.LeastAllocated, placement.MostAllocated}).Draw(t, "strategy")
		}
		if rapid.Bool().Draw(t, "parallel") {
			opts.Placement.Parallelism = 2
			// The loop's pipelined decisions (fastpath.CompileDecide) on
			// these small snapshots too.
			defer fastpath.SetPipelineMinNodes(fastpath.SetPipelineMinNodes(0))
		}
		// A short carry retires views (and reuses their node lists) within
		// these short queues too.
		carry := rapid.SampledFrom([]int{1, 2, maxCarry}).Draw(t, "carry")
		run := func(memo bool) *QueueResult {
			q, err := PrepareQueue(c.Pending, opts)
			require.NoError(t, err)
			q.noMemo, q.noBuffers = !memo, !memo
			q.carry = carry
			r, err := q.Schedule(snap)
			require.NoError(t, err)
			return r
		}
		with, without := run(true), run(false)
		for _, r := range with.Results {
			requireNodeStatusesReadable(t, r.NodeStatuses, len(snap.Nodes()))
		}
		require.Equal(t, without.QueueOrder, with.QueueOrder)
		require.Equal(t, without.Results, with.Results)
		require.Equal(t, without.Placements, with.Placements)
		require.Equal(t, without.Evicted, with.Evicted)
		require.Equal(t, placementsOf(without.Final), placementsOf(with.Final))
	})
}

// requireNodeStatusesReadable checks a pod's NodeStatuses against their
// own accessors: none, or one per node in strictly increasing name order,
// with All, At and Get agreeing.
func requireNodeStatusesReadable(t require.TestingT, s NodeStatuses, numNodes int) {
	if s.Len() == 0 {
		return
	}
	require.Equal(t, numNodes, s.Len())
	i := 0
	prev := ""
	for node, st := range s.All() {
		require.Equal(t, NodeStatus{Node: node, Status: st}, s.At(i))
		got, ok := s.Get(node)
		require.True(t, ok, node)
		require.Equal(t, st, got)
		require.Less(t, prev, node)
		prev = node
		i++
	}
	require.Equal(t, s.Len(), i)
}

// placementsOf maps every bound pod of snap to its node.
func placementsOf(snap *placement.Snapshot) map[string]string {
	out := map[string]string{}
	for _, n := range snap.Nodes() {
		for _, p := range n.Pods() {
			out[p.Key()] = n.Name()
		}
	}
	return out
}

// Pods of small workloads (fewer than minMemoClass pending pods each)
// with one spec share a class when enough of them have it (specPrint), so
// that they decide through one memo; pods whose specs differ do not.
func TestSmallWorkloadsShareClasses(t *testing.T) {
	var pending []*corev1.Pod
	for i := range 2 * minMemoClass {
		p := mkPod(fmt.Sprintf("p%d", i), cpu(100), labelled("app", fmt.Sprintf("a%d", i)))
		p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: fmt.Sprintf("rs%d", i), UID: types.UID(fmt.Sprintf("rs%d", i)), Controller: new(true)}}
		if i%2 == 1 {
			p.Spec.Containers[0].Image = "other"
		}
		pending = append(pending, p)
	}
	lone := mkPod("lone", cpu(300))
	lone.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs-lone", UID: "rs-lone", Controller: new(true)}}
	pending = append(pending, lone)
	q, err := PrepareQueue(pending, QueueOptions{})
	require.NoError(t, err)
	classOf := map[string]int{}
	for pos, p := range q.order {
		classOf[p.Name] = q.class[pos]
	}
	for i := 2; i < 2*minMemoClass; i++ {
		require.Equal(t, classOf[fmt.Sprintf("p%d", i%2)], classOf[fmt.Sprintf("p%d", i)], "p%d", i)
	}
	require.NotEqual(t, classOf["p0"], classOf["p1"])
	require.NotEqual(t, classOf["p0"], classOf["lone"])

	// Equal specs give equal prints, whatever the pods' names, labels and
	// owners, and whatever their maps' order.
	a, b := pending[0].DeepCopy(), pending[2].DeepCopy()
	a.Spec.NodeSelector = map[string]string{"x": "1", "y": "2", "z": "3"}
	b.Spec.NodeSelector = map[string]string{"z": "3", "y": "2", "x": "1"}
	require.Equal(t, specPrint(a), specPrint(b))
	b.Spec.NodeSelector["z"] = "4"
	require.NotEqual(t, specPrint(a), specPrint(b))
}
