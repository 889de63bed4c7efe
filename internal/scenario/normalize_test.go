package scenario

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func pod(name string, mutate ...func(*corev1.Pod)) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "app:1"}}
	for _, m := range mutate {
		m(&p)
	}
	return p
}

func rl(pairs ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		out[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return out
}

// quantities renders a resource list as strings so that assert.Equal does
// not depend on Quantity's cached internal form.
func quantities(l corev1.ResourceList) map[string]string {
	if l == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// normalizePending normalizes a scenario holding one pending pod and
// returns it with the warnings.
func normalizePending(t *testing.T, p corev1.Pod, classes ...schedulingv1.PriorityClass) (*corev1.Pod, []string) {
	t.Helper()
	n, warnings, err := Normalize(&Scenario{Pending: []corev1.Pod{p}, PriorityClasses: classes})
	require.NoError(t, err)
	require.Len(t, n.Pending, 1)
	return &n.Pending[0], warnings
}

// TestDefaultPodResources mirrors SetDefaults_Pod's request defaulting,
// defaultPodRequests, defaultHugePagePodLimits and SetDefaults_ResourceList
// (pkg/apis/core/v1/defaults.go, v1.36).
func TestDefaultPodResources(t *testing.T) {
	tests := []struct {
		name          string
		pod           corev1.Pod
		wantContainer map[string]string // requests of the first container
		wantInit      map[string]string // requests of the first init container
		wantPodReqs   map[string]string // spec.resources.requests
		wantPodLims   map[string]string // spec.resources.limits
	}{
		{
			name: "SetDefaults_Pod: requests default to limits where only limits are set",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.Containers[0].Resources = corev1.ResourceRequirements{Limits: rl("cpu", "1", "memory", "1Gi"), Requests: rl("cpu", "200m")}
			}),
			wantContainer: map[string]string{"cpu": "200m", "memory": "1Gi"},
		},
		{
			name: "SetDefaults_Pod: init containers too",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.InitContainers = []corev1.Container{{Name: "i", Resources: corev1.ResourceRequirements{Limits: rl("memory", "64Mi")}}}
			}),
			wantInit: map[string]string{"memory": "64Mi"},
		},
		{
			name: "SetDefaults_ResourceList: quantities round up to milli precision, after defaulting",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.Containers[0].Resources = corev1.ResourceRequirements{Limits: rl("cpu", "0.0001")}
			}),
			wantContainer: map[string]string{"cpu": "1m"},
		},
		{
			name: "defaultPodRequests: pod-level requests default to the containers' aggregate",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.Containers[0].Resources.Requests = rl("cpu", "300m")
				p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "200m")}})
				p.Spec.InitContainers = []corev1.Container{{Name: "i", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "800m")}}}
				p.Spec.Resources = &corev1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")}
			}),
			wantContainer: map[string]string{"cpu": "300m"},
			wantInit:      map[string]string{"cpu": "800m"},
			// cpu: max(300m+200m, 800m); memory: no container asks, so the limit.
			wantPodReqs: map[string]string{"cpu": "800m", "memory": "1Gi"},
			wantPodLims: map[string]string{"cpu": "2", "memory": "1Gi"},
		},
		{
			name: "defaultPodRequests: sidecars add to the sum and to later init containers",
			pod: pod("p", func(p *corev1.Pod) {
				always := corev1.ContainerRestartPolicyAlways
				p.Spec.Containers[0].Resources.Requests = rl("cpu", "100m")
				p.Spec.InitContainers = []corev1.Container{
					{Name: "side", RestartPolicy: &always, Resources: corev1.ResourceRequirements{Requests: rl("cpu", "500m")}},
					{Name: "init", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "700m")}},
				}
				p.Spec.Resources = &corev1.ResourceRequirements{Limits: rl("cpu", "4")}
			}),
			wantContainer: map[string]string{"cpu": "100m"},
			wantInit:      map[string]string{"cpu": "500m"},
			// max(100m+500m, 500m+700m)
			wantPodReqs: map[string]string{"cpu": "1200m"},
			wantPodLims: map[string]string{"cpu": "4"},
		},
		{
			name: "defaultPodRequests: nothing without pod-level limits",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.Containers[0].Resources.Requests = rl("cpu", "100m")
				p.Spec.Resources = &corev1.ResourceRequirements{Requests: rl("memory", "1Gi")}
			}),
			wantContainer: map[string]string{"cpu": "100m"},
			wantPodReqs:   map[string]string{"memory": "1Gi"},
		},
		{
			name: "defaultHugePagePodLimits: pod-level hugepage limits default to the containers' aggregate",
			pod: pod("p", func(p *corev1.Pod) {
				p.Spec.Containers[0].Resources.Limits = rl("hugepages-2Mi", "4Mi")
				p.Spec.Resources = &corev1.ResourceRequirements{Limits: rl("memory", "1Gi")}
			}),
			wantContainer: map[string]string{"hugepages-2Mi": "4Mi"},
			wantPodReqs:   map[string]string{"memory": "1Gi", "hugepages-2Mi": "4Mi"},
			wantPodLims:   map[string]string{"memory": "1Gi", "hugepages-2Mi": "4Mi"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := normalizePending(t, tt.pod)
			if tt.wantContainer != nil {
				assert.Equal(t, tt.wantContainer, quantities(got.Spec.Containers[0].Resources.Requests))
			}
			if tt.wantInit != nil {
				assert.Equal(t, tt.wantInit, quantities(got.Spec.InitContainers[0].Resources.Requests))
			}
			if tt.wantPodReqs != nil || tt.wantPodLims != nil {
				require.NotNil(t, got.Spec.Resources)
				assert.Equal(t, tt.wantPodReqs, quantities(got.Spec.Resources.Requests))
				assert.Equal(t, tt.wantPodLims, quantities(got.Spec.Resources.Limits))
			}
		})
	}
}

