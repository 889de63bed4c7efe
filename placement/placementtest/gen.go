package placementtest

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
)

// Family is a family of scheduling constraints.
type Family string

// The families Config.Family can restrict pods to.
const (
	AnyFamily       Family = ""
	Resources       Family = "resources"        // requests only
	NodeSelection   Family = "node-selection"   // node selectors, node affinity (by label or node name), tolerations
	Spread          Family = "spread"           // topology spread constraints
	InterPod        Family = "inter-pod"        // pod affinity and anti-affinity
	HostPorts       Family = "host-ports"       // host ports
	PriorityClasses Family = "priority-classes" // priorities (with Preemption, budgets)
)

// Config biases the generators. The zero value draws mixed, uncrowded
// clusters of 1 to 8 nodes.
type Config struct {
	// MaxNodes and MaxPods bound a cluster (0: 8 nodes, 24 bound pods);
	// MaxPending bounds its pending pods (0: 4).
	MaxNodes, MaxPods, MaxPending int
	// MinNodes is the fewest nodes of a cluster (0: 1), for properties of
	// code that splits the nodes (a parallel dry run); at most MaxNodes.
	MinNodes int
	// Crowded draws small nodes and many pods, so that most nodes are full.
	Crowded bool
	// Preemption draws spread-out priorities and budgets, so that pending
	// pods preempt.
	Preemption bool
	// Family restricts the pods' constraints to one family.
	Family Family
	// Overcommit binds pods without checking that they fit.
	Overcommit bool
	// Mixed draws the variety of a hand-written generator: with AnyFamily
	// a pod's constraints come from several families at once (a node
	// selector with pod anti-affinity, a toleration and a host port...),
	// some pods request no cpu or no memory (so that the non-zero defaults
	// score them), node taints may be NoExecute, and one bound pod in five
	// is not Ready (budgets count it unhealthy).
	Mixed bool
	// Owners gives pods controllers: one pod in five is a DaemonSet's,
	// and a cluster's pending pods are in part replicas of a few
	// ReplicaSets (identical but for name and UID, so that equivalence
	// groups form).
	Owners bool
	// Releases draws what kube-scheduler's releases (placement.Versions)
	// treat differently: nodes declaring features (status.declaredFeatures,
	// RestartAllContainersFeature among them) or room for 3 pods only,
	// image volumes, pod-level cpu requests, bound pods resized in place
	// (status.resources, status.allocatedResources), and pods with a
	// RestartAllContainers restart rule (which need the declared feature
	// from v1.36).
	Releases bool
	// Extended gives nodes 0 to 2 of each of ExtendedResources and pods
	// requests (and equal limits) of 0 to 2 of each, so that
	// NodeResourcesFit's shortfalls come in many combinations.
	Extended bool
	// Selectors draws the selectors of spread constraints and pod
	// (anti-)affinity terms in every form: nil, empty, matchLabels, and
	// matchExpressions with In, NotIn, Exists and DoesNotExist over app
	// and tier; pods sometimes lack the app label or carry a tier label
	// (Tiers), and get up to two spread constraints or affinity terms.
	Selectors bool
}

// RestartAllContainersFeature is the node feature a pod with a
// RestartAllContainers restart rule needs (Config.Releases).
const RestartAllContainersFeature = "RestartAllContainersOnContainerExits"

