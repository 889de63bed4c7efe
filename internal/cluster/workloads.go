package cluster

import (
	"slices"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/labelmatch"
)

// Workloads indexes an Input's Services and controllers for
// PodTopologySpread's default selector (topology.DefaultSelector, after
// kube-scheduler's helper.DefaultSelector), which would otherwise scan every
// object once per pending pod. An object with an empty namespace is indexed
// under "default", where the API server would store it; nil objects are left
// out. A Workloads is safe for concurrent use: what it adds after it is
// built (the controllers' parsed selectors) is a cache of what it holds.
type Workloads struct {
	services map[string][]*corev1.Service // by namespace, input order, selector set
	// Each service with a non-empty selector is filed under one pair of
	// its selector, by its position in services[ns]: a
	// service selects a pod only if the pod has that pair, so the pod's own
	// labels find every candidate. selectAll holds the positions of the
	// services whose empty selector selects every pod of the namespace.
	byPair    map[servicePair][]int
	selectAll map[string][]int
	rcs       map[objectKey]*corev1.ReplicationController
	rss       map[objectKey]*appsv1.ReplicaSet
	sss       map[objectKey]*appsv1.StatefulSet
	// The ReplicaSets' and StatefulSets' spec.selector requirements,
	// parsed on first ask (a cluster has thousands of controllers, and a
	// queue asks for the owners of its pending pods only) and kept.
	mu             sync.Mutex
	rsReqs, ssReqs map[objectKey]parsedSelector
}

// parsedSelector is a controller's parsed spec.selector: ok is false for a
// nil, invalid or match-nothing selector.
type parsedSelector struct {
	reqs labels.Requirements
	ok   bool
}

type objectKey struct{ namespace, name string }

type servicePair struct{ namespace, key, value string }

// Services returns the Services of namespace ns that have a selector
// (spec.selector not nil), in input order. The slice must not be modified.
func (w *Workloads) Services(ns string) []*corev1.Service { return w.services[ns] }

// ServicesSelecting returns the Services of namespace ns whose selector
// selects a pod with the given labels (every pair of spec.selector is a
// label of the pod; an empty selector selects every pod, a nil one none),
// in input order. It looks up only the services filed under the pod's
// labels instead of testing every service of the namespace. The result is
// a new slice.
func (w *Workloads) ServicesSelecting(ns string, podLabels map[string]string) []*corev1.Service {
	all := w.services[ns]
	if len(all) == 0 {
		return nil
	}
	candidates := append([]int(nil), w.selectAll[ns]...)
	for k, v := range podLabels {
		candidates = append(candidates, w.byPair[servicePair{ns, k, v}]...)
	}
	if len(candidates) == 0 {
		return nil
	}
	// Each service is filed once, so the positions are distinct; sorted,
	// they give input order.
	slices.Sort(candidates)
	var out []*corev1.Service
	for _, i := range candidates {
		if svc := all[i]; selectorSelects(svc.Spec.Selector, podLabels) {
			out = append(out, svc)
		}
	}
	return out
}

