package cluster

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
// aggregate. The pod is not modified; pi's host ports are dropped (its
// extra is replaced, not written through: see PodInfo.extra).
func compileAffinity(pi *PodInfo, pod *corev1.Pod) error {
	pi.extra = nil
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
	var e podExtras
	if pa := aff.PodAffinity; pa != nil {
		e.requiredAffinity, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, list("podAffinity", req), errs)
		e.preferredAffinity, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution, list("podAffinity", pref), errs)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		e.requiredAntiAffinity, errs = appendTerms(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, list("podAntiAffinity", req), errs)
		e.preferredAntiAffinity, errs = appendWeightedTerms(pod, pa.PreferredDuringSchedulingIgnoredDuringExecution, list("podAntiAffinity", pref), errs)
	}
	if !e.isEmpty() {
		pi.extra = &e
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
	sel, err := labelmatch.AsSelector(term.LabelSelector)
	if err != nil {
		errs = append(errs, field.Invalid(path().Child("labelSelector"), term.LabelSelector, err.Error()))
	}
	nsSel, err := labelmatch.AsSelector(term.NamespaceSelector)
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

// affinityCache shares compiled affinity terms among the bound pods of one
// New call whose pod (anti)-affinity specs are equal, as upstream's
// equivalence of pods from one template would: a workload's replicas then
// compile their selectors once. Compiled terms are immutable, so sharing
// them is safe. Only successful compilations are cached (a pod with an
// invalid selector is compiled on its own and reports its own errors).
//
// Specs are found by their key (appendSpecKey): an unambiguous
// encoding of everything compileAffinity reads, so two specs share terms
// exactly when their keys are equal, with no comparison against another
// pod's spec (whose objects are elsewhere in the heap). Each goroutine of
// New has its own affinityCache (no lock on a hit); on a miss it consults
// the shared table of the call, so a spec is compiled about once per call,
// not once per goroutine.
type affinityCache struct {
	shared *sharedAffinities
	local  map[string]*podExtras
	kb     keyBuf
}

// sharedAffinities is the table of one New call, shared by its goroutines.
//
// A spec's entry is the PodInfo.extra its pods take (host ports unset; nil
// when every term list is empty): it is shared as is, never written
// through, and a pod with host ports gets a copy (PodInfo.setHostPorts).
type sharedAffinities struct {
	mu    sync.Mutex
	byKey map[string]*podExtras
}

func newSharedAffinities() *sharedAffinities {
	return &sharedAffinities{byKey: map[string]*podExtras{}}
}

// compile fills pi's affinity terms, sharing equal specs' terms; pi's
// host ports are dropped (compileAffinity), so they are set after.
func (c *affinityCache) compile(pi *PodInfo, pod *corev1.Pod) error {
	aff := pod.Spec.Affinity
	if c == nil || aff == nil || (aff.PodAffinity == nil && aff.PodAntiAffinity == nil) {
		return compileAffinity(pi, pod)
	}
	if c.shared == nil {
		c.shared = newSharedAffinities()
	}
	c.kb.b = c.appendSpecKey(c.kb.b[:0], pod)
	if ca, ok := c.local[string(c.kb.b)]; ok {
		pi.extra = ca
		return nil
	}
	sh := c.shared
	sh.mu.Lock()
	ca, ok := sh.byKey[string(c.kb.b)]
	sh.mu.Unlock()
	key := string(c.kb.b)
	if !ok {
		// Compile outside the lock; if another goroutine published the
		// same spec meanwhile, its entry is taken so that every pod of the
		// spec shares one copy.
		if err := compileAffinity(pi, pod); err != nil {
			return err
		}
		ca = pi.extra
		sh.mu.Lock()
		if other, ok := sh.byKey[key]; ok {
			ca = other
		} else {
			sh.byKey[key] = ca
		}
		sh.mu.Unlock()
	}
	if c.local == nil {
		c.local = map[string]*podExtras{}
	}
	c.local[key] = ca
	pi.extra = ca
	return nil
}

// appendSpecKey appends the key of pod's spec (it has pod affinity or
// anti-affinity): the pod's namespace (the default term namespace), then
// per kind present each term list with, per term, its weight (preferred
// lists), label selector, namespace selector, namespaces and topology key.
// Every string is length-prefixed and every list count-prefixed, so the
// encoding is unambiguous; matchLabels are written in key order (map order
// is random). A nil and an empty list or map are written alike, as
// compileAffinity reads them alike.
func (c *affinityCache) appendSpecKey(b []byte, pod *corev1.Pod) []byte {
	aff := pod.Spec.Affinity
	b = AppendKeyString(b, pod.Namespace)
	if pa := aff.PodAffinity; pa != nil {
		b = append(b, 'A')
		b = c.appendTerms(b, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		b = c.appendWeightedTerms(b, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := aff.PodAntiAffinity; pa != nil {
		b = append(b, 'N')
		b = c.appendTerms(b, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		b = c.appendWeightedTerms(b, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return b
}

func (c *affinityCache) appendTerms(b []byte, terms []corev1.PodAffinityTerm) []byte {
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for i := range terms {
		b = c.appendTerm(b, &terms[i])
	}
	return b
}

func (c *affinityCache) appendWeightedTerms(b []byte, terms []corev1.WeightedPodAffinityTerm) []byte {
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for i := range terms {
		b = binary.AppendVarint(b, int64(terms[i].Weight))
		b = c.appendTerm(b, &terms[i].PodAffinityTerm)
	}
	return b
}

func (c *affinityCache) appendTerm(b []byte, t *corev1.PodAffinityTerm) []byte {
	b = c.appendSelector(b, t.LabelSelector)
	b = c.appendSelector(b, t.NamespaceSelector)
	b = binary.AppendUvarint(b, uint64(len(t.Namespaces)))
	for _, ns := range t.Namespaces {
		b = AppendKeyString(b, ns)
	}
	return AppendKeyString(b, t.TopologyKey)
}

func (c *affinityCache) appendSelector(b []byte, s *metav1.LabelSelector) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = c.kb.appendLabels(append(b, 1), s.MatchLabels)
	b = binary.AppendUvarint(b, uint64(len(s.MatchExpressions)))
	for i := range s.MatchExpressions {
		e := &s.MatchExpressions[i]
		b = AppendKeyString(b, e.Key)
		b = AppendKeyString(b, string(e.Operator))
		b = binary.AppendUvarint(b, uint64(len(e.Values)))
		for _, v := range e.Values {
			b = AppendKeyString(b, v)
		}
	}
	return b
}

// keyBuf builds the unambiguous keys by which New finds equal label sets and
// equal affinity specs: every string is length-prefixed and every list
// count-prefixed, so two inputs have one key exactly when they are equal.
type keyBuf struct {
	b     []byte      // the key being built
	pairs []labelPair // a label map's pairs being sorted
}

// appendLabelSet appends the key of a (namespace, labels) pair.
func (k *keyBuf) appendLabelSet(b []byte, ns string, l map[string]string) []byte {
	return k.appendLabels(AppendKeyString(b, ns), l)
}

// appendLabels appends a label map, its pairs in key order (map order is
// random); a nil and an empty map are written alike.
func (k *keyBuf) appendLabels(b []byte, l map[string]string) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	k.pairs = k.pairs[:0]
	for key, v := range l {
		k.pairs = append(k.pairs, labelPair{key, v})
	}
	slices.SortFunc(k.pairs, func(x, y labelPair) int { return strings.Compare(x.key, y.key) })
	for _, p := range k.pairs {
		b = AppendKeyString(b, p.key)
		b = AppendKeyString(b, p.value)
	}
	return b
}

// eachKeyLabel calls fn with each label of a label-set key
// (appendLabelSet), in key order, and reports whether the key is
// well-formed; for a malformed one (appendLabelSet never writes one) fn is
// not called.
func eachKeyLabel(key string, fn func(k, v string)) bool {
	next := func() (string, bool) {
		n, w := uvarintString(key)
		if w <= 0 || uint64(len(key)-w) < n {
			return "", false
		}
		s := key[w : w+int(n)]
		key = key[w+int(n):]
		return s, true
	}
	if _, ok := next(); !ok { // the namespace
		return false
	}
	count, w := uvarintString(key)
	if w <= 0 || count > uint64(len(key)) {
		return false
	}
	key = key[w:]
	type pair struct{ k, v string }
	var buf [8]pair
	pairs := buf[:0]
	for range count {
		k, ok1 := next()
		v, ok2 := next()
		if !ok1 || !ok2 {
			return false
		}
		pairs = append(pairs, pair{k, v})
	}
	if len(key) != 0 {
		return false
	}
	for _, p := range pairs {
		fn(p.k, p.v)
	}
	return true
}

// uvarintString is binary.Uvarint over a string.
func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		b := s[i]
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				return 0, -(i + 1) // overflow
			}
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// AppendKeyString appends s with its length before it: the pieces of a
// key so encoded cannot run into each other (memo keys of schedkit's
// packages).
func AppendKeyString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