func (c Config) maxNodes() int { return orDefault(c.MaxNodes, 8) }
func (c Config) maxPods() int  { return orDefault(c.MaxPods, 24) }
func (c Config) maxPending() int {
	return orDefault(c.MaxPending, 4)
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// The pools. Small, so that values collide.
var (
	// Zones are the values of topology.kubernetes.io/zone.
	Zones = []string{"zone-a", "zone-b", "zone-c"}
	// Apps are the values of the app label pods carry.
	Apps = []string{"web", "db", "cache"}
	// Namespaces are the pods' namespaces.
	Namespaces = []string{"default", "team-a"}
	// DiskTypes are the values of the disk node label.
	DiskTypes = []string{"ssd", "hdd"}
	// TaintKeys are the keys of node taints.
	TaintKeys = []string{"dedicated", "gpu"}
	// Images are the container images.
	Images = []string{"registry.example/app:1", "registry.example/app:2"}
	// Tiers are the values of the tier label (Config.Selectors).
	Tiers = []string{"front", "back"}
	// ExtendedResources are the extended resources of Config.Extended.
	ExtendedResources = []corev1.ResourceName{"example.com/a", "example.com/b", "example.com/c"}
	// Priorities are the priority classes' values.
	Priorities = map[string]int32{"low": 10, "mid": 100, "high": 1000}
)

const (
	zoneKey     = corev1.LabelTopologyZone
	hostnameKey = corev1.LabelHostname
)

func qty(s string) resource.Quantity { return resource.MustParse(s) }

// NodeOf generates a node named name: zone, disk label, allocatable cpu,
// memory and pods, sometimes a taint, an image, or cordoned.
func NodeOf(cfg Config, name string) *rapid.Generator[*corev1.Node] {
	return rapid.Custom(func(t *rapid.T) *corev1.Node {
		cpus := []string{"2", "4", "8"}
		if cfg.Crowded {
			cpus = []string{"1", "2"}
		}
		n := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{
				hostnameKey: name,
				zoneKey:     rapid.SampledFrom(Zones).Draw(t, "zone"),
				"disk":      rapid.SampledFrom(DiskTypes).Draw(t, "disk"),
			}},
			Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    qty(rapid.SampledFrom(cpus).Draw(t, "cpu")),
				corev1.ResourceMemory: qty(rapid.SampledFrom([]string{"4Gi", "8Gi", "16Gi"}).Draw(t, "memory")),
				corev1.ResourcePods:   qty("110"),
			}},
		}
		if cfg.Extended {
			for _, r := range ExtendedResources {
				if q := rapid.IntRange(0, 2).Draw(t, "extended capacity"); q > 0 {
					n.Status.Allocatable[r] = *resource.NewQuantity(int64(q), resource.DecimalSI)
				}
			}
			n.Status.Capacity = n.Status.Allocatable.DeepCopy()
		}
		if cfg.Releases {
			if rapid.IntRange(0, 2).Draw(t, "room for 3") == 0 {
				n.Status.Allocatable[corev1.ResourcePods] = qty("3")
			}
			switch rapid.IntRange(0, 2).Draw(t, "declared") {
			case 0:
				n.Status.DeclaredFeatures = []string{RestartAllContainersFeature}
			case 1:
				n.Status.DeclaredFeatures = []string{}
			}
		}
		n.Status.Capacity = n.Status.Allocatable.DeepCopy()
		if rapid.IntRange(0, 4).Draw(t, "tainted") == 0 {
			effects := []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule}
			if cfg.Mixed {
				effects = append(effects, corev1.TaintEffectNoExecute)
			}
			n.Spec.Taints = []corev1.Taint{{Key: rapid.SampledFrom(TaintKeys).Draw(t, "taint"),
				Effect: rapid.SampledFrom(effects).Draw(t, "effect")}}
		}
		if rapid.IntRange(0, 9).Draw(t, "cordoned") == 0 {
			n.Spec.Unschedulable = true
		}
		if rapid.Bool().Draw(t, "image") {
			n.Status.Images = []corev1.ContainerImage{{Names: []string{rapid.SampledFrom(Images).Draw(t, "image name")},
				SizeBytes: rapid.Int64Range(50<<20, 900<<20).Draw(t, "size")}}
			if cfg.Releases && rapid.Bool().Draw(t, "both images") {
				n.Status.Images = []corev1.ContainerImage{{Names: []string{Images[0]}, SizeBytes: rapid.Int64Range(50<<20, 900<<20).Draw(t, "size")},
					{Names: []string{Images[1]}, SizeBytes: rapid.Int64Range(50<<20, 900<<20).Draw(t, "size")}}
			}
		}
		return n
	})
}

