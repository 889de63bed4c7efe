package placement

import (
	"encoding/json"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// Version property tests. Small pools so that selectors, ports and spreading
// collide; builders are local (prefix ver) so this file does not depend on
// other test files.

var (
	verZones   = []string{"z1", "z2", "z3"}
	verApps    = []string{"web", "db"}
	verCPUs    = []string{"0", "100m", "500m", "1", "3"}
	verMems    = []string{"0", "256Mi", "1Gi", "3Gi"}
	verPorts   = []int32{0, 0, 8080}
	verImages  = []string{"app:1", "model:v3", "weights"}
	verFeature = "RestartAllContainersOnContainerExits"
)

func verQuantity(s string) resource.Quantity { return resource.MustParse(s) }

func verGenNode(t *rapid.T, i int) *corev1.Node {
	name := fmt.Sprintf("n%d", i)
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			corev1.LabelHostname:     name,
			corev1.LabelTopologyZone: rapid.SampledFrom(verZones).Draw(t, "zone"),
		}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    verQuantity(rapid.SampledFrom([]string{"2", "4"}).Draw(t, "cpu")),
			corev1.ResourceMemory: verQuantity(rapid.SampledFrom([]string{"4Gi", "8Gi"}).Draw(t, "mem")),
			corev1.ResourcePods:   verQuantity(rapid.SampledFrom([]string{"3", "110"}).Draw(t, "pods")),
		}},
	}
	if rapid.IntRange(0, 3).Draw(t, "tainted") == 0 {
		n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Effect: rapid.SampledFrom([]corev1.TaintEffect{
			corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule}).Draw(t, "effect")}}
	}
	n.Spec.Unschedulable = rapid.IntRange(0, 7).Draw(t, "unschedulable") == 0
	switch rapid.IntRange(0, 2).Draw(t, "declared") {
	case 0:
		n.Status.DeclaredFeatures = []string{verFeature}
	case 1:
		n.Status.DeclaredFeatures = []string{}
	}
	for _, img := range verImages {
		if rapid.Bool().Draw(t, "has "+img) {
			n.Status.Images = append(n.Status.Images, corev1.ContainerImage{
				Names: []string{img}, SizeBytes: rapid.Int64Range(0, 1<<30).Draw(t, "size")})
		}
	}
	return n
}

// verGenPod draws a pod. With versionFeatures it may also use what the
// releases treat differently: a RestartAllContainers rule (a declared node
// feature, v1.36) and, for a bound pod, a pod-level resize in its status.
func verGenPod(t *rapid.T, name string, bound, versionFeatures bool) *corev1.Pod {
	app := rapid.SampledFrom(verApps).Draw(t, "app")
	c := corev1.Container{Name: "c", Image: rapid.SampledFrom(verImages).Draw(t, "image"),
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU:    verQuantity(rapid.SampledFrom(verCPUs).Draw(t, "reqcpu")),
			corev1.ResourceMemory: verQuantity(rapid.SampledFrom(verMems).Draw(t, "reqmem")),
		}}}
	if port := rapid.SampledFrom(verPorts).Draw(t, "port"); port > 0 {
		c.Ports = []corev1.ContainerPort{{ContainerPort: port, HostPort: port}}
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-default-" + name),
			Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{c}},
	}
	if rapid.IntRange(0, 2).Draw(t, "volume") == 0 {
		p.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{
			Image: &corev1.ImageVolumeSource{Reference: rapid.SampledFrom(verImages).Draw(t, "volimage")}}}}
	}
	if rapid.IntRange(0, 3).Draw(t, "podlevel") == 0 {
		p.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: verQuantity(rapid.SampledFrom(verCPUs[1:]).Draw(t, "podcpu"))}}
		if bound && versionFeatures && rapid.Bool().Draw(t, "resized") {
			cpu := verQuantity(rapid.SampledFrom(verCPUs).Draw(t, "statuscpu"))
			p.Status.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu}}
			p.Status.AllocatedResources = corev1.ResourceList{corev1.ResourceCPU: cpu}
		}
	}
	if versionFeatures && !bound && rapid.Bool().Draw(t, "restartAll") {
		never := corev1.ContainerRestartPolicyNever
		p.Spec.Containers[0].RestartPolicy = &never
		p.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{
			Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
		}}
	}
	if bound {
		return p
	}
	if rapid.IntRange(0, 2).Draw(t, "selector") == 0 {
		p.Spec.NodeSelector = map[string]string{corev1.LabelTopologyZone: rapid.SampledFrom(verZones).Draw(t, "selzone")}
	}
	if rapid.Bool().Draw(t, "tolerate") {
		p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}
	}
	if rapid.IntRange(0, 2).Draw(t, "spread") == 0 {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"),
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
		}}
	}
	if rapid.IntRange(0, 2).Draw(t, "anti") == 0 {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey:   corev1.LabelHostname,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(verApps).Draw(t, "antiapp")}},
			}}}}
	}
	return p
}

