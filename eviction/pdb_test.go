package eviction

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// rsPods returns n Ready pods owned by ReplicaSet rs (uid "rs-uid"); the
// first unready are not Ready.
func rsPods(n, unready int) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range n {
		b := newPod("ns", "web-"+strconv.Itoa(i)).owner("apps/v1", "ReplicaSet", "rs", "rs-uid")
		if i < unready {
			b = b.unready()
		}
		out = append(out, b.obj())
	}
	return out
}

// TestStatusArithmetic mirrors getExpectedPodCount and updatePdbStatus in
// pkg/controller/disruption/disruption.go, with every rounding case of
// intstr.GetScaledValueFromIntOrPercent (round up).
func TestStatusArithmetic(t *testing.T) {
	rsOf := func(replicas int32) Workloads {
		return Workloads{ReplicaSets: []*appsv1.ReplicaSet{replicaSet("ns", "rs", "rs-uid", replicas)}}
	}
	rs := rsOf(3)
	tests := []struct {
		name                                 string
		pdb                                  *policyv1.PodDisruptionBudget
		pods                                 []*corev1.Pod
		w                                    Workloads
		expected, healthy, desired, disallow int32
	}{
		{"minAvailable integer counts selected pods", newPDB("ns", "p").minAvailable(intstr.FromInt32(2)).obj(), rsPods(3, 0), Workloads{}, 3, 3, 2, 1},
		{"minAvailable integer above healthy allows nothing", newPDB("ns", "p").minAvailable(intstr.FromInt32(5)).obj(), rsPods(3, 0), Workloads{}, 3, 3, 5, 0},
		{"minAvailable 33% of 3 rounds 0.99 up to 1", newPDB("ns", "p").minAvailable(intstr.FromString("33%")).obj(), rsPods(3, 0), rs, 3, 3, 1, 2},
		{"minAvailable 34% of 3 rounds 1.02 up to 2", newPDB("ns", "p").minAvailable(intstr.FromString("34%")).obj(), rsPods(3, 0), rs, 3, 3, 2, 1},
		{"minAvailable 100% allows nothing", newPDB("ns", "p").minAvailable(intstr.FromString("100%")).obj(), rsPods(3, 0), rs, 3, 3, 3, 0},
		{"minAvailable 0% allows every healthy pod", newPDB("ns", "p").minAvailable(intstr.FromString("0%")).obj(), rsPods(3, 1), rs, 3, 2, 0, 2},
		{"maxUnavailable 34% of 3 rounds up to 2 unavailable", newPDB("ns", "p").maxUnavailable(intstr.FromString("34%")).obj(), rsPods(3, 0), rs, 3, 3, 1, 2},
		{"maxUnavailable 33% of 3 rounds up to 1 unavailable", newPDB("ns", "p").maxUnavailable(intstr.FromString("33%")).obj(), rsPods(3, 0), rs, 3, 3, 2, 1},
		{"minAvailable 50% of 4 is exactly 2", newPDB("ns", "p").minAvailable(intstr.FromString("50%")).obj(), rsPods(4, 0), rsOf(4), 4, 4, 2, 2},
		{"minAvailable 50% of 1 rounds 0.5 up to 1", newPDB("ns", "p").minAvailable(intstr.FromString("50%")).obj(), rsPods(1, 0), rsOf(1), 1, 1, 1, 0},
		{"minAvailable 1% of 150 rounds 1.5 up to 2", newPDB("ns", "p").minAvailable(intstr.FromString("1%")).obj(), rsPods(3, 0), rsOf(150), 150, 3, 2, 1},
		{"maxUnavailable 1% of 150 rounds 1.5 up to 2 unavailable", newPDB("ns", "p").maxUnavailable(intstr.FromString("1%")).obj(), rsPods(3, 0), rsOf(150), 150, 3, 148, 0},
		{"maxUnavailable 0% allows nothing", newPDB("ns", "p").maxUnavailable(intstr.FromString("0%")).obj(), rsPods(3, 0), rs, 3, 3, 3, 0},
		{"maxUnavailable 100% allows every healthy pod", newPDB("ns", "p").maxUnavailable(intstr.FromString("100%")).obj(), rsPods(3, 1), rs, 3, 2, 0, 2},
		{"maxUnavailable 0 integer allows nothing", newPDB("ns", "p").maxUnavailable(intstr.FromInt32(0)).obj(), rsPods(3, 0), rs, 3, 3, 3, 0},
		{"a percentage over a zero scale expects nothing", newPDB("ns", "p").minAvailable(intstr.FromString("50%")).obj(), rsPods(2, 0), rsOf(0), 0, 2, 0, 0},
		{"maxUnavailable above scale floors desiredHealthy at 0", newPDB("ns", "p").maxUnavailable(intstr.FromInt32(5)).obj(), rsPods(3, 0), rs, 3, 3, 0, 3},
		{"maxUnavailable uses the controller's scale, not the pod count", newPDB("ns", "p").maxUnavailable(intstr.FromInt32(1)).obj(), rsPods(2, 0), rs, 3, 2, 2, 0},
		{"unready pods are not healthy", newPDB("ns", "p").maxUnavailable(intstr.FromInt32(1)).obj(), rsPods(3, 1), rs, 3, 2, 2, 0},
		{"neither field expects nothing and allows nothing", newPDB("ns", "p").obj(), rsPods(3, 0), rs, 0, 3, 0, 0},
		{"no pods expect nothing", newPDB("ns", "p").minAvailable(intstr.FromInt32(0)).obj(), nil, rs, 0, 0, 0, 0},
		{"a nil selector selects no pod", newPDB("ns", "p").minAvailable(intstr.FromInt32(0)).selector(nil).obj(), rsPods(3, 0), rs, 0, 0, 0, 0},
		{"an empty selector selects every pod of the namespace", newPDB("ns", "p").minAvailable(intstr.FromInt32(1)).selector(&metav1.LabelSelector{}).obj(),
			append(rsPods(2, 0), newPod("ns", "x").labels("app", "other").obj(), newPod("other", "y").obj()), rs, 3, 3, 1, 2},
		{"pods without a controller are left out of the scale", newPDB("ns", "p").maxUnavailable(intstr.FromInt32(1)).obj(),
			append(rsPods(3, 0), newPod("ns", "stray").obj()), rs, 3, 4, 2, 2},
		{"terminating pods are not healthy", newPDB("ns", "p").minAvailable(intstr.FromInt32(1)).obj(),
			[]*corev1.Pod{newPod("ns", "a").obj(), newPod("ns", "b").terminating(testNow, 30).obj()}, Workloads{}, 2, 1, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := PDBStatus(tc.pdb, tc.pods, tc.w, testNow)
			require.NoError(t, err)
			require.NoError(t, r.SyncErr)
			s := r.PDB.Status
			assert.Equal(t, []int32{tc.expected, tc.healthy, tc.desired, tc.disallow}, []int32{s.ExpectedPods, s.CurrentHealthy, s.DesiredHealthy, s.DisruptionsAllowed})
			assert.True(t, r.Updated)
			assert.Equal(t, tc.pdb.Generation, s.ObservedGeneration)
			c := s.Conditions[0]
			if tc.disallow > 0 {
				assert.Equal(t, policyv1.SufficientPodsReason, c.Reason)
			} else {
				assert.Equal(t, policyv1.InsufficientPodsReason, c.Reason)
			}
		})
	}
}

