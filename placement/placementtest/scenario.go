package placementtest

import (
	"encoding/json"
	"io"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// scenarioFile is the input format of examples/simulate
// (examples/simulate's package documentation).
type scenarioFile struct {
	Nodes           []*corev1.Node                  `json:"nodes"`
	Pods            []*corev1.Pod                   `json:"pods"`
	Namespaces      []*corev1.Namespace             `json:"namespaces,omitempty"`
	PDBs            []*policyv1.PodDisruptionBudget `json:"pdbs,omitempty"`
	PriorityClasses []*schedulingv1.PriorityClass   `json:"priorityClasses,omitempty"`
	Pending         []*corev1.Pod                   `json:"pending"`
}

// WriteScenario writes the cluster as a scenario file (indented JSON) that
// `go run ./examples/simulate -in FILE` reads: print a counterexample
// rapid found and ask the scheduler about it.
func (c *Cluster) WriteScenario(w io.Writer) error {
	f := scenarioFile{Nodes: c.Nodes, Pods: c.Pods, Namespaces: c.Namespaces, PDBs: c.PDBs,
		PriorityClasses: c.PriorityClasses, Pending: c.Pending}
	if f.Nodes == nil {
		f.Nodes = []*corev1.Node{}
	}
	if f.Pods == nil {
		f.Pods = []*corev1.Pod{}
	}
	if f.Pending == nil {
		f.Pending = []*corev1.Pod{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}
