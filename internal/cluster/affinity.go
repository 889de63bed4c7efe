package cluster

import (
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
