package cluster

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NeedsStoring reports whether the API server would change something the
// scheduler reads when it stores pod: an empty namespace, a container's
// (or the pod's) limit without its request, a host-network port without
// its host port, or a matchLabelKeys / mismatchLabelKeys requirement not
// yet merged into its selector. Informer pods never need it; a template
// written in Go often does. It reads pod only.
func NeedsStoring(p *corev1.Pod) bool {
	if p.Namespace == "" {
		return true
	}
	limitWithoutRequest := func(r *corev1.ResourceRequirements) bool {
		for name := range r.Limits {
			if _, ok := r.Requests[name]; !ok {
				return true
			}
		}
		return false
	}
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			if limitWithoutRequest(&cs[i].Resources) {
				return true
			}
			if p.Spec.HostNetwork {
				for _, port := range cs[i].Ports {
					if port.HostPort == 0 {
						return true
					}
				}
			}
		}
	}
	if r := p.Spec.Resources; r != nil && limitWithoutRequest(r) {
		return true
	}
	return !labelKeysMerged(p)
}

// labelKeysMerged reports whether every matchLabelKeys / mismatchLabelKeys
// key the pod has a label for is in its selector as the API server merges
// it (mutatePodAffinity, mutateTopologySpreadConstraints).
func labelKeysMerged(p *corev1.Pod) bool {
	merged := func(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator) bool {
		if sel == nil {
			return true
		}
		for _, key := range keys {
			if v, ok := p.Labels[key]; ok && !hasRequirement(sel, key, op, v) {
				return false
			}
		}
		return true
	}
	for i := range p.Spec.TopologySpreadConstraints {
		c := &p.Spec.TopologySpreadConstraints[i]
		if !merged(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn) {
			return false
		}
	}
	return EachAffinityTerm(p, func(t *corev1.PodAffinityTerm) bool {
		return merged(t.LabelSelector, t.MatchLabelKeys, metav1.LabelSelectorOpIn) &&
			merged(t.LabelSelector, t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn)
	})
}

// hasRequirement reports whether sel has the requirement key op [value].
func hasRequirement(sel *metav1.LabelSelector, key string, op metav1.LabelSelectorOperator, value string) bool {
	for _, r := range sel.MatchExpressions {
		if r.Key == key && r.Operator == op && len(r.Values) == 1 && r.Values[0] == value {
			return true
		}
	}
	return false
}

// EachAffinityTerm calls f with each (anti-)affinity term of the pod,
// required then preferred, affinity then anti-affinity, as a pointer into
// the pod, until f returns false; it reports whether every call returned
// true. It allocates nothing (NeedsStoring runs for every pod compiled).
func EachAffinityTerm(p *corev1.Pod, f func(*corev1.PodAffinityTerm) bool) bool {
	a := p.Spec.Affinity
	if a == nil {
		return true
	}
	each := func(required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm) bool {
		for i := range required {
			if !f(&required[i]) {
				return false
			}
		}
		for i := range preferred {
			if !f(&preferred[i].PodAffinityTerm) {
				return false
			}
		}
		return true
	}
	if pa := a.PodAffinity; pa != nil && !each(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return false
	}
	if pa := a.PodAntiAffinity; pa != nil && !each(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return false
	}
	return true
}

// StoredPod returns pod as the API server would store it on create, for
// what the scheduler reads: the namespace defaulted, v1 defaulting
// (DefaultPod) and the matchLabelKeys / mismatchLabelKeys merges, each
// requirement merged once. When nothing would change (NeedsStoring is
// false: every pod read from the API server) it returns pod itself, not a
// copy. pod is never modified. Priority from classes is the Priority
// admission plugin's (preemption.PriorityClasses.Admit).
func StoredPod(p *corev1.Pod) *corev1.Pod {
	if p == nil || !NeedsStoring(p) {
		return p
	}
	c := p.DeepCopy()
	if c.Namespace == "" {
		c.Namespace = metav1.NamespaceDefault
	}
	DefaultPod(c)
	merge := func(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator) {
		if sel == nil {
			return
		}
		for _, key := range keys {
			if v, ok := c.Labels[key]; ok && !hasRequirement(sel, key, op, v) {
				sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: []string{v}})
			}
		}
	}
	for i := range c.Spec.TopologySpreadConstraints {
		sc := &c.Spec.TopologySpreadConstraints[i]
		merge(sc.LabelSelector, sc.MatchLabelKeys, metav1.LabelSelectorOpIn)
	}
	EachAffinityTerm(c, func(t *corev1.PodAffinityTerm) bool {
		merge(t.LabelSelector, t.MatchLabelKeys, metav1.LabelSelectorOpIn)
		merge(t.LabelSelector, t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn)
		return true
	})
	return c
}

// StoredNode returns node as the API server stores it: allocatable is
// capacity when unset, quantities rounded up to milli precision. node
// itself when nothing would change; it is never modified.
func StoredNode(n *corev1.Node) *corev1.Node {
	if n == nil || n.Status.Allocatable != nil || n.Status.Capacity == nil {
		return n
	}
	c := n.DeepCopy()
	DefaultNode(c)
	return c
}