// TestDefaultPodSpec mirrors SetDefaults_PodSpec, SetDefaults_Container, the
// generated port protocol default and defaultHostNetworkPorts.
func TestDefaultPodSpec(t *testing.T) {
	p := pod("p", func(p *corev1.Pod) {
		p.Spec.HostNetwork = true
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080}, {ContainerPort: 53, HostPort: 5353, Protocol: corev1.ProtocolUDP}}
		p.Spec.InitContainers = []corev1.Container{{Name: "i", Image: "busybox", Ports: []corev1.ContainerPort{{ContainerPort: 9000}}}}
	})
	got, _ := normalizePending(t, p)
	assert.Equal(t, []corev1.ContainerPort{
		{ContainerPort: 8080, HostPort: 8080, Protocol: corev1.ProtocolTCP},
		{ContainerPort: 53, HostPort: 5353, Protocol: corev1.ProtocolUDP},
	}, got.Spec.Containers[0].Ports)
	assert.Equal(t, []corev1.ContainerPort{{ContainerPort: 9000, HostPort: 9000, Protocol: corev1.ProtocolTCP}}, got.Spec.InitContainers[0].Ports)
	assert.Equal(t, corev1.RestartPolicyAlways, got.Spec.RestartPolicy)
	assert.Equal(t, corev1.DNSClusterFirst, got.Spec.DNSPolicy)
	assert.Equal(t, corev1.DefaultSchedulerName, got.Spec.SchedulerName)
	assert.Equal(t, int64(30), *got.Spec.TerminationGracePeriodSeconds)
	assert.Equal(t, corev1.PullIfNotPresent, got.Spec.Containers[0].ImagePullPolicy, "tagged image")
	assert.Equal(t, corev1.PullAlways, got.Spec.InitContainers[0].ImagePullPolicy, "untagged image means :latest")

	// Without hostNetwork, ports only get their protocol.
	q := pod("q", func(p *corev1.Pod) {
		p.Spec.RestartPolicy = corev1.RestartPolicyNever
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080}}
	})
	got, _ = normalizePending(t, q)
	assert.Equal(t, []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}, got.Spec.Containers[0].Ports)
	assert.Equal(t, corev1.RestartPolicyNever, got.Spec.RestartPolicy, "an explicit value is kept")
}

