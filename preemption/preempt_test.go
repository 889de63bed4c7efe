package preemption

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

type fakeNode struct {
	name     string
	code     sched.Code
	capacity int64
	pods     []*corev1.Pod
}

func runFake(pod *corev1.Pod, want int64, fns []fakeNode, pdbs []*policyv1.PodDisruptionBudget, opts Options) *Result {
	var nodes []*cluster.NodeInfo
	var codes []sched.Code
	caps := map[string]int64{}
	for i, f := range fns {
		n := nodeOf(f.name, f.pods...)
		n.Index = i
		nodes = append(nodes, n)
		codes = append(codes, f.code)
		caps[f.name] = f.capacity
	}
	newTrials := func() func(n *cluster.NodeInfo) trial {
		return func(n *cluster.NodeInfo) trial { return newCPUTrial(n, caps[n.Name], want) }
	}
	res, err := preempt(nodes, pod, codes, newTrials, compileBudgets(pdbs, opts.PDBRule), opts, nil)
	if err != nil {
		panic(err) // the CPU trial never fails
	}
	return res
}

// TestPreempt mirrors Evaluator.Preempt / findCandidates / DryRunPreemption.
func TestPreempt(t *testing.T) {
	preemptor := mkPod("p", prio(10))
	full := func(name string, code sched.Code, pods ...*corev1.Pod) fakeNode {
		return fakeNode{name: name, code: code, capacity: 1000, pods: pods}
	}
	t.Run("preemptionPolicy Never", func(t *testing.T) {
		r := runFake(mkPod("p", prio(10), policy(corev1.PreemptNever)), 500,
			[]fakeNode{full("a", sched.Unschedulable, mkPod("v", prio(1), cpu(1000)))}, nil, Options{})
		assert.Equal(t, sched.Status{Code: sched.Unschedulable, Plugin: "DefaultPreemption",
			Reasons: []string{"preemption: not eligible due to preemptionPolicy=Never."}}, r.Status)
		assert.Empty(t, r.Candidates)
	})
	t.Run("no potential node", func(t *testing.T) {
		r := runFake(preemptor, 500, []fakeNode{
			full("a", sched.UnschedulableAndUnresolvable, mkPod("v", prio(1), cpu(1000))),
			full("b", sched.UnschedulableAndUnresolvable)}, nil, Options{})
		assert.Equal(t, "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", r.Message())
		assert.Equal(t, 0, r.PotentialNodes)
	})
	t.Run("dry-run statuses in the histogram", func(t *testing.T) {
		r := runFake(preemptor, 500, []fakeNode{
			full("a", sched.Unschedulable, mkPod("eq", prio(10), cpu(1000))),
			full("b", sched.Unschedulable, mkPod("eq2", prio(10), cpu(600)), mkPod("low", prio(1), cpu(400))),
			full("c", sched.UnschedulableAndUnresolvable)}, nil, Options{})
		assert.Equal(t, "preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.", r.Message())
		assert.Equal(t, []NodeStatus{
			{Node: "a", Status: sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: []string{ReasonNoVictims}}},
			{Node: "b", Status: sched.Status{Code: sched.Unschedulable, Plugin: sched.NodeResourcesFit, Reasons: []string{"Insufficient cpu"}}},
		}, r.Rejected)
	})
	t.Run("nominated: fewest PDB violations wins over fewer victims", func(t *testing.T) {
		r := runFake(preemptor, 1000, []fakeNode{
			full("a", sched.Unschedulable, mkPod("g", prio(1), cpu(1000), labelled("app", "g"))),
			full("b", sched.Unschedulable, mkPod("x", prio(1), cpu(500)), mkPod("y", prio(1), cpu(500))),
		}, []*policyv1.PodDisruptionBudget{mkPDB("pg", 0, sel("app", "g"))}, Options{})
		assert.True(t, r.Status.OK())
		assert.Empty(t, r.Message())
		assert.Equal(t, "b", r.NominatedNode)
		assert.Equal(t, []string{"default/x", "default/y"}, victimKeys(r.Victims))
		assert.Len(t, r.Candidates, 2)
		assert.Equal(t, FewestPDBViolations, r.Candidates[0].LostAt)
		assert.Equal(t, 1, r.Candidates[0].NumPDBViolations)
		assert.Equal(t, []string{"default/pg"}, r.Candidates[0].Victims[0].BrokenPDBs)
	})
	t.Run("terminating victim on the nominated node", func(t *testing.T) {
		v := mkPod("v", prio(1), cpu(1000))
		now := metav1.NewTime(t0)
		v.DeletionTimestamp = &now
		v.Status.Conditions = []corev1.PodCondition{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: corev1.PodReasonPreemptionByScheduler}}
		p := mkPod("p", prio(10))
		p.Status.NominatedNodeName = "a"
		r := runFake(p, 500, []fakeNode{full("a", sched.Unschedulable, v)}, nil, Options{})
		assert.Equal(t, "preemption: not eligible due to a terminating pod on the nominated node.", r.Message())
		r = runFake(p, 500, []fakeNode{full("a", sched.UnschedulableAndUnresolvable, v)}, nil, Options{})
		assert.Equal(t, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.", r.Message())
	})
}

