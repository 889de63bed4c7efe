package framework_test

import (
	"fmt"

	"github.com/schedkit/schedkit/placement/framework"
)

// A Status is a plugin's verdict: its code says whether the node passes and
// whether preemption may help.
func ExampleStatus() {
	st := framework.Status{Code: framework.Unschedulable, Plugin: framework.NodeResourcesFit,
		Reasons: []string{"Insufficient cpu"}}
	fmt.Println(st)
	fmt.Println("passes:", st.OK(), "preemption may help:", st.Code == framework.Unschedulable)
	// Output:
	// Unschedulable (NodeResourcesFit): Insufficient cpu
	// passes: false preemption may help: true
}