type verWorld struct {
	nodes   []*corev1.Node
	bound   []*corev1.Pod
	pending *corev1.Pod
}

func verGenWorld(t *rapid.T, versionFeatures bool) verWorld {
	var w verWorld
	nn := rapid.IntRange(1, 5).Draw(t, "nodes")
	for i := range nn {
		w.nodes = append(w.nodes, verGenNode(t, i))
	}
	for i := range rapid.IntRange(0, 8).Draw(t, "bound") {
		p := verGenPod(t, fmt.Sprintf("b%d", i), true, versionFeatures)
		p.Spec.NodeName = w.nodes[rapid.IntRange(0, nn-1).Draw(t, "on")].Name
		w.bound = append(w.bound, p)
	}
	w.pending = verGenPod(t, "pending", false, versionFeatures)
	return w
}

func verEvaluate(t *rapid.T, w verWorld, v Version) *Result {
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: w.nodes, Pods: w.bound, WithoutPodLevelResize: !v.UsesPodLevelResizeStatus()})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	r, err := Evaluate(snap, w.pending, Options{Version: v})
	if err != nil {
		t.Fatalf("Evaluate at %s: %v", v, err)
	}
	return r
}

// filtersWithout drops one plugin's entry from a Filters list.
func filtersWithout(fs []framework.Status, plugin string) []framework.Status {
	var out []framework.Status
	for _, f := range fs {
		if f.Plugin != plugin {
			out = append(out, f)
		}
	}
	return out
}

func verScoresWithout(ss []PluginScore, drop ...string) map[string]PluginScore {
	out := map[string]PluginScore{}
next:
	for _, s := range ss {
		for _, d := range drop {
			if s.Plugin == d {
				continue next
			}
		}
		out[s.Plugin] = s
	}
	return out
}

func TestVersionProperties(t *testing.T) {
	t.Run("filter verdicts are the same under every version for pods that use no version-specific feature", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := verGenWorld(t, false)
			want := verEvaluate(t, w, V1_36)
			for _, v := range []Version{V1_35, V1_34} {
				got := verEvaluate(t, w, v)
				if want.PreFilter.Status.Code != got.PreFilter.Status.Code || fmt.Sprint(want.FeasibleNodes) != fmt.Sprint(got.FeasibleNodes) || want.Message != got.Message {
					t.Fatalf("%s: prefilter %v / feasible %v / message %q, v1.36: %v / %v / %q",
						v, got.PreFilter.Status, got.FeasibleNodes, got.Message, want.PreFilter.Status, want.FeasibleNodes, want.Message)
				}
				for i := range want.Nodes {
					wn, gn := want.Nodes[i], got.Nodes[i]
					if wn.Node != gn.Node || wn.Feasible != gn.Feasible || fmt.Sprint(wn.Status) != fmt.Sprint(gn.Status) {
						t.Fatalf("%s on %s: %v %v, v1.36: %v %v", v, gn.Node, gn.Feasible, gn.Status, wn.Feasible, wn.Status)
					}
					for _, f := range wn.Filters {
						if f.Plugin == sched.NodeDeclaredFeatures && !f.Code.Passes() {
							t.Fatalf("v1.36 NodeDeclaredFeatures rejected a pod needing no feature on %s: %v", wn.Node, f)
						}
					}
					if a, b := fmt.Sprint(filtersWithout(wn.Filters, sched.NodeDeclaredFeatures)), fmt.Sprint(gn.Filters); a != b {
						t.Fatalf("%s filters on %s: %s, v1.36: %s", v, gn.Node, b, a)
					}
					for _, f := range gn.Filters {
						if f.Plugin == sched.NodeDeclaredFeatures {
							t.Fatalf("%s runs NodeDeclaredFeatures", v)
						}
					}
				}
			}
		})
	})

	t.Run("v1.34 and v1.35 decide and score alike, whatever the pod", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := verGenWorld(t, true)
			a, b := verEvaluate(t, w, V1_35), verEvaluate(t, w, V1_34)
			ja, errA := json.Marshal(a)
			jb, errB := json.Marshal(b)
			if errA != nil || errB != nil || string(ja) != string(jb) {
				t.Fatalf("v1.35 %s\nv1.34 %s", ja, jb)
			}
		})
	})

	t.Run("before v1.36 only NodeResourcesBalancedAllocation and image-volume ImageLocality scores differ", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := verGenWorld(t, false)
			want, got := verEvaluate(t, w, V1_36), verEvaluate(t, w, V1_35)
			drop := []string{sched.NodeResourcesBalancedAllocation}
			if len(w.pending.Spec.Volumes) > 0 {
				drop = append(drop, sched.ImageLocality)
			}
			for i := range want.Nodes {
				a := verScoresWithout(want.Nodes[i].Scores, drop...)
				b := verScoresWithout(got.Nodes[i].Scores, drop...)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("%s: v1.35 %v, v1.36 %v", want.Nodes[i].Node, b, a)
				}
			}
		})
	})
}
