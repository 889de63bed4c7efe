package eviction

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/lifecycle"
)

// ErrDuplicatePod wraps SelectDrainPods' error for pods that share a
// namespace and name: the API server stores one object per name, so the
// list cannot be a cluster's.
var ErrDuplicatePod = errors.New("eviction: duplicate pod")

// ErrInvalidSelector is wrapped by SelectDrainPods' error for a malformed
// DrainOptions.PodSelector; the error's text is kubectl's (the label
// parser's) alone.
var ErrInvalidSelector = errors.New("eviction: invalid pod selector")

// selectorError is labels.Parse's error, unchanged in text, that also
// answers errors.Is(err, ErrInvalidSelector).
type selectorError struct{ err error }

func (e *selectorError) Error() string   { return e.err.Error() }
func (e *selectorError) Unwrap() []error { return []error{ErrInvalidSelector, e.err} }

// kubectl drain's filter messages (k8s.io/kubectl/pkg/drain/filters.go,
// v0.36).
const (
	// DrainDaemonSetFatal is the error for a DaemonSet pod without
	// --ignore-daemonsets (daemonSetFilter's daemonSetFatal).
	DrainDaemonSetFatal = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	// DrainDaemonSetWarning is the warning for a DaemonSet pod skipped
	// with --ignore-daemonsets (daemonSetWarning).
	DrainDaemonSetWarning = "ignoring DaemonSet-managed Pods"
	// DrainLocalStorageFatal is the error for a pod with an emptyDir
	// volume without --delete-emptydir-data (localStorageFatal).
	DrainLocalStorageFatal = "Pods with local storage (use --delete-emptydir-data to override)"
	// DrainLocalStorageWarning is the warning for a pod with an emptyDir
	// volume deleted with --delete-emptydir-data (localStorageWarning).
	DrainLocalStorageWarning = "deleting Pods with local storage"
	// DrainUnmanagedFatal is the error for a pod without a controller
	// without --force (unmanagedFatal).
	DrainUnmanagedFatal = "Pods that declare no controller (use --force to override)"
	// DrainUnmanagedWarning is the warning for a pod without a controller
	// deleted with --force (unmanagedWarning).
	DrainUnmanagedWarning = "deleting Pods that declare no controller"
)

// DrainStatus is a drain filter's verdict kind.
type DrainStatus string

// Drain verdicts, as kubectl's PodDeleteStatus reasons.
const (
	// DrainOkay: the pod is deleted without comment (PodDeleteStatusTypeOkay).
	DrainOkay DrainStatus = "Okay"
	// DrainSkip: the pod is left alone silently (PodDeleteStatusTypeSkip).
	DrainSkip DrainStatus = "Skip"
	// DrainWarning: the pod is deleted or skipped with a warning
	// (PodDeleteStatusTypeWarning).
	DrainWarning DrainStatus = "Warning"
	// DrainError: the pod blocks the drain of its node
	// (PodDeleteStatusTypeError).
	DrainError DrainStatus = "Error"
)

// DrainOptions are kubectl drain's pod-selection flags. The zero value is
// kubectl's default.
type DrainOptions struct {
	// Force deletes pods without a controller (and those of a vanished
	// DaemonSet).
	Force bool
	// IgnoreAllDaemonSets skips DaemonSet-managed pods instead of refusing.
	IgnoreAllDaemonSets bool
	// DeleteEmptyDirData deletes pods with emptyDir volumes.
	DeleteEmptyDirData bool
	// SkipWaitForDeleteTimeoutSeconds skips pods whose deletionTimestamp is
	// more than this many seconds before Now (0: never).
	SkipWaitForDeleteTimeoutSeconds int
	// PodSelector is a label selector restricting the pods considered.
	PodSelector string
	// Now is the clock the skip rule compares deletion timestamps with.
	Now time.Time
}

