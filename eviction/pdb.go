package eviction

import (
	"errors"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/internal/pdbmatch"
)

// DeletionTimeout is how long the disruption controller keeps counting a
// pod the eviction handler recorded in disruptedPods as already gone
// (pkg/controller/disruption, v1.36).
const DeletionTimeout = 2 * time.Minute

// ErrInvalidPDB wraps the validation errors of a budget.
var ErrInvalidPDB = errors.New("eviction: invalid PodDisruptionBudget")

// ValidationError carries every validation problem of one input with its API
// field path (spec.minAvailable, pods[2].metadata.name), for errors.As. Its
// text is the list's aggregate text; the errors that hold it also wrap the
// sentinel of their cause (ErrInvalidPDB, ErrInvalidRequest, ErrInvalidPlan,
// ErrDuplicatePod).
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }

// ValidatePDB checks what the API server's validation of a
// PodDisruptionBudget spec checks and schedkit relies on: minAvailable and
// maxUnavailable not both set, each a non-negative integer or a percentage
// of at most 100%, a valid label selector and a known
// unhealthyPodEvictionPolicy. It returns every violation with its field path
// (ValidatePodDisruptionBudgetSpec in pkg/apis/policy/validation, v1.36).
// A nil budget is a Required error.
func ValidatePDB(pdb *policyv1.PodDisruptionBudget) field.ErrorList {
	if pdb == nil {
		return field.ErrorList{field.Required(nil, "nil PodDisruptionBudget")}
	}
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if pdb.Spec.MinAvailable != nil && pdb.Spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(spec, "minAvailable and maxUnavailable", "minAvailable and maxUnavailable cannot be both set"))
	}
	if v := pdb.Spec.MinAvailable; v != nil {
		errs = append(errs, validateIntOrPercent(*v, spec.Child("minAvailable"))...)
	}
	if v := pdb.Spec.MaxUnavailable; v != nil {
		errs = append(errs, validateIntOrPercent(*v, spec.Child("maxUnavailable"))...)
	}
	errs = append(errs, metav1validation.ValidateLabelSelector(pdb.Spec.Selector, metav1validation.LabelSelectorValidationOptions{}, spec.Child("selector"))...)
	if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil && *p != policyv1.IfHealthyBudget && *p != policyv1.AlwaysAllow {
		errs = append(errs, field.NotSupported(spec.Child("unhealthyPodEvictionPolicy"), *p, []string{string(policyv1.AlwaysAllow), string(policyv1.IfHealthyBudget)}))
	}
	return errs
}

// validateIntOrPercent is apps validation's ValidatePositiveIntOrPercent
// plus IsNotMoreThan100Percent.
func validateIntOrPercent(v intstr.IntOrString, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch v.Type {
	case intstr.String:
		msgs := validation.IsValidPercent(v.StrVal)
		for _, m := range msgs {
			errs = append(errs, field.Invalid(path, v.StrVal, m))
		}
		if len(msgs) == 0 {
			n, _ := intstr.GetScaledValueFromIntOrPercent(&v, 100, true)
			if n > 100 {
				errs = append(errs, field.Invalid(path, v.StrVal, "must not be greater than 100%"))
			}
		}
	case intstr.Int:
		if v.IntVal < 0 {
			errs = append(errs, field.Invalid(path, v.IntVal, "must be greater than or equal to 0"))
		}
	default:
		errs = append(errs, field.Invalid(path, v, "must be an integer or percentage (e.g '5%')"))
	}
	return errs
}

// setDisruptionAllowedCondition is pdbhelper.UpdateDisruptionAllowedCondition:
// the DisruptionAllowed condition follows disruptionsAllowed (True,
// SufficientPods when positive; else False, InsufficientPods), stamped with
// the status' observedGeneration; its message is cleared.
func setDisruptionAllowedCondition(pdb *policyv1.PodDisruptionBudget, now time.Time) {
	c := metav1.Condition{
		Type:               policyv1.DisruptionAllowedCondition,
		Status:             metav1.ConditionFalse,
		Reason:             policyv1.InsufficientPodsReason,
		ObservedGeneration: pdb.Status.ObservedGeneration,
		LastTransitionTime: metav1.NewTime(now),
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
	}
	if pdb.Status.Conditions == nil {
		pdb.Status.Conditions = []metav1.Condition{}
	}
	setStatusCondition(&pdb.Status.Conditions, c)
}