// PodOf generates an unbound pod named name: the app label, cpu and memory
// requests (sometimes limits only, an init container or a sidecar), and
// constraints of cfg.Family. Its priority is one of Priorities' classes
// (spec.priorityClassName and the admitted spec.priority).
func PodOf(cfg Config, name string) *rapid.Generator[*corev1.Pod] {
	return rapid.Custom(func(t *rapid.T) *corev1.Pod {
		ns := rapid.SampledFrom(Namespaces).Draw(t, "namespace")
		app := rapid.SampledFrom(Apps).Draw(t, "app")
		cpus := []string{"100m", "250m", "500m", "1"}
		if cfg.Crowded {
			cpus = []string{"250m", "500m", "1"}
		}
		c := corev1.Container{Name: "main", Image: rapid.SampledFrom(Images).Draw(t, "image"),
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU:    qty(rapid.SampledFrom(cpus).Draw(t, "cpu")),
				corev1.ResourceMemory: qty(rapid.SampledFrom([]string{"128Mi", "512Mi", "1Gi"}).Draw(t, "memory")),
			}}}
		if cfg.Mixed {
			// Best-effort in cpu, memory or both.
			switch rapid.IntRange(0, 4).Draw(t, "requests") {
			case 0:
				delete(c.Resources.Requests, corev1.ResourceCPU)
			case 1:
				delete(c.Resources.Requests, corev1.ResourceMemory)
			case 2:
				c.Resources.Requests = nil
			}
		}
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + ns + "-" + name),
				Labels: map[string]string{"app": app}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{c}, SchedulerName: corev1.DefaultSchedulerName},
		}
		if rapid.IntRange(0, 5).Draw(t, "sidecar") == 0 {
			always := corev1.ContainerRestartPolicyAlways
			p.Spec.InitContainers = []corev1.Container{{Name: "proxy", Image: Images[0], RestartPolicy: &always,
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: qty("50m")}}}}
		}
		class := "mid"
		if cfg.Preemption || cfg.Family == PriorityClasses {
			class = rapid.SampledFrom([]string{"low", "mid", "high"}).Draw(t, "class")
		}
		prio := Priorities[class]
		p.Spec.PriorityClassName, p.Spec.Priority = class, &prio
		policy := corev1.PreemptLowerPriority
		p.Spec.PreemptionPolicy = &policy

		if cfg.Selectors {
			if rapid.IntRange(0, 3).Draw(t, "without app") == 0 {
				delete(p.Labels, "app")
			}
			if rapid.Bool().Draw(t, "with tier") {
				p.Labels["tier"] = rapid.SampledFrom(Tiers).Draw(t, "tier")
			}
		}
		if cfg.Owners && rapid.IntRange(0, 4).Draw(t, "daemonset") == 0 {
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds",
				UID: types.UID("uid-" + ns + "-ds"), Controller: ptrTo(true)}}
		}
		if cfg.Extended {
			main := &p.Spec.Containers[0].Resources
			for _, r := range ExtendedResources {
				if q := rapid.IntRange(0, 2).Draw(t, "extended request"); q > 0 {
					if main.Requests == nil {
						main.Requests = corev1.ResourceList{}
					}
					if main.Limits == nil {
						main.Limits = corev1.ResourceList{}
					}
					main.Requests[r] = *resource.NewQuantity(int64(q), resource.DecimalSI)
					main.Limits[r] = *resource.NewQuantity(int64(q), resource.DecimalSI)
				}
			}
		}
		if cfg.Releases {
			releases(t, p)
		}
		families := []Family{cfg.Family}
		switch {
		case cfg.Family != AnyFamily:
		case cfg.Mixed:
			families = nil
			for _, f := range []Family{NodeSelection, Spread, InterPod, HostPorts} {
				if rapid.IntRange(0, 2).Draw(t, "with "+string(f)) == 0 {
					families = append(families, f)
				}
			}
		default:
			families = []Family{rapid.SampledFrom([]Family{Resources, NodeSelection, Spread, InterPod, HostPorts}).Draw(t, "family")}
		}
		for _, f := range families {
			constrain(t, cfg, p, f, app)
		}
		return p
	})
}