// TestNormalizeObjects covers SetObjectDefaults_Node, _Namespace,
// SetDefaults_ReplicationController and the scenario conventions for
// namespaces and uids.
func TestNormalizeObjects(t *testing.T) {
	in := &Scenario{
		Nodes: []corev1.Node{
			{ObjectMeta: metav1.ObjectMeta{Name: "capacity-only"}, Status: corev1.NodeStatus{Capacity: rl("cpu", "4", "memory", "8Gi")}},
			{ObjectMeta: metav1.ObjectMeta{Name: "both"}, Status: corev1.NodeStatus{Capacity: rl("cpu", "4"), Allocatable: rl("cpu", "3500m")}},
			{ObjectMeta: metav1.ObjectMeta{Name: "empty-allocatable"}, Status: corev1.NodeStatus{Capacity: rl("cpu", "4"), Allocatable: corev1.ResourceList{}}},
		},
		Namespaces: []corev1.Namespace{
			{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "team-b", Labels: map[string]string{"tier": "gold", corev1.LabelMetadataName: "wrong"}}},
		},
		Pods: []corev1.Pod{pod("bound", func(p *corev1.Pod) { p.Spec.NodeName = "both" })},
		Pending: []corev1.Pod{
			pod("p"),
			pod("q", func(p *corev1.Pod) { p.Namespace = "team-a"; p.UID = "given" }),
		},
		ReplicationControllers: []corev1.ReplicationController{{
			ObjectMeta: metav1.ObjectMeta{Name: "rc"},
			Spec:       corev1.ReplicationControllerSpec{Template: &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}}}},
		}},
		PDBs: []policyv1.PodDisruptionBudget{{ObjectMeta: metav1.ObjectMeta{Name: "b"}}},
	}
	n, warnings, err := Normalize(in)
	require.NoError(t, err)
	assert.Empty(t, warnings)

	assert.Equal(t, map[string]string{"cpu": "4", "memory": "8Gi"}, quantities(n.Nodes[0].Status.Allocatable), "allocatable defaults to capacity")
	assert.Equal(t, map[string]string{"cpu": "3500m"}, quantities(n.Nodes[1].Status.Allocatable), "given allocatable is kept")
	assert.Equal(t, map[string]string{}, quantities(n.Nodes[2].Status.Allocatable), "only a missing allocatable is defaulted, not an empty one")

	assert.Equal(t, map[string]string{corev1.LabelMetadataName: "team-a"}, n.Namespaces[0].Labels)
	assert.Equal(t, map[string]string{"tier": "gold", corev1.LabelMetadataName: "team-b"}, n.Namespaces[1].Labels)

	assert.Equal(t, "default", n.Pods[0].Namespace)
	assert.Equal(t, "uid-default-bound", string(n.Pods[0].UID))
	assert.Equal(t, "default", n.Pending[0].Namespace)
	assert.Equal(t, "uid-default-p", string(n.Pending[0].UID))
	assert.Equal(t, "given", string(n.Pending[1].UID))
	assert.Equal(t, "default", n.PDBs[0].Namespace)

	assert.Equal(t, map[string]string{"app": "x"}, n.ReplicationControllers[0].Spec.Selector, "an RC's selector defaults to its template labels")
	assert.Equal(t, map[string]string{"app": "x"}, n.ReplicationControllers[0].Labels)
	assert.Equal(t, int32(1), *n.ReplicationControllers[0].Spec.Replicas)
}

// TestNormalizeDoesNotModifyInput: Normalize works on a deep copy.
func TestNormalizeDoesNotModifyInput(t *testing.T) {
	data, err := os.ReadFile(tinyCase)
	require.NoError(t, err)
	s, _, err := Decode(data)
	require.NoError(t, err)
	s.Pending = append(s.Pending, pod("extra", func(p *corev1.Pod) {
		p.Labels = map[string]string{"app": "a"}
		p.Spec.Containers[0].Resources.Limits = rl("cpu", "1")
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{}, MatchLabelKeys: []string{"app"}, TopologyKey: "zone",
		}}}}
		p.Status.NominatedNodeName = "n1"
	}))
	before := s.DeepCopy()
	n, _, err := Normalize(s)
	require.NoError(t, err)
	assert.Equal(t, before, s)
	assert.NotEqual(t, before, n)
}

