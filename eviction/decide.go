package eviction

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/pdbmatch"
)

// Upstream constants of the eviction subresource
// (pkg/registry/core/pod/storage/eviction.go, v1.36).
const (
	// MaxDisruptedPodSize is the largest disruptedPods map the eviction
	// handler accepts before it refuses further evictions with 403.
	MaxDisruptedPodSize = 2000
	// evictionAttempts is the number of steps of upstream's EvictionsRetry
	// backoff; schedkit never sleeps between them.
	evictionAttempts = 20

	// ReasonEvictionByEvictionAPI is the reason of the DisruptionTarget
	// condition the eviction handler adds to the pod.
	ReasonEvictionByEvictionAPI = "EvictionByEvictionAPI"
	// MessageEvictionByEvictionAPI is that condition's message.
	MessageEvictionByEvictionAPI = "Eviction API: evicting"

	// MessageMultiplePDBs is the 500 answer's message when several budgets
	// select the pod.
	MessageMultiplePDBs = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
	// MessageBudgetViolated is the message of every 429 refusal.
	MessageBudgetViolated = "Cannot evict pod as it would violate the pod's disruption budget."
)

// ErrInvalidRequest wraps every error Decide returns for input it cannot
// answer (no pod and no name, invalid PDBs).
var ErrInvalidRequest = errors.New("eviction: invalid request")

// Request is one POST /api/v1/namespaces/{Namespace}/pods/{Name}/eviction.
type Request struct {
	// Namespace and Name name the pod in the URL. They default to the pod's
	// (and Namespace to "default" when neither gives one). Objects without
	// a namespace are in "default", as the API server would have them.
	Namespace, Name string
	// Pod is the pod as the API server stores it; nil means there is no such
	// pod (404). It is never modified.
	Pod *corev1.Pod
	// PDBs are the budgets stored in the cluster, any namespace. They are
	// never modified; Decision.PDBs holds new objects.
	PDBs []*policyv1.PodDisruptionBudget
	// DeleteOptions are the Eviction body's deleteOptions (nil: none).
	DeleteOptions *metav1.DeleteOptions
	// DryRun is the request's ?dryRun=All.
	DryRun bool
	// Now is the API server's clock: the deletion timestamp of a graceful
	// delete and the time recorded in disruptedPods.
	Now time.Time
}

// DeleteCall describes one Delete call the handler made on the pod storage:
// the options it passed and what the pod strategy decided (rest.BeforeDelete
// with the pod registry's strategy).
type DeleteCall struct {
	// DryRun reports whether the call carried dryRun=All (the request's
	// DryRun or DeleteOptions.DryRun): the strategy ran but nothing was
	// stored.
	DryRun bool
	// GracePeriodSeconds is the grace period after the strategy's
	// adjustments; nil when it was never set.
	GracePeriodSeconds *int64
	// PreconditionResourceVersion is the resourceVersion precondition
	// passed with the call ("" when none).
	PreconditionResourceVersion string
	// PreconditionUID is the UID precondition passed with the call (""
	// when none).
	PreconditionUID string
	// Graceful: the pod got (or would get) a deletionTimestamp and stays
	// until the kubelet confirms.
	Graceful bool
	// PendingGraceful: a graceful deletion was already under way and was not
	// shortened; nothing changed.
	PendingGraceful bool
	// Err is the call's error, nil when it succeeded.
	Err error
}

// PDBOutcome is one input budget after the call.
type PDBOutcome struct {
	// PDB is a new object: the input budget, with the status the handler
	// wrote when Updated.
	PDB *policyv1.PodDisruptionBudget
	// Updated reports whether the handler wrote the budget's status.
	Updated bool
}