// releases adds to p, sometimes, what the releases treat differently
// (Config.Releases): an image volume, a pod-level cpu request (at least
// its containers'), a RestartAllContainers rule.
func releases(t *rapid.T, p *corev1.Pod) {
	if rapid.IntRange(0, 2).Draw(t, "image volume") == 0 {
		p.Spec.Volumes = []corev1.Volume{{Name: "model", VolumeSource: corev1.VolumeSource{
			Image: &corev1.ImageVolumeSource{Reference: rapid.SampledFrom(Images).Draw(t, "volume image")}}}}
	}
	if rapid.IntRange(0, 3).Draw(t, "pod-level") == 0 {
		cpu := qty(rapid.SampledFrom([]string{"0", "500m", "1"}).Draw(t, "pod-level extra cpu"))
		for _, c := range append(append([]corev1.Container{}, p.Spec.Containers...), p.Spec.InitContainers...) {
			cpu.Add(c.Resources.Requests[corev1.ResourceCPU])
		}
		if !cpu.IsZero() {
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu}}
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "restart all") == 0 {
		never := corev1.ContainerRestartPolicyNever
		p.Spec.Containers[0].RestartPolicy = &never
		p.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{
			Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
		}}
	}
}

// anySelector draws a selector of any form over app and tier
// (Config.Selectors).
func anySelector(t *rapid.T, label string) *metav1.LabelSelector {
	expr := func(key string, op metav1.LabelSelectorOperator, values ...string) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: key, Operator: op, Values: values}}}
	}
	switch rapid.IntRange(0, 6).Draw(t, label) {
	case 0:
		return nil
	case 1:
		return &metav1.LabelSelector{}
	case 2:
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(Apps).Draw(t, label+" app")}}
	case 3:
		return expr("tier", metav1.LabelSelectorOpIn, rapid.SampledFrom(Tiers).Draw(t, label+" tier"))
	case 4:
		return expr("app", metav1.LabelSelectorOpNotIn, rapid.SampledFrom(Apps).Draw(t, label+" not app"))
	case 5:
		return expr("tier", metav1.LabelSelectorOpExists)
	default:
		return expr("app", metav1.LabelSelectorOpDoesNotExist)
	}
}

// NodeNameAffinity is a required node affinity that selects the named
// nodes by metadata.name: a term per name, as the API server allows one
// value per metadata.name requirement. NodeAffinity's PreFilter then
// restricts a pod to those nodes.
func NodeNameAffinity(names ...string) *corev1.NodeAffinity {
	sel := &corev1.NodeSelector{}
	for _, name := range names {
		sel.NodeSelectorTerms = append(sel.NodeSelectorTerms, corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{
			{Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{name}}}})
	}
	return &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}
}

