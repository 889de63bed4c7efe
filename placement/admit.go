package placement

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/taints"
)

// AdmitFailure is one reason the kubelet's general predicates reject a pod.
// Resource failures carry the resource and the amounts (cpu in millicores);
// the others carry the predicate (plugin) name.
type AdmitFailure struct {
	// Predicate is the plugin whose check failed ("NodeAffinity", ...), or
	// "" for a resource shortfall.
	Predicate string
	// Reason is the failure's GetReason text ("Insufficient cpu",
	// "node(s) didn't match Pod's node affinity/selector").
	Reason    string
	Resource  corev1.ResourceName
	Requested int64
	Used      int64
	Capacity  int64
}

// NodeAdmission is the kubelet's admission verdict (lifecycle.PodAdmitResult).
type NodeAdmission struct {
	Admit bool
	// Reason is the kubelet's machine-readable reason: OutOfcpu, OutOfmemory,
	// OutOfephemeral-storage, OutOfpods, OutOf<resource>, or the failing
	// predicate's name (NodeAffinity, NodeName, NodePorts, TaintToleration),
	// or one of the OS / supplemental-groups reasons.
	Reason string
	// Message is the kubelet's message for the first failure.
	Message string
	// Failures lists every failure in the kubelet's order.
	Failures []AdmitFailure
}

// Kubelet admission reasons (pkg/kubelet/lifecycle/predicate.go, v1.36).
const (
	reasonOSSelectorMismatch   = "PodOSSelectorNodeLabelDoesNotMatch"
	reasonOSNotSupported       = "PodOSNotSupported"
	reasonSupplementalGroups   = "SupplementalGroupsPolicyNotSupported"
	reasonFeatureUnsupported   = "PodFeatureUnsupported"
	reasonTaintNotMatch        = "node(s) had taints that the pod didn't tolerate" // tainttoleration.ErrReasonNotMatch
	configSourceAnnotation     = "kubernetes.io/config.source"
	defaultNodeOS              = "linux"
	insufficientResourcePrefix = "OutOf"
)