// DrainVerdict is the filters' verdict on one pod of the node.
type DrainVerdict struct {
	// Pod is the input pod itself (not a copy; it must not be modified).
	Pod *corev1.Pod
	// Delete reports whether drain evicts (or deletes) the pod.
	Delete bool
	// Status is the last filter's verdict: Okay, Skip, Warning or Error.
	Status DrainStatus
	// Message is the verdict's text: the warning for Warning, the refusal
	// for Error (one of the Drain* constants or the vanished-DaemonSet
	// text), "" for Okay and Skip.
	Message string
}

// DrainSelection is kubectl drain's choice of pods for one node.
type DrainSelection struct {
	// Verdicts cover every pod of the node the selector admits, in
	// namespace/name order (the API server's list order).
	Verdicts []DrainVerdict
}

// Pods returns the pods to evict (the verdicts with Delete), in
// namespace/name order, as a new slice of the input pods.
func (s *DrainSelection) Pods() []*corev1.Pod {
	var out []*corev1.Pod
	for _, v := range s.Verdicts {
		if v.Delete {
			out = append(out, v.Pod)
		}
	}
	return out
}

// Warnings returns kubectl's warnings, "message: ns/a, ns/b" per message,
// sorted (kubectl joins them in map order).
func (s *DrainSelection) Warnings() []string { return s.grouped(DrainWarning, "%s: %s") }

// Errors returns kubectl's refusals, "cannot delete message: ns/a, ns/b"
// per message, sorted (kubectl returns them in map order). A drain with
// errors evicts nothing.
func (s *DrainSelection) Errors() []string { return s.grouped(DrainError, "cannot delete %s: %s") }

func (s *DrainSelection) grouped(status DrainStatus, format string) []string {
	var msgs []string
	pods := map[string][]string{}
	for _, v := range s.Verdicts {
		if v.Status != status {
			continue
		}
		m := v.Message
		if m == "" && status == DrainError {
			m = "unexpected error"
		}
		if _, ok := pods[m]; !ok {
			msgs = append(msgs, m)
		}
		pods[m] = append(pods[m], v.Pod.Namespace+"/"+v.Pod.Name)
	}
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, fmt.Sprintf(format, m, strings.Join(pods[m], ", ")))
	}
	sort.Strings(out)
	return out
}

// SelectDrainPods decides which pods of nodeName `kubectl drain` evicts,
// skips or refuses, as drain.Helper.GetPodsForDeletion (kubectl v0.36): the
// pods bound to the node that match opts.PodSelector go, in namespace/name
// order, through the filters skip-deleted, DaemonSet, mirror, local storage
// and unreplicated; the first filter that does not delete decides, else the
// last one's verdict stands (so a local-storage warning is dropped when the
// pod has a controller, as upstream). daemonSets are the cluster's
// DaemonSets, used to tell a live DaemonSet from a vanished one.
//
// It returns an error for a malformed opts.PodSelector (kubectl's error
// text, wrapping ErrInvalidSelector) and, wrapping ErrDuplicatePod, for pods that share a namespace and
// name (a pod without a namespace is in "default"), each repeat named with
// its path (pods[i].metadata.name). Nothing is modified.
func SelectDrainPods(nodeName string, pods []*corev1.Pod, daemonSets []*appsv1.DaemonSet, opts DrainOptions) (*DrainSelection, error) {
	sel, err := labels.Parse(opts.PodSelector)
	if err != nil {
		return nil, &selectorError{err: err}
	}
	if errs := duplicatePods(pods); len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrDuplicatePod, &ValidationError{Errors: errs})
	}
	ds := make(map[nsName]bool, len(daemonSets))
	for _, d := range daemonSets {
		if d != nil {
			ds[nsName{d.Namespace, d.Name}] = true
		}
	}
	var onNode []*corev1.Pod
	for _, p := range pods {
		if p != nil && p.Spec.NodeName == nodeName && sel.Matches(labels.Set(p.Labels)) {
			onNode = append(onNode, p)
		}
	}
	sortPods(onNode)
	out := &DrainSelection{Verdicts: make([]DrainVerdict, 0, len(onNode))}
	for _, p := range onNode {
		v := drainVerdict(p, ds, opts)
		v.Pod = p
		out.Verdicts = append(out.Verdicts, v)
	}
	return out, nil
}

