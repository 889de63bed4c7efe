package scenario

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/par"
	"github.com/schedkit/schedkit/internal/sched"
)

// DefaultStartTime is the status.startTime of a bound pod that has neither a
// start time nor a creation timestamp.
var DefaultStartTime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// Built-in priority classes that kube-apiserver always creates
// (pkg/apis/scheduling, SystemPriorityClasses), from internal/sched.
const (
	SystemNodeCritical        = sched.SystemNodeCritical
	SystemClusterCritical     = sched.SystemClusterCritical
	systemNodeCriticalValue   = sched.SystemCriticalPriority + 1000
	systemClusterCriticalVale = sched.SystemCriticalPriority
)

// Normalize returns a deep copy of s as the API server would have stored it
// (see the package documentation for the rules, in order), plus warnings
// for what the API server would have refused or changed and the simulation
// lets pass. s is not modified. Errors (missing names, duplicates, invalid
// selectors) are all reported at once as an ErrorList; then the result is
// nil.
func Normalize(s *Scenario) (*Scenario, []string, error) {
	return normalizeInPlace(s.DeepCopy())
}

// Load decodes a document and normalizes it: Decode then Normalize, without
// the intermediate copy, since the decoded objects never reach the caller.
// The warnings of both steps are returned, decoding's first.
func Load(data []byte) (*Scenario, []string, error) {
	s, warnings, err := Decode(data)
	if err != nil {
		return nil, warnings, err
	}
	n, more, err := normalizeInPlace(s)
	return n, append(warnings, more...), err
}

