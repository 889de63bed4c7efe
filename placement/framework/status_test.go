package framework

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCodes mirrors the framework's Code names and the IsRejection /
// IsSuccess-or-Skip split (k8s.io/kube-scheduler/framework, v0.36).
func TestCodes(t *testing.T) {
	tests := []struct {
		code      Code
		name      string
		rejection bool
		passes    bool
	}{
		{Success, "Success", false, true},
		{Unschedulable, "Unschedulable", true, false},
		{UnschedulableAndUnresolvable, "UnschedulableAndUnresolvable", true, false},
		{Error, "Error", false, false},
		{Skip, "Skip", false, true},
		{Code(42), "Unknown", false, false},
		{Code(-1), "Unknown", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.name, tt.code.String())
			assert.Equal(t, tt.rejection, tt.code.IsRejection())
			assert.Equal(t, tt.passes, tt.code.Passes())
			assert.Equal(t, tt.passes, Status{Code: tt.code}.OK())
		})
	}
}

func TestStatusString(t *testing.T) {
	assert.Equal(t, "Success", Status{}.String())
	assert.Equal(t, "Unschedulable (NodeResourcesFit): Insufficient cpu, Insufficient memory",
		Status{Code: Unschedulable, Plugin: NodeResourcesFit, Reasons: []string{"Insufficient cpu", "Insufficient memory"}}.String())
}

func TestStatusClone(t *testing.T) {
	s := Status{Code: Unschedulable, Reasons: []string{"a"}}
	c := s.Clone()
	c.Reasons[0] = "b"
	assert.Equal(t, "a", s.Reasons[0], "a clone shares no reasons with its original")
}
