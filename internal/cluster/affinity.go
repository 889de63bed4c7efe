package cluster

import (
	"hash/maphash"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/labelmatch"
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
	if aff == nil || (aff.PodAffinity == nil && aff.PodAntiAffinity == nil) {
		return nil
	}
	// Paths are built only for an error: most pods have none, and New
	// compiles thousands of them.
	var errs field.ErrorList
	list := func(kind, list string) func() *field.Path {
		return func() *field.Path { return field.NewPath("spec", "affinity", kind, list) }
	}
	const req, pref = "requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"
	if pa := aff.PodAffinity; pa != nil {
		pi.RequiredAffinityTerms, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, list("podAffinity", req), errs)
		pi.PreferredAffinityTerms, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution, list("podAffinity", pref), errs)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		pi.RequiredAntiAffinityTerms, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, list("podAntiAffinity", req), errs)
		pi.PreferredAntiAffinityTerms, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution, list("podAntiAffinity", pref), errs)
	}
	return errs.ToAggregate()
}

// appendTerms compiles a required term list; on any error the list is nil.
func appendTerms(pod *corev1.Pod, in []corev1.PodAffinityTerm, path func() *field.Path, errs field.ErrorList) ([]AffinityTerm, field.ErrorList) {
	if len(in) == 0 {
		return nil, errs
	}
	out := make([]AffinityTerm, 0, len(in))
	before := len(errs)
	for i := range in {
		t, termErrs := compileTerm(pod, &in[i], func() *field.Path { return path().Index(i) })
		errs = append(errs, termErrs...)
		out = append(out, t)
	}
	if len(errs) > before {
		return nil, errs
	}
	return out, errs
}

// appendWeightedTerms compiles a preferred term list; on any error the list is nil.
func appendWeightedTerms(pod *corev1.Pod, in []corev1.WeightedPodAffinityTerm, path func() *field.Path, errs field.ErrorList) ([]WeightedAffinityTerm, field.ErrorList) {
	if len(in) == 0 {
		return nil, errs
	}
	out := make([]WeightedAffinityTerm, 0, len(in))
	before := len(errs)
	for i := range in {
		t, termErrs := compileTerm(pod, &in[i].PodAffinityTerm, func() *field.Path { return path().Index(i).Child("podAffinityTerm") })
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
	return compileTerm(pod, term, func() *field.Path { return path })
}

// compileTerm is CompileAffinityTerm with the path built only for an error.
func compileTerm(pod *corev1.Pod, term *corev1.PodAffinityTerm, path func() *field.Path) (AffinityTerm, field.ErrorList) {
	var errs field.ErrorList
	sel, err := compileSelector(term.LabelSelector)
	if err != nil {
		errs = append(errs, field.Invalid(path().Child("labelSelector"), term.LabelSelector, err.Error()))
	}
	nsSel, err := compileSelector(term.NamespaceSelector)
	if err != nil {
		errs = append(errs, field.Invalid(path().Child("namespaceSelector"), term.NamespaceSelector, err.Error()))
	}
	// getNamespacesFromPodAffinityTerm: the pod's own namespace only when
	// neither namespaces nor a namespace selector is given.
	var ns sets.Set[string]
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		ns = sets.New(pod.Namespace)
	} else {
		ns = sets.New(term.Namespaces...)
	}
	t := AffinityTerm{Namespaces: ns, Selector: sel, TopologyKey: term.TopologyKey, NamespaceSelector: nsSel}
	if errs == nil {
		t.internKey, t.nsRuleAt = termKey(&t)
	}
	return t, errs
}

// compileSelector is metav1.LabelSelectorAsSelector. A selector of
// matchLabels alone whose keys and values are all plainly valid (the usual
// shape of affinity terms) is built without labels.NewRequirement's
// regular-expression validation, which would accept it: the requirements are
// the same (key, Equals, [value]) in the same key order, so the selector is
// equal to LabelSelectorAsSelector's. Anything else, including every input
// that might be invalid, goes through LabelSelectorAsSelector and its errors.
func compileSelector(ls *metav1.LabelSelector) (labels.Selector, error) {
	if ls == nil || len(ls.MatchExpressions) > 0 || len(ls.MatchLabels) == 0 {
		return labelmatch.AsSelector(ls)
	}
	for k, v := range ls.MatchLabels {
		if !isPlainLabelKey(k) || !isPlainLabelValue(v) {
			return labelmatch.AsSelector(ls)
		}
	}
	return labels.SelectorFromValidatedSet(ls.MatchLabels), nil
}