// normalizeInPlace applies the rules to n itself.
func normalizeInPlace(n *Scenario) (*Scenario, []string, error) {
	var errs ErrorList
	var warnings []string
	// uniqueName records a cluster-scoped object's name in seen, or reports
	// it missing or repeated (the API server's name uniqueness per resource).
	uniqueName := func(list string, i int, name string, seen map[string]int) bool {
		if name == "" {
			errs = append(errs, &ObjectError{List: list, Index: i, Field: "metadata.name", Detail: "Required value"})
			return false
		}
		if prev, dup := seen[name]; dup {
			errs = append(errs, &ObjectError{List: list, Index: i, Name: name, Field: "metadata.name", Detail: "Duplicate value: same name as " + n.where(list, prev)})
			return false
		}
		seen[name] = i
		return true
	}

	nodeNames := map[string]int{}
	for i := range n.Nodes {
		node := &n.Nodes[i]
		if !uniqueName("nodes", i, node.Name, nodeNames) {
			continue
		}
		cluster.DefaultNode(node)
		errs = append(errs, validateNode(i, node)...)
	}

	nsNames := map[string]int{}
	for i := range n.Namespaces {
		ns := &n.Namespaces[i]
		if !uniqueName("namespaces", i, ns.Name, nsNames) {
			continue
		}
		cluster.DefaultNamespace(ns)
	}

	pcNames := map[string]int{}
	for i := range n.PriorityClasses {
		pc := &n.PriorityClasses[i]
		if !uniqueName("priorityClasses", i, pc.Name, pcNames) {
			continue
		}
		if pc.PreemptionPolicy == nil {
			// scheduling/v1 SetDefaults_PriorityClass.
			p := corev1.PreemptLowerPriority
			pc.PreemptionPolicy = &p
		}
	}
	prio := newPriorityResolver(n.PriorityClasses)

	// Pods: "pods" and "pending" share one namespace/name space. Names are
	// checked in order first; then each pod is defaulted and validated on
	// its own, in parallel (at ten thousand pods this was a sequential
	// tenth of reading a scenario), its warnings and problems kept in its
	// slot and reported in input order.
	type seenPod struct {
		list  string
		index int
	}
	type podSlot struct {
		list     string
		index    int
		pod      *corev1.Pod
		named    bool // the name is present and unique: the pod is prepared
		errs     ErrorList
		warnings []string
	}
	slots := make([]podSlot, 0, len(n.Pods)+len(n.Pending))
	for i := range n.Pods {
		slots = append(slots, podSlot{list: "pods", index: i, pod: &n.Pods[i]})
	}
	for i := range n.Pending {
		slots = append(slots, podSlot{list: "pending", index: i, pod: &n.Pending[i]})
	}
	podKeys := make(map[string]seenPod, len(slots))
	for k := range slots {
		sl := &slots[k]
		p := sl.pod
		if p.Namespace == "" {
			p.Namespace = metav1.NamespaceDefault
		}
		if p.Name == "" {
			sl.errs = ErrorList{{List: sl.list, Index: sl.index, Field: "metadata.name", Detail: "Required value"}}
			continue
		}
		key := PodKey(p)
		if prev, dup := podKeys[key]; dup {
			sl.errs = ErrorList{{List: sl.list, Index: sl.index, Name: key, Field: "metadata.name", Detail: "Duplicate value: same namespace/name as " + n.where(prev.list, prev.index)}}
			continue
		}
		podKeys[key] = seenPod{sl.list, sl.index}
		sl.named = true
	}
	par.Run(runtime.GOMAXPROCS(0), len(slots), func(k int) {
		sl := &slots[k]
		if !sl.named {
			return
		}
		p, list, i := sl.pod, sl.list, sl.index
		warnPod := func(format string, args ...any) {
			e := ObjectError{List: list, Index: i, Name: PodKey(p), Detail: fmt.Sprintf(format, args...)}
			n.locate(&e)
			sl.warnings = append(sl.warnings, e.Error())
		}
		if p.UID == "" {
			p.UID = types.UID("uid-" + p.Namespace + "-" + p.Name)
		}
		cluster.DefaultPod(p)
		mutatePodAffinity(p)
		mutateTopologySpreadConstraints(p)
		if w := prio.resolve(p); w != "" {
			warnPod("%s", w)
		}
		sl.errs = validatePod(list, i, p)
		switch list {
		case "pods":
			if p.Status.StartTime == nil {
				t := metav1.NewTime(DefaultStartTime)
				if !p.CreationTimestamp.IsZero() {
					t = p.CreationTimestamp
				}
				p.Status.StartTime = &t
			}
		case "pending":
			if p.Spec.SchedulerName != corev1.DefaultSchedulerName {
				warnPod("schedulerName %q: evaluated with the default profile anyway", p.Spec.SchedulerName)
			}
			if p.Status.NominatedNodeName != "" {
				warnPod("status.nominatedNodeName %q ignored", p.Status.NominatedNodeName)
				p.Status.NominatedNodeName = ""
			}
		}
	})
	for k := range slots {
		warnings = append(warnings, slots[k].warnings...)
		errs = append(errs, slots[k].errs...)
	}

	for i := range n.PDBs {
		pdb := &n.PDBs[i]
		if pdb.Namespace == "" {
			pdb.Namespace = metav1.NamespaceDefault
		}
		errs = append(errs, validateLabelSelector("pdbs", i, pdb.Namespace+"/"+pdb.Name, "spec.selector", pdb.Spec.Selector)...)
	}
	for i := range n.Services {
		if n.Services[i].Namespace == "" {
			n.Services[i].Namespace = metav1.NamespaceDefault
		}
	}
	for i := range n.ReplicaSets {
		rs := &n.ReplicaSets[i]
		if rs.Namespace == "" {
			rs.Namespace = metav1.NamespaceDefault
		}
		cluster.DefaultPodSpec(&rs.Spec.Template.Spec)
		errs = append(errs, validateLabelSelector("replicaSets", i, rs.Namespace+"/"+rs.Name, "spec.selector", rs.Spec.Selector)...)
	}
	for i := range n.StatefulSets {
		ss := &n.StatefulSets[i]
		if ss.Namespace == "" {
			ss.Namespace = metav1.NamespaceDefault
		}
		cluster.DefaultPodSpec(&ss.Spec.Template.Spec)
		errs = append(errs, validateLabelSelector("statefulSets", i, ss.Namespace+"/"+ss.Name, "spec.selector", ss.Spec.Selector)...)
	}
	for i := range n.ReplicationControllers {
		rc := &n.ReplicationControllers[i]
		if rc.Namespace == "" {
			rc.Namespace = metav1.NamespaceDefault
		}
		cluster.DefaultReplicationController(rc)
		if rc.Spec.Template != nil {
			cluster.DefaultPodSpec(&rc.Spec.Template.Spec)
		}
	}

	if len(errs) > 0 {
		for _, e := range errs {
			n.locate(e)
		}
		return nil, warnings, errs
	}
	return n, warnings, nil
}

// priorityResolver mirrors the Priority admission plugin
// (plugin/pkg/admission/priority, admit), leniently.
type priorityResolver struct {
	byName        map[string]*schedulingv1.PriorityClass
	globalDefault *schedulingv1.PriorityClass
}

