package placement

import "github.com/schedkit/schedkit/internal/sched"

// Status is one plugin's verdict with upstream's reason texts, as
// kube-scheduler's framework.Status (v1.36) without error wrapping: Code,
// the Plugin's name and Reasons. A zero Status is Success. Reasons slices
// are often shared constants: never modify them. topology and preemption
// return the same type.
type Status = sched.Status

// Code is a plugin's verdict, in upstream's order of severity
// (framework.Code). Unschedulable means preemption may help;
// UnschedulableAndUnresolvable means it cannot.
type Code = sched.Code

// The status codes, as framework.Code names them.
const (
	Success                      = sched.Success
	Unschedulable                = sched.Unschedulable
	UnschedulableAndUnresolvable = sched.UnschedulableAndUnresolvable
	Error                        = sched.Error
	Skip                         = sched.Skip
)

// Plugin names as kube-scheduler registers them
// (pkg/scheduler/framework/plugins/names), the values of Status.Plugin.
const (
	SchedulingGates                 = sched.SchedulingGates
	PrioritySort                    = sched.PrioritySort
	NodeUnschedulable               = sched.NodeUnschedulable
	NodeName                        = sched.NodeName
	TaintToleration                 = sched.TaintToleration
	NodeAffinity                    = sched.NodeAffinity
	NodePorts                       = sched.NodePorts
	NodeResourcesFit                = sched.NodeResourcesFit
	PodTopologySpread               = sched.PodTopologySpread
	InterPodAffinity                = sched.InterPodAffinity
	NodeDeclaredFeatures            = sched.NodeDeclaredFeatures
	NodeResourcesBalancedAllocation = sched.NodeResourcesBalancedAllocation
	ImageLocality                   = sched.ImageLocality
	DefaultPreemption               = sched.DefaultPreemption
)

// MaxNodeScore is framework.MaxNodeScore: every normalized score lies in
// [0, MaxNodeScore].
const MaxNodeScore = sched.MaxNodeScore

// NumFilters is the number of Filter plugins of the profile, the length of
// Compiled.FilterEach's array ([NumFilters]Status).
const NumFilters = numFilters

// FilterPlugins returns the Filter plugins' names in the order upstream runs
// them, which is the order of Compiled.FilterEach's verdicts. The array is a
// copy.
func FilterPlugins() [NumFilters]string { return filterNames }