// TestPriorityAdmission mirrors the Priority admission plugin's admit
// (plugin/pkg/admission/priority/admission.go), with the simulation's
// leniency: what admission would refuse becomes a warning.
func TestPriorityAdmission(t *testing.T) {
	never := corev1.PreemptNever
	lower := corev1.PreemptLowerPriority
	i32 := func(v int32) *int32 { return &v }
	class := func(name string, value int32, globalDefault bool, policy *corev1.PreemptionPolicy) schedulingv1.PriorityClass {
		return schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value, GlobalDefault: globalDefault, PreemptionPolicy: policy}
	}
	tests := []struct {
		name        string
		pod         corev1.Pod
		classes     []schedulingv1.PriorityClass
		want        int32
		wantPolicy  corev1.PreemptionPolicy
		wantWarning string
	}{
		{name: "no class, no default: 0", pod: pod("p"), want: 0, wantPolicy: lower},
		{name: "class value", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = "high" }),
			classes: []schedulingv1.PriorityClass{class("high", 1000, false, nil)}, want: 1000, wantPolicy: lower},
		{name: "preemptionPolicy copied from the class", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = "batch" }),
			classes: []schedulingv1.PriorityClass{class("batch", 10, false, &never)}, want: 10, wantPolicy: never},
		{name: "the pod's own preemptionPolicy is kept", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = "batch"; p.Spec.PreemptionPolicy = &lower }),
			classes: []schedulingv1.PriorityClass{class("batch", 10, false, &never)}, want: 10, wantPolicy: lower},
		{name: "globalDefault: the lowest value wins", pod: pod("p"),
			classes: []schedulingv1.PriorityClass{class("a", 50, true, nil), class("b", 20, true, &never), class("c", 5, false, nil)},
			want:    20, wantPolicy: never},
		{name: "built-in system-node-critical", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = SystemNodeCritical }),
			want: 2000001000, wantPolicy: lower},
		{name: "built-in system-cluster-critical", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = SystemClusterCritical }),
			want: 2000000000, wantPolicy: lower},
		{name: "an input class of a built-in name replaces it", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = SystemNodeCritical }),
			classes: []schedulingv1.PriorityClass{class(SystemNodeCritical, 7, false, nil)}, want: 7, wantPolicy: lower},
		{name: "unknown class: 0 with a warning", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = "nope" }),
			classes: []schedulingv1.PriorityClass{class("a", 50, true, nil)}, want: 0, wantPolicy: lower,
			wantWarning: `pending[0] (default/p): priorityClassName "nope" not found (admission would reject the pod); using priority 0`},
		{name: "spec.priority wins even against its class, with a warning", pod: pod("p", func(p *corev1.Pod) { p.Spec.PriorityClassName = "high"; p.Spec.Priority = i32(3) }),
			classes: []schedulingv1.PriorityClass{class("high", 1000, false, &never)}, want: 3, wantPolicy: never,
			wantWarning: `pending[0] (default/p): spec.priority 3 differs from the value 1000 of priority class "high" (admission would reject the pod); using spec.priority`},
		{name: "spec.priority without a class", pod: pod("p", func(p *corev1.Pod) { p.Spec.Priority = i32(-5) }),
			want: -5, wantPolicy: lower},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := normalizePending(t, tt.pod, tt.classes...)
			require.NotNil(t, got.Spec.Priority)
			assert.Equal(t, tt.want, *got.Spec.Priority)
			require.NotNil(t, got.Spec.PreemptionPolicy)
			assert.Equal(t, tt.wantPolicy, *got.Spec.PreemptionPolicy)
			if tt.wantWarning == "" {
				assert.Empty(t, warnings)
			} else {
				assert.Equal(t, []string{tt.wantWarning}, warnings)
			}
		})
	}
}

// TestMatchLabelKeys mirrors the pod strategy's mutatePodAffinity
// (applyMatchLabelKeysAndMismatchLabelKeys) and
// mutateTopologySpreadConstraints (pkg/registry/core/pod/strategy.go).
func TestMatchLabelKeys(t *testing.T) {
	labels := map[string]string{"app": "web", "version": "v2"}
	term := func(sel *metav1.LabelSelector, match, mismatch []string) corev1.PodAffinityTerm {
		return corev1.PodAffinityTerm{LabelSelector: sel, TopologyKey: "zone", MatchLabelKeys: match, MismatchLabelKeys: mismatch}
	}
	src := pod("p", func(p *corev1.Pod) {
		p.Labels = labels
		p.Spec.Affinity = &corev1.Affinity{
			PodAffinity: &corev1.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
					term(&metav1.LabelSelector{MatchLabels: map[string]string{"tier": "db"}}, []string{"version", "missing"}, []string{"app"}),
					term(nil, []string{"app"}, nil), // no selector: untouched
				},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
					{Weight: 5, PodAffinityTerm: term(&metav1.LabelSelector{}, []string{"app"}, nil)},
				},
			},
			PodAntiAffinity: &corev1.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
					term(&metav1.LabelSelector{}, nil, []string{"version"}),
				},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
					{Weight: 1, PodAffinityTerm: term(&metav1.LabelSelector{}, []string{"app"}, nil)},
				},
			},
		}
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"version"}},
			{MaxSkew: 1, TopologyKey: "host", WhenUnsatisfiable: corev1.ScheduleAnyway, MatchLabelKeys: []string{"version"}},
		}
	})
	got, _ := normalizePending(t, src)
	in := func(k, v string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{v}}
	}
	notIn := func(k, v string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpNotIn, Values: []string{v}}
	}
	a := got.Spec.Affinity
	assert.Equal(t, &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "db"},
		MatchExpressions: []metav1.LabelSelectorRequirement{in("version", "v2"), notIn("app", "web")}},
		a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector,
		"matchLabelKeys as In, then mismatchLabelKeys as NotIn; keys without a pod label add nothing")
	assert.Nil(t, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[1].LabelSelector)
	assert.Equal(t, []metav1.LabelSelectorRequirement{in("app", "web")},
		a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector.MatchExpressions)
	assert.Equal(t, []metav1.LabelSelectorRequirement{notIn("version", "v2")},
		a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions)
	assert.Equal(t, []metav1.LabelSelectorRequirement{in("app", "web")},
		a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector.MatchExpressions)
	assert.Equal(t, []string{"version", "missing"}, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].MatchLabelKeys,
		"the keys themselves stay, as the API server keeps them")
	assert.Equal(t, []metav1.LabelSelectorRequirement{in("version", "v2")},
		got.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions)
	assert.Nil(t, got.Spec.TopologySpreadConstraints[1].LabelSelector)
}