func newPriorityResolver(classes []schedulingv1.PriorityClass) *priorityResolver {
	r := &priorityResolver{byName: map[string]*schedulingv1.PriorityClass{}}
	preempt := corev1.PreemptLowerPriority
	for _, b := range []schedulingv1.PriorityClass{
		{ObjectMeta: metav1.ObjectMeta{Name: SystemNodeCritical}, Value: systemNodeCriticalValue, PreemptionPolicy: &preempt},
		{ObjectMeta: metav1.ObjectMeta{Name: SystemClusterCritical}, Value: systemClusterCriticalVale, PreemptionPolicy: &preempt},
	} {
		r.byName[b.Name] = &b
	}
	for i := range classes {
		pc := &classes[i]
		if pc.Name == "" {
			continue
		}
		r.byName[pc.Name] = pc // an input class of a built-in name wins
		// getDefaultPriorityClass: the globalDefault class with the lowest
		// value; among equal values the first in input order.
		if pc.GlobalDefault && (r.globalDefault == nil || pc.Value < r.globalDefault.Value) {
			r.globalDefault = pc
		}
	}
	return r
}

// resolve sets spec.priority and spec.preemptionPolicy and returns a
// warning where admission would have refused the pod.
func (r *priorityResolver) resolve(p *corev1.Pod) string {
	var warning string
	var pc *schedulingv1.PriorityClass
	if name := p.Spec.PriorityClassName; name != "" {
		pc = r.byName[name]
		if pc == nil && p.Spec.Priority == nil {
			warning = fmt.Sprintf("priorityClassName %q not found (admission would reject the pod); using priority 0", name)
		}
	} else {
		pc = r.globalDefault
	}
	if p.Spec.Priority == nil {
		var v int32
		if pc != nil {
			v = pc.Value
		}
		p.Spec.Priority = &v
	} else if pc != nil && *p.Spec.Priority != pc.Value {
		warning = fmt.Sprintf("spec.priority %d differs from the value %d of priority class %q (admission would reject the pod); using spec.priority", *p.Spec.Priority, pc.Value, pc.Name)
	}
	if p.Spec.PreemptionPolicy == nil {
		pol := corev1.PreemptLowerPriority
		if pc != nil && pc.PreemptionPolicy != nil {
			pol = *pc.PreemptionPolicy
		}
		p.Spec.PreemptionPolicy = &pol
	}
	return warning
}

// mutatePodAffinity mirrors the pod strategy's mutatePodAffinity
// (MatchLabelKeysInPodAffinity, on in v1.36): the scheduler never reads
// matchLabelKeys / mismatchLabelKeys of affinity terms; the API server has
// merged them into the label selector.
func mutatePodAffinity(p *corev1.Pod) {
	cluster.EachAffinityTerm(p, func(t *corev1.PodAffinityTerm) bool {
		mergeLabelKeys(t, p.Labels)
		return true
	})
}

// mergeLabelKeys mirrors applyMatchLabelKeysAndMismatchLabelKeys: only terms
// with a label selector are changed; keys the pod has no label for add
// nothing.
func mergeLabelKeys(term *corev1.PodAffinityTerm, podLabels map[string]string) {
	if (len(term.MatchLabelKeys) == 0 && len(term.MismatchLabelKeys) == 0) || term.LabelSelector == nil {
		return
	}
	appendLabelRequirements(term.LabelSelector, term.MatchLabelKeys, metav1.LabelSelectorOpIn, podLabels)
	appendLabelRequirements(term.LabelSelector, term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn, podLabels)
}

// mutateTopologySpreadConstraints mirrors the pod strategy's
// mutateTopologySpreadConstraints (MatchLabelKeysInPodTopologySpread and
// MatchLabelKeysInPodTopologySpreadSelectorMerge, both on in v1.36).
func mutateTopologySpreadConstraints(p *corev1.Pod) {
	for i := range p.Spec.TopologySpreadConstraints {
		c := &p.Spec.TopologySpreadConstraints[i]
		if len(c.MatchLabelKeys) == 0 || c.LabelSelector == nil {
			continue
		}
		appendLabelRequirements(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn, p.Labels)
	}
}

// appendLabelRequirements mirrors applyLabelKeysToLabelSelector.
func appendLabelRequirements(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator, podLabels map[string]string) {
	for _, key := range keys {
		if value, ok := podLabels[key]; ok {
			sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{
				Key: key, Operator: op, Values: []string{value},
			})
		}
	}
}

// lowerFirst is used in messages that quote an upstream error.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
