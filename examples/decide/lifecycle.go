package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/lifecycle"
)

// answerLifecycle answers the kinds of the lifecycle package:
// pod-phase-conditions, container-transition, graceful-delete.
// ok is false for any other kind.
func answerLifecycle(kind string, input json.RawMessage) (out any, ok bool, err error) {
	switch kind {
	case "pod-phase-conditions":
		out, err = answerPodPhase(input)
	case "container-transition":
		out, err = answerTransition(input)
	case "graceful-delete":
		out, err = answerGracefulDelete(input)
	default:
		return nil, false, nil
	}
	return out, true, err
}

// decodeStrict decodes a case input, refusing unknown fields like the oracle.
func decodeStrict(input json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode input: %w", err)
	}
	return nil
}

// conditionOut is a condition as the case files compare it (no timestamps).
type conditionOut struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

type podPhaseIn struct {
	Pod               corev1.Pod `json:"pod"`
	PodIsTerminal     bool       `json:"podIsTerminal,omitempty"`
	PodHasInitialized bool       `json:"podHasInitialized,omitempty"`
}

type podPhaseOut struct {
	Phase      string         `json:"phase"`
	Conditions []conditionOut `json:"conditions"`
}

func answerPodPhase(input json.RawMessage) (any, error) {
	var in podPhaseIn
	if err := decodeStrict(input, &in); err != nil {
		return nil, err
	}
	st, err := lifecycle.GenerateStatus(&in.Pod, lifecycle.StatusOptions{
		PodIsTerminal:     in.PodIsTerminal,
		PodHasInitialized: in.PodHasInitialized,
	})
	if err != nil {
		return nil, err
	}
	out := podPhaseOut{Phase: string(st.Phase)}
	for _, c := range st.Conditions {
		out.Conditions = append(out.Conditions, conditionOut{
			Type: string(c.Type), Status: string(c.Status), Reason: c.Reason,
			Message: c.Message, ObservedGeneration: c.ObservedGeneration,
		})
	}
	return out, nil
}

type transitionIn struct {
	Pod       corev1.Pod       `json:"pod"`
	NewStatus corev1.PodStatus `json:"newStatus"`
}

type transitionOut struct {
	Allowed bool   `json:"allowed"`
	Error   string `json:"error,omitempty"`
}

func answerTransition(input json.RawMessage) (any, error) {
	var in transitionIn
	if err := decodeStrict(input, &in); err != nil {
		return nil, err
	}
	v, err := lifecycle.CheckTransition(&in.Pod.Spec, &in.Pod.Status, &in.NewStatus)
	if err != nil {
		return nil, err
	}
	return transitionOut{Allowed: v.Allowed, Error: v.Reason}, nil
}

type gracefulDeleteIn struct {
	Pod           corev1.Pod            `json:"pod"`
	DeleteOptions *metav1.DeleteOptions `json:"deleteOptions,omitempty"`
	Now           metav1.Time           `json:"now"`
}

type beforeDeleteOut struct {
	Graceful                   bool         `json:"graceful"`
	PendingGraceful            bool         `json:"pendingGraceful"`
	Error                      string       `json:"error,omitempty"`
	GracePeriodSeconds         *int64       `json:"gracePeriodSeconds,omitempty"`
	DeletionTimestamp          *metav1.Time `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64       `json:"deletionGracePeriodSeconds,omitempty"`
	Generation                 int64        `json:"generation,omitempty"`
}

type gracefulDeleteOut struct {
	Graceful           bool            `json:"graceful"`
	GracePeriodSeconds *int64          `json:"gracePeriodSeconds,omitempty"`
	BeforeDelete       beforeDeleteOut `json:"beforeDelete"`
}

func answerGracefulDelete(input json.RawMessage) (any, error) {
	var in gracefulDeleteIn
	if err := decodeStrict(input, &in); err != nil {
		return nil, err
	}
	if in.Now.IsZero() {
		return nil, fmt.Errorf("graceful-delete needs input.now")
	}
	var out gracefulDeleteOut
	graceful, seconds, err := lifecycle.GracePeriod(&in.Pod, in.DeleteOptions)
	if err != nil {
		return nil, err
	}
	out.Graceful = graceful
	if in.DeleteOptions != nil {
		out.GracePeriodSeconds = &seconds
	}
	d, err := lifecycle.Delete(&in.Pod, in.DeleteOptions, in.Now.Time)
	out.BeforeDelete = beforeDeleteOut{Graceful: d.Graceful, PendingGraceful: d.PendingGraceful, GracePeriodSeconds: d.GracePeriodSeconds}
	if err != nil {
		out.BeforeDelete.Error = err.Error()
	} else {
		out.BeforeDelete.DeletionTimestamp = d.Pod.DeletionTimestamp
		out.BeforeDelete.DeletionGracePeriodSeconds = d.Pod.DeletionGracePeriodSeconds
		out.BeforeDelete.Generation = d.Pod.Generation
	}
	return out, nil
}
