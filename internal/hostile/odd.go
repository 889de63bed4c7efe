package hostile

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Case is one structurally odd object, named for a table test.
type Case[T any] struct {
	Name string
	Obj  T
}

// ManyLabels is the size of the label maps of the "10,000 labels" cases.
const ManyLabels = 10_000

func manyLabels() map[string]string {
	l := make(map[string]string, ManyLabels)
	for i := range ManyLabels {
		l[fmt.Sprintf("k%d.example.com/l%d", i%7, i)] = fmt.Sprint(i % 3)
	}
	l["app"] = "web"
	return l
}

var huge = resource.MustParse("1e18")

// Node returns an ordinary node: 4 cpu, 8Gi, zone-a.
func Node(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, UID: k8stypes.UID("uid-node-" + name),
		Labels: map[string]string{corev1.LabelHostname: name, corev1.LabelTopologyZone: "zone-a"}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"),
			corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}}}
}

// Pod returns an ordinary pod of app web requesting 100m cpu, bound to
// node unless it is "".
func Pod(name, node string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: k8stypes.UID("uid-pod-" + name), ResourceVersion: "1",
		Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "nginx",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
}

// OddPods returns new structurally odd pods, bound to node unless it is "".
func OddPods(node string) []Case[*corev1.Pod] {
	with := func(name string, f func(p *corev1.Pod)) Case[*corev1.Pod] {
		p := Pod("odd", node)
		f(p)
		return Case[*corev1.Pod]{name, p}
	}
	yes := true
	zero := int32(0)
	ts := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return []Case[*corev1.Pod]{
		{"zero pod", &corev1.Pod{Spec: corev1.PodSpec{NodeName: node}}},
		with("empty name and namespace", func(p *corev1.Pod) { p.Name, p.Namespace = "", "" }),
		with("nil maps and nil containers", func(p *corev1.Pod) { p.Labels, p.Annotations, p.Spec.Containers = nil, nil, nil }),
		with("nil resource maps", func(p *corev1.Pod) { p.Spec.Containers[0].Resources = corev1.ResourceRequirements{} }),
		with("1e18 cpu, memory and an extended resource", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: huge, corev1.ResourceMemory: huge,
				corev1.ResourceEphemeralStorage: huge, "example.com/gpu": huge}
			p.Spec.Containers[0].Resources.Limits = p.Spec.Containers[0].Resources.Requests.DeepCopy()
		}),
		with("1e18 overhead and pod-level resources", func(p *corev1.Pod) {
			p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: huge}
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: huge, corev1.ResourceMemory: huge}}
		}),
		with("negative cpu request", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("-1")
		}),
		with("10,000 labels", func(p *corev1.Pod) { p.Labels = manyLabels() }),
		with("owner references in a cycle", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{
				{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: &yes},
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: &yes},
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid"}}
		}),
		with("owner reference with nil controller and empty kind", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{{}}
		}),
		with("nil pointers inside affinity", func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{}}},
				PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{}},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{}}},
				PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{}}},
			}
		}),
		with("empty affinity structs", func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}, PodAffinity: &corev1.PodAffinity{}, PodAntiAffinity: &corev1.PodAntiAffinity{}}
		}),
		with("empty selectors everywhere", func(p *corev1.Pod) {
			term := corev1.PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{}, NamespaceSelector: &metav1.LabelSelector{}}
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}}
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
				WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{}}}
			p.Spec.NodeSelector = map[string]string{}
		}),
		with("invalid selector operator", func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "", Operator: "Bogus"}}}}}}}
		}),
		with("spread constraint with nil selector, zero skew, empty key", func(p *corev1.Pod) {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MinDomains: &zero}, {MaxSkew: 1, TopologyKey: "zone"}}
		}),
		with("100 identical spread constraints", func(p *corev1.Pod) {
			for range 100 {
				p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{MaxSkew: 1,
					TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{}})
			}
		}),
		with("odd tolerations and gates", func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{}, {Operator: corev1.TolerationOpExists, Value: "v"}, {Key: "k", Operator: "Bogus"}}
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{}}
		}),
		with("odd ports", func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{}, {HostPort: -1}, {HostPort: 80, Protocol: "Bogus"}}
		}),
		with("odd init containers", func(p *corev1.Pod) {
			always := corev1.ContainerRestartPolicyAlways
			p.Spec.InitContainers = []corev1.Container{{}, {Name: "side", RestartPolicy: &always, Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: huge}}}}
		}),
		with("unknown priority class, nil priority", func(p *corev1.Pod) {
			p.Spec.PriorityClassName, p.Spec.Priority = "no-such-class", nil
		}),
		with("extreme priority and policies", func(p *corev1.Pod) {
			prio, policy := int32(-2147483648), corev1.PreemptionPolicy("Bogus")
			p.Spec.Priority, p.Spec.PreemptionPolicy = &prio, &policy
		}),
		with("terminating without a grace period", func(p *corev1.Pod) {
			p.DeletionTimestamp = &ts
			p.Finalizers = []string{""}
		}),
		with("statuses that match no container", func(p *corev1.Pod) {
			p.Status.Phase = "Bogus"
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{}, {Name: "ghost", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{}}}}
			p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "c"}}
			p.Status.Conditions = []corev1.PodCondition{{}, {Type: corev1.PodReady}}
			p.Status.StartTime = &metav1.Time{}
		}),
		with("odd volumes", func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{}, {Name: "e", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &huge}}},
				{Name: "i", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{}}}}
		}),
		with("odd grace period", func(p *corev1.Pod) {
			g := int64(-1)
			p.Spec.TerminationGracePeriodSeconds = &g
			p.DeletionGracePeriodSeconds = &g
		}),
	}
}

