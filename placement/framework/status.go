package framework

import (
	"slices"
	"strings"
)

// Code is a plugin's verdict, in upstream's order of severity
// (framework.Code). Unschedulable means preemption may help;
// UnschedulableAndUnresolvable means it cannot.
type Code int8

// The status codes, as framework.Code names them. Upstream's Wait and
// Pending belong to the Permit and PreEnqueue phases of a running
// scheduler and do not occur here.
const (
	// Success means the plugin accepts the node (or pod).
	Success Code = iota
	// Unschedulable rejects the node, but removing pods (preemption) may help.
	Unschedulable
	// UnschedulableAndUnresolvable rejects the node and preemption cannot help.
	UnschedulableAndUnresolvable
	// Error means the plugin could not decide (invalid input reached it).
	Error
	// Skip means the plugin has nothing to check for this pod; it counts as Success.
	Skip
)

var codeNames = [...]string{"Success", "Unschedulable", "UnschedulableAndUnresolvable", "Error", "Skip"}

// String returns upstream's name of the code ("UnschedulableAndUnresolvable"),
// or "Unknown" for a value that is not one of the constants.
func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "Unknown"
}

// IsRejection reports whether the code rejects the node (Unschedulable or
// UnschedulableAndUnresolvable).
func (c Code) IsRejection() bool { return c == Unschedulable || c == UnschedulableAndUnresolvable }

// Passes reports whether the code lets the node through (Success or Skip).
func (c Code) Passes() bool { return c == Success || c == Skip }

// Status is one plugin's verdict with upstream's reason texts: Code, the
// Plugin's name ("" for a status no single plugin gave) and Reasons, in
// upstream's order. A zero Status is Success.
type Status struct {
	Code    Code
	Plugin  string
	Reasons []string
}

// OK reports whether the status passes (Success or Skip).
func (s Status) OK() bool { return s.Code.Passes() }

// Clone returns s with its own copy of Reasons.
func (s Status) Clone() Status {
	s.Reasons = slices.Clone(s.Reasons)
	return s
}

// String renders the status for logs and errors:
// "Unschedulable (NodeResourcesFit): Insufficient cpu".
func (s Status) String() string {
	var b strings.Builder
	b.WriteString(s.Code.String())
	if s.Plugin != "" {
		b.WriteString(" (" + s.Plugin + ")")
	}
	if len(s.Reasons) > 0 {
		b.WriteString(": " + strings.Join(s.Reasons, ", "))
	}
	return b.String()
}

// Plugin names as kube-scheduler registers them
// (pkg/scheduler/framework/plugins/names), the values of Status.Plugin.
const (
	SchedulingGates                 = "SchedulingGates"
	PrioritySort                    = "PrioritySort"
	NodeUnschedulable               = "NodeUnschedulable"
	NodeName                        = "NodeName"
	TaintToleration                 = "TaintToleration"
	NodeAffinity                    = "NodeAffinity"
	NodePorts                       = "NodePorts"
	NodeResourcesFit                = "NodeResourcesFit"
	PodTopologySpread               = "PodTopologySpread"
	InterPodAffinity                = "InterPodAffinity"
	NodeDeclaredFeatures            = "NodeDeclaredFeatures"
	NodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"
	ImageLocality                   = "ImageLocality"
	DefaultPreemption               = "DefaultPreemption"
)

// MaxNodeScore is framework.MaxNodeScore: every normalized score lies in
// [0, MaxNodeScore].
const MaxNodeScore int64 = 100