// isPlainLabelKey reports whether s is a valid label key as
// content.IsLabelKey (apimachinery v0.36) decides: an optional DNS-1123
// subdomain prefix (at most 253 characters) and '/', then a name of at most
// 63 characters of [-A-Za-z0-9_.] starting and ending with an alphanumeric.
func isPlainLabelKey(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			prefix := s[:i]
			name = s[i+1:]
			if !isDNS1123Subdomain(prefix) {
				return false
			}
			break
		}
	}
	return name != "" && len(name) <= 63 && isLabelName(name)
}

// isPlainLabelValue reports whether s is a valid label value as
// content.IsLabelValue decides: empty, or a label name of at most 63
// characters.
func isPlainLabelValue(s string) bool {
	return s == "" || (len(s) <= 63 && isLabelName(s))
}

// isLabelName is the label name pattern ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
// without a length limit; s is not empty.
func isLabelName(s string) bool {
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain is content.IsDNS1123Subdomain without messages: at most
// 253 characters, dot-separated labels of [-a-z0-9] that start and end with
// [a-z0-9]. (A '/' inside makes it false, so a key with two slashes is
// rejected here as IsLabelKey rejects it.)
func isDNS1123Subdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			continue
		}
		label := s[start:i]
		if label == "" || !isLowerAlnum(label[0]) || !isLowerAlnum(label[len(label)-1]) {
			return false
		}
		for j := 1; j < len(label)-1; j++ {
			if c := label[j]; !isLowerAlnum(c) && c != '-' {
				return false
			}
		}
		start = i + 1
	}
	return true
}

