package cluster

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// The functions below reimplement the part of kube-apiserver's v1 defaulting
// (k8s.io/kubernetes/pkg/apis/core/v1, defaults.go and
// zz_generated.defaults.go, v1.36) that can change a scheduling decision or
// that a reader of the normalized objects expects to see. They modify their
// argument, which is always a copy its caller owns (scenario.Normalize,
// StoredPod).

// DefaultPod mirrors SetObjectDefaults_Pod: SetDefaults_Pod, SetDefaults_PodSpec,
// the container defaults and SetDefaults_ResourceList, in that order (the
// order matters: requests are copied from limits before both are rounded).
// It changes p in place (callers pass a copy they own): what the API server
// has done to every pod that upstream's handlers, controllers and kubelet
// read.
func DefaultPod(p *corev1.Pod) {
	// SetDefaults_Pod: requests default to limits, per container.
	defaultRequestsFromLimits(p.Spec.Containers)
	defaultRequestsFromLimits(p.Spec.InitContainers)
	// PodLevelResources is on by default in v1.36: pod-level defaults come
	// after the container-level ones.
	defaultHugePagePodLimits(p)
	defaultPodRequests(p)
	if p.Spec.EnableServiceLinks == nil {
		v := corev1.DefaultEnableServiceLinks
		p.Spec.EnableServiceLinks = &v
	}
	if p.Spec.HostNetwork {
		defaultHostNetworkPorts(p.Spec.Containers)
		defaultHostNetworkPorts(p.Spec.InitContainers)
	}

	DefaultPodSpec(&p.Spec)
	// Status resources (read by the scheduler for bound pods when in-place
	// resize is in progress) are rounded too.
	for _, statuses := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses, p.Status.EphemeralContainerStatuses} {
		for i := range statuses {
			roundUpToMilli(statuses[i].AllocatedResources)
			if r := statuses[i].Resources; r != nil {
				roundUpToMilli(r.Limits)
				roundUpToMilli(r.Requests)
			}
		}
	}
	roundUpToMilli(p.Status.AllocatedResources)
	if r := p.Status.Resources; r != nil {
		roundUpToMilli(r.Limits)
		roundUpToMilli(r.Requests)
	}
}

// DefaultPodSpec mirrors the pod spec part of the generated defaults, which
// pod templates (of ReplicaSets, StatefulSets, ReplicationControllers) get
// too: SetDefaults_PodSpec, the container defaults and the rounding of
// quantities.
func DefaultPodSpec(spec *corev1.PodSpec) {
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		v := int64(corev1.DefaultTerminationGracePeriodSeconds)
		spec.TerminationGracePeriodSeconds = &v
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}

	// Per container: SetDefaults_Container, port protocols, quantities.
	for i := range spec.InitContainers {
		defaultContainer(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		defaultContainer(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		defaultContainer((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundUpToMilli(spec.Overhead)
	if spec.Resources != nil {
		roundUpToMilli(spec.Resources.Limits)
		roundUpToMilli(spec.Resources.Requests)
	}
}

// defaultRequestsFromLimits: where a container sets a limit but no request
// for a resource, the request is the limit (SetDefaults_Pod).
func defaultRequestsFromLimits(containers []corev1.Container) {
	for i := range containers {
		r := &containers[i].Resources
		if r.Limits == nil {
			continue
		}
		if r.Requests == nil {
			r.Requests = make(corev1.ResourceList, len(r.Limits))
		}
		for name, q := range r.Limits {
			if _, ok := r.Requests[name]; !ok {
				r.Requests[name] = q.DeepCopy()
			}
		}
	}
}

// defaultContainer mirrors SetDefaults_Container plus the generated port
// and resource defaults of one container.
func defaultContainer(c *corev1.Container) {
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = corev1.PullAlways
		} else {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for j := range c.Ports {
		if c.Ports[j].Protocol == "" {
			c.Ports[j].Protocol = corev1.ProtocolTCP
		}
	}
	roundUpToMilli(c.Resources.Limits)
	roundUpToMilli(c.Resources.Requests)
}

// imageTag returns the tag of an image reference as parsers.ParseImageName
// sees it: "latest" when there is neither tag nor digest, "" when there is
// only a digest.
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	tag := ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i+1:], "/") {
		tag = name[i+1:]
	}
	if tag == "" && !hasDigest {
		return "latest"
	}
	return tag
}

// defaultHostNetworkPorts: with host networking every container port is a
// host port (defaults.go defaultHostNetworkPorts).
func defaultHostNetworkPorts(containers []corev1.Container) {
	for i := range containers {
		for j := range containers[i].Ports {
			if containers[i].Ports[j].HostPort == 0 {
				containers[i].Ports[j].HostPort = containers[i].Ports[j].ContainerPort
			}
		}
	}
}

// roundUpToMilli mirrors SetDefaults_ResourceList: every quantity is rounded
// up to milli precision.
func roundUpToMilli(list corev1.ResourceList) {
	for name, q := range list {
		q.RoundUp(-3)
		list[name] = q
	}
}

// DefaultNode mirrors SetObjectDefaults_Node: allocatable is capacity when
// absent (nil, not merely empty), then both are rounded.
func DefaultNode(n *corev1.Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = make(corev1.ResourceList, len(n.Status.Capacity))
		for name, q := range n.Status.Capacity {
			n.Status.Allocatable[name] = q.DeepCopy()
		}
	}
	roundUpToMilli(n.Status.Capacity)
	roundUpToMilli(n.Status.Allocatable)
}