// setStatusCondition is meta.SetStatusCondition without its clock: given a
// condition with a zero lastTransitionTime (a zero now), meta stamps a new
// or changed condition with time.Now(), which would make the answer depend
// on the wall clock; here it stays zero.
func setStatusCondition(conds *[]metav1.Condition, c metav1.Condition) {
	old := meta.FindStatusCondition(*conds, c.Type)
	changed := old == nil || old.Status != c.Status
	meta.SetStatusCondition(conds, c)
	if changed && c.LastTransitionTime.IsZero() {
		meta.FindStatusCondition(*conds, c.Type).LastTransitionTime = c.LastTransitionTime
	}
}

// conditionsUpToDate is pdbhelper.ConditionsAreUpToDate.
func conditionsUpToDate(pdb *policyv1.PodDisruptionBudget) bool {
	c := meta.FindStatusCondition(pdb.Status.Conditions, policyv1.DisruptionAllowedCondition)
	if c == nil || pdb.Status.ObservedGeneration != pdb.Generation {
		return false
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		return c.Status == metav1.ConditionTrue && c.Reason == policyv1.SufficientPodsReason
	}
	return c.Status == metav1.ConditionFalse && c.Reason == policyv1.InsufficientPodsReason
}

// Scale is a controller known only through its scale subresource (a custom
// resource, or a built-in kind given this way): its group, kind, namespace,
// name, UID and spec.replicas.
type Scale struct {
	// Group is the controller's API group ("" for core), the group of the
	// pod's controller ownerReference apiVersion.
	Group string
	// Kind is the controller's kind, as in the ownerReference.
	Kind string
	// Namespace and Name identify the controller; it must share the
	// pod's namespace to be found.
	Namespace string
	// Name is the controller's name, as in the ownerReference.
	Name string
	// UID must equal the ownerReference's UID, as the controller's
	// getScaleController checks.
	UID types.UID
	// Replicas is the scale subresource's spec.replicas.
	Replicas int32
}

// Workloads are the controllers the disruption controller may need to learn
// how many pods a budget expects. A nil replicas counts as 1, the API
// server's default.
type Workloads struct {
	// ReplicaSets are looked up for pods owned by a ReplicaSet
	// (getPodReplicaSet); one owned by a Deployment defers to it.
	ReplicaSets []*appsv1.ReplicaSet
	// Deployments are looked up through a ReplicaSet's controller
	// reference (getPodDeployment).
	Deployments []*appsv1.Deployment
	// StatefulSets are looked up for pods owned by a StatefulSet
	// (getPodStatefulSet).
	StatefulSets []*appsv1.StatefulSet
	// ReplicationControllers are looked up for pods owned by one
	// (getPodReplicationController).
	ReplicationControllers []*corev1.ReplicationController
	// Scales are further controllers that implement the scale subresource.
	Scales []Scale
}

// PDBStatusResult is one sync of the disruption controller for one budget.
type PDBStatusResult struct {
	// PDB is a new object: the budget with the status the sync leaves.
	PDB *policyv1.PodDisruptionBudget
	// Updated reports whether the sync wrote the status (false when it was
	// already up to date).
	Updated bool
	// SyncErr is why the computation failed (nil when it succeeded). A failed
	// sync still writes: disruptionsAllowed 0 and a SyncFailed condition with
	// this message, observedGeneration left as it was (failSafe).
	SyncErr error
}

