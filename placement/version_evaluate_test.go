package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// The hand-written scenario testdata/conformance/versions/versions.json, built
// in Go: every expectation below is what upstream v1.36.3, v1.35.4 and
// v1.34.4 answered for it (versions.vX.Y.filter-score.json).

func verScenarioNode(name, cpu string, declared []string, images ...corev1.ContainerImage) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{
			Allocatable:      corev1.ResourceList{corev1.ResourceCPU: verQuantity(cpu), corev1.ResourceMemory: verQuantity("8Gi"), corev1.ResourcePods: verQuantity("110")},
			Images:           images,
			DeclaredFeatures: declared,
		},
	}
}

func verScenarioPod(name, node, image, cpu, mem string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-default-" + name)},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: image}}},
	}
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: verQuantity(cpu), corev1.ResourceMemory: verQuantity(mem)}
	}
	return p
}

func verRestartAll(p *corev1.Pod) *corev1.Pod {
	never := corev1.ContainerRestartPolicyNever
	p.Spec.Containers[0].RestartPolicy = &never
	p.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	return p
}

func verScenario(t *testing.T, v Version) (*Snapshot, map[string]*corev1.Pod) {
	nodes := []*corev1.Node{
		verScenarioNode("node-a", "4", []string{"RestartAllContainersOnContainerExits"},
			corev1.ContainerImage{Names: []string{"registry.example.com/model:v3"}, SizeBytes: 600000000}),
		verScenarioNode("node-b", "4", nil,
			corev1.ContainerImage{Names: []string{"registry.example.com/app:1"}, SizeBytes: 300000000}),
		verScenarioNode("node-c", "8", []string{}),
	}
	resizing := verScenarioPod("resizing", "node-c", "busy", "", "")
	resizing.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: verQuantity("1"), corev1.ResourceMemory: verQuantity("1Gi")}}
	resizing.Status.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: verQuantity("3"), corev1.ResourceMemory: verQuantity("1Gi")}}
	resizing.Status.AllocatedResources = corev1.ResourceList{corev1.ResourceCPU: verQuantity("3"), corev1.ResourceMemory: verQuantity("1Gi")}
	bound := []*corev1.Pod{
		verScenarioPod("busy-b", "node-b", "busy", "2", "1Gi"),
		verScenarioPod("busy-c", "node-c", "busy", "1", "6Gi"),
		resizing,
	}
	snap, warnings, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: bound, WithoutPodLevelResize: !v.UsesPodLevelResizeStatus()})
	require.NoError(t, err)
	require.Empty(t, warnings)

	imgvol := verScenarioPod("imgvol", "", "registry.example.com/app:1", "500m", "1Gi")
	imgvol.Spec.Volumes = []corev1.Volume{{Name: "model", VolumeSource: corev1.VolumeSource{
		Image: &corev1.ImageVolumeSource{Reference: "registry.example.com/model:v3"}}}}
	onB := verRestartAll(verScenarioPod("restart-all-on-b", "", "app", "", ""))
	onB.Spec.NodeSelector = map[string]string{corev1.LabelHostname: "node-b"}
	return snap, map[string]*corev1.Pod{
		"imgvol":           imgvol,
		"restart-all":      verRestartAll(verScenarioPod("restart-all", "", "app", "100m", "128Mi")),
		"restart-all-on-b": onB,
		"plain":            verScenarioPod("plain", "", "registry.example.com/app:1", "1", "2Gi"),
		"big-cpu":          verScenarioPod("big-cpu", "", "app", "5", "512Mi"),
	}
}

// verNode is one node's expected verdict: "" for feasible, else the status's
// plugin; raw ImageLocality and NodeResourcesBalancedAllocation scores on a
// feasible node (-1: not reported).
type verNode struct {
	rejectedBy string
	image, bal int64
	total      int64
}

var (
	declaredMissing = verNode{rejectedBy: sched.NodeDeclaredFeatures}
	affinityMissing = verNode{rejectedBy: sched.NodeAffinity}
	noFit           = verNode{rejectedBy: sched.NodeResourcesFit}
)