// AdmitToNode is the kubelet's predicate admission of a pod bound to
// pod.Spec.NodeName (predicateAdmitHandler.Admit and generalFilter,
// pkg/kubelet/lifecycle/predicate.go, v1.36): the OS checks, then
// scheduler.AdmissionCheck with every failure (NodeResourcesFit's resource
// checks on the node's other pods, required node affinity and nodeSelector,
// node name, host ports) and, for a pod that is not static, the node's
// NoExecute taints; then, when the predicates pass, the node declared
// features the pod needs (declaredFeaturesAdmitHandler, v1.36). NoSchedule
// taints and spec.unschedulable are not checked: the kubelet admits pods
// that bypassed the scheduler there. The critical-pod handler that evicts
// pods to admit a critical one is not modelled.
//
// The node's OS is its kubernetes.io/os label, "linux" when absent (the
// kubelet uses its own runtime.GOOS). Extended resources the node does not
// offer are ignored, as removeMissingExtendedResources does. The pod itself
// is left out of the node's pods when the snapshot already has it. An error
// means the node is unknown or the pod's selectors are invalid. Nothing is
// modified.
func AdmitToNode(s *Snapshot, pod *corev1.Pod) (NodeAdmission, error) {
	snap := internalOf(s)
	if snap == nil || pod == nil {
		return NodeAdmission{}, fmt.Errorf("%w: nil snapshot or pod", ErrInvalidPod)
	}
	n, ok := cluster.NodeOf(snap, pod.Spec.NodeName)
	if !ok {
		return NodeAdmission{}, fmt.Errorf("%w: pod %s/%s is bound to unknown node %q", ErrInvalidPod, pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	key := pod.Namespace + "/" + pod.Name
	if _, _, present := cluster.PodOf(snap, key); present {
		snap = snap.WithoutPods(key)
		n, _ = cluster.NodeOf(snap, pod.Spec.NodeName)
	}
	node := n.Node

	nodeOS := node.Labels[corev1.LabelOSStable]
	if nodeOS == "" {
		nodeOS = defaultNodeOS
	}
	if want, ok := pod.Labels[corev1.LabelOSStable]; ok && want != nodeOS {
		return NodeAdmission{Reason: reasonOSSelectorMismatch,
			Message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"}, nil
	}
	if pod.Spec.OS != nil && string(pod.Spec.OS.Name) != nodeOS {
		return NodeAdmission{Reason: reasonOSNotSupported, Message: "Failed to admit pod as the OS field doesn't match node OS"}, nil
	}
	if sc := pod.Spec.SecurityContext; sc != nil && sc.SupplementalGroupsPolicy != nil &&
		*sc.SupplementalGroupsPolicy == corev1.SupplementalGroupsPolicyStrict {
		supported := node.Status.Features != nil && node.Status.Features.SupplementalGroupsPolicy != nil &&
			*node.Status.Features.SupplementalGroupsPolicy
		if !supported {
			return NodeAdmission{Reason: reasonSupplementalGroups,
				Message: fmt.Sprintf("SupplementalGroupsPolicy=%s is not supported in this node", corev1.SupplementalGroupsPolicyStrict)}, nil
		}
	}

	// Compile the pod without its extended resources the node lacks; the
	// topology plugins play no part in admission.
	admitted := withoutMissingExtendedResources(pod, n)
	c, err := compileForAdmission(snap, admitted)
	if err != nil {
		return NodeAdmission{}, err
	}
	var failures []AdmitFailure
	failures = append(failures, c.resourceFailures(n)...)
	if !c.matchesRequiredAffinity(node) {
		failures = append(failures, AdmitFailure{Predicate: sched.NodeAffinity, Reason: reasonAffinity[0]})
	}
	if pod.Spec.NodeName != "" && pod.Spec.NodeName != n.Name {
		failures = append(failures, AdmitFailure{Predicate: sched.NodeName, Reason: reasonNodeName[0]})
	}
	if c.portsConflict(n.UsedPorts) {
		failures = append(failures, AdmitFailure{Predicate: sched.NodePorts, Reason: reasonPorts[0]})
	}
	if src, ok := pod.Annotations[configSourceAnnotation]; !ok || src == "api" {
		for i := range node.Spec.Taints {
			t := &node.Spec.Taints[i]
			if t.Effect == corev1.TaintEffectNoExecute && !taints.ToleratesAny(pod.Spec.Tolerations, t) {
				failures = append(failures, AdmitFailure{Predicate: sched.TaintToleration, Reason: reasonTaintNotMatch})
				break
			}
		}
	}
	if len(failures) == 0 {
		// The declared-features handler runs after the predicates
		// (declaredFeaturesAdmitHandler, pkg/kubelet/lifecycle/handlers.go).
		var missing []string
		for _, f := range requiredFeatures(pod) {
			if !hasFeatures(node.Status.DeclaredFeatures, []string{f}) {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			return NodeAdmission{Reason: reasonFeatureUnsupported,
				Message: "Pod requires node features that are not available: " + strings.Join(missing, ", ")}, nil
		}
		return NodeAdmission{Admit: true}, nil
	}
	f := failures[0]
	res := NodeAdmission{Failures: failures}
	if f.Predicate != "" {
		res.Reason = f.Predicate
		res.Message = fmt.Sprintf("Predicate %s failed: %s", f.Predicate, f.Reason)
	} else {
		res.Reason = insufficientResourcePrefix + string(f.Resource)
		res.Message = fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d",
			f.Resource, f.Requested, f.Used, f.Capacity)
	}
	return res, nil
}

// compileForAdmission compiles only what AdmissionCheck reads (no topology).
func compileForAdmission(snap *cluster.Snapshot, pod *corev1.Pod) (*Compiled, error) {
	c, err := compile(snap, pod, Options{}, true)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// withoutMissingExtendedResources is removeMissingExtendedResources: a copy
// of the pod whose containers no longer request extended resources the node
// does not list in its allocatable. The pod itself is returned when nothing
// is dropped.
func withoutMissingExtendedResources(pod *corev1.Pod, n *cluster.NodeInfo) *corev1.Pod {
	missing := func(c []corev1.Container) bool {
		for i := range c {
			for name := range c[i].Resources.Requests {
				if cluster.IsExtendedResourceName(name) {
					if _, ok := n.Allocatable.Scalar[name]; !ok {
						return true
					}
				}
			}
		}
		return false
	}
	if !missing(pod.Spec.Containers) && !missing(pod.Spec.InitContainers) {
		return pod
	}
	cp := pod.DeepCopy()
	for _, list := range [][]corev1.Container{cp.Spec.Containers, cp.Spec.InitContainers} {
		for i := range list {
			for name := range list[i].Resources.Requests {
				if cluster.IsExtendedResourceName(name) {
					if _, ok := n.Allocatable.Scalar[name]; !ok {
						delete(list[i].Resources.Requests, name)
					}
				}
			}
		}
	}
	return cp
}

// resourceFailures is fitsRequest with every shortfall's amounts.
func (c *Compiled) resourceFailures(n *cluster.NodeInfo) []AdmitFailure {
	var out []AdmitFailure
	if int64(len(n.Pods))+1 > n.Allocatable.AllowedPodNumber {
		out = append(out, AdmitFailure{Reason: "Too many pods", Resource: corev1.ResourcePods,
			Requested: 1, Used: int64(len(n.Pods)), Capacity: n.Allocatable.AllowedPodNumber})
	}
	r, a, q := &c.req, &n.Allocatable, &n.Requested
	if r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(r.Scalar) == 0 {
		return out
	}
	check := func(name corev1.ResourceName, want, alloc, used int64) {
		if want > 0 && want > alloc-used {
			out = append(out, AdmitFailure{Reason: "Insufficient " + string(name), Resource: name,
				Requested: want, Used: used, Capacity: alloc})
		}
	}
	check(corev1.ResourceCPU, r.MilliCPU, a.MilliCPU, q.MilliCPU)
	check(corev1.ResourceMemory, r.Memory, a.Memory, q.Memory)
	check(corev1.ResourceEphemeralStorage, r.EphemeralStorage, a.EphemeralStorage, q.EphemeralStorage)
	for _, name := range c.req.ScalarNames() {
		want := r.Scalar[name]
		if want != 0 && want > a.Scalar[name]-q.Scalar[name] {
			out = append(out, AdmitFailure{Reason: "Insufficient " + string(name), Resource: name,
				Requested: want, Used: q.Scalar[name], Capacity: a.Scalar[name]})
		}
	}
	return out
}