// selectorSelects is labels.SelectorFromValidatedSet(selector).Matches(podLabels)
// without building the selector: every pair of selector is a label of the pod.
func selectorSelects(selector, podLabels map[string]string) bool {
	for k, v := range selector {
		if w, ok := podLabels[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// ReplicationController returns the first ReplicationController in input
// order with the given namespace and name, or nil.
func (w *Workloads) ReplicationController(ns, name string) *corev1.ReplicationController {
	return w.rcs[objectKey{ns, name}]
}

// ReplicaSet returns the first ReplicaSet in input order with the given
// namespace and name, or nil.
func (w *Workloads) ReplicaSet(ns, name string) *appsv1.ReplicaSet {
	return w.rss[objectKey{ns, name}]
}

// StatefulSet returns the first StatefulSet in input order with the given
// namespace and name, or nil.
func (w *Workloads) StatefulSet(ns, name string) *appsv1.StatefulSet {
	return w.sss[objectKey{ns, name}]
}

// workloadsCache holds the Workloads of a snapshot's Input, built on first
// use (most modes never ask; filter-score asks once per pending pod without
// constraints of its own). It remembers the slices it indexes, so that a
// copy of the Input whose slices were replaced is not answered from it.
type workloadsCache struct {
	once     sync.Once
	built    *Workloads
	services []*corev1.Service
	rss      []*appsv1.ReplicaSet
	sss      []*appsv1.StatefulSet
	rcs      []*corev1.ReplicationController
}

func newWorkloadsCache(in *Input) *workloadsCache {
	return &workloadsCache{services: in.Services, rss: in.ReplicaSets, sss: in.StatefulSets, rcs: in.ReplicationControllers}
}

// indexes reports whether the cache was made for in's slices.
func (c *workloadsCache) indexes(in *Input) bool {
	return sameSlice(c.services, in.Services) && sameSlice(c.rss, in.ReplicaSets) &&
		sameSlice(c.sss, in.StatefulSets) && sameSlice(c.rcs, in.ReplicationControllers)
}

func sameSlice[T any](a, b []*T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Workloads returns the index of in's Services, ReplicaSets, StatefulSets
// and ReplicationControllers. For the Input of a snapshot (Snapshot.Input)
// it is built once, on first use, and shared by the snapshot's views and
// by concurrent callers; for any other Input it is built on each call. in
// is not modified.
func (in *Input) Workloads() *Workloads {
	if c := in.workloads; c != nil && c.indexes(in) {
		return c.get(in)
	}
	return buildWorkloads(in)
}

// get returns the index, building it from in (an Input with the cache's
// slices) on first use.
func (c *workloadsCache) get(in *Input) *Workloads {
	c.once.Do(func() { c.built = buildWorkloads(in) })
	return c.built
}

func buildWorkloads(in *Input) *Workloads {
	w := &Workloads{
		services:  map[string][]*corev1.Service{},
		byPair:    make(map[servicePair][]int, len(in.Services)),
		selectAll: map[string][]int{},
		rcs:       make(map[objectKey]*corev1.ReplicationController, len(in.ReplicationControllers)),
		rss:       make(map[objectKey]*appsv1.ReplicaSet, len(in.ReplicaSets)),
		sss:       make(map[objectKey]*appsv1.StatefulSet, len(in.StatefulSets)),
	}
	// A service is filed under the pair of its selector that the fewest
	// services of its namespace have (ties: the smallest key), so that a
	// pair common to many selectors (app=web) does not make every such
	// service a candidate for every pod that has it.
	pairs := make(map[servicePair]int, 2*len(in.Services)) // selectors have a label or two
	for _, svc := range in.Services {
		if svc == nil || svc.Spec.Selector == nil {
			continue
		}
		ns := namespaceOrDefault(svc.Namespace)
		for k, v := range svc.Spec.Selector {
			pairs[servicePair{ns, k, v}]++
		}
	}
	for _, svc := range in.Services {
		if svc == nil || svc.Spec.Selector == nil {
			continue
		}
		ns := namespaceOrDefault(svc.Namespace)
		pos := len(w.services[ns])
		w.services[ns] = append(w.services[ns], svc)
		if len(svc.Spec.Selector) == 0 {
			w.selectAll[ns] = append(w.selectAll[ns], pos)
			continue
		}
		var best servicePair
		bestCount := -1
		for k, v := range svc.Spec.Selector {
			p := servicePair{ns, k, v}
			if c := pairs[p]; bestCount < 0 || c < bestCount || (c == bestCount && k < best.key) {
				best, bestCount = p, c
			}
		}
		w.byPair[best] = append(w.byPair[best], pos)
	}
	for _, rc := range in.ReplicationControllers {
		if rc != nil {
			addFirst(w.rcs, objectKey{namespaceOrDefault(rc.Namespace), rc.Name}, rc)
		}
	}
	for _, rs := range in.ReplicaSets {
		if rs != nil {
			addFirst(w.rss, objectKey{namespaceOrDefault(rs.Namespace), rs.Name}, rs)
		}
	}
	for _, ss := range in.StatefulSets {
		if ss != nil {
			addFirst(w.sss, objectKey{namespaceOrDefault(ss.Namespace), ss.Name}, ss)
		}
	}
	return w
}

// parseSelector parses a controller's selector; ok is false when it is
// nil, invalid or selects nothing (then the default selector adds nothing
// for it: helper.DefaultSelector ignores the parse error, and
// labels.Nothing has no requirements).
func parseSelector(ls *metav1.LabelSelector) parsedSelector {
	sel, err := labelmatch.AsSelector(ls)
	if err != nil {
		return parsedSelector{}
	}
	reqs, ok := sel.Requirements()
	return parsedSelector{reqs, ok}
}

// requirements returns the parsed selector ls of the controller k from
// cache, parsing it on first ask.
func (w *Workloads) requirements(cache *map[objectKey]parsedSelector, k objectKey, ls *metav1.LabelSelector) (labels.Requirements, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, ok := (*cache)[k]
	if !ok {
		p = parseSelector(ls)
		if *cache == nil {
			*cache = map[objectKey]parsedSelector{}
		}
		(*cache)[k] = p
	}
	return p.reqs, p.ok
}

// ReplicaSetRequirements returns the requirements of the selector of the
// ReplicaSet ReplicaSet(ns, name) returns, parsed once; ok is false when
// there is none or its selector is nil, invalid or selects nothing. The
// result must not be modified.
func (w *Workloads) ReplicaSetRequirements(ns, name string) (reqs labels.Requirements, ok bool) {
	k := objectKey{ns, name}
	rs := w.rss[k]
	if rs == nil {
		return nil, false
	}
	return w.requirements(&w.rsReqs, k, rs.Spec.Selector)
}

// StatefulSetRequirements is ReplicaSetRequirements for StatefulSet(ns, name).
func (w *Workloads) StatefulSetRequirements(ns, name string) (reqs labels.Requirements, ok bool) {
	k := objectKey{ns, name}
	ss := w.sss[k]
	if ss == nil {
		return nil, false
	}
	return w.requirements(&w.ssReqs, k, ss.Spec.Selector)
}

// addFirst keeps the first object of each key (input order wins).
func addFirst[T any](m map[objectKey]*T, k objectKey, v *T) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

func namespaceOrDefault(ns string) string {
	if ns == "" {
		return metav1.NamespaceDefault
	}
	return ns
}
