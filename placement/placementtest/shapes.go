package placementtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Shapes are the workload shapes of kube-scheduler's scheduler_perf suite
// (test/integration/scheduler_perf, the pod templates named), which
// Shape generates: every bound and pending pod of one shape. The last two
// are not scheduler_perf's: "mixed"'s groups each draw their templates and
// requests, and "varied" is mixed with every pending pod a group of its
// own, with requests of its own, so that the queue's pods seldom share a
// spec (as in the oracle's generated mix, where a scheduling loop's memo
// finds few classes).
var Shapes = []string{
	"basic",                   // pod-default.yaml
	"anti-affinity",           // pod-with-pod-anti-affinity.yaml: required, hostname
	"affinity",                // pod-with-pod-affinity.yaml: required, zone
	"preferred-affinity",      // pod-with-preferred-pod-affinity.yaml: hostname
	"preferred-anti-affinity", // pod-with-preferred-pod-anti-affinity.yaml: hostname
	"node-affinity",           // pod-with-node-affinity.yaml: zone In [zone1, zone2]
	"spread",                  // pod-with-topology-spreading.yaml: zone, DoNotSchedule
	"preferred-spread",        // pod-with-preferred-topology-spreading.yaml: zone, ScheduleAnyway
	"preemption",              // pod-low-priority.yaml filling nodes, pod-high-priority.yaml pending
	"mixed",                   // each group one of the templates above but preemption, a third of them with a second, and its own requests
	"varied",                  // mixed, every pending pod a group of its own with its own requests
}

// mixedKinds are the templates a mixed shape's groups draw from: every
// shape's but preemption's (its priorities and sizes make a shape of their
// own), mixed and varied.
var mixedKinds = slices.DeleteFunc(slices.Clone(Shapes), func(s string) bool { return s == "preemption" || s == "mixed" || s == "varied" })

// Shape generates a scheduler_perf-shaped cluster, deterministically from
// seed: nodes like node-default.yaml (4 cpu, 32Gi, 110 pods, three zones),
// bound pods of the shape in groups of one label value (placed where
// their hard constraints and resources allow; a pod that fits nowhere is
// left out), and pending pods of the shape (of new and existing groups).
// Benchmarks compare with scheduler_perf's published throughput with it.
// An unknown shape is an error.
func Shape(name string, nodes, bound, pending int, seed uint64) (*Cluster, error) {
	known := false
	for _, s := range Shapes {
		known = known || s == name
	}
	if !known || nodes < 1 || bound < 0 || pending < 0 {
		return nil, fmt.Errorf("placementtest: unknown shape %q or negative size", name)
	}
	g := &shapeGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), shape: name, c: &Cluster{}}
	zones := []string{"zone1", "zone2", "zone3"}
	for i := range nodes {
		n := fmt.Sprintf("node-%05d", i)
		rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("32Gi"),
			corev1.ResourcePods: resource.MustParse("110")}
		g.c.Nodes = append(g.c.Nodes, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: n, UID: types.UID("node-" + n),
				Labels: map[string]string{hostnameKey: n, zoneKey: zones[i%3]}},
			Status: corev1.NodeStatus{Capacity: rl, Allocatable: rl.DeepCopy()},
		})
		g.left = append(g.left, nodeLeft{cpu: 4000, mem: 32 << 30, pods: 110, zone: i % 3, groups: map[int]bool{}})
	}
	for _, ns := range []string{"sched-0", "sched-1"} {
		g.c.Namespaces = append(g.c.Namespaces, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
			Labels: map[string]string{corev1.LabelMetadataName: ns}}})
	}
	if name == "preemption" {
		g.c.PriorityClasses = []*schedulingv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "high-priority"}, Value: 10}}
		perNode := max(1, (bound+nodes-1)/nodes)
		g.lowCPU = max(10, int64(3600/perNode/10*10))
	}
	groups := max(4, 2*((bound+nodes-1)/nodes)+2)
	for range groups {
		g.newGroup(false)
	}
	for i := range bound {
		grp := g.groups[g.r.IntN(len(g.groups))]
		if k := g.place(grp); k >= 0 {
			p := g.pod(grp, fmt.Sprintf("%s-b%d", grp.name, i))
			p.Spec.NodeName = g.c.Nodes[k].Name
			p.Status = corev1.PodStatus{Phase: corev1.PodRunning, StartTime: ptrTime(startOf(i))}
			g.c.Pods = append(g.c.Pods, p)
		}
	}
	for j := range pending {
		grp := g.groups[g.r.IntN(len(g.groups))]
		if g.r.IntN(4) == 0 || name == "preemption" || name == "varied" {
			grp = g.newGroup(true)
		}
		g.c.Pending = append(g.c.Pending, g.pod(grp, fmt.Sprintf("%s-p%d", grp.name, j)))
	}
	return g.c, nil
}

type nodeLeft struct {
	cpu, mem, pods int64
	zone           int
	groups         map[int]bool
}

type shapeGroup struct {
	idx      int
	kinds    []string // the templates of its pods: the shape's, or a mixed shape's draw
	name, ns string
	cpu      int64 // milli
	mem      int64
	zone     int // affinity: the zone of the group's pods (-1: none yet)
	high     bool
}

type shapeGen struct {
	r      *rand.Rand
	shape  string
	c      *Cluster
	left   []nodeLeft
	groups []*shapeGroup
	lowCPU int64
}

