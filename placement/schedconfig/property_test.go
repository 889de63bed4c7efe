package schedconfig_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/schedconfig"
	"github.com/schedkit/schedkit/preemption"
)

// defaultWrittenOut is the v1.36 default profile spelled out: every default
// plugin and weight at multiPoint, every plugin's default args.
const defaultWrittenOut = header + `parallelism: 16
percentageOfNodesToScore: 0
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: SchedulingGates
      - name: PrioritySort
      - name: NodeUnschedulable
      - name: NodeName
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
      - name: NodeResourcesFit
        weight: 1
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DefaultPreemption
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
      - name: NodeDeclaredFeatures
  pluginConfig:
  - name: DefaultPreemption
    args: {minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100}
  - name: InterPodAffinity
    args: {hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false}
  - name: NodeAffinity
    args: {}
  - name: NodeResourcesBalancedAllocation
    args: {resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: LeastAllocated, resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}}
  - name: PodTopologySpread
    args: {defaultingType: System}
`

// Small pools, so that ties, collisions and every plugin's verdicts happen.
var (
	zones  = []string{"z1", "z2", "z3"}
	apps   = []string{"a", "b"}
	cpus   = []string{"0", "100m", "500m", "1", "2"}
	taintK = []string{"dedicated", "gpu"}
)

func genNode(t *rapid.T, i int) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%d", i), Labels: map[string]string{
		corev1.LabelHostname: fmt.Sprintf("n%d", i), corev1.LabelTopologyZone: rapid.SampledFrom(zones).Draw(t, "zone")}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "cpu")),
			corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("10")}}}
	if rapid.IntRange(0, 3).Draw(t, "tainted") == 0 {
		n.Spec.Taints = []corev1.Taint{{Key: rapid.SampledFrom(taintK).Draw(t, "taint"),
			Effect: rapid.SampledFrom([]corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule}).Draw(t, "effect")}}
	}
	n.Spec.Unschedulable = rapid.IntRange(0, 9).Draw(t, "unsched") == 0
	if rapid.Bool().Draw(t, "image") {
		n.Status.Images = []corev1.ContainerImage{{Names: []string{"app:1"}, SizeBytes: 300 << 20}}
	}
	return n
}

func genPod(t *rapid.T, name string) *corev1.Pod {
	app := rapid.SampledFrom(apps).Draw(t, "app")
	prio := rapid.SampledFrom([]int32{0, 10, 100}).Draw(t, "prio")
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-default-" + name),
		Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Priority: &prio, Containers: []corev1.Container{{Name: "c", Image: "app:1",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse(rapid.SampledFrom(cpus).Draw(t, "podcpu"))}}}}}}
	if rapid.IntRange(0, 3).Draw(t, "port") == 0 {
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 80, Protocol: corev1.ProtocolTCP}}
	}
	if rapid.Bool().Draw(t, "tol") {
		p.Spec.Tolerations = []corev1.Toleration{{Key: rapid.SampledFrom(taintK).Draw(t, "tolkey"), Operator: corev1.TolerationOpExists}}
	}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
	switch rapid.IntRange(0, 4).Draw(t, "topology") {
	case 0:
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: rapid.SampledFrom([]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}).Draw(t, "when"), LabelSelector: sel}}
	case 1:
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: corev1.LabelHostname, LabelSelector: sel}}}}
	case 2:
		p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
			{Weight: 10, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: corev1.LabelTopologyZone, LabelSelector: sel}}}},
			NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 5,
				Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"z1"}}}}}}}}
	}
	return p
}