// TestStatusControllers mirrors the finders of getExpectedScale.
func TestStatusControllers(t *testing.T) {
	mu := newPDB("ns", "p").maxUnavailable(intstr.FromInt32(1)).obj()
	three := int32(3)
	depRS := replicaSet("ns", "rs", "rs-uid", 2)
	tr := true
	depRS.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "dep", UID: "dep-uid", Controller: &tr}}
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "dep", UID: "dep-uid"}, Spec: appsv1.DeploymentSpec{Replicas: &three}}
	owned := func(apiVersion, kind, name string, uid string) []*corev1.Pod {
		return []*corev1.Pod{newPod("ns", "web-0").owner(apiVersion, kind, name, typesUID(uid)).obj(), newPod("ns", "web-1").owner(apiVersion, kind, name, typesUID(uid)).obj()}
	}
	tests := []struct {
		name     string
		pods     []*corev1.Pod
		w        Workloads
		expected int32
		syncErr  string
	}{
		{"a Deployment's ReplicaSet counts the Deployment's replicas", owned("apps/v1", "ReplicaSet", "rs", "rs-uid"),
			Workloads{ReplicaSets: []*appsv1.ReplicaSet{depRS}, Deployments: []*appsv1.Deployment{dep}}, 3, ""},
		{"a ReplicaSet whose Deployment is gone counts its own replicas (scale)", owned("apps/v1", "ReplicaSet", "rs", "rs-uid"),
			Workloads{ReplicaSets: []*appsv1.ReplicaSet{depRS}}, 2, ""},
		{"a StatefulSet", owned("apps/v1", "StatefulSet", "ss", "ss-uid"),
			Workloads{StatefulSets: []*appsv1.StatefulSet{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ss", UID: "ss-uid"}}}}, 1, ""},
		{"a ReplicationController", owned("v1", "ReplicationController", "rc", "rc-uid"),
			Workloads{ReplicationControllers: []*corev1.ReplicationController{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "rc", UID: "rc-uid"}, Spec: corev1.ReplicationControllerSpec{Replicas: &three}}}}, 3, ""},
		{"a custom resource through its Scale", owned("example.com/v1", "Widget", "w", "w-uid"),
			Workloads{Scales: []Scale{{Group: "example.com", Kind: "Widget", Namespace: "ns", Name: "w", UID: "w-uid", Replicas: 4}}}, 4, ""},
		{"a missing ReplicaSet fails the sync", owned("apps/v1", "ReplicaSet", "rs", "rs-uid"), Workloads{}, 0, `found no controllers for pod "web-0"`},
		{"a re-created ReplicaSet (UID mismatch) fails the sync", owned("apps/v1", "ReplicaSet", "rs", "old-uid"),
			Workloads{ReplicaSets: []*appsv1.ReplicaSet{replicaSet("ns", "rs", "rs-uid", 2)}}, 0, `found no controllers for pod "web-0"`},
		{"a DaemonSet has no scale", owned("apps/v1", "DaemonSet", "ds", "ds-uid"), Workloads{}, 0, "daemonsets.apps does not implement the scale subresource"},
		{"a Job has no scale", owned("batch/v1", "Job", "j", "j-uid"), Workloads{}, 0, "jobs.batch does not implement the scale subresource"},
		{"an unknown kind has no mapping", owned("example.com/v1", "Widget", "w", "w-uid"), Workloads{}, 0, `no matches for kind "Widget" in version "example.com/v1"`},
		{"a malformed apiVersion fails the first finder", owned("a/b/c", "Widget", "w", "w-uid"), Workloads{}, 0, "unexpected GroupVersion string: a/b/c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := mu.DeepCopy()
			in.Status.ExpectedPods, in.Status.CurrentHealthy = 7, 7
			r, err := PDBStatus(in, tc.pods, tc.w, testNow)
			require.NoError(t, err)
			if tc.syncErr == "" {
				require.NoError(t, r.SyncErr)
				assert.Equal(t, tc.expected, r.PDB.Status.ExpectedPods)
				return
			}
			require.EqualError(t, r.SyncErr, tc.syncErr)
			// failSafe: allowed 0, SyncFailed, observedGeneration and counts kept
			s := r.PDB.Status
			assert.True(t, r.Updated)
			assert.Equal(t, int32(0), s.DisruptionsAllowed)
			assert.Equal(t, int32(7), s.ExpectedPods)
			assert.Equal(t, in.Status.ObservedGeneration, s.ObservedGeneration)
			require.Len(t, s.Conditions, 1)
			assert.Equal(t, []string{"False", policyv1.SyncFailedReason, tc.syncErr}, []string{string(s.Conditions[0].Status), s.Conditions[0].Reason, s.Conditions[0].Message})
		})
	}
}

