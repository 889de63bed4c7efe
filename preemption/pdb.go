package preemption

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/pdbmatch"
)

// PDBSelectorRule says which pods a PodDisruptionBudget's selector covers.
type PDBSelectorRule int8

const (
	// PDBSelectorScheduler is kube-scheduler v1.36's rule (DefaultPreemption
	// filterPodsWithPDBViolation): a nil or empty selector matches no pod,
	// and a pod without labels matches no budget.
	PDBSelectorScheduler = PDBSelectorRule(pdbmatch.Scheduler)
	// PDBSelectorEviction is the rule of the Eviction API and the disruption
	// controller: an empty selector ({}) matches every pod of the budget's
	// namespace, a nil selector none, and a pod without labels is matched
	// like any other. The eviction package matches budgets with this rule.
	PDBSelectorEviction = PDBSelectorRule(pdbmatch.Eviction)
)

// budgets is the cluster's PDBs compiled once for a preemption: selectors
// parsed, disrupted pods indexed. A budget whose selector does not parse
// matches nothing, as upstream skips it.
type budgets struct {
	rule  PDBSelectorRule
	items []budget
	// cache holds, per pod, the indices of the budgets that cover it: PDBs
	// are static during a queue run, and each pod is walked once per
	// preemption attempt.
	cache map[*corev1.Pod][]int32
	// parent is the budgets a fork was made from: its cache is read (never
	// written) while forks fill their own, one per dry-run goroutine.
	parent *budgets
	// anchored lists, by a label key and value of their matchLabels, the
	// budgets that can only cover pods carrying that label; loose lists the
	// others. A pod is matched against the budgets under its own labels
	// and the loose ones instead of every budget of the cluster.
	anchored map[string]map[string][]int32
	loose    []int32
	cand     []int32 // covering's scratch
}

// fork returns budgets sharing b's items whose cache starts empty and falls
// back on b's; b must not change until the fork is absorbed or dropped.
func (b *budgets) fork() *budgets {
	return &budgets{rule: b.rule, items: b.items, cache: map[*corev1.Pod][]int32{}, parent: b, anchored: b.anchored, loose: b.loose}
}

// absorb moves what a fork of b learned into b's cache.
func (b *budgets) absorb(f *budgets) {
	for k, v := range f.cache {
		b.cache[k] = v
	}
	clear(f.cache)
}

type budget struct {
	pdb       *policyv1.PodDisruptionBudget
	key       string // namespace/name
	selector  pdbmatch.Selector
	allowed   int32
	disrupted map[string]metav1.Time
}

func compileBudgets(pdbs []*policyv1.PodDisruptionBudget, rule PDBSelectorRule) *budgets {
	b := &budgets{rule: rule, items: make([]budget, 0, len(pdbs)), cache: map[*corev1.Pod][]int32{}, anchored: map[string]map[string][]int32{}}
	for _, pdb := range pdbs {
		sel, err := pdbmatch.Compile(pdb, pdbmatch.Rule(rule))
		if err != nil || sel.MatchesNothing() {
			continue // upstream skips a budget whose selector does not parse
		}
		all := sel.MatchesNamespace()
		ns := pdbmatch.Namespace(pdb.Namespace)
		i := int32(len(b.items))
		b.items = append(b.items, budget{
			pdb: pdb, key: ns + "/" + pdb.Name, selector: sel,
			allowed: pdb.Status.DisruptionsAllowed, disrupted: pdb.Status.DisruptedPods,
		})
		// Any one matchLabels pair is a label every covered pod carries
		// (the selector requires all of them); the smallest key is taken.
		if ml := pdb.Spec.Selector.MatchLabels; len(ml) > 0 && !all {
			k := ""
			for key := range ml {
				if k == "" || key < k {
					k = key
				}
			}
			byValue := b.anchored[k]
			if byValue == nil {
				byValue = map[string][]int32{}
				b.anchored[k] = byValue
			}
			byValue[ml[k]] = append(byValue[ml[k]], i)
		} else {
			b.loose = append(b.loose, i)
		}
	}
	return b
}

