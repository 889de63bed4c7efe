package cluster

import (
	"encoding/binary"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// compileAffinity fills the pod's compiled affinity terms, as
// framework.NewPodInfo does (PodInfo.Update with GetAffinityTerms and
// GetWeightedAffinityTerms, kube-scheduler v1.36): each term keeps its label
// selector, its namespace selector (nil compiles to labels.Nothing, {} to
// labels.Everything, as metav1.LabelSelectorAsSelector does) and its explicit
// namespaces; an empty namespaces list together with a nil namespaceSelector
// means the pod's own namespace.
//
// Like upstream, the four term lists are compiled independently: a list with
// an invalid selector is left nil while the others are still filled. Every
// problem is reported at once, with its API path, as a field.ErrorList
// aggregate. The pod is not modified.
func compileAffinity(pi *PodInfo, pod *corev1.Pod) error {
	pi.RequiredAffinityTerms = nil
	pi.RequiredAntiAffinityTerms = nil
	pi.PreferredAffinityTerms = nil
	pi.PreferredAntiAffinityTerms = nil
	aff := pod.Spec.Affinity
	if aff == nil {
		return nil
	}
	var errs field.ErrorList
	base := field.NewPath("spec", "affinity")
	if pa := aff.PodAffinity; pa != nil {
		p := base.Child("podAffinity")
		pi.RequiredAffinityTerms, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution,
			p.Child("requiredDuringSchedulingIgnoredDuringExecution"), errs)
		pi.PreferredAffinityTerms, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution,
			p.Child("preferredDuringSchedulingIgnoredDuringExecution"), errs)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		p := base.Child("podAntiAffinity")
		pi.RequiredAntiAffinityTerms, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution,
			p.Child("requiredDuringSchedulingIgnoredDuringExecution"), errs)
		pi.PreferredAntiAffinityTerms, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution,
			p.Child("preferredDuringSchedulingIgnoredDuringExecution"), errs)
	}
	return errs.ToAggregate()
}

// appendTerms compiles a required term list; on any error the list is nil.
func appendTerms(pod *corev1.Pod, in []corev1.PodAffinityTerm, path *field.Path, errs field.ErrorList) ([]AffinityTerm, field.ErrorList) {
	if len(in) == 0 {
		return nil, errs
	}
	out := make([]AffinityTerm, 0, len(in))
	before := len(errs)
	for i := range in {
		t, termErrs := CompileAffinityTerm(pod, &in[i], path.Index(i))
		errs = append(errs, termErrs...)
		out = append(out, t)
	}
	if len(errs) > before {
		return nil, errs
	}
	return out, errs
}

// appendWeightedTerms compiles a preferred term list; on any error the list is nil.
func appendWeightedTerms(pod *corev1.Pod, in []corev1.WeightedPodAffinityTerm, path *field.Path, errs field.ErrorList) ([]WeightedAffinityTerm, field.ErrorList) {
	if len(in) == 0 {
		return nil, errs
	}
	out := make([]WeightedAffinityTerm, 0, len(in))
	before := len(errs)
	for i := range in {
		t, termErrs := CompileAffinityTerm(pod, &in[i].PodAffinityTerm, path.Index(i).Child("podAffinityTerm"))
		errs = append(errs, termErrs...)
		out = append(out, WeightedAffinityTerm{AffinityTerm: t, Weight: in[i].Weight})
	}
	if len(errs) > before {
		return nil, errs
	}
	return out, errs
}

// CompileAffinityTerm compiles one pod (anti-)affinity term of pod, as
// framework's newAffinityTerm does. path locates the term in error messages.
// The term and the pod are not modified; the returned term shares nothing
// with them.
func CompileAffinityTerm(pod *corev1.Pod, term *corev1.PodAffinityTerm, path *field.Path) (AffinityTerm, field.ErrorList) {
	var errs field.ErrorList
	sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
	if err != nil {
		errs = append(errs, field.Invalid(path.Child("labelSelector"), term.LabelSelector, err.Error()))
	}
	nsSel, err := metav1.LabelSelectorAsSelector(term.NamespaceSelector)
	if err != nil {
		errs = append(errs, field.Invalid(path.Child("namespaceSelector"), term.NamespaceSelector, err.Error()))
	}
	// getNamespacesFromPodAffinityTerm: the pod's own namespace only when
	// neither namespaces nor a namespace selector is given.
	ns := sets.New[string]()
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		ns.Insert(pod.Namespace)
	} else {
		ns.Insert(term.Namespaces...)
	}
	return AffinityTerm{Namespaces: ns, Selector: sel, TopologyKey: term.TopologyKey, NamespaceSelector: nsSel}, errs
}