// Decision is what the eviction subresource answers and what it changed.
type Decision struct {
	// Status is the metav1.Status written to the client. Status.Code is 201
	// for an accepted eviction (the create handler's code), else the error's
	// HTTP code: 429, 500, 403, 404, 409 or 422.
	Status metav1.Status
	// PodUpdated: the DisruptionTarget condition was written to the pod.
	PodUpdated bool
	// PodDeleted: the delete went through without dry-run (a graceful
	// deletion, even one already pending, counts).
	PodDeleted bool
	// Pod is the pod as stored afterwards (a new object; nil when there was
	// no pod). A pod deleted without grace is still returned, as last seen.
	Pod *corev1.Pod
	// Delete is the last Delete call made on the pod storage, nil if none.
	Delete *DeleteCall
	// DeleteCalls counts the Delete calls made (0 when the eviction was
	// refused before deleting; conflicts are retried up to 20 times, as
	// the handler's retry loop does).
	DeleteCalls int
	// PDBs are all input budgets in namespace/name order.
	PDBs []PDBOutcome
}

// Allowed reports whether the eviction was accepted (Status.Code 201).
// Nothing is modified.
func (d *Decision) Allowed() bool { return d.Status.Code == http.StatusCreated }

// DisruptionTarget returns the pod's DisruptionTarget condition after the
// call (nil when it has none): a pointer into d.Pod, which the caller owns.
func (d *Decision) DisruptionTarget() *corev1.PodCondition {
	if d.Pod == nil {
		return nil
	}
	for i := range d.Pod.Status.Conditions {
		if d.Pod.Status.Conditions[i].Type == corev1.DisruptionTarget {
			return &d.Pod.Status.Conditions[i]
		}
	}
	return nil
}

