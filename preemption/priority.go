package preemption

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Priority constants of the scheduling API (pkg/apis/scheduling/types.go, v1.36).
const (
	// HighestUserDefinablePriority is the largest value a PriorityClass
	// without the system- prefix may have.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the value of system-cluster-critical.
	SystemCriticalPriority = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix is reserved for the built-in classes.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical and SystemNodeCritical are the built-in classes
	// every cluster has.
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
	SystemNodeCritical    = SystemPriorityClassPrefix + "node-critical"
)

// ValidationError carries every validation problem of one input with its API
// field path (priorityClasses[1].value), for errors.As. Its text is the
// list's aggregate text; the errors that hold it also wrap the sentinel of
// their cause (ErrInvalidPriorityClass).
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

// ErrInvalidInput is wrapped by every error for input no upstream answer
// exists for: a nil snapshot, pod or compiled pod, a nil pending pod, a
// statuses slice that does not cover the snapshot's nodes.
var ErrInvalidInput = errors.New("preemption: invalid input")

// Sentinel errors of priority resolution; the errors returned also satisfy
// apierrors.IsForbidden, as the admission plugin's do.
var (
	// ErrUnknownPriorityClass: spec.priorityClassName names no class.
	ErrUnknownPriorityClass = errors.New("preemption: unknown priority class")
	// ErrPriorityMismatch: spec.priority contradicts the class value.
	ErrPriorityMismatch = errors.New("preemption: spec.priority contradicts the priority class")
	// ErrPreemptionPolicyMismatch: spec.preemptionPolicy contradicts the class.
	ErrPreemptionPolicyMismatch = errors.New("preemption: spec.preemptionPolicy contradicts the priority class")
	// ErrInvalidPriorityClass: a class fails PriorityClass validation.
	ErrInvalidPriorityClass = errors.New("preemption: invalid priority class")
)

// builtinClasses are the classes the API server creates at bootstrap
// (pkg/apis/scheduling/v1/helpers.go systemPriorityClasses).
var builtinClasses = []struct {
	name  string
	value int32
}{
	{SystemNodeCritical, SystemCriticalPriority + 1000},
	{SystemClusterCritical, SystemCriticalPriority},
}

// PriorityClasses is a validated set of priority classes, including the two
// built-in system classes. It is immutable and safe for concurrent use.
type PriorityClasses struct {
	byName map[string]priorityClass
	// def is the globalDefault class with the lowest value, if any.
	def    priorityClass
	hasDef bool
}

type priorityClass struct {
	name   string
	value  int32
	policy corev1.PreemptionPolicy
}

// NewPriorityClasses validates the classes as the API server's PriorityClass
// validation does (pkg/apis/scheduling/validation ValidatePriorityClass:
// name, the system- prefix reserved for the built-in classes with their
// exact values, user values at most 1,000,000,000, a valid preemptionPolicy)
// and indexes them with the built-in classes. A duplicate name is an error.
// Several globalDefault classes are allowed (they can exist when created
// concurrently); the lowest value wins, as the admission plugin decides.
// The classes are not modified.
func NewPriorityClasses(classes []*schedulingv1.PriorityClass) (*PriorityClasses, error) {
	pcs := &PriorityClasses{byName: make(map[string]priorityClass, len(classes)+len(builtinClasses))}
	for _, b := range builtinClasses {
		pcs.byName[b.name] = priorityClass{name: b.name, value: b.value, policy: corev1.PreemptLowerPriority}
	}
	var errs field.ErrorList
	seen := make(map[string]bool, len(classes))
	for i, pc := range classes {
		path := field.NewPath("priorityClasses").Index(i)
		if pc == nil {
			errs = append(errs, field.Required(path, "nil priority class"))
			continue
		}
		errs = append(errs, ValidatePriorityClass(pc, path)...)
		if seen[pc.Name] {
			errs = append(errs, field.Duplicate(path.Child("metadata", "name"), pc.Name))
			continue
		}
		seen[pc.Name] = true
		policy := corev1.PreemptLowerPriority // v1 defaulting (SetDefaults_PriorityClass)
		if pc.PreemptionPolicy != nil {
			policy = *pc.PreemptionPolicy
		}
		c := priorityClass{name: pc.Name, value: pc.Value, policy: policy}
		pcs.byName[pc.Name] = c
		// getDefaultPriorityClass: the lowest value among globalDefault
		// classes; among equal values the first in input order.
		if pc.GlobalDefault && (!pcs.hasDef || c.value < pcs.def.value) {
			pcs.def, pcs.hasDef = c, true
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPriorityClass, &ValidationError{Errors: errs})
	}
	return pcs, nil
}