// OddNodes returns new structurally odd nodes named name (some named
// otherwise, as the case says).
func OddNodes(name string) []Case[*corev1.Node] {
	with := func(label string, f func(n *corev1.Node)) Case[*corev1.Node] {
		n := Node(name)
		f(n)
		return Case[*corev1.Node]{label, n}
	}
	return []Case[*corev1.Node]{
		{"zero node but its name", &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}},
		with("nil maps", func(n *corev1.Node) { n.Labels, n.Status.Allocatable, n.Status.Capacity = nil, nil, nil }),
		with("1e18 allocatable", func(n *corev1.Node) {
			n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: huge, corev1.ResourceMemory: huge, corev1.ResourcePods: huge,
				corev1.ResourceEphemeralStorage: huge, "example.com/gpu": huge}
		}),
		with("negative allocatable", func(n *corev1.Node) {
			n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1"), corev1.ResourcePods: resource.MustParse("-5")}
		}),
		with("10,000 labels", func(n *corev1.Node) { n.Labels = manyLabels(); n.Labels[corev1.LabelHostname] = name }),
		with("odd taints", func(n *corev1.Node) {
			n.Spec.Taints = []corev1.Taint{{}, {Key: "k", Effect: "Bogus"}, {Key: "k", Effect: corev1.TaintEffectNoExecute, TimeAdded: &metav1.Time{}}}
		}),
		with("odd images", func(n *corev1.Node) {
			n.Status.Images = []corev1.ContainerImage{{}, {Names: []string{""}, SizeBytes: -1}, {Names: []string{"nginx"}, SizeBytes: 1 << 62}}
		}),
		with("odd conditions and features", func(n *corev1.Node) {
			n.Status.Conditions = []corev1.NodeCondition{{}, {Type: corev1.NodeReady, Status: "Bogus"}}
			n.Status.DeclaredFeatures = []string{"", "x"}
		}),
		with("owner references in a cycle", func(n *corev1.Node) {
			n.OwnerReferences = []metav1.OwnerReference{{Kind: "Node", Name: name, UID: n.UID}}
		}),
	}
}

// OddPDBs returns new structurally odd budgets in namespace default.
func OddPDBs() []Case[*policyv1.PodDisruptionBudget] {
	with := func(label string, f func(b *policyv1.PodDisruptionBudget)) Case[*policyv1.PodDisruptionBudget] {
		one := intstr.FromInt32(1)
		b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "pdb", Namespace: "default", Generation: 1},
			Spec:   policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
			Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1}}
		f(b)
		return Case[*policyv1.PodDisruptionBudget]{label, b}
	}
	pct, neg := intstr.FromString("abc%"), intstr.FromInt32(-3)
	return []Case[*policyv1.PodDisruptionBudget]{
		{"zero budget", &policyv1.PodDisruptionBudget{}},
		with("nil selector", func(b *policyv1.PodDisruptionBudget) { b.Spec.Selector = nil }),
		with("empty selector", func(b *policyv1.PodDisruptionBudget) { b.Spec.Selector = &metav1.LabelSelector{} }),
		with("invalid selector", func(b *policyv1.PodDisruptionBudget) {
			b.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "", Operator: "Bogus"}}}
		}),
		with("both minAvailable and maxUnavailable, malformed", func(b *policyv1.PodDisruptionBudget) { b.Spec.MaxUnavailable = &pct; b.Spec.MinAvailable = &neg }),
		with("absurd status", func(b *policyv1.PodDisruptionBudget) {
			b.Status = policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: -5, CurrentHealthy: 1 << 30, ObservedGeneration: 99,
				DisruptedPods: map[string]metav1.Time{"": {}, "odd": {}}}
		}),
		with("empty name and namespace", func(b *policyv1.PodDisruptionBudget) { b.Name, b.Namespace = "", "" }),
		with("bogus eviction policy", func(b *policyv1.PodDisruptionBudget) {
			p := policyv1.UnhealthyPodEvictionPolicyType("Bogus")
			b.Spec.UnhealthyPodEvictionPolicy = &p
		}),
	}
}

// OddPriorityClasses returns new structurally odd priority classes.
func OddPriorityClasses() []Case[*schedulingv1.PriorityClass] {
	policy := corev1.PreemptionPolicy("Bogus")
	return []Case[*schedulingv1.PriorityClass]{
		{"zero class", &schedulingv1.PriorityClass{}},
		{"absurd value", &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "huge"}, Value: 2147483647}},
		{"bogus policy", &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "bogus"}, PreemptionPolicy: &policy}},
		{"system name", &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "system-node-critical"}, Value: 1}},
	}
}
