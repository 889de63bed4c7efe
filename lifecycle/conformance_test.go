package lifecycle_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/evlcase"
	"github.com/schedkit/schedkit/lifecycle"
)

// The conformance files hold cases answered by upstream v1.36.3 itself (the
// evl oracle): cases.json is the shared conformance file, lifecycle-seeds.json
// the lifecycle kinds of three more generated seeds. They are never rewritten
// from schedkit's output.
var conformanceFiles = []string{
	"../testdata/evl/cases.json",
	"../testdata/evl/lifecycle-seeds.json",
	"../testdata/evl/lifecycle-hand.json",
}

// answerCase computes a case's answer through the public API, in the shape
// of the case files.
func answerCase(t *testing.T, c evlcase.Case) (any, bool) {
	t.Helper()
	var out any
	switch c.Kind {
	case "pod-phase-conditions":
		var in struct {
			Pod               corev1.Pod `json:"pod"`
			PodIsTerminal     bool       `json:"podIsTerminal"`
			PodHasInitialized bool       `json:"podHasInitialized"`
		}
		require.NoError(t, json.Unmarshal(c.Input, &in))
		st, err := lifecycle.GenerateStatus(&in.Pod, lifecycle.StatusOptions{PodIsTerminal: in.PodIsTerminal, PodHasInitialized: in.PodHasInitialized})
		require.NoError(t, err)
		conds := []map[string]any{}
		for _, cd := range st.Conditions {
			conds = append(conds, map[string]any{"type": string(cd.Type), "status": string(cd.Status), "reason": cd.Reason, "message": cd.Message, "observedGeneration": cd.ObservedGeneration})
		}
		out = map[string]any{"phase": string(st.Phase), "conditions": conds}
	case "container-transition":
		var in struct {
			Pod       corev1.Pod       `json:"pod"`
			NewStatus corev1.PodStatus `json:"newStatus"`
		}
		require.NoError(t, json.Unmarshal(c.Input, &in))
		v, err := lifecycle.CheckTransition(&in.Pod.Spec, &in.Pod.Status, &in.NewStatus)
		require.NoError(t, err)
		out = map[string]any{"allowed": v.Allowed, "error": v.Reason}
	case "graceful-delete":
		var in struct {
			Pod           corev1.Pod            `json:"pod"`
			DeleteOptions *metav1.DeleteOptions `json:"deleteOptions"`
			Now           metav1.Time           `json:"now"`
		}
		require.NoError(t, json.Unmarshal(c.Input, &in))
		graceful, seconds, err := lifecycle.GracePeriod(&in.Pod, in.DeleteOptions)
		require.NoError(t, err)
		m := map[string]any{"graceful": graceful}
		if in.DeleteOptions != nil {
			m["gracePeriodSeconds"] = seconds
		}
		d, err := lifecycle.Delete(&in.Pod, in.DeleteOptions, in.Now.Time)
		bd := map[string]any{"graceful": d.Graceful, "pendingGraceful": d.PendingGraceful}
		if d.GracePeriodSeconds != nil {
			bd["gracePeriodSeconds"] = *d.GracePeriodSeconds
		}
		if err != nil {
			bd["error"] = err.Error()
		} else {
			if d.Pod.DeletionTimestamp != nil {
				bd["deletionTimestamp"] = d.Pod.DeletionTimestamp.UTC().Format("2006-01-02T15:04:05Z")
			}
			if d.Pod.DeletionGracePeriodSeconds != nil {
				bd["deletionGracePeriodSeconds"] = *d.Pod.DeletionGracePeriodSeconds
			}
			bd["generation"] = d.Pod.Generation
		}
		m["beforeDelete"] = bd
		out = m
	default:
		return nil, false
	}
	return out, true
}

// TestConformance checks every pod-phase-conditions, container-transition and
// graceful-delete case against upstream's answer under compare.py's rules
// (evlcase). It mirrors kubelet getPhase and Generate*Condition, status
// manager checkContainerStateTransition, pod strategy CheckGracefulDelete and
// rest.BeforeDelete.
func TestConformance(t *testing.T) {
	kinds := []string{"pod-phase-conditions", "container-transition", "graceful-delete"}
	evlcase.Check(t, conformanceFiles, kinds, func(c evlcase.Case) (any, error) {
		got, ok := answerCase(t, c)
		if !ok {
			return nil, fmt.Errorf("kind %s not answered", c.Kind)
		}
		return got, nil
	})
}
