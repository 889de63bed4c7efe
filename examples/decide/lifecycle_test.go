package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schedkit/schedkit/internal/evlcase"
)

var lcKinds = []string{"pod-phase-conditions", "container-transition", "graceful-delete"}

// TestLifecycleConformance answers every lifecycle case of the
// upstream-answered files in testdata/evl (evl oracle: kubelet getPhase and
// Generate*Condition, status manager checkContainerStateTransition, pod
// strategy CheckGracefulDelete and rest.BeforeDelete) with answerLifecycle,
// exactly as the command writes them, and compares under compare.py's rules
// (evlcase).
func TestLifecycleConformance(t *testing.T) {
	files := []string{"../../testdata/evl/cases.json", "../../testdata/evl/lifecycle-seeds.json", "../../testdata/evl/lifecycle-hand.json", "../../testdata/evl/lifecycle-doc.json"}
	evlcase.Check(t, files, lcKinds, func(c evlcase.Case) (any, error) {
		got, ok, err := answerLifecycle(c.Kind, c.Input)
		if !ok {
			return nil, fmt.Errorf("kind %s not answered", c.Kind)
		}
		return got, err
	})
}

// TestLifecycleMalformedInput: undecodable input is an error, never a panic.
func TestLifecycleMalformedInput(t *testing.T) {
	for _, in := range []string{
		`{"pod": {"spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "lots"}}}]}}}`,
		`{"pod": {"spec": {"restartPolicy": "Sometimes", "containers": [{"name": "a"}]}}}`,
		`{"pod": 7}`,
		`{"unknownField": true}`,
	} {
		for _, kind := range lcKinds {
			_, ok, err := answerLifecycle(kind, json.RawMessage(in))
			require.True(t, ok)
			if kind == "graceful-delete" && in == `{"pod": {"spec": {"restartPolicy": "Sometimes", "containers": [{"name": "a"}]}}}` {
				require.Error(t, err, "no now") // the restart policy does not matter to a DELETE
				continue
			}
			require.Error(t, err, "%s %s", kind, in)
		}
	}
	_, ok, _ := answerLifecycle("eviction", json.RawMessage(`{}`))
	require.False(t, ok)
}