func (g *shapeGen) newGroup(pending bool) *shapeGroup {
	grp := &shapeGroup{idx: len(g.groups), name: fmt.Sprintf("group-%d", len(g.groups)), ns: "sched-0", cpu: 100, mem: 500 << 20, zone: -1}
	if pending || g.r.IntN(10) < 3 {
		grp.ns = "sched-1"
	}
	grp.kinds = []string{g.shape}
	switch g.shape {
	case "preemption":
		grp.cpu, grp.high = g.lowCPU, pending
		if pending {
			grp.cpu = 3000
		}
	case "mixed", "varied":
		grp.kinds = []string{mixedKinds[g.r.IntN(len(mixedKinds))]}
		if g.r.IntN(3) == 0 {
			if k := mixedKinds[g.r.IntN(len(mixedKinds))]; k != grp.kinds[0] && k != "basic" {
				grp.kinds = append(grp.kinds, k)
			}
		}
		grp.cpu = 50 * int64(1+g.r.IntN(8))
		grp.mem = int64(1+g.r.IntN(8)) << 27
		if g.shape == "varied" {
			// Requests in fine steps: few pods share a node-local spec.
			grp.cpu = 10 * int64(5+g.r.IntN(36))
			grp.mem = int64(4+g.r.IntN(61)) << 24
		}
	}
	g.groups = append(g.groups, grp)
	return grp
}

// place picks a node for a bound pod of grp that its hard constraints and
// resources allow (scanning from a random node), records it, and returns
// its index, -1 when none.
func (g *shapeGen) place(grp *shapeGroup) int {
	n := len(g.left)
	start := g.r.IntN(n)
	for d := range n {
		k := (start + d) % n
		l := &g.left[k]
		if l.pods < 1 || l.cpu < grp.cpu || l.mem < grp.mem {
			continue
		}
		if !g.allows(grp, l) {
			continue
		}
		l.pods--
		l.cpu -= grp.cpu
		l.mem -= grp.mem
		l.groups[grp.idx] = true
		if grp.zone < 0 {
			grp.zone = l.zone
		}
		return k
	}
	return -1
}

// allows reports whether the hard constraints of grp's templates let one
// more of its pods onto the node l.
func (g *shapeGen) allows(grp *shapeGroup, l *nodeLeft) bool {
	for _, kind := range grp.kinds {
		switch kind {
		case "anti-affinity":
			if l.groups[grp.idx] {
				return false
			}
		case "affinity":
			if grp.zone >= 0 && l.zone != grp.zone {
				return false
			}
		case "node-affinity":
			if l.zone == 2 {
				return false
			}
		}
	}
	return true
}

func (g *shapeGen) pod(grp *shapeGroup, name string) *corev1.Pod {
	rl := corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(grp.cpu, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(grp.mem, resource.BinarySI)}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: grp.ns, UID: types.UID("pod-" + grp.ns + "-" + name),
			Labels:            map[string]string{"color": grp.name},
			CreationTimestamp: metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))},
		Spec: corev1.PodSpec{SchedulerName: corev1.DefaultSchedulerName, Containers: []corev1.Container{{Name: "pause",
			Image: "registry.k8s.io/pause:3.10.1", Ports: []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{Limits: rl, Requests: rl.DeepCopy()}}}},
	}
	prio := int32(0)
	if grp.high {
		prio = 10
		p.Spec.PriorityClassName = "high-priority"
	}
	p.Spec.Priority = &prio
	policy := corev1.PreemptLowerPriority
	p.Spec.PreemptionPolicy = &policy
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"color": grp.name}}
	term := func(key string) corev1.PodAffinityTerm {
		return corev1.PodAffinityTerm{LabelSelector: sel, TopologyKey: key, Namespaces: []string{"sched-1", "sched-0"}}
	}
	aff := func() *corev1.Affinity {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &corev1.Affinity{}
		}
		return p.Spec.Affinity
	}
	podAff := func() *corev1.PodAffinity {
		if a := aff(); a.PodAffinity == nil {
			a.PodAffinity = &corev1.PodAffinity{}
		}
		return p.Spec.Affinity.PodAffinity
	}
	podAnti := func() *corev1.PodAntiAffinity {
		if a := aff(); a.PodAntiAffinity == nil {
			a.PodAntiAffinity = &corev1.PodAntiAffinity{}
		}
		return p.Spec.Affinity.PodAntiAffinity
	}
	for _, kind := range grp.kinds {
		switch kind {
		case "anti-affinity":
			a := podAnti()
			a.RequiredDuringSchedulingIgnoredDuringExecution = append(a.RequiredDuringSchedulingIgnoredDuringExecution, term(hostnameKey))
		case "affinity":
			a := podAff()
			a.RequiredDuringSchedulingIgnoredDuringExecution = append(a.RequiredDuringSchedulingIgnoredDuringExecution, term(zoneKey))
		case "preferred-affinity":
			a := podAff()
			a.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PreferredDuringSchedulingIgnoredDuringExecution, corev1.WeightedPodAffinityTerm{Weight: 1, PodAffinityTerm: term(hostnameKey)})
		case "preferred-anti-affinity":
			a := podAnti()
			a.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PreferredDuringSchedulingIgnoredDuringExecution, corev1.WeightedPodAffinityTerm{Weight: 1, PodAffinityTerm: term(hostnameKey)})
		case "node-affinity":
			aff().NodeAffinity = &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: zoneKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"zone1", "zone2"}}}}}}}
		case "spread", "preferred-spread":
			when := corev1.DoNotSchedule
			if kind == "preferred-spread" {
				when = corev1.ScheduleAnyway
			}
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints,
				corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: zoneKey, WhenUnsatisfiable: when, LabelSelector: sel})
		case "preemption":
			if !grp.high {
				zero := int64(0)
				p.Spec.TerminationGracePeriodSeconds = &zero
			}
		}
	}
	return p
}
