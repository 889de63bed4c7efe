package eviction

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestDecide mirrors (*EvictionREST).Create in
// pkg/registry/core/pod/storage/eviction.go: one case per status code and
// message path.
func TestDecide(t *testing.T) {
	one := intstr.FromInt32(1)
	ready := newPod("ns", "web-0").obj()
	type want struct {
		code     int32
		reason   metav1.StatusReason
		message  string
		causes   []string
		retry    int32
		deleted  bool
		updated  bool
		pdbAfter *int32 // disruptionsAllowed of the first PDB after
		written  bool
		delRV    string
		calls    int
	}
	tests := []struct {
		name string
		req  Request
		want want
	}{
		{
			name: "no such pod is 404",
			req:  Request{Namespace: "ns", Name: "gone"},
			want: want{code: 404, reason: metav1.StatusReasonNotFound, message: `pods "gone" not found`},
		},
		{
			name: "a pod of another namespace than the URL's is 404",
			req:  Request{Namespace: "other", Pod: ready},
			want: want{code: 404, reason: metav1.StatusReasonNotFound, message: `pods "web-0" not found`},
		},
		{
			name: "ignoreStoreReadErrorWithClusterBreakingPotential is 422",
			req:  Request{Pod: ready, DeleteOptions: &metav1.DeleteOptions{IgnoreStoreReadErrorWithClusterBreakingPotential: boolP(true)}},
			want: want{code: 422, reason: metav1.StatusReasonInvalid,
				message: `Eviction.policy "web-0" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option`,
				causes:  []string{"Invalid value: true: can not be set for pod eviction, try after removing the option"}},
		},
		{
			name: "dry-run values that differ between query and body are 500",
			req:  Request{Pod: ready, DryRun: true, DeleteOptions: &metav1.DeleteOptions{DryRun: []string{"Other"}}},
			want: want{code: 500, reason: metav1.StatusReasonUnknown, message: "Non-matching dry-run options in request and content: [All] and [Other]"},
		},
		{
			name: "a failed pod is deleted without looking at a zero budget",
			req:  Request{Pod: newPod("ns", "web-0").phase(corev1.PodFailed).obj(), PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "p").minAvailable(one).obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(0), calls: 1},
		},
		{
			name: "a pending pod is deleted with a resourceVersion precondition",
			req:  Request{Pod: newPod("ns", "web-0").phase(corev1.PodPending).obj()},
			want: want{code: 201, deleted: true, updated: true, delRV: "11", calls: 1},
		},
		{
			name: "a terminating pod keeps its pending graceful deletion",
			req:  Request{Pod: newPod("ns", "web-0").terminating(testNow.Add(20*time.Second), 30).obj()},
			want: want{code: 201, deleted: true, updated: true, calls: 1},
		},
		{
			name: "several budgets is 500 without reason",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{
				newPDB("ns", "a").status(1, 2, 1, 2).obj(), newPDB("ns", "b").status(1, 2, 1, 2).obj()}},
			want: want{code: 500, message: MessageMultiplePDBs, pdbAfter: int32P(1)},
		},
		{
			name: "no budget lets the eviction through",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("other", "a").obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(0), calls: 1},
		},
		{
			name: "a nil selector matches nothing",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").selector(nil).obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(0), calls: 1},
		},
		{
			name: "an empty selector matches every pod: zero budget is 429",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").selector(&metav1.LabelSelector{}).status(0, 1, 1, 1).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a needs 1 healthy pods and has 1 currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "an unready pod under AlwaysAllow is deleted with a precondition, budget untouched",
			req: Request{Pod: newPod("ns", "web-0").unready().obj(), PDBs: []*policyv1.PodDisruptionBudget{
				newPDB("ns", "a").policy(policyv1.AlwaysAllow).status(0, 0, 1, 1).obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(0), delRV: "11", calls: 1},
		},
		{
			name: "an unready pod under a healthy IfHealthyBudget budget is deleted",
			req: Request{Pod: newPod("ns", "web-0").unready().obj(), PDBs: []*policyv1.PodDisruptionBudget{
				newPDB("ns", "a").status(0, 2, 2, 3).obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(0), delRV: "11", calls: 1},
		},
		{
			name: "an unready pod under a budget with desiredHealthy 0 goes through the budget check",
			req: Request{Pod: newPod("ns", "web-0").unready().obj(), PDBs: []*policyv1.PodDisruptionBudget{
				newPDB("ns", "a").status(0, 0, 0, 0).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a needs 0 healthy pods and has 0 currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "a stale observedGeneration is 429 still being processed",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").generation(2, 1).status(3, 4, 1, 4).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a is still being processed by the server."}, retry: 10, pdbAfter: int32P(3)},
		},
		{
			name: "negative disruptionsAllowed is 403",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(-1, 0, 1, 1).obj()}},
			want: want{code: 403, reason: metav1.StatusReasonForbidden, message: `poddisruptionbudget.policy "a" is forbidden: pdb disruptions allowed is negative`, pdbAfter: int32P(-1)},
		},
		{
			name: "more than 2000 disruptedPods is 403",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(1, 5, 1, 5).disrupted(manyNames(2001)).obj()}},
			want: want{code: 403, reason: metav1.StatusReasonForbidden, message: `poddisruptionbudget.policy "a" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`, pdbAfter: int32P(1)},
		},
		{
			name: "zero budget after a failed sync names the sync failure",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 3, 1, 3).
				condition(metav1.ConditionFalse, policyv1.SyncFailedReason, "found no controllers for pod \"web-0\"").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{`The disruption budget a does not allow evicting pods currently because it failed sync: found no controllers for pod "web-0"`}, pdbAfter: int32P(0)},
		},
		{
			name: "zero budget with a False condition carrying a message names it",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 3, 1, 3).
				condition(metav1.ConditionFalse, "Custom", "why not").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a does not allow evicting pods currently (Custom): why not"}, pdbAfter: int32P(0)},
		},
		{
			name: "zero budget otherwise gives the plain cause",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 3, 1, 3).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a does not allow evicting pods currently"}, pdbAfter: int32P(0)},
		},
		// checkAndDecrement checks in a fixed order: stale generation, then
		// negative count, then the disruptedPods size, then zero; the cause of
		// a zero budget picks the sync failure first, then the health counts,
		// then a False condition's message. One case per precedence.
		{
			name: "a stale observedGeneration wins over a negative count",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").generation(3, 2).status(-1, 0, 1, 1).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a is still being processed by the server."}, retry: 10, pdbAfter: int32P(-1)},
		},
		{
			name: "a negative count wins over more than 2000 disruptedPods",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(-1, 5, 1, 5).disrupted(manyNames(2001)).obj()}},
			want: want{code: 403, reason: metav1.StatusReasonForbidden, message: `poddisruptionbudget.policy "a" is forbidden: pdb disruptions allowed is negative`, pdbAfter: int32P(-1)},
		},
		{
			name: "exactly 2000 disruptedPods is not too many",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 5, 1, 5).disrupted(manyNames(2000)).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a does not allow evicting pods currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "more than 2000 disruptedPods wins over a zero count",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 5, 1, 5).disrupted(manyNames(2001)).obj()}},
			want: want{code: 403, reason: metav1.StatusReasonForbidden, message: `poddisruptionbudget.policy "a" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`, pdbAfter: int32P(0)},
		},
		{
			name: "a sync failure is named even when currentHealthy <= desiredHealthy",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 1, 2, 3).
				condition(metav1.ConditionFalse, policyv1.SyncFailedReason, "boom").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a does not allow evicting pods currently because it failed sync: boom"}, pdbAfter: int32P(0)},
		},
		{
			name: "a sync failure without a message falls through to the health counts",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 1, 2, 3).
				condition(metav1.ConditionFalse, policyv1.SyncFailedReason, "").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a needs 2 healthy pods and has 1 currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "the health counts win over a False condition's message",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 2, 2, 3).
				condition(metav1.ConditionFalse, "Custom", "why not").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a needs 2 healthy pods and has 2 currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "a True condition's message is not named",
			req: Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(0, 3, 1, 3).
				condition(metav1.ConditionTrue, "Custom", "why not").obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a does not allow evicting pods currently"}, pdbAfter: int32P(0)},
		},
		{
			name: "an allowed eviction decrements the budget and records the pod",
			req:  Request{Pod: ready, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(2, 3, 1, 3).obj()}},
			want: want{code: 201, deleted: true, updated: true, pdbAfter: int32P(1), written: true, calls: 1},
		},
		{
			name: "a dry-run eviction writes nothing",
			req:  Request{Pod: ready, DryRun: true, PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").status(2, 3, 1, 3).obj()}},
			want: want{code: 201, pdbAfter: int32P(2), calls: 1},
		},
		{
			name: "a resourceVersion precondition that does not match is 409 at once",
			req: Request{Pod: newPod("ns", "web-0").phase(corev1.PodSucceeded).obj(), DeleteOptions: &metav1.DeleteOptions{
				Preconditions: &metav1.Preconditions{ResourceVersion: strP("42")}}},
			want: want{code: 409, reason: metav1.StatusReasonConflict,
				message: `Operation cannot be fulfilled on Pod "web-0": the ResourceVersion in the precondition (42) does not match the ResourceVersion in record (10). The object might have been modified`},
		},
		{
			name: "a UID precondition conflict in dry run is retried 20 times",
			req: Request{Pod: newPod("ns", "web-0").phase(corev1.PodFailed).obj(), DryRun: true, DeleteOptions: &metav1.DeleteOptions{
				Preconditions: &metav1.Preconditions{UID: uidP("old")}}},
			want: want{code: 409, reason: metav1.StatusReasonConflict,
				message: `Operation cannot be fulfilled on Pod "web-0": the UID in the precondition (old) does not match the UID in record (uid-ns-web-0). The object might have been deleted and then recreated`, calls: 20},
		},
		{
			name: "a UID conflict on an unready pod's delete is turned into 429",
			req: Request{Pod: newPod("ns", "web-0").unready().obj(), DryRun: true, DeleteOptions: &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: uidP("old")}},
				PDBs: []*policyv1.PodDisruptionBudget{newPDB("ns", "a").policy(policyv1.AlwaysAllow).obj()}},
			want: want{code: 429, reason: metav1.StatusReasonTooManyRequests, message: MessageBudgetViolated,
				causes: []string{"The disruption budget a is still being processed by the server."}, retry: 10, pdbAfter: int32P(0), delRV: "10", calls: 1},
		},
		{
			name: "invalid delete options are 422 from the storage",
			req:  Request{Pod: ready, DeleteOptions: &metav1.DeleteOptions{PropagationPolicy: propP("Sideways")}},
			want: want{code: 422, reason: metav1.StatusReasonInvalid, updated: true, delRV: "", calls: 1,
				message: `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`,
				causes:  []string{`Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.req.Now.IsZero() {
				tc.req.Now = testNow
			}
			before := deepCopyReq(tc.req)
			d, err := Decide(tc.req)
			require.NoError(t, err)
			assert.Equal(t, before, deepCopyReq(tc.req), "inputs must not change")
			w := tc.want
			assert.Equal(t, w.code, d.Status.Code)
			assert.Equal(t, w.reason, d.Status.Reason)
			assert.Equal(t, w.message, d.Status.Message)
			var causes []string
			var retry int32
			if d.Status.Details != nil {
				retry = d.Status.Details.RetryAfterSeconds
				for _, c := range d.Status.Details.Causes {
					causes = append(causes, c.Message)
				}
			}
			assert.Equal(t, w.causes, causes)
			assert.Equal(t, w.retry, retry)
			assert.Equal(t, w.deleted, d.PodDeleted, "podDeleted")
			assert.Equal(t, w.updated, d.PodUpdated, "podUpdated")
			assert.Equal(t, w.calls, d.DeleteCalls, "deleteCalls")
			assert.Equal(t, w.code == 201, d.Allowed())
			if w.pdbAfter != nil {
				require.NotEmpty(t, d.PDBs)
				assert.Equal(t, *w.pdbAfter, d.PDBs[0].PDB.Status.DisruptionsAllowed)
				assert.Equal(t, w.written, d.PDBs[0].Updated)
			}
			if w.delRV != "" {
				require.NotNil(t, d.Delete)
				assert.Equal(t, w.delRV, d.Delete.PreconditionResourceVersion)
			}
			if w.updated {
				c := d.DisruptionTarget()
				require.NotNil(t, c)
				assert.Equal(t, ReasonEvictionByEvictionAPI, c.Reason)
				assert.Equal(t, MessageEvictionByEvictionAPI, c.Message)
			}
		})
	}
}

// TestDecideBudgetWrite checks the budget written by an accepted eviction
// (checkAndDecrement): the pod recorded at now, and the DisruptionAllowed
// condition rewritten only when the count reaches zero.
func TestDecideBudgetWrite(t *testing.T) {
	t.Run("reaching zero rewrites the condition and clears its message", func(t *testing.T) {
		pdb := newPDB("ns", "a").status(1, 2, 1, 2).condition(metav1.ConditionFalse, policyv1.SyncFailedReason, "old").obj()
		d, err := Decide(Request{Pod: newPod("ns", "web-0").obj(), PDBs: []*policyv1.PodDisruptionBudget{pdb}, Now: testNow})
		require.NoError(t, err)
		got := d.PDBs[0].PDB
		assert.Equal(t, int32(0), got.Status.DisruptionsAllowed)
		assert.Equal(t, metav1.NewTime(testNow), got.Status.DisruptedPods["web-0"])
		require.Len(t, got.Status.Conditions, 1)
		c := got.Status.Conditions[0]
		assert.Equal(t, []string{"False", policyv1.InsufficientPodsReason, ""}, []string{string(c.Status), c.Reason, c.Message})
		assert.Equal(t, "old", pdb.Status.Conditions[0].Message, "input untouched")
	})
	t.Run("staying above zero keeps the old condition", func(t *testing.T) {
		pdb := newPDB("ns", "a").status(2, 3, 1, 3).condition(metav1.ConditionFalse, policyv1.SyncFailedReason, "old").obj()
		d, err := Decide(Request{Pod: newPod("ns", "web-0").obj(), PDBs: []*policyv1.PodDisruptionBudget{pdb}, Now: testNow})
		require.NoError(t, err)
		assert.Equal(t, "old", d.PDBs[0].PDB.Status.Conditions[0].Message)
	})
	t.Run("a graceful delete sets the deletion timestamp from now and the grace period", func(t *testing.T) {
		d, err := Decide(Request{Pod: newPod("ns", "web-0").obj(), Now: testNow})
		require.NoError(t, err)
		require.NotNil(t, d.Pod.DeletionTimestamp)
		assert.Equal(t, testNow.Add(30*time.Second), d.Pod.DeletionTimestamp.Time)
		assert.Equal(t, int64P(30), d.Delete.GracePeriodSeconds)
		assert.True(t, d.Delete.Graceful)
	})
	t.Run("a shorter grace period moves a pending deletion", func(t *testing.T) {
		pod := newPod("ns", "web-0").terminating(testNow.Add(100*time.Second), 300).obj()
		d, err := Decide(Request{Pod: pod, Now: testNow, DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: int64P(60)}})
		require.NoError(t, err)
		assert.True(t, d.Delete.Graceful)
		assert.Equal(t, testNow, d.Pod.DeletionTimestamp.Time, "clamped to now")
		assert.Equal(t, int64P(1), d.Pod.DeletionGracePeriodSeconds)
	})
}

func TestDecideRejectsInvalidInput(t *testing.T) {
	both := newPDB("ns", "a").minAvailable(intstr.FromInt32(1)).maxUnavailable(intstr.FromInt32(1)).obj()
	_, err := Decide(Request{Pod: newPod("ns", "web-0").obj(), PDBs: []*policyv1.PodDisruptionBudget{both}})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrInvalidRequest))
	assert.Contains(t, err.Error(), "minAvailable and maxUnavailable cannot be both set")

	_, err = Decide(Request{})
	assert.True(t, errors.Is(err, ErrInvalidRequest))
}

func deepCopyReq(r Request) Request {
	out := r
	if r.Pod != nil {
		out.Pod = r.Pod.DeepCopy()
	}
	out.PDBs = nil
	for _, p := range r.PDBs {
		out.PDBs = append(out.PDBs, p.DeepCopy())
	}
	if r.DeleteOptions != nil {
		out.DeleteOptions = r.DeleteOptions.DeepCopy()
	}
	return out
}

func manyNames(n int) map[string]time.Time {
	m := map[string]time.Time{}
	for i := range n {
		m["p"+strconv.Itoa(i)] = testNow
	}
	return m
}

func boolP(v bool) *bool                                             { return &v }
func strP(v string) *string                                          { return &v }
func int32P(v int32) *int32                                          { return &v }
func uidP(v string) *types.UID                                       { u := types.UID(v); return &u }
func propP(v metav1.DeletionPropagation) *metav1.DeletionPropagation { return &v }
