package scenario

import "github.com/schedkit/schedkit/internal/cluster"

// ClusterInput returns the scenario's cluster as a snapshot's input:
// pointers into s's slices (nodes, bound pods, namespaces, workloads,
// budgets), not copies. withoutPodLevelResize is
// cluster.Input.WithoutPodLevelResize.
func (s *Scenario) ClusterInput(withoutPodLevelResize bool) cluster.Input {
	return cluster.Input{
		Nodes:                  pointers(s.Nodes),
		Pods:                   pointers(s.Pods),
		Namespaces:             pointers(s.Namespaces),
		Services:               pointers(s.Services),
		ReplicaSets:            pointers(s.ReplicaSets),
		StatefulSets:           pointers(s.StatefulSets),
		ReplicationControllers: pointers(s.ReplicationControllers),
		PDBs:                   pointers(s.PDBs),
		WithoutPodLevelResize:  withoutPodLevelResize,
	}
}

func pointers[T any](items []T) []*T {
	if len(items) == 0 {
		return nil
	}
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}