// TestPodStatusConventions: bound pods' start time and pending pods'
// nominated node.
func TestPodStatusConventions(t *testing.T) {
	created := metav1.NewTime(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))
	started := metav1.NewTime(time.Date(2024, 5, 1, 11, 0, 0, 0, time.UTC))
	in := &Scenario{
		Pods: []corev1.Pod{
			pod("fresh"),
			pod("created", func(p *corev1.Pod) { p.CreationTimestamp = created }),
			pod("started", func(p *corev1.Pod) { p.CreationTimestamp = created; p.Status.StartTime = &started }),
		},
		Pending: []corev1.Pod{pod("nominated", func(p *corev1.Pod) { p.Status.NominatedNodeName = "n7" })},
	}
	n, warnings, err := Normalize(in)
	require.NoError(t, err)
	assert.Equal(t, DefaultStartTime, n.Pods[0].Status.StartTime.Time.UTC())
	assert.Equal(t, created, *n.Pods[1].Status.StartTime)
	assert.Equal(t, started, *n.Pods[2].Status.StartTime)
	assert.Nil(t, n.Pending[0].Status.StartTime, "pending pods get no start time")
	assert.Empty(t, n.Pending[0].Status.NominatedNodeName)
	assert.Equal(t, []string{`pending[0] (default/nominated): status.nominatedNodeName "n7" ignored`}, warnings)
}