// TestStatusDisruptedPods mirrors buildDisruptedPodMap (Before) and
// countHealthyPods (After) around DeletionTimeout.
func TestStatusDisruptedPods(t *testing.T) {
	pods := []*corev1.Pod{newPod("ns", "a").obj(), newPod("ns", "b").obj(), newPod("ns", "c").obj(), newPod("ns", "d").terminating(testNow, 30).obj()}
	pdb := newPDB("ns", "p").minAvailable(intstr.FromInt32(1)).disrupted(map[string]time.Time{
		"a":    testNow.Add(-DeletionTimeout + time.Second), // young: kept, not healthy
		"b":    testNow.Add(-DeletionTimeout),               // exactly 2 minutes: kept, healthy again
		"c":    testNow.Add(-DeletionTimeout - time.Second), // expired: dropped
		"d":    testNow,                                     // being deleted: dropped
		"gone": testNow,                                     // no such pod: dropped
	}).obj()
	r, err := PDBStatus(pdb, pods, Workloads{}, testNow)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, keysOf(r.PDB.Status.DisruptedPods))
	assert.Equal(t, int32(2), r.PDB.Status.CurrentHealthy) // b and c
	assert.Len(t, pdb.Status.DisruptedPods, 5, "input untouched")
}

// TestStatusSteady: a second sync over its own result writes nothing
// (updatePdbStatus's up-to-date check).
func TestStatusSteady(t *testing.T) {
	pdb := newPDB("ns", "p").minAvailable(intstr.FromInt32(1)).obj()
	pods := rsPods(3, 0)
	first, err := PDBStatus(pdb, pods, Workloads{}, testNow)
	require.NoError(t, err)
	require.True(t, first.Updated)
	second, err := PDBStatus(first.PDB, pods, Workloads{}, testNow)
	require.NoError(t, err)
	assert.False(t, second.Updated)
	assert.Equal(t, first.PDB.Status, second.PDB.Status)
	gen := first.PDB.DeepCopy()
	gen.Generation = 2
	third, err := PDBStatus(gen, pods, Workloads{}, testNow)
	require.NoError(t, err)
	assert.True(t, third.Updated, "a new generation is written")
	assert.Equal(t, int64(2), third.PDB.Status.ObservedGeneration)
}