// Decide answers an eviction request the way kube-apiserver v1.36's eviction
// subresource does ((*EvictionREST).Create in
// pkg/registry/core/pod/storage/eviction.go), over a one-pod storage that
// applies the pod registry's delete rules (rest.BeforeDelete with the pod
// strategy's CheckGracefulDelete).
//
// Terminal, Pending and already terminating pods are deleted without looking
// at budgets. Otherwise the budgets of the pod's namespace whose selector
// matches it are found ({} selects every pod, nil none): several give 500,
// none lets the delete through, one is checked: an unready pod passes under
// AlwaysAllow or when the budget is currently healthy (IfHealthyBudget, the
// default); else checkAndDecrement's rules apply (stale observedGeneration
// 429, negative disruptionsAllowed 403, more than 2000 disruptedPods 403,
// zero 429 with the cause chosen from the DisruptionAllowed condition, else
// the budget's disruptionsAllowed is decremented and the pod recorded in
// disruptedPods).
//
// A pod without metadata.resourceVersion is taken as stored with version
// "1" (see the package's deliberate differences).
//
// Decide never modifies its arguments. It returns an error wrapping
// ErrInvalidRequest only for input it cannot answer: no pod and no name, or
// a budget that fails API validation (ValidatePDB).
func Decide(req Request) (*Decision, error) {
	name, ns := req.Name, req.Namespace
	if req.Pod != nil {
		if name == "" {
			name = req.Pod.Name
		}
		if ns == "" {
			ns = req.Pod.Namespace
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%w: no pod name", ErrInvalidRequest)
	}
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	pdbs := make([]*policyv1.PodDisruptionBudget, 0, len(req.PDBs))
	for i, p := range req.PDBs {
		if p == nil {
			return nil, fmt.Errorf("%w: pdbs[%d] is nil", ErrInvalidRequest, i)
		}
		if errs := ValidatePDB(p); len(errs) > 0 {
			return nil, fmt.Errorf("%w: PodDisruptionBudget %s/%s: %w", ErrInvalidRequest, p.Namespace, p.Name, &ValidationError{Errors: errs})
		}
		pdbs = append(pdbs, p)
	}
	sort.SliceStable(pdbs, func(i, j int) bool {
		if pdbs[i].Namespace != pdbs[j].Namespace {
			return pdbs[i].Namespace < pdbs[j].Namespace
		}
		return pdbs[i].Name < pdbs[j].Name
	})
	for i := 1; i < len(pdbs); i++ {
		if pdbs[i].Namespace == pdbs[i-1].Namespace && pdbs[i].Name == pdbs[i-1].Name {
			return nil, fmt.Errorf("%w: duplicate PodDisruptionBudget %s/%s", ErrInvalidRequest, pdbs[i].Namespace, pdbs[i].Name)
		}
	}

	h := &handler{
		store:   newPodStore(ns, req.Pod, req.Now),
		pdbs:    pdbs,
		written: make([]*policyv1.PodDisruptionBudget, len(pdbs)),
		now:     req.Now,
	}
	var st metav1.Status
	if err := h.create(name, req.DeleteOptions, req.DryRun); err != nil {
		st = statusOf(err)
	} else {
		st = metav1.Status{Status: metav1.StatusSuccess, Code: http.StatusCreated}
	}

	d := &Decision{
		Status:      st,
		PodUpdated:  h.store.updates > 0,
		DeleteCalls: len(h.store.deletes),
	}
	if n := len(h.store.deletes); n > 0 {
		last := h.store.deletes[n-1]
		d.Delete = &last
		d.PodDeleted = last.Err == nil && !last.DryRun
	}
	if h.store.pod != nil {
		d.Pod = h.store.pod.DeepCopy()
	}
	d.PDBs = make([]PDBOutcome, len(pdbs))
	for i, p := range pdbs {
		if h.written[i] != nil {
			d.PDBs[i] = PDBOutcome{PDB: h.written[i], Updated: true}
		} else {
			d.PDBs[i] = PDBOutcome{PDB: p.DeepCopy()}
		}
	}
	return d, nil
}

// handler holds one request's state: the pod storage and the budgets.
type handler struct {
	store   *podStore
	pdbs    []*policyv1.PodDisruptionBudget // namespace/name order
	written []*policyv1.PodDisruptionBudget // status writes, by index of pdbs
	now     time.Time
}

var evictionKind = schema.GroupKind{Group: "policy", Kind: "Eviction"}

// create follows (*EvictionREST).Create step by step.
func (h *handler) create(name string, bodyOptions *metav1.DeleteOptions, queryDryRun bool) error {
	if bodyOptions != nil && bodyOptions.IgnoreStoreReadErrorWithClusterBreakingPotential != nil && *bodyOptions.IgnoreStoreReadErrorWithClusterBreakingPotential {
		errs := field.ErrorList{field.Invalid(field.NewPath("deleteOptions").Child("ignoreStoreReadErrorWithClusterBreakingPotential"), true, "can not be set for pod eviction, try after removing the option")}
		return apierrors.NewInvalid(evictionKind, name, errs)
	}
	// propagateDryRun: the query's dry-run goes into the body's options.
	var queryDR []string
	if queryDryRun {
		queryDR = []string{metav1.DryRunAll}
	}
	var original *metav1.DeleteOptions
	switch {
	case bodyOptions == nil:
		original = &metav1.DeleteOptions{DryRun: queryDR}
	case len(bodyOptions.DryRun) == 0:
		original = bodyOptions.DeepCopy()
		original.DryRun = queryDR
	default:
		original = bodyOptions.DeepCopy()
		if len(queryDR) > 0 && !equalStrings(queryDR, original.DryRun) {
			return fmt.Errorf("Non-matching dry-run options in request and content: %v and %v", queryDR, original.DryRun)
		}
	}

	// First loop: pods whose budgets can be ignored are deleted directly.
	shouldRetry := apierrors.IsConflict
	if !resourceVersionIsUnset(original) {
		shouldRetry = func(error) bool { return false }
	}
	var pod *corev1.Pod
	deleted := false
	err := retryOnError(shouldRetry, func() error {
		var err error
		pod, err = h.store.get(name)
		if err != nil {
			return err
		}
		if !canIgnorePDB(pod) {
			return nil
		}
		opts := original
		if shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(original) {
			opts = opts.DeepCopy()
			setPreconditionsResourceVersion(opts, pod.ResourceVersion)
		}
		if err := h.addConditionAndDeletePod(name, opts); err != nil {
			return err
		}
		deleted = true
		return nil
	})
	if err != nil {
		return err
	}
	if deleted {
		return nil
	}

	// The budget check.
	matching := h.matchingPDBs(pod)
	updateDeletionOptions := false
	pdbName := ""
	switch {
	case len(matching) > 1:
		// Upstream returns a Failure Status object; the request finisher turns
		// it into this error.
		return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: MessageMultiplePDBs}}
	case len(matching) == 1:
		idx := matching[0]
		pdb := h.current(idx)
		pdbName = pdb.Name
		if bypassesBudget(pod, pdb) {
			// The unready pod does not count toward the budget; the delete
			// must not race with it becoming Ready again.
			updateDeletionOptions = true
		} else {
			if err := h.checkAndDecrement(idx, pod.Name, len(original.DryRun) > 0); err != nil {
				return err
			}
		}
	}

	opts := original
	if updateDeletionOptions {
		opts = opts.DeepCopy()
		setPreconditionsResourceVersion(opts, pod.ResourceVersion)
	}
	if err := h.addConditionAndDeletePod(name, opts); err != nil {
		if apierrors.IsConflict(err) && updateDeletionOptions && resourceVersionIsUnset(original) {
			return tooManyRequestsStale(pdbName)
		}
		return err
	}
	return nil
}

