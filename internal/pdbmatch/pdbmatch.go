// Package pdbmatch is the rule for which pods a PodDisruptionBudget covers,
// written once for preemption and the Eviction API. The two upstream
// consumers differ on one point, carried by Rule: kube-scheduler's
// DefaultPreemption (filterPodsWithPDBViolation, v1.36) lets an empty
// selector ({}) match no pod and an unlabelled pod match no budget; the
// Eviction API handler (getPodDisruptionBudgets) and the disruption
// controller let {} match every pod of the budget's namespace and match an
// unlabelled pod like any other. Under both, a nil selector matches nothing
// (metav1.LabelSelectorAsSelector(nil) is labels.Nothing()), a budget covers
// only pods of its own namespace, and an empty namespace is "default".
package pdbmatch

import (
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// Rule says which pods a budget's selector covers.
type Rule int8

const (
	// Scheduler is kube-scheduler's rule: {} matches no pod, and a pod
	// without labels matches no budget.
	Scheduler Rule = iota
	// Eviction is the Eviction API's and the disruption controller's rule:
	// {} matches every pod of the namespace.
	Eviction
)

// Selector is one budget's selector compiled under a rule. The zero value
// matches nothing.
type Selector struct {
	ns   string
	sel  labels.Selector // nil: matches nothing
	all  bool            // {} under Eviction: every pod of ns
	rule Rule
}

// Compile compiles pdb's selector under rule. A nil budget or selector, and
// {} under Scheduler, compile to a selector matching nothing; a selector
// that does not parse is an error (upstream's consumers skip such a budget or
// report it, as each caller decides). pdb is not modified.
func Compile(pdb *policyv1.PodDisruptionBudget, rule Rule) (Selector, error) {
	if pdb == nil || pdb.Spec.Selector == nil {
		return Selector{}, nil
	}
	sel, err := labelmatch.AsSelector(pdb.Spec.Selector)
	if err != nil {
		return Selector{}, err
	}
	all := sel.Empty()
	if all && rule == Scheduler {
		return Selector{}, nil
	}
	return Selector{ns: Namespace(pdb.Namespace), sel: sel, all: all, rule: rule}, nil
}

// MatchesNothing reports whether the selector covers no pod at all.
func (s Selector) MatchesNothing() bool { return s.sel == nil }

// MatchesNamespace reports whether the selector covers every pod of its
// namespace ({} under Eviction).
func (s Selector) MatchesNamespace() bool { return s.all }

// Matches reports whether the budget covers pod.
func (s Selector) Matches(pod *corev1.Pod) bool {
	if s.sel == nil || pod == nil || Namespace(pod.Namespace) != s.ns {
		return false
	}
	if s.all {
		return true
	}
	if s.rule == Scheduler && len(pod.Labels) == 0 {
		return false
	}
	return s.sel.Matches(labels.Set(pod.Labels))
}

// Namespace is ns as stored: "" is "default".
func Namespace(ns string) string {
	if ns == "" {
		return metav1.NamespaceDefault
	}
	return ns
}