// TestValidatePDB mirrors ValidatePodDisruptionBudgetSpec.
func TestValidatePDB(t *testing.T) {
	tests := []struct {
		name   string
		pdb    *policyv1.PodDisruptionBudget
		fields []string
	}{
		{"valid", newPDB("ns", "p").minAvailable(intstr.FromString("50%")).obj(), nil},
		{"both set", newPDB("ns", "p").minAvailable(intstr.FromInt32(1)).maxUnavailable(intstr.FromInt32(1)).obj(), []string{"spec"}},
		{"bad percentage", newPDB("ns", "p").maxUnavailable(intstr.FromString("abc%")).obj(), []string{"spec.maxUnavailable"}},
		{"over 100%", newPDB("ns", "p").minAvailable(intstr.FromString("101%")).obj(), []string{"spec.minAvailable"}},
		{"negative", newPDB("ns", "p").minAvailable(intstr.FromInt32(-1)).obj(), []string{"spec.minAvailable"}},
		{"malformed selector", newPDB("ns", "p").selector(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}).obj(),
			[]string{"spec.selector.matchExpressions[0].operator"}},
		{"unknown policy", newPDB("ns", "p").policy("Sometimes").obj(), []string{"spec.unhealthyPodEvictionPolicy"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fields []string
			for _, e := range ValidatePDB(tc.pdb) {
				fields = append(fields, e.Field)
			}
			assert.Equal(t, tc.fields, fields)
			if tc.fields != nil {
				_, err := PDBStatus(tc.pdb, nil, Workloads{}, testNow)
				assert.True(t, errors.Is(err, ErrInvalidPDB))
				var ve *ValidationError
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, ValidatePDB(tc.pdb), ve.Errors)
			}
		})
	}
}

func keysOf(m map[string]metav1.Time) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
