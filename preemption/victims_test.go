package preemption

import (
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// cpuTrial is a dry-run view that only checks CPU: the preemptor fits when
// the node's remaining pods and the preemptor request at most capacity.
type cpuTrial struct {
	capacity, want int64
	used           int64
	log            []string
}

func (c *cpuTrial) remove(p *cluster.PodInfo) { c.used -= milli(p.Pod) }
func (c *cpuTrial) removeBelow(_ int32, pods []*cluster.PodInfo) {
	for _, p := range pods {
		c.remove(p)
	}
}
func (c *cpuTrial) add(p *cluster.PodInfo) {
	c.used += milli(p.Pod)
	c.log = append(c.log, p.Pod.Name)
}
func (c *cpuTrial) filter() sched.Status {
	if c.used+c.want <= c.capacity {
		return sched.Status{}
	}
	return sched.Status{Code: sched.Unschedulable, Plugin: sched.NodeResourcesFit, Reasons: []string{"Insufficient cpu"}}
}

func (c *cpuTrial) err() error { return nil }

func milli(p *corev1.Pod) int64 {
	var m int64
	for _, c := range p.Spec.Containers {
		m += c.Resources.Requests.Cpu().MilliValue()
	}
	return m
}

func nodeOf(name string, pods ...*corev1.Pod) *cluster.NodeInfo {
	n := &cluster.NodeInfo{Name: name}
	for _, p := range pods {
		pi, err := cluster.NewPodInfo(p)
		if err != nil {
			panic(err)
		}
		n.Pods = append(n.Pods, pi)
	}
	return n
}

func newCPUTrial(n *cluster.NodeInfo, capacity, want int64) *cpuTrial {
	t := &cpuTrial{capacity: capacity, want: want}
	for _, pi := range n.Pods {
		t.used += milli(pi.Pod)
	}
	return t
}

func victimKeys(vs []Victim) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Key)
	}
	return out
}

