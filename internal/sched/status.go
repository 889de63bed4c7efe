package sched

import "strings"

// Code is a plugin's verdict, in upstream's order of severity.
type Code int8

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

// String returns upstream's name of the code ("UnschedulableAndUnresolvable").
func (c Code) String() string {
	if int(c) < len(codeNames) && c >= 0 {
		return codeNames[c]
	}
	return "Unknown"
}

// IsRejection reports whether the code rejects the node.
func (c Code) IsRejection() bool { return c == Unschedulable || c == UnschedulableAndUnresolvable }

// Passes reports whether the code lets the node through (Success or Skip).
func (c Code) Passes() bool { return c == Success || c == Skip }

// Status is one plugin's verdict with upstream's reason texts. A zero Status
// is Success. Reasons slices are often shared constants: never modify them.
type Status struct {
	Code    Code
	Plugin  string
	Reasons []string
}

// OK reports whether the status passes (Success or Skip).
func (s Status) OK() bool { return s.Code.Passes() }

// String renders the status for logs and errors.
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

// Plugin names, as kube-scheduler registers them (pkg/scheduler/framework/plugins/names).
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

// FilterOrder is the default profile's Filter plugins in the order upstream runs them
// (the v1.36 default profile without the volume and DRA plugins).
var FilterOrder = []string{
	NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
	NodeResourcesFit, PodTopologySpread, InterPodAffinity, NodeDeclaredFeatures,
}

// ScoreOrder is the default profile's Score plugins in profile order.
var ScoreOrder = []string{
	TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread,
	InterPodAffinity, NodeResourcesBalancedAllocation, ImageLocality,
}

// MaxNodeScore is framework.MaxNodeScore: every normalized score lies in [0, MaxNodeScore].
const MaxNodeScore int64 = 100