// current returns the budget at index i as the handler last wrote it.
func (h *handler) current(i int) *policyv1.PodDisruptionBudget {
	if h.written[i] != nil {
		return h.written[i]
	}
	return h.pdbs[i]
}

// matchingPDBs mirrors getPodDisruptionBudgets: the budgets of the pod's
// namespace whose selector matches its labels (internal/pdbmatch, the
// Eviction API's rule: {} matches the whole namespace), in namespace/name
// order.
func (h *handler) matchingPDBs(pod *corev1.Pod) []int {
	var out []int
	for i, p := range h.pdbs {
		sel, err := pdbmatch.Compile(p, pdbmatch.Eviction)
		if err != nil {
			continue // upstream: an invalid selector matches nothing
		}
		if sel.Matches(pod) {
			out = append(out, i)
		}
	}
	return out
}

// checkAndDecrement mirrors the handler's function of that name.
func (h *handler) checkAndDecrement(idx int, podName string, dryRun bool) error {
	out, err := chargeBudget(h.current(idx), podName, dryRun, h.now)
	if err != nil {
		return err
	}
	if !dryRun {
		h.written[idx] = out
	}
	return nil
}

// chargeBudget is checkAndDecrement on one budget: the refusal (429 stale
// or exhausted, 403 negative or too many unconfirmed evictions), or a new
// budget with one disruption less, the DisruptionAllowed condition updated
// when it reaches zero and, unless dry run, the pod recorded in
// disruptedPods at now. in is not modified.
func chargeBudget(in *policyv1.PodDisruptionBudget, podName string, dryRun bool, now time.Time) (*policyv1.PodDisruptionBudget, error) {
	if in.Status.ObservedGeneration < in.Generation {
		return nil, tooManyRequestsStale(in.Name)
	}
	if in.Status.DisruptionsAllowed < 0 {
		return nil, apierrors.NewForbidden(pdbResource, in.Name, errors.New("pdb disruptions allowed is negative"))
	}
	if len(in.Status.DisruptedPods) > MaxDisruptedPodSize {
		return nil, apierrors.NewForbidden(pdbResource, in.Name, errors.New("DisruptedPods map too big - too many evictions not confirmed by PDB controller"))
	}
	if in.Status.DisruptionsAllowed == 0 {
		err := apierrors.NewTooManyRequests(MessageBudgetViolated, 0)
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
			Type:    policyv1.DisruptionBudgetCause,
			Message: zeroBudgetCause(in),
		})
		return nil, err
	}
	pdb := in.DeepCopy()
	pdb.Status.DisruptionsAllowed--
	if pdb.Status.DisruptionsAllowed == 0 {
		setDisruptionAllowedCondition(pdb, now)
	}
	if dryRun {
		return pdb, nil
	}
	if pdb.Status.DisruptedPods == nil {
		pdb.Status.DisruptedPods = make(map[string]metav1.Time)
	}
	pdb.Status.DisruptedPods[podName] = metav1.NewTime(now)
	return pdb, nil
}