// constrain adds constraints of family f to p (of app app), merging with
// the affinity p has.
func constrain(t *rapid.T, cfg Config, p *corev1.Pod, f Family, app string) {
	affinity := func() *corev1.Affinity {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &corev1.Affinity{}
		}
		return p.Spec.Affinity
	}
	switch f {
	case NodeSelection:
		switch rapid.IntRange(0, 3).Draw(t, "selection") {
		case 0:
			p.Spec.NodeSelector = map[string]string{"disk": rapid.SampledFrom(DiskTypes).Draw(t, "disk")}
		case 1:
			affinity().NodeAffinity = &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchExpressions: []corev1.NodeSelectorRequirement{{Key: zoneKey, Operator: corev1.NodeSelectorOpNotIn,
						Values: []string{rapid.SampledFrom(Zones).Draw(t, "not zone")}}}}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: rapid.Int32Range(1, 100).Draw(t, "weight"),
					Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk", Operator: corev1.NodeSelectorOpIn, Values: []string{"ssd"}}}}}},
			}
		case 3:
			// NodeAffinity's PreFilter restricts the nodes to these names
			// (a term per name: the API server allows one metadata.name
			// value per requirement); the name may be no node's.
			var names []string
			for range rapid.IntRange(1, 2).Draw(t, "named nodes") {
				names = append(names, fmt.Sprintf("node-%d", rapid.IntRange(0, 7).Draw(t, "named node")))
			}
			affinity().NodeAffinity = NodeNameAffinity(names...)
		}
		if rapid.Bool().Draw(t, "tolerates") {
			p.Spec.Tolerations = []corev1.Toleration{{Key: rapid.SampledFrom(TaintKeys).Draw(t, "toleration"), Operator: corev1.TolerationOpExists}}
		}
	case Spread:
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew:           rapid.Int32Range(1, 2).Draw(t, "max skew"),
			TopologyKey:       rapid.SampledFrom([]string{zoneKey, hostnameKey}).Draw(t, "spread key"),
			WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"),
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
		}}
		if cfg.Selectors {
			c := &p.Spec.TopologySpreadConstraints[0]
			c.LabelSelector = anySelector(t, "spread selector")
			if rapid.Bool().Draw(t, "second constraint") {
				other := zoneKey
				if c.TopologyKey == zoneKey {
					other = hostnameKey
				}
				p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
					MaxSkew: 1, TopologyKey: other, LabelSelector: anySelector(t, "second spread selector"),
					WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "second when")})
			}
		}
	case InterPod:
		term := corev1.PodAffinityTerm{TopologyKey: rapid.SampledFrom([]string{zoneKey, hostnameKey}).Draw(t, "affinity key"),
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(Apps).Draw(t, "affinity app")}}}
		if rapid.Bool().Draw(t, "all namespaces") {
			term.NamespaceSelector = &metav1.LabelSelector{}
		}
		terms := []corev1.PodAffinityTerm{term}
		if cfg.Selectors {
			terms[0].LabelSelector = anySelector(t, "term selector")
			if rapid.Bool().Draw(t, "second term") {
				terms = append(terms, corev1.PodAffinityTerm{TopologyKey: hostnameKey, LabelSelector: anySelector(t, "second term selector")})
			}
		}
		var weighted []corev1.WeightedPodAffinityTerm
		for _, term := range terms {
			weighted = append(weighted, corev1.WeightedPodAffinityTerm{Weight: 50, PodAffinityTerm: term})
		}
		a := affinity()
		switch rapid.IntRange(0, 3).Draw(t, "affinity kind") {
		case 0:
			a.PodAntiAffinity = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}
		case 1:
			a.PodAffinity = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}
		case 2:
			a.PodAntiAffinity = &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: weighted}
		default:
			a.PodAffinity = &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: weighted}
		}
	case HostPorts:
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080, HostPort: rapid.SampledFrom([]int32{80, 443}).Draw(t, "host port"),
			Protocol: corev1.ProtocolTCP}}
	}
}

// PDBOf generates a budget named name selecting one app in namespace ns,
// with minAvailable or maxUnavailable and a status allowing 0 to 2
// disruptions.
func PDBOf(name, ns string) *rapid.Generator[*policyv1.PodDisruptionBudget] {
	return rapid.Custom(func(t *rapid.T) *policyv1.PodDisruptionBudget {
		b := &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + ns + "-" + name), Generation: 1},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app": rapid.SampledFrom(Apps).Draw(t, "app")}}},
		}
		v := intstr.FromInt32(rapid.Int32Range(0, 2).Draw(t, "count"))
		if rapid.Bool().Draw(t, "min available") {
			b.Spec.MinAvailable = &v
		} else {
			b.Spec.MaxUnavailable = &v
		}
		b.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: rapid.Int32Range(0, 2).Draw(t, "allowed")}
		return b
	})
}

// BudgetValues are the minAvailable and maxUnavailable values
// EdgePDBOf draws: counts and percentages at the rounding edges.
var BudgetValues = []intstr.IntOrString{intstr.FromInt32(0), intstr.FromInt32(1), intstr.FromInt32(2), intstr.FromInt32(4),
	intstr.FromString("0%"), intstr.FromString("33%"), intstr.FromString("34%"), intstr.FromString("50%"), intstr.FromString("100%")}