// affinityCache shares compiled affinity terms among the bound pods of one
// New call whose pod (anti-)affinity specs are equal, as upstream's
// equivalence of pods from one template would: a workload's replicas then
// compile their selectors once. Compiled terms are immutable, so sharing
// them is safe. Only successful compilations are cached (a pod with an
// invalid selector is compiled on its own and reports its own errors).
type affinityCache struct {
	byKey map[string]*compiledAffinity
	buf   []byte
}

type compiledAffinity struct {
	requiredAffinity, requiredAntiAffinity   []AffinityTerm
	preferredAffinity, preferredAntiAffinity []WeightedAffinityTerm
}

// compile fills pi's terms from the cache or by compileAffinity.
func (c *affinityCache) compile(pi *PodInfo, pod *corev1.Pod) error {
	aff := pod.Spec.Affinity
	if c == nil || aff == nil || (aff.PodAffinity == nil && aff.PodAntiAffinity == nil) {
		return compileAffinity(pi, pod)
	}
	c.buf = appendAffinityKey(c.buf[:0], pod)
	if ca, ok := c.byKey[string(c.buf)]; ok {
		pi.RequiredAffinityTerms, pi.RequiredAntiAffinityTerms = ca.requiredAffinity, ca.requiredAntiAffinity
		pi.PreferredAffinityTerms, pi.PreferredAntiAffinityTerms = ca.preferredAffinity, ca.preferredAntiAffinity
		return nil
	}
	if err := compileAffinity(pi, pod); err != nil {
		return err
	}
	if c.byKey == nil {
		c.byKey = map[string]*compiledAffinity{}
	}
	c.byKey[string(c.buf)] = &compiledAffinity{
		requiredAffinity: pi.RequiredAffinityTerms, requiredAntiAffinity: pi.RequiredAntiAffinityTerms,
		preferredAffinity: pi.PreferredAffinityTerms, preferredAntiAffinity: pi.PreferredAntiAffinityTerms,
	}
	return nil
}

// appendAffinityKey appends an unambiguous encoding of everything
// compileAffinity reads: the pod's namespace (the default term namespace)
// and, per term list, each term's label selector, namespaces, namespace
// selector, topology key and weight. Strings are length-prefixed, so no
// content can imitate a separator.
func appendAffinityKey(b []byte, pod *corev1.Pod) []byte {
	aff := pod.Spec.Affinity
	b = appendKeyString(b, pod.Namespace)
	if pa := aff.PodAffinity; pa != nil {
		b = append(b, 'A')
		b = appendTermsKey(b, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		b = appendWeightedTermsKey(b, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		b = append(b, 'N')
		b = appendTermsKey(b, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		b = appendWeightedTermsKey(b, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return b
}

func appendTermsKey(b []byte, terms []corev1.PodAffinityTerm) []byte {
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for i := range terms {
		b = appendTermKey(b, &terms[i])
	}
	return b
}

func appendWeightedTermsKey(b []byte, terms []corev1.WeightedPodAffinityTerm) []byte {
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for i := range terms {
		b = binary.AppendVarint(b, int64(terms[i].Weight))
		b = appendTermKey(b, &terms[i].PodAffinityTerm)
	}
	return b
}

func appendTermKey(b []byte, t *corev1.PodAffinityTerm) []byte {
	b = appendSelectorKey(b, t.LabelSelector)
	b = appendSelectorKey(b, t.NamespaceSelector)
	b = binary.AppendUvarint(b, uint64(len(t.Namespaces)))
	for _, ns := range t.Namespaces {
		b = appendKeyString(b, ns)
	}
	return appendKeyString(b, t.TopologyKey)
}

func appendSelectorKey(b []byte, s *metav1.LabelSelector) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	var small [8]string // most selectors have a few labels: no allocation
	keys := small[:0]
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	if len(keys) > 1 {
		sort.Strings(keys)
	}
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendKeyString(b, k)
		b = appendKeyString(b, s.MatchLabels[k])
	}
	b = binary.AppendUvarint(b, uint64(len(s.MatchExpressions)))
	for _, e := range s.MatchExpressions {
		b = appendKeyString(b, e.Key)
		b = appendKeyString(b, string(e.Operator))
		b = binary.AppendUvarint(b, uint64(len(e.Values)))
		for _, v := range e.Values {
			b = appendKeyString(b, v)
		}
	}
	return b
}

func appendKeyString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