// PDBStatus computes a budget's status as one sync of kube-controller-manager's
// disruption controller does (DisruptionController.trySync, failSafe and
// updatePdbStatus in pkg/controller/disruption/disruption.go, v1.36):
//
//   - the pods are those of the budget's namespace matching its selector
//     ({} every pod, nil none), whatever their phase;
//   - expectedPods is the number of those pods for an integer minAvailable
//     (desiredHealthy = minAvailable), else the sum of the replicas of their
//     controllers (Deployment through its ReplicaSet, ReplicaSet,
//     StatefulSet, ReplicationController, or a Scale), with desiredHealthy
//     the percentage minAvailable rounded up, or expectedPods minus
//     maxUnavailable (rounded up, floor 0); pods without a controller are
//     left out of that sum;
//   - currentHealthy counts Ready pods not being deleted and not recorded in
//     disruptedPods less than DeletionTimeout ago; entries older than that,
//     or for pods gone or being deleted, are dropped (an entry exactly
//     DeletionTimeout old is kept but no longer subtracted);
//   - disruptionsAllowed = max(0, currentHealthy - desiredHealthy), 0 when
//     expectedPods is 0.
//
// A controller that cannot be found or has no scale fails the sync
// (PDBStatusResult.SyncErr, upstream's message). Pods are taken in
// namespace/name order, so the pod named by "found no controllers for pod"
// is the first in that order (upstream: informer order). PDBStatus returns an
// error wrapping ErrInvalidPDB when the budget fails ValidatePDB; it never
// modifies its arguments.
func PDBStatus(pdb *policyv1.PodDisruptionBudget, pods []*corev1.Pod, w Workloads, now time.Time) (*PDBStatusResult, error) {
	if pdb == nil {
		return nil, fmt.Errorf("%w: nil", ErrInvalidPDB)
	}
	if errs := ValidatePDB(pdb); len(errs) > 0 {
		return nil, fmt.Errorf("%w %s/%s: %w", ErrInvalidPDB, pdb.Namespace, pdb.Name, &ValidationError{Errors: errs})
	}
	sel, err := pdbmatch.Compile(pdb, pdbmatch.Eviction)
	if err != nil {
		return nil, fmt.Errorf("%w %s/%s: spec.selector: %w", ErrInvalidPDB, pdb.Namespace, pdb.Name, err)
	}
	var selected []*corev1.Pod
	for _, p := range pods {
		if sel.Matches(p) {
			selected = append(selected, p)
		}
	}
	sortPods(selected)

	expected, desired, err := expectedPodCount(pdb, selected, newWorkloadIndex(w))
	if err != nil {
		// failSafe
		out := pdb.DeepCopy()
		out.Status.DisruptionsAllowed = 0
		if out.Status.Conditions == nil {
			out.Status.Conditions = []metav1.Condition{}
		}
		setStatusCondition(&out.Status.Conditions, metav1.Condition{
			Type:               policyv1.DisruptionAllowedCondition,
			Status:             metav1.ConditionFalse,
			Reason:             policyv1.SyncFailedReason,
			Message:            err.Error(),
			ObservedGeneration: out.Status.ObservedGeneration,
			LastTransitionTime: metav1.NewTime(now),
		})
		return &PDBStatusResult{PDB: out, Updated: true, SyncErr: err}, nil
	}

	disrupted := disruptedPodMap(selected, pdb.Status.DisruptedPods, now)
	healthy := countHealthy(selected, disrupted, now)
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := pdb.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected &&
		st.DisruptionsAllowed == allowed && apiequality.Semantic.DeepEqual(st.DisruptedPods, disrupted) &&
		st.ObservedGeneration == pdb.Generation && conditionsUpToDate(pdb) {
		return &PDBStatusResult{PDB: pdb.DeepCopy()}, nil
	}
	out := pdb.DeepCopy()
	out.Status = policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: pdb.Generation,
		DisruptedPods:      disrupted,
		DisruptionsAllowed: allowed,
		CurrentHealthy:     healthy,
		DesiredHealthy:     desired,
		ExpectedPods:       expected,
		Conditions:         out.Status.Conditions,
	}
	setDisruptionAllowedCondition(out, now)
	return &PDBStatusResult{PDB: out, Updated: true}, nil
}