// TestSampling mirrors DryRunPreemption's early stop with
// GetOffsetAndNumCandidates: it stops once it has a PDB-respecting
// candidate and enough candidates in all.
func TestSampling(t *testing.T) {
	var fns []fakeNode
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		fns = append(fns, fakeNode{name: n, code: sched.Unschedulable, capacity: 1000,
			pods: []*corev1.Pod{mkPod("v-"+n, prio(1), cpu(1000))}})
	}
	r := runFake(mkPod("p", prio(10)), 500, fns, nil, Options{Sampling: &Sampling{MinCandidateNodesAbsolute: 2, Offset: 3}})
	var got []string
	for _, c := range r.Candidates {
		got = append(got, c.Node)
	}
	assert.Equal(t, []string{"d", "e"}, got)
	assert.Equal(t, int32(100), (&Sampling{}).numCandidates(1000))
	assert.Equal(t, int32(150), (&Sampling{}).numCandidates(1500))
	assert.Equal(t, int32(7), (&Sampling{}).numCandidates(7))
}

// TestRejectedInNodeOrder checks that Result.Rejected lists the visited
// nodes that cannot help in node-name order whatever the offset the dry
// runs start from, when they stop early and when they wrap around.
func TestRejectedInNodeOrder(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f", "g"}
	// Capacity 100 cannot hold the preemptor's 500 even without victims;
	// 1000 can once its pod of 600 is gone.
	helps := map[string]bool{"b": true, "e": true, "f": true}
	var fns []fakeNode
	for _, n := range names {
		capacity := int64(100)
		if helps[n] {
			capacity = 1000
		}
		fns = append(fns, fakeNode{name: n, code: sched.Unschedulable, capacity: capacity,
			pods: []*corev1.Pod{mkPod("v-"+n, prio(1), cpu(600))}})
	}
	for _, limit := range []int32{1, 2, int32(len(names))} {
		for offset := range int32(len(names)) {
			// The visit: from offset on, wrapping around, until limit
			// candidates were found.
			var want []string
			found := int32(0)
			for i := range len(names) {
				n := names[(int(offset)+i)%len(names)]
				if helps[n] {
					if found++; found >= limit {
						break
					}
					continue
				}
				want = append(want, n)
			}
			slices.Sort(want)
			r := runFake(mkPod("p", prio(10)), 500, fns, nil,
				Options{Sampling: &Sampling{MinCandidateNodesAbsolute: limit, Offset: offset}})
			var got []string
			for _, s := range r.Rejected {
				got = append(got, s.Node)
			}
			assert.Equal(t, want, got, "limit %d, offset %d", limit, offset)
		}
	}
}
