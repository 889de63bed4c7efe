package eviction

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Issue 21: a pod built in Go has no resourceVersion. Decide takes it as
// stored with version "1" (doc.go), so it answers as for the same pod read
// from the API server with that version; it never answers 500.
func TestDecidePodWithoutResourceVersion(t *testing.T) {
	withRV := func(rv string) Request {
		pod := newPod("ns", "web-0").obj()
		pod.ResourceVersion = rv
		pdb := newPDB("ns", "a").status(1, 2, 1, 2).obj()
		return Request{Pod: pod, PDBs: []*policyv1.PodDisruptionBudget{pdb}, Now: testNow}
	}
	tests := []struct {
		name     string
		req      Request
		wantCode int32
		wantRV   string
	}{
		{"unset: stored as 1, the condition write makes it 2", withRV(""), http.StatusCreated, "2"},
		{"set: bumped by the condition write", withRV("10"), http.StatusCreated, "11"},
		{"unset, with a matching precondition", func() Request {
			r := withRV("")
			r.DeleteOptions = &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: strP("1")}}
			return r
		}(), http.StatusCreated, "2"},
		{"unset, with another precondition: 409 as for a stored pod", func() Request {
			r := withRV("")
			r.DeleteOptions = &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: strP("7")}}
			return r
		}(), http.StatusConflict, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := deepCopyReq(tt.req)
			d, err := Decide(tt.req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantCode, d.Status.Code, d.Status.Message)
			require.NotNil(t, d.Pod)
			assert.Equal(t, tt.wantRV, d.Pod.ResourceVersion)
			assert.Equal(t, in, tt.req, "input untouched")
		})
	}
	// The same answer as for the pod stored with version "1".
	a, err := Decide(withRV(""))
	require.NoError(t, err)
	b, err := Decide(withRV("1"))
	require.NoError(t, err)
	assert.Equal(t, b, a)
}

// A resourceVersion that is set but not a number keeps upstream's answer
// for such a stored pod (the evl oracle's case rv-nonnumeric): 500.
func TestDecideMalformedResourceVersionAsUpstream(t *testing.T) {
	pod := newPod("ns", "web-0").obj()
	pod.ResourceVersion = "abc"
	d, err := Decide(Request{Pod: pod, Now: testNow})
	require.NoError(t, err)
	assert.Equal(t, int32(http.StatusInternalServerError), d.Status.Code)
	assert.Equal(t, `Internal error occurred: resourceVersion "abc" is not a number`, d.Status.Message)
}