// TestDefaultProfileWrittenOut: the default profile written out as a
// configuration (and the empty configuration) gives answers identical to
// no configuration, pod by pod and for a whole queue with preemption.
func TestDefaultProfileWrittenOut(t *testing.T) {
	var profiles []placement.Options
	for _, body := range []string{header, defaultWrittenOut} {
		p, err := schedconfig.Read([]byte(body))
		require.NoError(t, err)
		profiles = append(profiles, p.Options)
	}
	t.Run("the default profile written out gives the answers of no configuration", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			var nodes []*corev1.Node
			for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
				nodes = append(nodes, genNode(t, i))
			}
			var bound, pending []*corev1.Pod
			for i := range rapid.IntRange(0, 8).Draw(t, "bound") {
				p := genPod(t, fmt.Sprintf("b%d", i))
				p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
				bound = append(bound, p)
			}
			for i := range rapid.IntRange(1, 4).Draw(t, "pending") {
				pending = append(pending, genPod(t, fmt.Sprintf("p%d", i)))
			}
			// The profile combines with every release's rules.
			v := rapid.SampledFrom(placement.Versions()).Draw(t, "version")
			snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound,
				WithoutPodLevelResize: !v.UsesPodLevelResizeStatus()})
			require.NoError(t, err)
			want, err := placement.Evaluate(snap, pending[0], placement.Options{Version: v})
			require.NoError(t, err)
			wantQ, err := preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{Placement: placement.Options{Version: v}})
			require.NoError(t, err)
			for _, opts := range profiles {
				opts.Version = v
				got, err := placement.Evaluate(snap, pending[0], opts)
				require.NoError(t, err)
				require.Equal(t, want, got)
				gotQ, err := preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{Placement: opts})
				require.NoError(t, err)
				require.Equal(t, wantQ.Results, gotQ.Results)
				require.Equal(t, wantQ.Evicted, gotQ.Evicted)
			}
		})
	})
}

// TestConfigMatchesGoOptions: each public configuration read from its file
// answers as the same profile built in Go with placement.Options alone.
func TestConfigMatchesGoOptions(t *testing.T) {
	spread := []corev1.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway},
		{MaxSkew: 2, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule},
	}
	cpuMem := []placement.ResourceSpec{{Name: corev1.ResourceCPU, Weight: 1}, {Name: corev1.ResourceMemory, Weight: 1}}
	inGo := map[string]placement.Options{
		"most-allocated": {ScoringStrategy: placement.ScoringStrategy{Type: placement.MostAllocated, Resources: cpuMem}},
		"requested-to-capacity-ratio": {ScoringStrategy: placement.ScoringStrategy{Type: placement.RequestedToCapacityRatio,
			Resources: []placement.ResourceSpec{{Name: corev1.ResourceCPU, Weight: 3}, {Name: corev1.ResourceMemory, Weight: 1}, {Name: "example.com/gpu", Weight: 5}},
			Shape:     []placement.UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}},
		"reweighted-scores": {ScoreWeights: map[string]int64{"ImageLocality": 0, "NodeResourcesBalancedAllocation": 0,
			"InterPodAffinity": 5, "PodTopologySpread": 1}},
		"topology-spread-list-defaults": {DefaultSpreadConstraints: spread},
	}
	for name, goOpts := range inGo {
		data, err := os.ReadFile(filepath.Join("../../testdata/conformance/configs", name+".yaml"))
		require.NoError(t, err)
		prof, err := schedconfig.Read(data)
		require.NoError(t, err)
		t.Run(name+" read from its file answers as built in Go", func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				var nodes []*corev1.Node
				for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
					nodes = append(nodes, genNode(t, i))
				}
				var bound []*corev1.Pod
				for i := range rapid.IntRange(0, 8).Draw(t, "bound") {
					p := genPod(t, fmt.Sprintf("b%d", i))
					p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
					bound = append(bound, p)
				}
				pod := genPod(t, "p")
				pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs", Controller: ptrTo(true)}}
				pod.Spec.TopologySpreadConstraints = nil
				rs := []*appsv1.ReplicaSet{{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default", UID: "rs"},
					Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: pod.Labels}}}}
				snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: bound, ReplicaSets: rs})
				require.NoError(t, err)
				want, err := placement.Evaluate(snap, pod, goOpts)
				require.NoError(t, err)
				got, err := placement.Evaluate(snap, pod, prof.Options)
				require.NoError(t, err)
				require.Equal(t, want, got)
			})
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