func podNamespace(pod *corev1.Pod) string { return pdbmatch.Namespace(pod.Namespace) }

// matches reports whether budget i covers the pod under the rule
// (internal/pdbmatch).
func (b *budgets) matches(i int, pod *corev1.Pod) bool {
	return b.items[i].selector.Matches(pod)
}

// MatchingPDBs returns the budgets that cover the pod under rule, in input
// order. It mirrors the matching step of DefaultPreemption's
// filterPodsWithPDBViolation (PDBSelectorScheduler) or of the Eviction API
// (PDBSelectorEviction). An invalid selector matches nothing. It modifies
// nothing.
func MatchingPDBs(pod *corev1.Pod, pdbs []*policyv1.PodDisruptionBudget, rule PDBSelectorRule) []*policyv1.PodDisruptionBudget {
	b := compileBudgets(pdbs, rule)
	var out []*policyv1.PodDisruptionBudget
	if pod == nil {
		return nil
	}
	for i := range b.items {
		if b.matches(i, pod) {
			out = append(out, b.items[i].pdb)
		}
	}
	return out
}

// covering returns the indices of the budgets that cover the pod.
func (b *budgets) covering(pod *corev1.Pod) []int32 {
	if len(b.items) == 0 {
		return nil
	}
	if idx, ok := b.cache[pod]; ok {
		return idx
	}
	if b.parent != nil {
		if idx, ok := b.parent.cache[pod]; ok {
			return idx
		}
	}
	// The candidates: the budgets anchored on one of the pod's labels (at
	// most once each: a pod has one value per key) and the loose ones,
	// matched in input order.
	cand := b.cand[:0]
	if len(b.anchored) > 0 {
		for k, v := range pod.Labels {
			if byValue := b.anchored[k]; byValue != nil {
				cand = append(cand, byValue[v]...)
			}
		}
	}
	cand = append(cand, b.loose...)
	slices.Sort(cand)
	b.cand = cand
	var idx []int32
	for _, i := range cand {
		if b.matches(int(i), pod) {
			idx = append(idx, i)
		}
	}
	b.cache[pod] = idx
	return idx
}

// violationWalk counts, for pods taken in order, which would break a budget
// if all of them and the earlier ones were evicted, as
// filterPodsWithPDBViolation does: every matching budget not listing the
// pod in status.disruptedPods loses one allowed disruption; a pod is
// violating when any of its budgets goes below zero.
type violationWalk struct {
	b       *budgets
	allowed []int32
}

func (b *budgets) walk() *violationWalk {
	w := &violationWalk{b: b, allowed: make([]int32, len(b.items))}
	for i := range b.items {
		w.allowed[i] = b.items[i].allowed
	}
	return w
}

// next takes the next pod and reports whether evicting it breaks a budget,
// and which ones (keys namespace/name, input order) when broken is non-nil.
func (w *violationWalk) next(pod *corev1.Pod, broken *[]string) bool {
	violating := false
	for _, i := range w.b.covering(pod) {
		if _, ok := w.b.items[i].disrupted[pod.Name]; ok {
			continue
		}
		w.allowed[i]--
		if w.allowed[i] < 0 {
			violating = true
			if broken != nil {
				*broken = append(*broken, w.b.items[i].key)
			}
		}
	}
	return violating
}

// PDBViolations walks the pods in the given order (most important first, as
// the scheduler does) and reports, for each, the budgets its eviction would
// break given the evictions of the pods before it; a pod with a non-empty
// entry is PDB-violating. It mirrors DefaultPreemption's
// filterPodsWithPDBViolation (v1.36). Nothing is modified.
func PDBViolations(pods []*corev1.Pod, pdbs []*policyv1.PodDisruptionBudget, rule PDBSelectorRule) [][]string {
	w := compileBudgets(pdbs, rule).walk()
	out := make([][]string, len(pods))
	for i, p := range pods {
		if p == nil {
			continue
		}
		var broken []string
		w.next(p, &broken)
		out[i] = broken
	}
	return out
}
