package preemption

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func names(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// TestSortQueue mirrors queuesort.PrioritySort.Less with input order for ties.
func TestSortQueue(t *testing.T) {
	in := []*corev1.Pod{
		mkPod("low-old", prio(1), created(0)),
		mkPod("high-new", prio(10), created(9)),
		mkPod("high-old", prio(10), created(1)),
		mkPod("mid-tie-a", prio(5), created(3)),
		mkPod("mid-tie-b", prio(5), created(3)),
		mkPod("unset", created(0)),
	}
	got := SortQueue(in)
	assert.Equal(t, []string{"high-old", "high-new", "mid-tie-a", "mid-tie-b", "low-old", "unset"}, names(got))
	assert.Equal(t, "low-old", in[0].Name, "input untouched")
}

// TestBackoff mirrors backoffQueue.calculateBackoffDuration.
func TestBackoff(t *testing.T) {
	tests := []struct {
		attempts int
		want     time.Duration
	}{{0, 0}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {4, 8 * time.Second}, {5, 10 * time.Second}, {100, 10 * time.Second}}
	for _, tt := range tests {
		assert.Equal(t, tt.want, QueueBackoff(tt.attempts, 0, 0), "attempts %d", tt.attempts)
	}
	assert.Equal(t, 3*time.Second, QueueBackoff(2, 1500*time.Millisecond, time.Minute))
}

// TestPDBViolations mirrors DefaultPreemption's filterPodsWithPDBViolation.
func TestPDBViolations(t *testing.T) {
	a1 := mkPod("a1", labelled("app", "a"))
	a2 := mkPod("a2", labelled("app", "a"))
	a3 := mkPod("a3", labelled("app", "a"))
	b1 := mkPod("b1", labelled("app", "b"))
	bare := mkPod("bare")
	other := mkPod("x", labelled("app", "a"))
	other.Namespace = "other"
	tests := []struct {
		name string
		pods []*corev1.Pod
		pdbs []*policyv1.PodDisruptionBudget
		rule PDBSelectorRule
		want [][]string
	}{
		{"budget of one: the second pod breaks it", []*corev1.Pod{a1, a2, a3},
			[]*policyv1.PodDisruptionBudget{mkPDB("pa", 1, sel("app", "a"))}, PDBSelectorScheduler,
			[][]string{nil, {"default/pa"}, {"default/pa"}}},
		{"disrupted pods are not counted", []*corev1.Pod{a1, a2, a3},
			[]*policyv1.PodDisruptionBudget{mkPDB("pa", 1, sel("app", "a"), "a1")}, PDBSelectorScheduler,
			[][]string{nil, nil, {"default/pa"}}},
		{"other namespace and other labels ignored", []*corev1.Pod{other, b1, a1},
			[]*policyv1.PodDisruptionBudget{mkPDB("pa", 0, sel("app", "a"))}, PDBSelectorScheduler,
			[][]string{nil, nil, {"default/pa"}}},
		{"every matching budget is decremented", []*corev1.Pod{a1, a2},
			[]*policyv1.PodDisruptionBudget{mkPDB("p1", 1, sel("app", "a")), mkPDB("p2", 0, sel("app", "a"))}, PDBSelectorScheduler,
			[][]string{{"default/p2"}, {"default/p1", "default/p2"}}},
		{"scheduler: empty selector matches nothing", []*corev1.Pod{a1, bare},
			[]*policyv1.PodDisruptionBudget{mkPDB("all", 0, &metav1.LabelSelector{})}, PDBSelectorScheduler,
			[][]string{nil, nil}},
		{"eviction: empty selector matches the namespace", []*corev1.Pod{a1, bare, other},
			[]*policyv1.PodDisruptionBudget{mkPDB("all", 0, &metav1.LabelSelector{})}, PDBSelectorEviction,
			[][]string{{"default/all"}, {"default/all"}, nil}},
		{"nil selector matches nothing under both rules", []*corev1.Pod{a1},
			[]*policyv1.PodDisruptionBudget{mkPDB("nil", 0, nil)}, PDBSelectorEviction,
			[][]string{nil}},
		{"scheduler: pods without labels match no selector", []*corev1.Pod{bare},
			[]*policyv1.PodDisruptionBudget{mkPDB("dne", 0, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpDoesNotExist}}})},
			PDBSelectorScheduler, [][]string{nil}},
		{"eviction: pods without labels can match", []*corev1.Pod{bare},
			[]*policyv1.PodDisruptionBudget{mkPDB("dne", 0, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpDoesNotExist}}})},
			PDBSelectorEviction, [][]string{{"default/dne"}}},
		{"invalid selector matches nothing", []*corev1.Pod{a1},
			[]*policyv1.PodDisruptionBudget{mkPDB("bad", 0, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}})},
			PDBSelectorScheduler, [][]string{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PDBViolations(tt.pods, tt.pdbs, tt.rule))
		})
	}
}