func isLowerAlnum(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') }

func isAlnum(c byte) bool { return isLowerAlnum(c) || ('A' <= c && c <= 'Z') }

// affinityCache shares compiled affinity terms among the bound pods of one
// New call whose pod (anti)-affinity specs are equal, as upstream's
// equivalence of pods from one template would: a workload's replicas then
// compile their selectors once. Compiled terms are immutable, so sharing
// them is safe. Only successful compilations are cached (a pod with an
// invalid selector is compiled on its own and reports its own errors).
//
// Specs are found by a hash of everything compileAffinity reads (the pod's
// namespace, the default term namespace, and per term list each term's
// label selector, namespace selector, namespaces, topology key and weight;
// matchLabels hashed independently of map order) and then compared field by
// field with the first pod that had the spec, so two different specs never
// share terms, whatever their hashes. Each goroutine of New has its own
// affinityCache (no lock on a hit); on a miss it consults the shared table
// of the call, so a spec is compiled about once per call, not once per
// goroutine.
type affinityCache struct {
	shared *sharedAffinities
	local  map[uint64]*compiledAffinity
}

// sharedAffinities is the table of one New call, shared by its goroutines.
type sharedAffinities struct {
	seed  maphash.Seed
	mu    sync.Mutex
	byKey map[uint64]*compiledAffinity
}

func newSharedAffinities() *sharedAffinities {
	return &sharedAffinities{seed: maphash.MakeSeed(), byKey: map[uint64]*compiledAffinity{}}
}

// compiledAffinity is one spec's terms, with the pod that first had the
// spec (its exemplar: compared with, never modified) and the next entry of
// the same hash.
type compiledAffinity struct {
	exemplar *corev1.Pod
	next     *compiledAffinity

	requiredAffinity, requiredAntiAffinity   []AffinityTerm
	preferredAffinity, preferredAntiAffinity []WeightedAffinityTerm
}

func (ca *compiledAffinity) fill(pi *PodInfo) {
	pi.RequiredAffinityTerms, pi.RequiredAntiAffinityTerms = ca.requiredAffinity, ca.requiredAntiAffinity
	pi.PreferredAffinityTerms, pi.PreferredAntiAffinityTerms = ca.preferredAffinity, ca.preferredAntiAffinity
}

// find returns the entry of the chain whose exemplar has pod's spec.
func (ca *compiledAffinity) find(pod *corev1.Pod) *compiledAffinity {
	for ; ca != nil; ca = ca.next {
		if sameAffinitySpec(ca.exemplar, pod) {
			return ca
		}
	}
	return nil
}

// compile fills pi's terms from the cache or by compileAffinity.
func (c *affinityCache) compile(pi *PodInfo, pod *corev1.Pod) error {
	aff := pod.Spec.Affinity
	if c == nil || aff == nil || (aff.PodAffinity == nil && aff.PodAntiAffinity == nil) {
		return compileAffinity(pi, pod)
	}
	if c.shared == nil {
		c.shared = newSharedAffinities()
	}
	h := hashAffinitySpec(c.shared.seed, pod)
	if ca := c.local[h].find(pod); ca != nil {
		ca.fill(pi)
		return nil
	}
	sh := c.shared
	sh.mu.Lock()
	ca := sh.byKey[h].find(pod)
	sh.mu.Unlock()
	if ca == nil {
		// Compile outside the lock; if another goroutine published the
		// same spec meanwhile, its entry is taken so that every pod of the
		// spec shares one copy.
		if err := compileAffinity(pi, pod); err != nil {
			return err
		}
		ca = &compiledAffinity{exemplar: pod,
			requiredAffinity: pi.RequiredAffinityTerms, requiredAntiAffinity: pi.RequiredAntiAffinityTerms,
			preferredAffinity: pi.PreferredAffinityTerms, preferredAntiAffinity: pi.PreferredAntiAffinityTerms,
		}
		sh.mu.Lock()
		if other := sh.byKey[h].find(pod); other != nil {
			ca = other
		} else {
			ca.next = sh.byKey[h]
			sh.byKey[h] = ca
		}
		sh.mu.Unlock()
	}
	if c.local == nil {
		c.local = map[uint64]*compiledAffinity{}
	}
	// The local chain holds its own nodes: a shared entry's next belongs
	// to the shared table, which other goroutines extend under the lock.
	c.local[h] = &compiledAffinity{exemplar: ca.exemplar, next: c.local[h],
		requiredAffinity: ca.requiredAffinity, requiredAntiAffinity: ca.requiredAntiAffinity,
		preferredAffinity: ca.preferredAffinity, preferredAntiAffinity: ca.preferredAntiAffinity}
	ca.fill(pi)
	return nil
}

// The hash mixes strings with maphash under the call's seed; list elements
// are combined in order, matchLabels pairs by a sum (map order is random).
const hashMul = 0x9E3779B97F4A7C15

func mixHash(h, x uint64) uint64 { return (h^x)*hashMul + 0x632BE59BD9B4E019 }

func hashAffinitySpec(seed maphash.Seed, pod *corev1.Pod) uint64 {
	aff := pod.Spec.Affinity
	h := maphash.String(seed, pod.Namespace)
	if pa := aff.PodAffinity; pa != nil {
		h = mixHash(h, 'A')
		h = hashTerms(seed, h, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		h = hashWeightedTerms(seed, h, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		h = mixHash(h, 'N')
		h = hashTerms(seed, h, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		h = hashWeightedTerms(seed, h, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return h
}

func hashTerms(seed maphash.Seed, h uint64, terms []corev1.PodAffinityTerm) uint64 {
	h = mixHash(h, uint64(len(terms)))
	for i := range terms {
		h = hashTerm(seed, h, &terms[i])
	}
	return h
}

func hashWeightedTerms(seed maphash.Seed, h uint64, terms []corev1.WeightedPodAffinityTerm) uint64 {
	h = mixHash(h, uint64(len(terms)))
	for i := range terms {
		h = mixHash(h, uint64(terms[i].Weight))
		h = hashTerm(seed, h, &terms[i].PodAffinityTerm)
	}
	return h
}

func hashTerm(seed maphash.Seed, h uint64, t *corev1.PodAffinityTerm) uint64 {
	h = hashSelector(seed, h, t.LabelSelector)
	h = hashSelector(seed, h, t.NamespaceSelector)
	h = mixHash(h, uint64(len(t.Namespaces)))
	for _, ns := range t.Namespaces {
		h = mixHash(h, maphash.String(seed, ns))
	}
	return mixHash(h, maphash.String(seed, t.TopologyKey))
}

func hashSelector(seed maphash.Seed, h uint64, s *metav1.LabelSelector) uint64 {
	if s == nil {
		return mixHash(h, 0)
	}
	h = mixHash(h, 1)
	var sum uint64
	for k, v := range s.MatchLabels {
		sum += mixHash(maphash.String(seed, k), maphash.String(seed, v))
	}
	h = mixHash(mixHash(h, uint64(len(s.MatchLabels))), sum)
	h = mixHash(h, uint64(len(s.MatchExpressions)))
	for i := range s.MatchExpressions {
		e := &s.MatchExpressions[i]
		h = mixHash(h, maphash.String(seed, e.Key))
		h = mixHash(h, maphash.String(seed, string(e.Operator)))
		h = mixHash(h, uint64(len(e.Values)))
		for _, v := range e.Values {
			h = mixHash(h, maphash.String(seed, v))
		}
	}
	return h
}

// sameAffinitySpec reports whether compileAffinity reads the same input
// from a and b (both have pod affinity or anti-affinity). A nil and an
// empty list or map read the same.
func sameAffinitySpec(a, b *corev1.Pod) bool {
	if a == b {
		return true
	}
	if a.Namespace != b.Namespace {
		return false
	}
	x, y := a.Spec.Affinity, b.Spec.Affinity
	if (x.PodAffinity == nil) != (y.PodAffinity == nil) || (x.PodAntiAffinity == nil) != (y.PodAntiAffinity == nil) {
		return false
	}
	if p, q := x.PodAffinity, y.PodAffinity; p != nil &&
		(!sameTerms(p.RequiredDuringSchedulingIgnoredDuringExecution, q.RequiredDuringSchedulingIgnoredDuringExecution) ||
			!sameWeightedTerms(p.PreferredDuringSchedulingIgnoredDuringExecution, q.PreferredDuringSchedulingIgnoredDuringExecution)) {
		return false
	}
	if p, q := x.PodAntiAffinity, y.PodAntiAffinity; p != nil &&
		(!sameTerms(p.RequiredDuringSchedulingIgnoredDuringExecution, q.RequiredDuringSchedulingIgnoredDuringExecution) ||
			!sameWeightedTerms(p.PreferredDuringSchedulingIgnoredDuringExecution, q.PreferredDuringSchedulingIgnoredDuringExecution)) {
		return false
	}
	return true
}

func sameTerms(a, b []corev1.PodAffinityTerm) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameTerm(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func sameWeightedTerms(a, b []corev1.WeightedPodAffinityTerm) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Weight != b[i].Weight || !sameTerm(&a[i].PodAffinityTerm, &b[i].PodAffinityTerm) {
			return false
		}
	}
	return true
}

func sameTerm(a, b *corev1.PodAffinityTerm) bool {
	return a.TopologyKey == b.TopologyKey && slices.Equal(a.Namespaces, b.Namespaces) &&
		sameSelector(a.LabelSelector, b.LabelSelector) && sameSelector(a.NamespaceSelector, b.NamespaceSelector)
}

func sameSelector(a, b *metav1.LabelSelector) bool {
	if a == nil || b == nil {
		return a == b
	}
	if len(a.MatchLabels) != len(b.MatchLabels) || len(a.MatchExpressions) != len(b.MatchExpressions) {
		return false
	}
	for k, v := range a.MatchLabels {
		if w, ok := b.MatchLabels[k]; !ok || w != v {
			return false
		}
	}
	for i := range a.MatchExpressions {
		x, y := &a.MatchExpressions[i], &b.MatchExpressions[i]
		if x.Key != y.Key || x.Operator != y.Operator || !slices.Equal(x.Values, y.Values) {
			return false
		}
	}
	return true
}