// duplicatePods returns a Duplicate error for every pod whose namespace and
// name an earlier pod of the list has, in input order; nil pods are skipped
// as SelectDrainPods skips them.
func duplicatePods(pods []*corev1.Pod) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[nsName]bool, len(pods))
	for i, p := range pods {
		if p == nil {
			continue
		}
		k := nsName{p.Namespace, p.Name}
		if k.ns == "" {
			k.ns = metav1.NamespaceDefault
		}
		if seen[k] {
			errs = append(errs, field.Duplicate(field.NewPath("pods").Index(i).Child("metadata", "name"), k.ns+"/"+k.name))
		}
		seen[k] = true
	}
	return errs
}

type drainFilter func(p *corev1.Pod, ds map[nsName]bool, o *DrainOptions) DrainVerdict

var drainFilters = []drainFilter{skipDeletedFilter, daemonSetFilter, mirrorPodFilter, localStorageFilter, unreplicatedFilter}

func drainVerdict(p *corev1.Pod, ds map[nsName]bool, o DrainOptions) DrainVerdict {
	var v DrainVerdict
	for _, f := range drainFilters {
		v = f(p, ds, &o)
		if !v.Delete {
			break
		}
	}
	return v
}

var drainOkay = DrainVerdict{Delete: true, Status: DrainOkay}

func skipDeletedFilter(p *corev1.Pod, _ map[nsName]bool, o *DrainOptions) DrainVerdict {
	if o.SkipWaitForDeleteTimeoutSeconds > 0 && p.DeletionTimestamp != nil &&
		int(o.Now.Sub(p.DeletionTimestamp.Time).Seconds()) > o.SkipWaitForDeleteTimeoutSeconds {
		return DrainVerdict{Status: DrainSkip}
	}
	return drainOkay
}

func daemonSetFilter(p *corev1.Pod, ds map[nsName]bool, o *DrainOptions) DrainVerdict {
	ref := metav1.GetControllerOf(p)
	if ref == nil || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" || lifecycle.IsTerminalPhase(p.Status.Phase) {
		return drainOkay
	}
	if !ds[nsName{p.Namespace, ref.Name}] {
		msg := fmt.Sprintf("daemonsets.apps %q not found", ref.Name)
		if o.Force {
			return DrainVerdict{Delete: true, Status: DrainWarning, Message: msg}
		}
		return DrainVerdict{Status: DrainError, Message: msg}
	}
	if !o.IgnoreAllDaemonSets {
		return DrainVerdict{Status: DrainError, Message: DrainDaemonSetFatal}
	}
	return DrainVerdict{Status: DrainWarning, Message: DrainDaemonSetWarning}
}

func mirrorPodFilter(p *corev1.Pod, _ map[nsName]bool, _ *DrainOptions) DrainVerdict {
	if _, ok := p.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		return DrainVerdict{Status: DrainSkip}
	}
	return drainOkay
}

func localStorageFilter(p *corev1.Pod, _ map[nsName]bool, o *DrainOptions) DrainVerdict {
	if !hasEmptyDir(p) || lifecycle.IsTerminalPhase(p.Status.Phase) {
		return drainOkay
	}
	if !o.DeleteEmptyDirData {
		return DrainVerdict{Status: DrainError, Message: DrainLocalStorageFatal}
	}
	return DrainVerdict{Delete: true, Status: DrainWarning, Message: DrainLocalStorageWarning}
}

func unreplicatedFilter(p *corev1.Pod, _ map[nsName]bool, o *DrainOptions) DrainVerdict {
	if lifecycle.IsTerminalPhase(p.Status.Phase) || metav1.GetControllerOf(p) != nil {
		return drainOkay
	}
	if o.Force {
		return DrainVerdict{Delete: true, Status: DrainWarning, Message: DrainUnmanagedWarning}
	}
	return DrainVerdict{Status: DrainError, Message: DrainUnmanagedFatal}
}

func hasEmptyDir(p *corev1.Pod) bool {
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].EmptyDir != nil {
			return true
		}
	}
	return false
}

// sortPods orders pods by namespace, then name.
func sortPods(pods []*corev1.Pod) {
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
}