// DefaultNamespace mirrors SetObjectDefaults_Namespace.
func DefaultNamespace(ns *corev1.Namespace) {
	if ns.Name != "" {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[corev1.LabelMetadataName] = ns.Name
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = corev1.NamespaceActive
	}
}

// DefaultReplicationController mirrors SetDefaults_ReplicationController:
// the selector (which PodTopologySpread's default constraints read) and the
// labels default to the template's labels.
func DefaultReplicationController(rc *corev1.ReplicationController) {
	if rc.Spec.Replicas == nil { // declarative default (+default=1)
		one := int32(1)
		rc.Spec.Replicas = &one
	}
	if rc.Spec.Template == nil || rc.Spec.Template.Labels == nil {
		return
	}
	if len(rc.Spec.Selector) == 0 {
		rc.Spec.Selector = copyLabels(rc.Spec.Template.Labels)
	}
	if len(rc.Labels) == 0 {
		rc.Labels = copyLabels(rc.Spec.Template.Labels)
	}
}

func copyLabels(in map[string]string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// Pod-level resources (KEP-2837), defaults.go defaultHugePagePodLimits and
// defaultPodRequests.

func isHugePages(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// isOvercommitAllowed mirrors v1helper.IsOvercommitAllowed: native
// resources other than hugepages.
func isOvercommitAllowed(name corev1.ResourceName) bool {
	native := !strings.Contains(string(name), "/") || strings.Contains(string(name), corev1.ResourceDefaultNamespacePrefix)
	return native && !isHugePages(name)
}

// defaultHugePagePodLimits: when pod-level resources are partly set, the
// pod-level hugepage limit defaults to the containers' aggregated limit,
// unless a pod-level hugepage request is set.
func defaultHugePagePodLimits(p *corev1.Pod) {
	r := p.Spec.Resources
	if r == nil || (len(r.Limits) == 0 && len(r.Requests) == 0) {
		return
	}
	limits := r.Limits
	if limits == nil {
		limits = corev1.ResourceList{}
	}
	for name, q := range aggregateContainers(p, func(c *corev1.Container) corev1.ResourceList { return c.Resources.Limits }) {
		if !isHugePages(name) {
			continue
		}
		if _, ok := r.Requests[name]; ok {
			continue
		}
		if _, ok := limits[name]; !ok {
			limits[name] = q.DeepCopy()
		}
	}
	if len(limits) > 0 {
		r.Limits = limits
	}
}

// defaultPodRequests: when pod-level limits are set, pod-level requests
// default to the containers' aggregated requests (overcommittable supported
// resources), else to the pod-level limits.
func defaultPodRequests(p *corev1.Pod) {
	r := p.Spec.Resources
	if r == nil || len(r.Limits) == 0 {
		return
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = corev1.ResourceList{}
	}
	for name, q := range aggregateContainers(p, func(c *corev1.Container) corev1.ResourceList { return c.Resources.Requests }) {
		if _, ok := reqs[name]; !ok && isSupportedPodLevelResource(name) && isOvercommitAllowed(name) {
			reqs[name] = q.DeepCopy()
		}
	}
	for name, q := range r.Limits {
		if _, ok := reqs[name]; !ok && isSupportedPodLevelResource(name) {
			reqs[name] = q.DeepCopy()
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
}

// aggregateContainers mirrors resourcehelper.AggregateContainerRequests /
// AggregateContainerLimits without status resources: the sum over regular
// containers and sidecars, and the maximum with each init container's use
// (itself plus the sidecars started before it).
func aggregateContainers(p *corev1.Pod, of func(*corev1.Container) corev1.ResourceList) corev1.ResourceList {
	total := corev1.ResourceList{}
	for i := range p.Spec.Containers {
		AddResources(total, of(&p.Spec.Containers[i]))
	}
	sidecars := corev1.ResourceList{}
	initMax := corev1.ResourceList{}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		var use corev1.ResourceList
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			AddResources(total, of(c))
			AddResources(sidecars, of(c))
			use = sidecars
		} else {
			use = corev1.ResourceList{}
			AddResources(use, of(c))
			AddResources(use, sidecars)
		}
		MaxResources(initMax, use)
	}
	MaxResources(total, initMax)
	return total
}