// ValidatePriorityClass mirrors the API server's ValidatePriorityClass
// (pkg/apis/scheduling/validation, v1.36) for one class, with field paths
// under path (nil for the class itself). A nil class is a Required error
// at path.
func ValidatePriorityClass(pc *schedulingv1.PriorityClass, path *field.Path) field.ErrorList {
	if pc == nil {
		return field.ErrorList{field.Required(path, "nil priority class")}
	}
	errs := apivalidation.ValidateObjectMeta(&pc.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, path.Child("metadata"))
	if strings.HasPrefix(pc.Name, SystemPriorityClassPrefix) {
		if err := knownSystemClass(pc); err != nil {
			errs = append(errs, field.Forbidden(path.Child("metadata", "name"),
				"priority class names with '"+SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+err.Error()))
		}
	} else if pc.Value > HighestUserDefinablePriority {
		errs = append(errs, field.Forbidden(path.Child("value"),
			fmt.Sprintf("maximum allowed value of a user defined priority is %v", HighestUserDefinablePriority)))
	}
	if pc.PreemptionPolicy != nil {
		switch p := *pc.PreemptionPolicy; p {
		case corev1.PreemptLowerPriority, corev1.PreemptNever:
		case "":
			errs = append(errs, field.Required(path.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(path.Child("preemptionPolicy"), p,
				[]corev1.PreemptionPolicy{corev1.PreemptLowerPriority, corev1.PreemptNever}))
		}
	}
	return errs
}

// knownSystemClass mirrors IsKnownSystemPriorityClass: a system- class must
// be one of the built-ins with its exact value and globalDefault false.
func knownSystemClass(pc *schedulingv1.PriorityClass) error {
	for _, b := range builtinClasses {
		if b.name != pc.Name {
			continue
		}
		if b.value != pc.Value {
			return fmt.Errorf("value of %v PriorityClass must be %v", b.name, b.value)
		}
		if pc.GlobalDefault {
			return fmt.Errorf("globalDefault of %v PriorityClass must be %v", b.name, false)
		}
		return nil
	}
	return fmt.Errorf("%v is not a known system priority class", pc.Name)
}

// Resolution is what the Priority admission plugin writes into a new pod.
type Resolution struct {
	// ClassName is spec.priorityClassName after admission: the pod's own, the
	// globalDefault class's name, or "" when no class applies.
	ClassName string
	// Priority is spec.priority after admission.
	Priority int32
	// PreemptionPolicy is spec.preemptionPolicy after admission.
	PreemptionPolicy corev1.PreemptionPolicy
}

// Resolve computes the pod's priority as the Priority admission plugin does
// on create (plugin/pkg/admission/priority admitPod / establishPriority,
// v1.36): the named class, else the globalDefault class with the lowest
// value, else 0 with PreemptLowerPriority. It fails as admission does (403
// Forbidden) on an unknown class, on a spec.priority that differs from the
// class value, and on a spec.preemptionPolicy that differs from the class's.
// The errors wrap ErrUnknownPriorityClass, ErrPriorityMismatch or
// ErrPreemptionPolicyMismatch and satisfy apierrors.IsForbidden. The pod is
// not modified.
func (pcs *PriorityClasses) Resolve(pod *corev1.Pod) (Resolution, error) {
	if pod == nil {
		return Resolution{}, fmt.Errorf("%w: nil pod", ErrInvalidInput)
	}
	c, err := pcs.class(pod)
	if err != nil {
		return Resolution{}, err
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != c.value {
		return Resolution{}, forbidden(pod, ErrPriorityMismatch, fmt.Sprintf(
			"the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name",
			*pod.Spec.Priority, c.value))
	}
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != c.policy {
		return Resolution{}, forbidden(pod, ErrPreemptionPolicyMismatch, fmt.Sprintf(
			"the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name",
			*pod.Spec.PreemptionPolicy, c.policy))
	}
	return Resolution{ClassName: c.name, Priority: c.value, PreemptionPolicy: c.policy}, nil
}

// ResolveLenient resolves like Resolve but never fails: spec.priority and
// spec.preemptionPolicy win when set (even against the class), and an unknown
// class gives priority 0 with a warning. This is what the conformance
// scenarios' API-server emulation does; warning is "" when nothing was odd.
func (pcs *PriorityClasses) ResolveLenient(pod *corev1.Pod) (r Resolution, warning string) {
	if pod == nil {
		return Resolution{PreemptionPolicy: corev1.PreemptLowerPriority}, "nil pod"
	}
	c, err := pcs.class(pod)
	if err != nil {
		warning = err.Error()
		c = priorityClass{name: pod.Spec.PriorityClassName, policy: corev1.PreemptLowerPriority}
	}
	r = Resolution{ClassName: c.name, Priority: c.value, PreemptionPolicy: c.policy}
	if pod.Spec.Priority != nil {
		r.Priority = *pod.Spec.Priority
	}
	if pod.Spec.PreemptionPolicy != nil {
		r.PreemptionPolicy = *pod.Spec.PreemptionPolicy
	}
	return r, warning
}

// WithPriority returns a deep copy of pod with spec.priorityClassName, spec.priority
// and spec.preemptionPolicy set as Resolve computes them, or Resolve's error.
func (pcs *PriorityClasses) WithPriority(pod *corev1.Pod) (*corev1.Pod, error) {
	r, err := pcs.Resolve(pod)
	if err != nil {
		return nil, err
	}
	out := pod.DeepCopy()
	out.Spec.PriorityClassName = r.ClassName
	out.Spec.Priority = &r.Priority
	out.Spec.PreemptionPolicy = &r.PreemptionPolicy
	return out, nil
}

func (pcs *PriorityClasses) class(pod *corev1.Pod) (priorityClass, error) {
	name := pod.Spec.PriorityClassName
	if name == "" {
		if pcs.hasDef {
			return pcs.def, nil
		}
		return priorityClass{policy: corev1.PreemptLowerPriority}, nil
	}
	c, ok := pcs.byName[name]
	if !ok {
		return priorityClass{}, forbidden(pod, ErrUnknownPriorityClass,
			fmt.Sprintf("no PriorityClass with name %v was found", name))
	}
	return c, nil
}

// admissionError is the admission plugin's Forbidden status error that also
// wraps one of this package's sentinels.
type admissionError struct {
	sentinel error
	status   *apierrors.StatusError
}

func (e *admissionError) Error() string   { return e.status.Error() }
func (e *admissionError) Unwrap() []error { return []error{e.sentinel, e.status} }

// forbidden builds the error admission.NewForbidden gives for a pod create:
// `pods "NAME" is forbidden: MSG`.
func forbidden(pod *corev1.Pod, sentinel error, msg string) error {
	return &admissionError{
		sentinel: sentinel,
		status:   apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, pod.Name, errors.New(msg)),
	}
}
