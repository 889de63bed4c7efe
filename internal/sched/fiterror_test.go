package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFitErrorMessage: FitError.Error's text, PreFilter reasons first, else
// the histogram sorted as "COUNT REASON" strings.
func TestFitErrorMessage(t *testing.T) {
	tests := []struct {
		name      string
		numNodes  int
		preFilter []string
		histogram map[string]int
		want      string
	}{
		{name: "nothing", numNodes: 0, want: "0/0 nodes are available:"},
		{name: "prefilter wins over the histogram", numNodes: 3, preFilter: []string{"a", "b"}, histogram: map[string]int{"x": 1}, want: "0/3 nodes are available: a, b."},
		{name: "histogram sorted as strings", numNodes: 13, histogram: map[string]int{"Insufficient cpu": 2, "node(s) were unschedulable": 11}, want: "0/13 nodes are available: 11 node(s) were unschedulable, 2 Insufficient cpu."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FitErrorMessage(tt.numNodes, tt.preFilter, tt.histogram))
		})
	}
}