// TestSelectVictims mirrors DefaultPreemption.SelectVictimsOnNode.
func TestSelectVictims(t *testing.T) {
	tests := []struct {
		name         string
		pods         []*corev1.Pod
		pdbs         []*policyv1.PodDisruptionBudget
		capacity     int64
		want         int64
		wantVictims  []string
		wantViol     int
		wantReprieve []string // order pods were put back
		wantStatus   sched.Status
	}{
		{
			name: "reprieve most important first: higher priority, then earlier start",
			pods: []*corev1.Pod{
				mkPod("old-low", prio(1), started(0), cpu(500)),
				mkPod("new-mid", prio(5), started(9), cpu(500)),
				mkPod("old-mid", prio(5), started(1), cpu(500)),
			},
			capacity: 1500, want: 1000,
			wantReprieve: []string{"old-mid", "new-mid", "old-low"},
			wantVictims:  []string{"default/new-mid", "default/old-low"},
		},
		{
			name: "a pod that no longer fits is skipped, later ones may still come back",
			pods: []*corev1.Pod{
				mkPod("big", prio(5), started(0), cpu(800)),
				mkPod("small", prio(1), started(0), cpu(200)),
			},
			capacity: 1000, want: 500,
			wantReprieve: []string{"big", "small"},
			wantVictims:  []string{"default/big"},
		},
		{
			name: "PDB-violating pods are reprieved first and counted when evicted",
			pods: []*corev1.Pod{
				mkPod("important", prio(5), started(0), cpu(500)),
				mkPod("guarded", prio(1), started(0), cpu(500), labelled("app", "g")),
			},
			pdbs:     []*policyv1.PodDisruptionBudget{mkPDB("pg", 0, sel("app", "g"))},
			capacity: 1000, want: 500,
			wantReprieve: []string{"guarded", "important"},
			wantVictims:  []string{"default/important"},
		},
		{
			name: "violations counted; victims resorted by importance",
			pods: []*corev1.Pod{
				mkPod("important", prio(5), started(0), cpu(500)),
				mkPod("guarded", prio(1), started(0), cpu(500), labelled("app", "g")),
			},
			pdbs:     []*policyv1.PodDisruptionBudget{mkPDB("pg", 0, sel("app", "g"))},
			capacity: 1000, want: 1000,
			wantReprieve: []string{"guarded", "important"},
			wantVictims:  []string{"default/important", "default/guarded"},
			wantViol:     1,
		},
		{
			name:     "no lower-priority pod",
			pods:     []*corev1.Pod{mkPod("equal", prio(10), cpu(500))},
			capacity: 600, want: 500,
			wantStatus: sched.Status{Code: sched.UnschedulableAndUnresolvable, Reasons: []string{ReasonNoVictims}},
		},
		{
			name:     "does not fit even without every lower-priority pod",
			pods:     []*corev1.Pod{mkPod("equal", prio(10), cpu(500)), mkPod("low", prio(1), cpu(100))},
			capacity: 600, want: 500,
			wantStatus: sched.Status{Code: sched.Unschedulable, Plugin: sched.NodeResourcesFit, Reasons: []string{"Insufficient cpu"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := nodeOf("n", tt.pods...)
			tr := newCPUTrial(n, tt.capacity, tt.want)
			pr := &preemptor{priority: 10, budgets: compileBudgets(tt.pdbs, PDBSelectorScheduler)}
			vs := pr.selectVictims(n, tr)
			if tt.wantStatus.Code != sched.Success {
				assert.Equal(t, tt.wantStatus, vs.status)
				return
			}
			require.True(t, vs.status.OK(), vs.status.String())
			assert.Equal(t, tt.wantVictims, victimKeys(vs.victims))
			assert.Equal(t, tt.wantViol, vs.numViolations)
			assert.Equal(t, tt.wantReprieve, tr.log)
		})
	}
}

// TestSelectVictimsTieOrder: SelectVictimsOnNode sorts the potential victims
// with sort.Slice starting from the node's pod order (framework.NodeInfo's
// slice, here NodeInfo.Order), so equally important pods are reprieved in
// that order, not in name order; with a node built without its order the
// key order is used.
func TestSelectVictimsTieOrder(t *testing.T) {
	pods := []*corev1.Pod{
		mkPod("c", prio(1), started(0), cpu(500)),
		mkPod("a", prio(1), started(0), cpu(500)),
		mkPod("b", prio(1), started(0), cpu(500)),
	}
	tests := []struct {
		name         string
		order        []int // indexes into pods; nil = no Order
		wantReprieve []string
		wantVictims  []string
	}{
		{name: "node order", order: []int{0, 1, 2}, wantReprieve: []string{"c", "a", "b"}, wantVictims: []string{"default/b"}},
		{name: "after a swap-remove", order: []int{2, 1, 0}, wantReprieve: []string{"b", "a", "c"}, wantVictims: []string{"default/c"}},
		{name: "no order: key order", wantReprieve: []string{"a", "b", "c"}, wantVictims: []string{"default/c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := nodeOf("n", pods[1], pods[2], pods[0]) // Pods in key order
			byName := map[string]*cluster.PodInfo{}
			for _, pi := range n.Pods {
				byName[pi.Pod.Name] = pi
			}
			for _, i := range tt.order {
				n.Order = append(n.Order, byName[pods[i].Name])
			}
			tr := newCPUTrial(n, 1500, 500)
			pr := &preemptor{priority: 10, budgets: compileBudgets(nil, PDBSelectorScheduler)}
			vs := pr.selectVictims(n, tr)
			require.True(t, vs.status.OK(), vs.status.String())
			assert.Equal(t, tt.wantReprieve, tr.log)
			assert.Equal(t, tt.wantVictims, victimKeys(vs.victims))
		})
	}
}

// TestSortFuncMatchesSortSlice: SelectVictimsOnNode orders the victims with
// sort.Slice, which is not stable; selectVictims uses slices.SortFunc, which
// must leave equal elements exactly where sort.Slice does (both run the same
// pdqsort), also beyond 12 elements where the insertion sort ends.
func TestSortFuncMatchesSortSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type item struct{ key, id int }
		n := rapid.IntRange(0, 80).Draw(t, "n")
		keys := rapid.IntRange(1, 4).Draw(t, "distinctKeys")
		a := make([]item, n)
		for i := range a {
			a[i] = item{key: rapid.IntRange(0, keys-1).Draw(t, "key"), id: i}
		}
		b := slices.Clone(a)
		sort.Slice(a, func(i, j int) bool { return a[i].key > a[j].key })
		slices.SortFunc(b, func(x, y item) int { return y.key - x.key })
		require.Equal(t, a, b)
	})
}
