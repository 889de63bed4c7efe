package placement

import (
	corev1 "k8s.io/api/core/v1"
)

// NodeDeclaredFeatures (pkg/scheduler/framework/plugins/nodedeclaredfeatures,
// v1.36 only): the Filter rejects a node that does not declare every
// feature the pod needs (status.declaredFeatures). filter.go dispatches
// (localCode).

// reasonFeatures is the Filter's reason.
var reasonFeatures = []string{"node(s) didn't match Pod's required features"}

// hasFeatures reports whether every required feature is declared by the node.
func hasFeatures(declared, required []string) bool {
	for _, r := range required {
		found := false
		for _, d := range declared {
			if d == r {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// requiredFeatures is InferForPodScheduling of the v1.36 node declared
// features registry (k8s.io/component-helpers/nodedeclaredfeatures), in the
// registry's name order: a RestartAllContainers restart-rule action needs
// RestartAllContainersOnContainerExits; hostNetwork with hostUsers=false needs
// UserNamespacesHostNetworkSupport. The other registered features are never
// inferred for scheduling.
func requiredFeatures(pod *corev1.Pod) []string {
	var out []string
	if needsRestartAllContainers(pod) {
		out = append(out, "RestartAllContainersOnContainerExits")
	}
	if pod.Spec.HostNetwork && pod.Spec.HostUsers != nil && !*pod.Spec.HostUsers {
		out = append(out, "UserNamespacesHostNetworkSupport")
	}
	return out
}