// expectedPodCount is getExpectedPodCount.
func expectedPodCount(pdb *policyv1.PodDisruptionBudget, pods []*corev1.Pod, w *workloadIndex) (expected, desired int32, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		expected, err = w.expectedScale(pods)
		if err != nil {
			return 0, 0, err
		}
		maxUnavailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return 0, 0, err
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
		desired = pdb.Spec.MinAvailable.IntVal
		expected = int32(len(pods))
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.String:
		expected, err = w.expectedScale(pods)
		if err != nil {
			return 0, 0, err
		}
		minAvailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return 0, 0, err
		}
		desired = int32(minAvailable)
	}
	return expected, desired, nil
}

// disruptedPodMap is buildDisruptedPodMap: entries of pods still present,
// not being deleted, whose DeletionTimeout has not passed yet.
func disruptedPodMap(pods []*corev1.Pod, in map[string]metav1.Time, now time.Time) map[string]metav1.Time {
	out := map[string]metav1.Time{}
	if in == nil {
		return out
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := in[p.Name]
		if !ok {
			continue
		}
		if t.Add(DeletionTimeout).Before(now) {
			continue
		}
		out[p.Name] = t
	}
	return out
}

// countHealthy is countHealthyPods.
func countHealthy(pods []*corev1.Pod, disrupted map[string]metav1.Time, now time.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disrupted[p.Name]; ok && t.Add(DeletionTimeout).After(now) {
			continue
		}
		if isPodReady(p) {
			n++
		}
	}
	return n
}

type nsName struct{ ns, name string }

type scaleKey struct{ group, resource, ns, name string }

type scaleEntry struct {
	uid      types.UID
	replicas int32
}

// workloadIndex answers the controller finders' lookups.
type workloadIndex struct {
	rs     map[nsName]*appsv1.ReplicaSet
	deps   map[nsName]*appsv1.Deployment
	sts    map[nsName]*appsv1.StatefulSet
	rcs    map[nsName]*corev1.ReplicationController
	scales map[scaleKey]scaleEntry
}