// TestNormalizeErrors: identities and selectors the API server would refuse
// are errors, all reported at once with object and field.
func TestNormalizeErrors(t *testing.T) {
	in := &Scenario{
		Nodes: []corev1.Node{
			{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "n2"}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "k", Effect: "Sometimes"}}}},
		},
		Namespaces:      []corev1.Namespace{{}},
		PriorityClasses: []schedulingv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, {ObjectMeta: metav1.ObjectMeta{Name: "x"}}},
		Pods:            []corev1.Pod{pod("web-1"), pod("")},
		Pending: []corev1.Pod{
			pod("web-1", func(p *corev1.Pod) { p.Namespace = "default" }),
			pod("bad", func(p *corev1.Pod) {
				bogus := corev1.NodeInclusionPolicy("Sometimes")
				p.Spec.Tolerations = []corev1.Toleration{
					{Key: "k", Operator: corev1.TolerationOpLt, Value: "3"},
					{Operator: corev1.TolerationOpEqual, Value: "v", Effect: "Never"},
					{Key: "k", Operator: corev1.TolerationOpExists, Value: "v"},
					{Operator: corev1.TolerationOpExists}, // tolerates everything: valid
				}
				p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
					NodeTaintsPolicy: &bogus,
					MaxSkew:          0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
					LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Like", Values: []string{"x"}}}},
				}}
				p.Spec.Affinity = &corev1.Affinity{
					NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
						MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn}},
						MatchFields:      []corev1.NodeSelectorRequirement{{Key: "metadata.uid", Operator: corev1.NodeSelectorOpIn, Values: []string{"u"}}},
					}}}},
					PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
						LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"bad key!": "v"}},
					}}},
				}
				p.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []corev1.PreferredSchedulingTerm{{Weight: 1, Preference: corev1.NodeSelectorTerm{
					MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Near", Values: []string{"a"}}},
				}}}
				p.Spec.Affinity.PodAffinity = &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: corev1.PodAffinityTerm{
					TopologyKey: "zone", NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"-bad": "v"}},
				}}}}
			}),
		},
		PDBs:        []policyv1.PodDisruptionBudget{{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns"}, Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpExists, Values: []string{"x"}}}}}}},
		ReplicaSets: []appsv1.ReplicaSet{{ObjectMeta: metav1.ObjectMeta{Name: "rs"}}},
	}
	n, _, err := Normalize(in)
	require.Error(t, err)
	assert.Nil(t, n)
	var list ErrorList
	require.ErrorAs(t, err, &list)
	got := make([]string, len(list))
	for i, e := range list {
		got[i] = e.Error()
	}
	assert.Equal(t, []string{
		`nodes[1] (n1): metadata.name: Duplicate value: same name as nodes[0]`,
		`nodes[2] (n2): spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"`,
		`namespaces[0]: metadata.name: Required value`,
		`priorityClasses[1] (x): metadata.name: Duplicate value: same name as priorityClasses[0]`,
		`pods[1]: metadata.name: Required value`,
		`pending[0] (default/web-1): metadata.name: Duplicate value: same namespace/name as pods[0]`,
		`pending[1] (default/bad): spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`,
		`pending[1] (default/bad): spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Unsupported value: "metadata.uid": supported values: "metadata.name"`,
		`pending[1] (default/bad): spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].operator: Unsupported value: "Near": supported values: "DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"`,
		`pending[1] (default/bad): spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchLabels.-bad: key: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		`pending[1] (default/bad): spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty`,
		`pending[1] (default/bad): spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels.bad key!: key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		"pending[1] (default/bad): spec.tolerations[0].operator: Unsupported value: \"Lt\": supported values: \"Equal\", \"Exists\"",
		"pending[1] (default/bad): spec.tolerations[1].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
		"pending[1] (default/bad): spec.tolerations[1].effect: Unsupported value: \"Never\": supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"",
		"pending[1] (default/bad): spec.tolerations[2].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
		`pending[1] (default/bad): spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero`,
		`pending[1] (default/bad): spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"`,
		`pending[1] (default/bad): spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].operator: Unsupported value: "Like": supported values: "DoesNotExist", "Exists", "In", "NotIn"`,
		`pdbs[0] (ns/b): spec.selector.matchExpressions[0]: values: Invalid value: ["x"]: values set must be empty for exists and does not exist`,
	}, got)
}

// Pods are prepared in parallel; their problems and warnings still come in
// input order, bound pods before pending ones, each pod's own in the
// order it meets them.
func TestNormalizeManyPodsReportsInOrder(t *testing.T) {
	in := &Scenario{}
	var wantErrs, wantWarnings []string
	for list, count := range []int{600, 300} {
		name := []string{"pods", "pending"}[list]
		for i := range count {
			p := pod(fmt.Sprintf("p-%d-%d", list, i))
			key := "default/" + p.Name
			where := fmt.Sprintf("%s[%d] (%s)", name, i, key)
			if i%7 == 3 { // same name as the pod before it
				p.Name = fmt.Sprintf("p-%d-%d", list, i-1)
				wantErrs = append(wantErrs, fmt.Sprintf("%s[%d] (default/%s): metadata.name: Duplicate value: same namespace/name as %s[%d]", name, i, p.Name, name, i-1))
			} else {
				if i%11 == 5 {
					p.Spec.PriorityClassName = "missing"
					wantWarnings = append(wantWarnings, where+`: priorityClassName "missing" not found (admission would reject the pod); using priority 0`)
				}
				if i%13 == 4 {
					p.Spec.Tolerations = []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpLt}}
					wantErrs = append(wantErrs, where+`: spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"`)
				}
				if list == 1 && i%17 == 2 {
					p.Status.NominatedNodeName = "n1"
					wantWarnings = append(wantWarnings, where+`: status.nominatedNodeName "n1" ignored`)
				}
			}
			if list == 0 {
				in.Pods = append(in.Pods, p)
			} else {
				in.Pending = append(in.Pending, p)
			}
		}
	}
	_, warnings, err := Normalize(in)
	var list ErrorList
	require.ErrorAs(t, err, &list)
	got := make([]string, len(list))
	for i, e := range list {
		got[i] = e.Error()
	}
	assert.Equal(t, wantErrs, got)
	assert.Equal(t, wantWarnings, warnings)
}