// TestEvaluateVersionRules checks, per version, the rules that differ: the
// NodeDeclaredFeatures filter (nodedeclaredfeatures.Filter, v1.36 only),
// image volumes in ImageLocality (sumImageScores, v1.36 only), the balanced
// allocation score (balancedResourceScorer) and pod-level resize status in a
// bound pod's requests (resourcehelper.PodRequests, v1.36 only).
func TestEvaluateVersionRules(t *testing.T) {
	old := map[string]map[string]verNode{
		"imgvol":           {"node-a": {image: 0, bal: 100, total: 487}, "node-b": {image: 7, bal: 81, total: 444}, "node-c": {image: 0, bal: 65, total: 399}},
		"restart-all":      {"node-a": {image: 0, bal: 99, total: 496}, "node-b": {image: 0, bal: 80, total: 446}, "node-c": {image: 0, bal: 68, total: 409}},
		"restart-all-on-b": {"node-a": affinityMissing, "node-b": {image: 0, bal: -1, total: 366}, "node-c": affinityMissing},
		"plain":            {"node-a": {image: 0, bal: 100, total: 475}, "node-b": {image: 7, bal: 81, total: 431}, "node-c": noFit},
		"big-cpu":          {"node-a": noFit, "node-b": noFit, "node-c": {image: 0, bal: 96, total: 405}},
	}
	tests := []struct {
		v       Version
		want    map[string]map[string]verNode
		message map[string]string
	}{
		{
			v: V1_36,
			want: map[string]map[string]verNode{
				"imgvol":           {"node-a": {image: 17, bal: 75, total: 479}, "node-b": {image: 7, bal: 75, total: 438}, "node-c": {image: 0, bal: 73, total: 394}},
				"restart-all":      {"node-a": {image: 0, bal: 74, total: 471}, "node-b": declaredMissing, "node-c": declaredMissing},
				"restart-all-on-b": {"node-a": affinityMissing, "node-b": declaredMissing, "node-c": affinityMissing},
				"plain":            {"node-a": {image: 0, bal: 75, total: 450}, "node-b": {image: 7, bal: 75, total: 425}, "node-c": noFit},
				"big-cpu":          {"node-a": noFit, "node-b": noFit, "node-c": noFit},
			},
			message: map[string]string{
				"restart-all-on-b": "0/3 nodes are available: 1 node(s) didn't match Pod's required features, 2 node(s) didn't match Pod's node affinity/selector.",
				"big-cpu":          "0/3 nodes are available: 3 Insufficient cpu.",
			},
		},
		{v: V1_35, want: old},
		{v: V1_34, want: old},
	}
	for _, tt := range tests {
		t.Run(tt.v.String(), func(t *testing.T) {
			snap, pods := verScenario(t, tt.v)
			for name, wantNodes := range tt.want {
				t.Run(name, func(t *testing.T) {
					res, err := Evaluate(snap, pods[name], Options{Version: tt.v})
					require.NoError(t, err)
					assert.Equal(t, tt.message[name], res.Message)
					require.Len(t, res.Nodes, 3)
					for _, n := range res.Nodes {
						want := wantNodes[n.Node]
						var declared *framework.Status
						for i := range n.Filters {
							if n.Filters[i].Plugin == sched.NodeDeclaredFeatures {
								declared = &n.Filters[i]
							}
						}
						assert.Equal(t, tt.v == V1_36, declared != nil, "%s: NodeDeclaredFeatures runs only in v1.36", n.Node)
						if want.rejectedBy != "" {
							assert.False(t, n.Feasible, n.Node)
							assert.Equal(t, want.rejectedBy, n.Status.Plugin, n.Node)
							if want.rejectedBy == sched.NodeDeclaredFeatures {
								assert.Equal(t, framework.UnschedulableAndUnresolvable, n.Status.Code)
								assert.Equal(t, []string{"node(s) didn't match Pod's required features"}, n.Status.Reasons)
							}
							continue
						}
						require.True(t, n.Feasible, "%s: %v", n.Node, n.Status)
						raw := map[string]int64{}
						for _, s := range n.Scores {
							raw[s.Plugin] = s.Raw
						}
						assert.Equal(t, want.image, raw[sched.ImageLocality], "%s ImageLocality", n.Node)
						if want.bal >= 0 {
							assert.Equal(t, want.bal, raw[sched.NodeResourcesBalancedAllocation], "%s NodeResourcesBalancedAllocation", n.Node)
						}
						assert.Equal(t, want.total, n.Total(), "%s total", n.Node)
					}
				})
			}
		})
	}
}

// TestEvaluateRejectsInvalidVersion: an Options.Version that is not one of
// the constants is an error, not a silent v1.36.
func TestEvaluateRejectsInvalidVersion(t *testing.T) {
	snap, pods := verScenario(t, V1_36)
	_, err := Evaluate(snap, pods["plain"], Options{Version: Version(7)})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
}

func verQuantity(s string) resource.Quantity { return resource.MustParse(s) }