func replicasOr1(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

func newWorkloadIndex(w Workloads) *workloadIndex {
	x := &workloadIndex{
		rs: map[nsName]*appsv1.ReplicaSet{}, deps: map[nsName]*appsv1.Deployment{},
		sts: map[nsName]*appsv1.StatefulSet{}, rcs: map[nsName]*corev1.ReplicationController{},
		scales: map[scaleKey]scaleEntry{},
	}
	for _, o := range w.ReplicaSets {
		if o != nil {
			x.rs[nsName{o.Namespace, o.Name}] = o
			x.scales[scaleKey{"apps", "replicasets", o.Namespace, o.Name}] = scaleEntry{o.UID, replicasOr1(o.Spec.Replicas)}
		}
	}
	for _, o := range w.Deployments {
		if o != nil {
			x.deps[nsName{o.Namespace, o.Name}] = o
			x.scales[scaleKey{"apps", "deployments", o.Namespace, o.Name}] = scaleEntry{o.UID, replicasOr1(o.Spec.Replicas)}
		}
	}
	for _, o := range w.StatefulSets {
		if o != nil {
			x.sts[nsName{o.Namespace, o.Name}] = o
			x.scales[scaleKey{"apps", "statefulsets", o.Namespace, o.Name}] = scaleEntry{o.UID, replicasOr1(o.Spec.Replicas)}
		}
	}
	for _, o := range w.ReplicationControllers {
		if o != nil {
			x.rcs[nsName{o.Namespace, o.Name}] = o
			x.scales[scaleKey{"", "replicationcontrollers", o.Namespace, o.Name}] = scaleEntry{o.UID, replicasOr1(o.Spec.Replicas)}
		}
	}
	for _, s := range w.Scales {
		x.scales[scaleKey{s.Group, kindToResource(s.Kind), s.Namespace, s.Name}] = scaleEntry{s.UID, s.Replicas}
	}
	return x
}

// expectedScale is getExpectedScale: the sum of the scales of the pods'
// controllers, each counted once.
func (w *workloadIndex) expectedScale(pods []*corev1.Pod) (int32, error) {
	scale := map[types.UID]int32{}
	for _, p := range pods {
		ref := metav1.GetControllerOf(p)
		if ref == nil {
			continue // unmanaged: upstream only raises an event
		}
		// Keyed by the controller found, as upstream: a second ReplicaSet of
		// the same Deployment resolves to the Deployment again.
		if _, ok := scale[ref.UID]; ok {
			continue
		}
		uid, n, found, err := w.find(ref, p.Namespace)
		if err != nil {
			return 0, err
		}
		if !found {
			return 0, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		scale[uid] = n
	}
	var total int32
	for _, n := range scale {
		total += n
	}
	return total, nil
}

// find runs the controller finders in upstream's order: ReplicationController,
// Deployment (through the ReplicaSet), ReplicaSet, StatefulSet, then the
// scale subresource.
func (w *workloadIndex) find(ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	// ReplicationController
	ok, err := isGroupKind(ref, "ReplicationController", "")
	if err != nil {
		return "", 0, false, err
	}
	if ok {
		if rc := w.rcs[nsName{ns, ref.Name}]; rc != nil && rc.UID == ref.UID {
			return rc.UID, replicasOr1(rc.Spec.Replicas), true, nil
		}
	}
	// Deployment, then ReplicaSet
	ok, err = isGroupKind(ref, "ReplicaSet", "apps", "extensions")
	if err != nil {
		return "", 0, false, err
	}
	if ok {
		if rs := w.rs[nsName{ns, ref.Name}]; rs != nil && rs.UID == ref.UID {
			if dref := metav1.GetControllerOf(rs); dref != nil {
				dok, err := isGroupKind(dref, "Deployment", "apps", "extensions")
				if err != nil {
					return "", 0, false, err
				}
				if dok {
					if d := w.deps[nsName{rs.Namespace, dref.Name}]; d != nil && d.UID == dref.UID {
						return d.UID, replicasOr1(d.Spec.Replicas), true, nil
					}
				}
			}
			if dref := metav1.GetControllerOf(rs); dref == nil || dref.Kind != "Deployment" {
				return rs.UID, replicasOr1(rs.Spec.Replicas), true, nil
			}
		}
	}
	// StatefulSet
	ok, err = isGroupKind(ref, "StatefulSet", "apps")
	if err != nil {
		return "", 0, false, err
	}
	if ok {
		if ss := w.sts[nsName{ns, ref.Name}]; ss != nil && ss.UID == ref.UID {
			return ss.UID, replicasOr1(ss.Spec.Replicas), true, nil
		}
	}
	return w.findScale(ref, ns)
}

// isGroupKind is verifyGroupKind.
func isGroupKind(ref *metav1.OwnerReference, kind string, groups ...string) (bool, error) {
	gv, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, err
	}
	if ref.Kind != kind {
		return false, nil
	}
	for _, g := range groups {
		if gv.group == g {
			return true, nil
		}
	}
	return false, nil
}

type groupVersion struct{ group, version string }

// parseGroupVersion is schema.ParseGroupVersion.
func parseGroupVersion(s string) (groupVersion, error) {
	if s == "" || s == "/" {
		return groupVersion{}, nil
	}
	switch strings.Count(s, "/") {
	case 0:
		return groupVersion{version: s}, nil
	case 1:
		i := strings.Index(s, "/")
		return groupVersion{group: s[:i], version: s[i+1:]}, nil
	default:
		return groupVersion{}, fmt.Errorf("unexpected GroupVersion string: %v", s)
	}
}

// findScale is getScaleController: the kind is mapped to its resource (the
// built-in kinds schedkit knows, as kube-controller-manager's REST mapper
// knows them), then the scale subresource is read.
func (w *workloadIndex) findScale(ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	gv, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return "", 0, false, err
	}
	if gv.version == "" {
		// The REST mapper then takes the group's preferred version.
		for _, v := range []string{"v1", "v1beta2", "v1beta1"} {
			if _, ok := builtinKinds[builtinKind{gv.group, v, ref.Kind}]; ok {
				gv.version = v
				break
			}
		}
	}
	resource, known := builtinKinds[builtinKind{gv.group, gv.version, ref.Kind}]
	if !known {
		// A Scale given by the caller stands for a custom resource with a
		// scale subresource.
		key := scaleKey{gv.group, kindToResource(ref.Kind), ns, ref.Name}
		if s, ok := w.scales[key]; ok {
			if s.uid != ref.UID {
				return "", 0, false, nil
			}
			return s.uid, s.replicas, true, nil
		}
		if gv.version == "" {
			return "", 0, false, fmt.Errorf("no matches for kind %q in group %q", ref.Kind, gv.group)
		}
		gvs := gv.version
		if gv.group != "" {
			gvs = gv.group + "/" + gv.version
		}
		return "", 0, false, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, gvs)
	}
	s, ok := w.scales[scaleKey{gv.group, resource, ns, ref.Name}]
	if !ok {
		gvs := gv.version
		if gv.group != "" {
			gvs = gv.group + "/" + gv.version
		}
		subs, served := servedScales[gvs]
		if !served {
			return "", 0, false, fmt.Errorf("the server could not find the requested resource, GroupVersion %q not found", gvs)
		}
		if !subs[resource] {
			gr := resource
			if gv.group != "" {
				gr = resource + "." + gv.group
			}
			return "", 0, false, fmt.Errorf("%s does not implement the scale subresource", gr)
		}
		return "", 0, false, nil
	}
	if s.uid != ref.UID {
		return "", 0, false, nil
	}
	return s.uid, s.replicas, true, nil
}

