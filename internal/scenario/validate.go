package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/labelmatch"
	"github.com/schedkit/schedkit/internal/nodeaffinity"
	"github.com/schedkit/schedkit/internal/topo"
)

// Validation here covers what would make a scheduling rule undefined: label
// and node selectors that labels.NewRequirement or the node affinity helper
// (component-helpers scheduling/corev1/nodeaffinity) refuse, spread
// constraints without a positive maxSkew or a topology key or with an
// unknown inclusion policy or repeated, negative resource quantities
// (cluster.PodResourceErrors), tolerations with an unsupported operator or
// effect, and taints with an unknown effect. The API server validates much more; objects it would
// have refused for other reasons are simulated as given.

// spreadPath is where a pod's spread constraints are.
var spreadPath = field.NewPath("spec", "topologySpreadConstraints")

func validateNode(i int, n *corev1.Node) ErrorList {
	var errs ErrorList
	for j, t := range n.Spec.Taints {
		path := "spec.taints[" + strconv.Itoa(j) + "]"
		switch t.Effect {
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
		case "":
			errs = append(errs, &ObjectError{List: "nodes", Index: i, Name: n.Name, Field: path + ".effect", Detail: "Required value"})
		default:
			errs = append(errs, &ObjectError{List: "nodes", Index: i, Name: n.Name, Field: path + ".effect",
				Detail: fmt.Sprintf("Unsupported value: %q: supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"", t.Effect)})
		}
		if t.Key == "" {
			errs = append(errs, &ObjectError{List: "nodes", Index: i, Name: n.Name, Field: path + ".key", Detail: "Required value"})
		}
	}
	return errs
}

func validatePod(list string, i int, p *corev1.Pod) ErrorList {
	var probs []problem
	spec := &p.Spec
	if a := spec.Affinity; a != nil {
		if na := a.NodeAffinity; na != nil {
			if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
				for t, term := range req.NodeSelectorTerms {
					probs = append(probs, nodeSelectorTermProblems(func() string {
						return fmt.Sprintf("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[%d]", t)
					}, &term)...)
				}
			}
			for t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
				term := &na.PreferredDuringSchedulingIgnoredDuringExecution[t]
				probs = append(probs, nodeSelectorTermProblems(func() string {
					return fmt.Sprintf("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d].preference", t)
				}, &term.Preference)...)
			}
		}
		for _, group := range []struct {
			name string
			req  []corev1.PodAffinityTerm
			pref []corev1.WeightedPodAffinityTerm
		}{
			{"podAffinity", podAffinityRequired(a.PodAffinity), podAffinityPreferred(a.PodAffinity)},
			{"podAntiAffinity", podAntiAffinityRequired(a.PodAntiAffinity), podAntiAffinityPreferred(a.PodAntiAffinity)},
		} {
			for t := range group.req {
				probs = append(probs, affinityTermProblems(func() string {
					return fmt.Sprintf("spec.affinity.%s.requiredDuringSchedulingIgnoredDuringExecution[%d]", group.name, t)
				}, &group.req[t])...)
			}
			for t := range group.pref {
				probs = append(probs, affinityTermProblems(func() string {
					return fmt.Sprintf("spec.affinity.%s.preferredDuringSchedulingIgnoredDuringExecution[%d].podAffinityTerm", group.name, t)
				}, &group.pref[t].PodAffinityTerm)...)
			}
		}
	}
	for j, tol := range spec.Tolerations {
		probs = append(probs, tolerationProblems(func() string { return fmt.Sprintf("spec.tolerations[%d]", j) }, &tol)...)
	}
	for _, e := range cluster.PodResourceErrors(p, nil) {
		probs = append(probs, problem{e.Field, e.ErrorBody()})
	}
	for _, e := range topo.ValidateSpreadConstraints(spec.TopologySpreadConstraints, spreadPath) {
		probs = append(probs, problem{e.Field, e.ErrorBody()})
	}
	for c := range spec.TopologySpreadConstraints {
		tsc := &spec.TopologySpreadConstraints[c]
		path := func() string { return spreadPath.Index(c).String() }
		for _, pol := range []struct {
			name  string
			value *corev1.NodeInclusionPolicy
		}{{"nodeAffinityPolicy", tsc.NodeAffinityPolicy}, {"nodeTaintsPolicy", tsc.NodeTaintsPolicy}} {
			if pol.value != nil && *pol.value != corev1.NodeInclusionPolicyHonor && *pol.value != corev1.NodeInclusionPolicyIgnore {
				probs = append(probs, problem{path() + "." + pol.name, fmt.Sprintf("Unsupported value: %q: supported values: \"Honor\", \"Ignore\"", *pol.value)})
			}
		}
		probs = append(probs, labelSelectorProblems(func() string { return path() + ".labelSelector" }, tsc.LabelSelector)...)
	}
	var errs ErrorList
	for _, pr := range probs {
		errs = append(errs, &ObjectError{List: list, Index: i, Name: PodKey(p), Field: pr.path, Detail: pr.detail})
	}
	return errs
}

// tolerationProblems mirrors the parts of ValidateTolerations
// (pkg/apis/core/validation) that change what a toleration matches: the
// operator (Lt and Gt need TaintTolerationComparisonOperators, off in
// v1.36), an empty key only with Exists, no value with Exists, the effect.
func tolerationProblems(path func() string, t *corev1.Toleration) []problem {
	var probs []problem
	switch t.Operator {
	case corev1.TolerationOpEqual, "":
		if t.Key == "" {
			probs = append(probs, problem{path() + ".operator", fmt.Sprintf("Invalid value: %q: operator must be Exists when `key` is empty, which means \"match all values and all keys\"", t.Operator)})
		}
	case corev1.TolerationOpExists:
		if t.Value != "" {
			probs = append(probs, problem{path() + ".operator", fmt.Sprintf("Invalid value: %q: value must be empty when `operator` is 'Exists'", t.Value)})
		}
	default:
		probs = append(probs, problem{path() + ".operator", fmt.Sprintf("Unsupported value: %q: supported values: \"Equal\", \"Exists\"", t.Operator)})
	}
	switch t.Effect {
	case "", corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
	default:
		probs = append(probs, problem{path() + ".effect", fmt.Sprintf("Unsupported value: %q: supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"", t.Effect)})
	}
	return probs
}

func podAffinityRequired(a *corev1.PodAffinity) []corev1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPreferred(a *corev1.PodAffinity) []corev1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *corev1.PodAntiAffinity) []corev1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPreferred(a *corev1.PodAntiAffinity) []corev1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func affinityTermProblems(path func() string, t *corev1.PodAffinityTerm) []problem {
	var probs []problem
	if t.TopologyKey == "" {
		probs = append(probs, problem{path() + ".topologyKey", "Required value: can not be empty"})
	}
	probs = append(probs, labelSelectorProblems(func() string { return path() + ".labelSelector" }, t.LabelSelector)...)
	probs = append(probs, labelSelectorProblems(func() string { return path() + ".namespaceSelector" }, t.NamespaceSelector)...)
	return probs
}

// labelSelectorProblems checks a selector the way
// metav1.LabelSelectorAsSelector would, requirement by requirement so that
// each problem has its own path.
func labelSelectorProblems(path func() string, sel *metav1.LabelSelector) []problem {
	if sel == nil {
		return nil
	}
	var probs []problem
	keys := make([]string, 0, len(sel.MatchLabels))
	for k := range sel.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if msg := requirementProblem(k, selection.Equals, []string{sel.MatchLabels[k]}); msg != "" {
			probs = append(probs, problem{path() + ".matchLabels." + k, msg})
		}
	}
	for j, e := range sel.MatchExpressions {
		p := func() string { return fmt.Sprintf("%s.matchExpressions[%d]", path(), j) }
		var op selection.Operator
		switch e.Operator {
		case metav1.LabelSelectorOpIn:
			op = selection.In
		case metav1.LabelSelectorOpNotIn:
			op = selection.NotIn
		case metav1.LabelSelectorOpExists:
			op = selection.Exists
		case metav1.LabelSelectorOpDoesNotExist:
			op = selection.DoesNotExist
		default:
			probs = append(probs, problem{p() + ".operator", fmt.Sprintf("Unsupported value: %q: supported values: \"DoesNotExist\", \"Exists\", \"In\", \"NotIn\"", e.Operator)})
			continue
		}
		if msg := requirementProblem(e.Key, op, e.Values); msg != "" {
			probs = append(probs, problem{p(), msg})
		}
	}
	return probs
}

// nodeSelectorTermProblems checks a node selector term the way the node
// affinity helper compiles it (nodeSelectorRequirementsAsSelector and
// nodeSelectorRequirementsAsFieldSelector).
func nodeSelectorTermProblems(path func() string, term *corev1.NodeSelectorTerm) []problem {
	var probs []problem
	for j, r := range term.MatchExpressions {
		p := func() string { return fmt.Sprintf("%s.matchExpressions[%d]", path(), j) }
		op, ok := nodeaffinity.LabelOperator(r.Operator)
		if !ok {
			probs = append(probs, problem{p() + ".operator", fmt.Sprintf("Unsupported value: %q: supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\"", r.Operator)})
			continue
		}
		if msg := requirementProblem(r.Key, op, r.Values); msg != "" {
			probs = append(probs, problem{p(), msg})
		}
	}
	for j, r := range term.MatchFields {
		p := func() string { return fmt.Sprintf("%s.matchFields[%d]", path(), j) }
		if r.Key != metav1.ObjectNameField {
			probs = append(probs, problem{p() + ".key", fmt.Sprintf("Unsupported value: %q: supported values: \"metadata.name\"", r.Key)})
			continue
		}
		switch r.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(r.Values) != 1 {
				probs = append(probs, problem{p() + ".values", fmt.Sprintf("Invalid value: %d values: must have one element for operator %q", len(r.Values), r.Operator)})
			}
		default:
			probs = append(probs, problem{p() + ".operator", fmt.Sprintf("Unsupported value: %q: supported values: \"In\", \"NotIn\"", r.Operator)})
		}
	}
	return probs
}

// validateLabelSelector checks an object's selector field.
func validateLabelSelector(list string, i int, name, path string, sel *metav1.LabelSelector) ErrorList {
	var errs ErrorList
	for _, pr := range labelSelectorProblems(func() string { return path }, sel) {
		errs = append(errs, &ObjectError{List: list, Index: i, Name: name, Field: pr.path, Detail: pr.detail})
	}
	return errs
}

// requirements memoizes requirementProblem, a pure function: a scenario's
// selectors repeat a few keys and values over thousands of pods, and
// labels.NewRequirement checks each key and value with regular
// expressions. It keeps at most maxRequirements answers, so that a long
// run of varied inputs does not grow it without bound.
var (
	requirements    sync.Map // requirementKey -> string
	numRequirements atomic.Int32
)

const maxRequirements = 4096

type requirementKey struct {
	key    string
	op     selection.Operator
	n      int    // len(values)
	values string // joined with NUL (values holding one are not memoized)
}

// requirementProblem is labels.NewRequirement(key, op, values)'s error as
// one line ("" when the requirement is valid). values is not modified.
func requirementProblem(key string, op selection.Operator, values []string) string {
	if requirementValid(key, op, values) {
		return ""
	}
	check := func() string {
		if _, err := labels.NewRequirement(key, op, append([]string(nil), values...)); err != nil {
			return flatten(err)
		}
		return ""
	}
	for _, v := range values {
		if strings.IndexByte(v, 0) >= 0 {
			return check()
		}
	}
	k := requirementKey{key, op, len(values), strings.Join(values, "\x00")}
	if msg, ok := requirements.Load(k); ok {
		return msg.(string)
	}
	msg := check()
	if numRequirements.Load() < maxRequirements {
		if _, loaded := requirements.LoadOrStore(k, msg); !loaded {
			numRequirements.Add(1)
		}
	}
	return msg
}

// requirementValid reports a requirement labels.NewRequirement surely
// accepts: a valid key, as many values as the operator takes, each a
// valid label value (labelmatch.ValidKey and ValidValue decide as its
// regular expressions do). Gt and Lt, which also parse their value, are
// left to NewRequirement.
func requirementValid(key string, op selection.Operator, values []string) bool {
	switch op {
	case selection.In, selection.NotIn:
		if len(values) == 0 {
			return false
		}
	case selection.Equals, selection.DoubleEquals, selection.NotEquals:
		if len(values) != 1 {
			return false
		}
	case selection.Exists, selection.DoesNotExist:
		if len(values) != 0 {
			return false
		}
	default:
		return false
	}
	if !labelmatch.ValidKey(key) {
		return false
	}
	for _, v := range values {
		if !labelmatch.ValidValue(v) {
			return false
		}
	}
	return true
}

// flatten turns an aggregated validation error into one line.
func flatten(err error) string {
	s := strings.TrimPrefix(strings.TrimSuffix(strings.ReplaceAll(err.Error(), "\n", "; "), "]"), "[")
	return lowerFirst(s)
}