func victimsAt(node string, prios []int32, starts []int) []Victim {
	var out []Victim
	for i, p := range prios {
		v := Victim{Key: node + "-v", Node: node, Priority: p}
		if starts != nil {
			v.StartTime = t0.Add(time.Duration(starts[i]) * time.Minute)
		}
		out = append(out, v)
	}
	return out
}

// TestPickCandidate mirrors pickOneNodeForPreemption: each criterion decides alone.
func TestPickCandidate(t *testing.T) {
	tests := []struct {
		name   string
		cands  []Candidate
		want   string
		lostAt Criterion
	}{
		{"fewest PDB violations", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{1}, []int{0}), NumPDBViolations: 1},
			{Node: "b", Victims: victimsAt("b", []int32{100, 100, 100}, []int{0, 0, 0}), NumPDBViolations: 0},
		}, "b", FewestPDBViolations},
		{"lowest highest priority", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{50}, []int{0})},
			{Node: "b", Victims: victimsAt("b", []int32{10, 10, 10}, []int{0, 0, 0})},
		}, "b", LowestHighestPriority},
		{"smallest priority sum", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10, 5}, []int{0, 0})},
			{Node: "b", Victims: victimsAt("b", []int32{10, 1}, []int{0, 0})},
		}, "b", SmallestPrioritySum},
		{"priority sum decides even against a later start and a lower name", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10, 5}, []int{9, 9})},
			{Node: "b", Victims: victimsAt("b", []int32{10, 1}, []int{0, 0})},
		}, "b", SmallestPrioritySum},
		{"priority sum counts each victim plus 2^31 (negative priorities)", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{-5, -5}, []int{0, 0})},
			{Node: "b", Victims: victimsAt("b", []int32{-5}, []int{0})},
		}, "b", SmallestPrioritySum},
		{"more victims of equal priority lose on the sum", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{0, 0}, []int{0, 0})},
			{Node: "b", Victims: victimsAt("b", []int32{0}, []int{0})},
		}, "b", SmallestPrioritySum}, // with equal priorities the sum already decides
		{"latest start among the highest-priority victims", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10, 1}, []int{5, 9})},
			{Node: "b", Victims: victimsAt("b", []int32{10, 1}, []int{7, 0})},
		}, "b", LatestStartTime},
		// util.GetEarliestPodStartTime: the earliest start among the victims
		// of the highest priority (a: 2, b: 5), not the latest (a: 8, b: 6).
		{"earliest start among several highest-priority victims", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10, 10}, []int{8, 2})},
			{Node: "b", Victims: victimsAt("b", []int32{10, 10}, []int{5, 6})},
		}, "b", LatestStartTime},
		{"lowest node name", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10}, []int{5})},
			{Node: "b", Victims: victimsAt("b", []int32{10}, []int{5})},
		}, "a", LowestNodeName},
		{"unknown start time is the latest", []Candidate{
			{Node: "a", Victims: victimsAt("a", []int32{10}, []int{5})},
			{Node: "b", Victims: victimsAt("b", []int32{10}, nil)},
		}, "b", LatestStartTime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := pickCandidate(tt.cands)
			assert.Equal(t, tt.want, tt.cands[i].Node)
			assert.Equal(t, ChosenNode, tt.cands[i].LostAt)
			for j := range tt.cands {
				if j != i {
					assert.Equal(t, tt.lostAt, tt.cands[j].LostAt, tt.cands[j].LostReason())
					assert.NotEmpty(t, tt.cands[j].LostReason())
				}
			}
		})
	}
}

// TestPickFewestVictimsAlone: fewest victims decides when sums tie but counts differ.
func TestPickFewestVictimsAlone(t *testing.T) {
	// Sums: a: (0+2^31)+(0+2^31) ; b: one victim with priority 2^31 is impossible (int32),
	// so build equal sums from different counts with negative priorities:
	// a: [-2^31+1, -2^31+1]  -> 1 + 1 = 2 ; b: [-2^31+2] -> 2.  Highest priority must tie too,
	// so use a: [x, y] and b: [x] with sum(a)=sum(b): needs y = -2^31, whose term is 0.
	minP := int32(-2147483648)
	cands := []Candidate{
		{Node: "a", Victims: []Victim{{Priority: 5}, {Priority: minP}}},
		{Node: "b", Victims: []Victim{{Priority: 5}}},
	}
	i := pickCandidate(cands)
	assert.Equal(t, "b", cands[i].Node)
	assert.Equal(t, FewestVictims, cands[0].LostAt)
}