// EdgePDBOf generates a budget as PDBOf does, for properties of the
// disruption arithmetic: its minAvailable or maxUnavailable (or neither)
// is one of BudgetValues, and it sometimes sets an
// unhealthyPodEvictionPolicy.
func EdgePDBOf(name, ns string) *rapid.Generator[*policyv1.PodDisruptionBudget] {
	return rapid.Custom(func(t *rapid.T) *policyv1.PodDisruptionBudget {
		b := PDBOf(name, ns).Draw(t, "budget")
		b.Spec.MinAvailable, b.Spec.MaxUnavailable = nil, nil
		v := rapid.SampledFrom(BudgetValues).Draw(t, "value")
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			b.Spec.MinAvailable = &v
		case 1:
			b.Spec.MaxUnavailable = &v
		}
		switch rapid.IntRange(0, 2).Draw(t, "unhealthy pod eviction policy") {
		case 1:
			b.Spec.UnhealthyPodEvictionPolicy = ptrTo(policyv1.IfHealthyBudget)
		case 2:
			b.Spec.UnhealthyPodEvictionPolicy = ptrTo(policyv1.AlwaysAllow)
		}
		return b
	})
}

// PriorityClassList returns the priority classes of Priorities, sorted by
// name ("mid" is the global default).
func PriorityClassList() []*schedulingv1.PriorityClass {
	var out []*schedulingv1.PriorityClass
	for _, name := range []string{"high", "low", "mid"} {
		out = append(out, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: Priorities[name],
			GlobalDefault: name == "mid"})
	}
	return out
}

// Cluster is a generated cluster: nodes, bound pods, budgets, priority
// classes and namespaces, and pods pending.
type Cluster struct {
	Nodes           []*corev1.Node
	Pods            []*corev1.Pod // bound
	PDBs            []*policyv1.PodDisruptionBudget
	PriorityClasses []*schedulingv1.PriorityClass
	Namespaces      []*corev1.Namespace
	Pending         []*corev1.Pod
}

// NodeNamed returns the cluster's node of that name.
func (c *Cluster) NodeNamed(name string) (*corev1.Node, bool) {
	for _, n := range c.Nodes {
		if n.Name == name {
			return n, true
		}
	}
	return nil, false
}

// SnapshotInput returns the cluster as placement.NewSnapshot's input.
func (c *Cluster) SnapshotInput() placement.SnapshotInput {
	return placement.SnapshotInput{Nodes: c.Nodes, Pods: c.Pods, PDBs: c.PDBs, Namespaces: c.Namespaces}
}

