package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// TestAdmit mirrors the kubelet's predicateAdmitHandler.Admit with
// generalFilter and scheduler.AdmissionCheck (v1.36).
func TestAdmit(t *testing.T) {
	busy := mkPod("busy", onNode("n1"), requests("cpu", "3"), hostPort(80, "", ""))
	tests := []struct {
		name        string
		node        *corev1.Node
		pod         *corev1.Pod
		wantAdmit   bool
		wantReason  string
		wantMessage string
		wantCount   int
	}{
		{name: "fits", node: mkNode("n1", "4", "8Gi"), pod: mkPod("p", onNode("n1"), requests("cpu", "1")), wantAdmit: true},
		{name: "NoSchedule taint and unschedulable are ignored",
			node: mkNode("n1", "4", "8Gi", unschedulable(), withTaint("k", "", corev1.TaintEffectNoSchedule)),
			pod:  mkPod("p", onNode("n1")), wantAdmit: true},
		{name: "NoExecute taint rejects", node: mkNode("n1", "4", "8Gi", withTaint("k", "", corev1.TaintEffectNoExecute)),
			pod: mkPod("p", onNode("n1")), wantReason: "TaintToleration",
			wantMessage: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate", wantCount: 1},
		{name: "static pod ignores NoExecute", node: mkNode("n1", "4", "8Gi", withTaint("k", "", corev1.TaintEffectNoExecute)),
			pod: func() *corev1.Pod {
				p := mkPod("p", onNode("n1"))
				p.Annotations = map[string]string{"kubernetes.io/config.source": "file"}
				return p
			}(), wantAdmit: true},
		{name: "out of cpu first, then affinity, then ports", node: mkNode("n1", "4", "8Gi"),
			pod:        mkPod("p", onNode("n1"), requests("cpu", "2"), withNodeSelector("zone", "x"), hostPort(80, "", "")),
			wantReason: "OutOfcpu", wantMessage: "Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000", wantCount: 3},
		{name: "node affinity alone", node: mkNode("n1", "4", "8Gi"), pod: mkPod("p", onNode("n1"), withNodeSelector("zone", "x")),
			wantReason: "NodeAffinity", wantMessage: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector", wantCount: 1},
		{name: "host port alone", node: mkNode("n1", "4", "8Gi"), pod: mkPod("p", onNode("n1"), hostPort(80, "", "")),
			wantReason: "NodePorts", wantMessage: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports", wantCount: 1},
		{name: "tolerated NoExecute taint admits", node: mkNode("n1", "4", "8Gi", withTaint("k", "", corev1.TaintEffectNoExecute)),
			pod: mkPod("p", onNode("n1"), tolerate("k", "", corev1.TolerationOpExists, corev1.TaintEffectNoExecute)), wantAdmit: true},
		{name: "affinity is reported before the taint (generalFilter order)", node: mkNode("n1", "4", "8Gi", withTaint("k", "", corev1.TaintEffectNoExecute)),
			pod: mkPod("p", onNode("n1"), withNodeSelector("zone", "x")), wantReason: "NodeAffinity",
			wantMessage: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector", wantCount: 2},
		{name: "out of pods", node: mkNode("n1", "4", "8Gi", withAllocatable(corev1.ResourcePods, "1")), pod: mkPod("p", onNode("n1")),
			wantReason: "OutOfpods", wantMessage: "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1", wantCount: 1},
		{name: "extended resource the node lacks is ignored", node: mkNode("n1", "4", "8Gi"),
			pod: mkPod("p", onNode("n1"), requests("example.com/gpu", "1")), wantAdmit: true},
		{name: "extended resource the node has is checked", node: mkNode("n1", "4", "8Gi", withAllocatable("example.com/gpu", "1")),
			pod: mkPod("p", onNode("n1"), requests("example.com/gpu", "2")), wantReason: "OutOfexample.com/gpu",
			wantMessage: "Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 1", wantCount: 1},
		{name: "OS label mismatch", node: mkNode("n1", "4", "8Gi", withLabels(corev1.LabelOSStable, "windows")),
			pod: func() *corev1.Pod {
				p := mkPod("p", onNode("n1"))
				p.Labels = map[string]string{corev1.LabelOSStable: "linux"}
				return p
			}(), wantReason: "PodOSSelectorNodeLabelDoesNotMatch",
			wantMessage: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshotOf(t, []*corev1.Node{tt.node}, busy)
			got, err := AdmitToNode(snap, tt.pod)
			require.NoError(t, err)
			assert.Equal(t, tt.wantAdmit, got.Admit)
			assert.Equal(t, tt.wantReason, got.Reason)
			assert.Equal(t, tt.wantMessage, got.Message)
			assert.Len(t, got.Failures, tt.wantCount)
		})
	}
	t.Run("the pod itself is not counted twice", func(t *testing.T) {
		snap := snapshotOf(t, []*corev1.Node{mkNode("n1", "4", "8Gi")}, busy)
		got, err := AdmitToNode(snap, busy)
		require.NoError(t, err)
		assert.True(t, got.Admit)
	})
	t.Run("unknown node is an error", func(t *testing.T) {
		_, err := AdmitToNode(snapshotOf(t, []*corev1.Node{mkNode("n1", "4", "8Gi")}), mkPod("p", onNode("zz")))
		require.ErrorIs(t, err, ErrInvalidPod)
	})
}

// TestAdmitDeclaredFeatures mirrors declaredFeaturesAdmitHandler.Admit.
func TestAdmitDeclaredFeatures(t *testing.T) {
	pod := mkPod("p", onNode("n1"))
	pod.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestartAllContainers}}
	got, err := AdmitToNode(snapshotOf(t, []*corev1.Node{mkNode("n1", "4", "8Gi")}), pod)
	require.NoError(t, err)
	assert.Equal(t, NodeAdmission{Reason: "PodFeatureUnsupported",
		Message: "Pod requires node features that are not available: RestartAllContainersOnContainerExits"}, got)
	node := mkNode("n1", "4", "8Gi")
	node.Status.DeclaredFeatures = []string{"RestartAllContainersOnContainerExits"}
	got, err = AdmitToNode(snapshotOf(t, []*corev1.Node{node}), pod)
	require.NoError(t, err)
	assert.True(t, got.Admit)
}
