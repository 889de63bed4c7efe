package preemption

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schedkit/schedkit/internal/sched"
)

func TestNodeStatuses(t *testing.T) {
	fit := sched.Status{Code: sched.Unschedulable, Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}
	taint := sched.Status{Code: sched.UnschedulableAndUnresolvable, Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint"}}
	s := NodeStatuses{nodes: []string{"a", "b", "c"}, statuses: []sched.Status{fit, taint, fit}}

	assert.Equal(t, 3, s.Len())
	assert.Equal(t, NodeStatus{Node: "b", Status: taint}, s.At(1))
	for _, tc := range []struct {
		node string
		want sched.Status
		ok   bool
	}{
		{"a", fit, true}, {"b", taint, true}, {"c", fit, true},
		{"", sched.Status{}, false}, {"bb", sched.Status{}, false}, {"d", sched.Status{}, false},
	} {
		got, ok := s.Get(tc.node)
		assert.Equal(t, tc.ok, ok, tc.node)
		assert.Equal(t, tc.want, got, tc.node)
	}

	var seen []string
	for node, st := range s.All() {
		seen = append(seen, node+"="+st.Plugin)
		if node == "b" {
			break // All stops when the loop does
		}
	}
	assert.Equal(t, []string{"a=NodeResourcesFit", "b=TaintToleration"}, seen)

	var zero NodeStatuses
	assert.Zero(t, zero.Len())
	_, ok := zero.Get("a")
	assert.False(t, ok)
	for range zero.All() {
		t.Fatal("the zero value holds no node")
	}
}