// zeroBudgetCause chooses the DisruptionBudget cause of a 429 for a budget
// with no disruption left, in checkAndDecrement's order: a failed sync first
// (its counts are not trustworthy), then the health counts, then any other
// False condition with a message.
func zeroBudgetCause(pdb *policyv1.PodDisruptionBudget) string {
	c := meta.FindStatusCondition(pdb.Status.Conditions, policyv1.DisruptionAllowedCondition)
	switch {
	case c != nil && c.Status == metav1.ConditionFalse && c.Message != "" && c.Reason == policyv1.SyncFailedReason:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", pdb.Name, c.Message)
	case pdb.Status.CurrentHealthy <= pdb.Status.DesiredHealthy:
		return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, pdb.Status.DesiredHealthy, pdb.Status.CurrentHealthy)
	case c != nil && c.Status == metav1.ConditionFalse && c.Message != "":
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%s): %s", pdb.Name, c.Reason, c.Message)
	default:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", pdb.Name)
	}
}

var pdbResource = schema.GroupResource{Group: "policy", Resource: "poddisruptionbudget"}

// tooManyRequestsStale is createTooManyRequestsError: the budget's status is
// behind its spec, or the pod changed while an unhealthy-pod delete was tried.
func tooManyRequestsStale(name string) error {
	err := apierrors.NewTooManyRequests(MessageBudgetViolated, 10)
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
		Type:    policyv1.DisruptionBudgetCause,
		Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", name),
	})
	return err
}

// addConditionAndDeletePod writes the DisruptionTarget condition (unless dry
// run) and deletes the pod, as the handler's function of that name.
func (h *handler) addConditionAndDeletePod(name string, opts *metav1.DeleteOptions) error {
	if len(opts.DryRun) == 0 {
		newRV, err := h.store.updateDisruptionTarget(name, opts.Preconditions)
		if err != nil {
			return err
		}
		if !resourceVersionIsUnset(opts) {
			opts = opts.DeepCopy()
			opts.Preconditions.ResourceVersion = &newRV
		}
	}
	return h.store.delete(name, opts)
}

// canIgnorePDB: terminal, Pending and terminating pods have disrupted
// already (or never ran), so their eviction is a plain delete.
func canIgnorePDB(pod *corev1.Pod) bool {
	p := pod.Status.Phase
	return p == corev1.PodSucceeded || p == corev1.PodFailed || p == corev1.PodPending || pod.DeletionTimestamp != nil
}

// shouldEnforceResourceVersion: the delete of a pod that could still become
// Ready must not race with that change.
func shouldEnforceResourceVersion(pod *corev1.Pod) bool {
	p := pod.Status.Phase
	return !(p == corev1.PodSucceeded || p == corev1.PodFailed || pod.DeletionTimestamp != nil)
}

func resourceVersionIsUnset(o *metav1.DeleteOptions) bool {
	return o.Preconditions == nil || o.Preconditions.ResourceVersion == nil
}

func setPreconditionsResourceVersion(o *metav1.DeleteOptions, rv string) {
	if o.Preconditions == nil {
		o.Preconditions = &metav1.Preconditions{}
	}
	o.Preconditions.ResourceVersion = &rv
}

// retryOnError is client-go's retry.OnError with EvictionsRetry's 20 steps
// and no sleeping: the last retriable error is returned when steps run out.
func retryOnError(retriable func(error) bool, fn func() error) error {
	var last error
	for range evictionAttempts {
		err := fn()
		switch {
		case err == nil:
			return nil
		case retriable(err):
			last = err
		default:
			return err
		}
	}
	return last
}

// statusOf is responsewriters.ErrorToAPIStatus.
func statusOf(err error) metav1.Status {
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		st := se.Status()
		if st.Status == "" {
			st.Status = metav1.StatusFailure
		}
		if st.Code == 0 {
			if st.Status == metav1.StatusSuccess {
				st.Code = http.StatusOK
			} else {
				st.Code = http.StatusInternalServerError
			}
		}
		st.Kind, st.APIVersion = "Status", "v1"
		return st
	}
	return metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     http.StatusInternalServerError,
		Reason:   metav1.StatusReasonUnknown,
		Message:  err.Error(),
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// isPodReady is podutil.IsPodReady: the Ready condition is True.
func isPodReady(pod *corev1.Pod) bool {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodReady {
			return pod.Status.Conditions[i].Status == corev1.ConditionTrue
		}
	}
	return false
}
