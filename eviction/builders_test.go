package eviction

import (
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedkit/schedkit/internal/testbuild"
)

var testNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// podB builds pods for tests.
type podB struct{ p *corev1.Pod }

func newPod(ns, name string) podB {
	grace := int64(30)
	return podB{&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), ResourceVersion: "10", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{NodeName: "node-1", TerminationGracePeriodSeconds: &grace, Containers: []corev1.Container{{Name: "c"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		}},
	}}
}

func (b podB) labels(kv ...string) podB {
	b.p.Labels = testbuild.Labels(kv...)
	return b
}
func (b podB) phase(ph corev1.PodPhase) podB { b.p.Status.Phase = ph; return b }
func (b podB) unready() podB {
	b.p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	return b
}
func (b podB) terminating(at time.Time, grace int64) podB {
	t := metav1.NewTime(at)
	b.p.DeletionTimestamp, b.p.DeletionGracePeriodSeconds = &t, &grace
	return b
}
func (b podB) node(n string) podB { b.p.Spec.NodeName = n; return b }
func (b podB) priority(v int32) podB {
	b.p.Spec.Priority = &v
	return b
}
func (b podB) memRequest(q string) podB {
	b.p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(q)}
	return b
}
func (b podB) owner(apiVersion, kind, name string, uid types.UID) podB {
	t := true
	b.p.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &t}}
	return b
}
func (b podB) emptyDir() podB {
	b.p.Spec.Volumes = append(b.p.Spec.Volumes, corev1.Volume{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	return b
}
func (b podB) annotate(k, v string) podB {
	if b.p.Annotations == nil {
		b.p.Annotations = map[string]string{}
	}
	b.p.Annotations[k] = v
	return b
}
func (b podB) obj() *corev1.Pod { return b.p }

// pdbB builds budgets for tests: selector app=web, consistent status.
type pdbB struct{ p *policyv1.PodDisruptionBudget }

func newPDB(ns, name string) pdbB {
	return pdbB{&policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 1},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1},
	}}
}

func (b pdbB) minAvailable(v intstr.IntOrString) pdbB { b.p.Spec.MinAvailable = &v; return b }
func (b pdbB) maxUnavailable(v intstr.IntOrString) pdbB {
	b.p.Spec.MaxUnavailable = &v
	return b
}
func (b pdbB) selector(s *metav1.LabelSelector) pdbB { b.p.Spec.Selector = s; return b }
func (b pdbB) policy(p policyv1.UnhealthyPodEvictionPolicyType) pdbB {
	b.p.Spec.UnhealthyPodEvictionPolicy = &p
	return b
}
func (b pdbB) status(allowed, current, desired, expected int32) pdbB {
	b.p.Status.DisruptionsAllowed, b.p.Status.CurrentHealthy, b.p.Status.DesiredHealthy, b.p.Status.ExpectedPods = allowed, current, desired, expected
	return b
}
func (b pdbB) generation(gen, observed int64) pdbB {
	b.p.Generation, b.p.Status.ObservedGeneration = gen, observed
	return b
}
func (b pdbB) condition(status metav1.ConditionStatus, reason, msg string) pdbB {
	b.p.Status.Conditions = []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: status, Reason: reason, Message: msg, ObservedGeneration: b.p.Status.ObservedGeneration}}
	return b
}
func (b pdbB) disrupted(names map[string]time.Time) pdbB {
	b.p.Status.DisruptedPods = map[string]metav1.Time{}
	for n, t := range names {
		b.p.Status.DisruptedPods[n] = metav1.NewTime(t)
	}
	return b
}
func (b pdbB) obj() *policyv1.PodDisruptionBudget { return b.p }

func replicaSet(ns, name string, uid types.UID, replicas int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: uid}, Spec: appsv1.ReplicaSetSpec{Replicas: &replicas}}
}

func int64P(v int64) *int64 { return &v }

func typesUID(s string) types.UID { return types.UID(s) }

func sortStrings(s []string) { sort.Strings(s) }