type builtinKind struct{ group, version, kind string }

// builtinKinds maps built-in kinds to their resources, in the versions
// client-go's scheme registers: the kinds that own pods and a few other
// common ones (an owner of any other built-in kind is reported as an
// unknown kind).
var builtinKinds = func() map[builtinKind]string {
	m := map[builtinKind]string{}
	add := func(group string, versions []string, kinds ...string) {
		for _, v := range versions {
			for _, k := range kinds {
				m[builtinKind{group, v, k}] = kindToResource(k)
			}
		}
	}
	add("", []string{"v1"}, "Pod", "ReplicationController", "Node", "Service", "ConfigMap", "Secret", "Namespace", "PersistentVolumeClaim", "ServiceAccount", "Endpoints")
	add("apps", []string{"v1", "v1beta2"}, "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ControllerRevision")
	add("apps", []string{"v1beta1"}, "Deployment", "StatefulSet", "ControllerRevision")
	add("extensions", []string{"v1beta1"}, "Deployment", "ReplicaSet", "DaemonSet")
	add("batch", []string{"v1"}, "Job", "CronJob")
	add("batch", []string{"v1beta1"}, "CronJob")
	add("policy", []string{"v1"}, "PodDisruptionBudget", "Eviction")
	add("policy", []string{"v1beta1"}, "PodDisruptionBudget", "Eviction")
	add("networking.k8s.io", []string{"v1"}, "Ingress", "NetworkPolicy", "IngressClass")
	add("rbac.authorization.k8s.io", []string{"v1"}, "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")
	add("autoscaling", []string{"v1", "v2"}, "HorizontalPodAutoscaler")
	add("", []string{"v1"}, "LimitRange", "ResourceQuota", "PersistentVolume", "Event", "PodTemplate")
	return m
}()

// servedScales lists the group/versions discovery reports and their
// resources with a scale subresource: the groups of the kinds that own pods
// (as the reference oracle's discovery serves them; other group/versions
// are reported as not found).
var servedScales = map[string]map[string]bool{
	"v1":       {"replicationcontrollers": true},
	"apps/v1":  {"deployments": true, "replicasets": true, "statefulsets": true},
	"batch/v1": {},
}

// kindToResource is meta.UnsafeGuessKindToResource's plural.
func kindToResource(kind string) string {
	s := strings.ToLower(kind)
	switch {
	case s == "":
		return s
	case strings.HasSuffix(s, "s"):
		return s + "es"
	case strings.HasSuffix(s, "y"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}