// ClusterOf generates a cluster: cfg.MinNodes (at least 1) to cfg.MaxNodes nodes, up to cfg.MaxPods
// bound pods (each on a node it fits, unless cfg.Overcommit; running and
// Ready, with cfg.Mixed one in five not Ready), budgets with
// cfg.Preemption, and 1 to cfg.MaxPending pending pods.
func ClusterOf(cfg Config) *rapid.Generator[*Cluster] {
	return rapid.Custom(func(t *rapid.T) *Cluster {
		c := &Cluster{PriorityClasses: PriorityClassList()}
		for _, ns := range Namespaces {
			c.Namespaces = append(c.Namespaces, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
				Labels: map[string]string{corev1.LabelMetadataName: ns}}})
		}
		nn := rapid.IntRange(min(max(cfg.MinNodes, 1), cfg.maxNodes()), cfg.maxNodes()).Draw(t, "nodes")
		for i := range nn {
			c.Nodes = append(c.Nodes, NodeOf(cfg, fmt.Sprintf("node-%d", i)).Draw(t, "node"))
		}
		lo := 0
		if cfg.Crowded {
			lo = min(cfg.maxPods(), 2*nn)
		}
		np := rapid.IntRange(lo, cfg.maxPods()).Draw(t, "bound pods")
		var snap *placement.Snapshot
		if !cfg.Overcommit {
			var err error
			if snap, _, err = placement.NewSnapshot(c.SnapshotInput()); err != nil {
				t.Fatalf("placementtest: generated nodes refused: %v", err)
			}
		}
		for i := range np {
			p := PodOf(cfg, fmt.Sprintf("bound-%d", i)).Draw(t, "bound pod")
			var node string
			if cfg.Overcommit {
				node = c.Nodes[rapid.IntRange(0, nn-1).Draw(t, "on")].Name
			} else {
				node = fittingNode(t, snap, p)
				if node == "" {
					continue // fits nowhere: not bound
				}
			}
			p.Spec.NodeName = node
			p.Status = corev1.PodStatus{Phase: corev1.PodRunning, StartTime: ptrTime(startOf(i)),
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
			if cfg.Mixed && rapid.IntRange(0, 4).Draw(t, "unready") == 0 {
				p.Status.Conditions[0].Status = corev1.ConditionFalse
			}
			if cfg.Releases && p.Spec.Resources != nil && rapid.Bool().Draw(t, "resized") {
				// Resized in place: down only, unless Overcommit (the pod
				// still fits where it is bound).
				sizes := []string{"100m", "250m"}
				if cfg.Overcommit {
					sizes = append(sizes, "1", "3")
				}
				cpu := qty(rapid.SampledFrom(sizes).Draw(t, "resized cpu"))
				if want := p.Spec.Resources.Requests[corev1.ResourceCPU]; !cfg.Overcommit && cpu.Cmp(want) > 0 {
					cpu = want
				}
				p.Status.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu}}
				p.Status.AllocatedResources = corev1.ResourceList{corev1.ResourceCPU: cpu}
			}
			c.Pods = append(c.Pods, p)
			if snap != nil {
				next, err := snap.WithPod(p)
				if err != nil {
					t.Fatalf("placementtest: binding %s: %v", p.Name, err)
				}
				snap = next
			}
		}
		if cfg.Preemption {
			for i, ns := range Namespaces {
				if rapid.Bool().Draw(t, "budget") {
					c.PDBs = append(c.PDBs, PDBOf(fmt.Sprintf("budget-%d", i), ns).Draw(t, "pdb"))
				}
			}
		}
		replicated := map[int]*corev1.Pod{}
		for i := range rapid.IntRange(1, cfg.maxPending()).Draw(t, "pending pods") {
			rs := -1
			if cfg.Owners {
				rs = rapid.IntRange(-1, 2).Draw(t, "replicaset")
			}
			if rs < 0 {
				c.Pending = append(c.Pending, PodOf(cfg, fmt.Sprintf("pending-%d", i)).Draw(t, "pending pod"))
				continue
			}
			tmpl, ok := replicated[rs]
			if !ok {
				name := fmt.Sprintf("rs-%d", rs)
				tmpl = PodOf(cfg, name).Draw(t, "replicaset template")
				tmpl.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name,
					UID: types.UID("uid-" + tmpl.Namespace + "-" + name), Controller: ptrTo(true)}}
				replicated[rs] = tmpl
			}
			p := tmpl.DeepCopy()
			p.Name = fmt.Sprintf("rs-%d-%d", rs, i)
			p.UID = types.UID("uid-" + p.Namespace + "-" + p.Name)
			c.Pending = append(c.Pending, p)
		}
		return c
	})
}

// fittingNode draws one of the nodes pod passes every filter on, "" when
// none.
func fittingNode(t *rapid.T, snap *placement.Snapshot, pod *corev1.Pod) string {
	c, err := placement.Compile(snap, pod, placement.Options{})
	if err != nil {
		t.Fatalf("placementtest: generated pod refused: %v", err)
	}
	var fits []string
	for _, n := range snap.Nodes() {
		if c.Fits(n) {
			fits = append(fits, n.Name())
		}
	}
	if len(fits) == 0 {
		return ""
	}
	return rapid.SampledFrom(fits).Draw(t, "on")
}

// startOf is the start time of the i-th bound pod: a minute apart from
// 2024-01-01, so that start-time tie-breaks are deterministic.
func startOf(i int) metav1.Time {
	return metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Minute * time.Duration(i)))
}

func ptrTime(t metav1.Time) *metav1.Time { return &t }

func ptrTo[T any](v T) *T { return &v }
