package cluster

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/testbuild"
)

// TestBoundEqualsNewPodInfo: the PodInfo of a bound copy made from the
// pending pod's (Bound) is the one NewPodInfo compiles from the copy, for
// pods with sidecars, pod-level requests, host ports, priority and every
// kind of affinity term, with and without a start time.
func TestBoundEqualsNewPodInfo(t *testing.T) {
	prio := int32(7)
	restart := corev1.ContainerRestartPolicyAlways
	term := corev1.PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: testbuild.Selector("app", "db")}
	full := pod("ns", "full", "", rl("cpu", "100m"))
	full.Labels = map[string]string{"app": "web"}
	full.Spec.Priority = &prio
	full.Spec.Resources = &corev1.ResourceRequirements{Requests: rl("cpu", "2", "memory", "1Gi")}
	full.Spec.InitContainers = []corev1.Container{{Name: "side", RestartPolicy: &restart,
		Resources: corev1.ResourceRequirements{Requests: rl("cpu", "50m")}, Ports: []corev1.ContainerPort{{HostPort: 8080, ContainerPort: 80}}}}
	full.Spec.Affinity = &corev1.Affinity{
		PodAffinity: &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []corev1.PodAffinityTerm{term},
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 3, PodAffinityTerm: term}},
		},
		PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []corev1.PodAffinityTerm{term},
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 5, PodAffinityTerm: term}},
		},
	}
	for _, p := range []*corev1.Pod{pod("ns", "plain", "", rl("cpu", "1")), full} {
		pi, err := NewPodInfo(p)
		require.NoError(t, err)
		for _, started := range []bool{false, true} {
			b := p.DeepCopy()
			b.Spec.NodeName = "n1"
			b.Status.Phase = corev1.PodRunning
			if started {
				st := metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
				b.Status.StartTime = &st
			}
			want, err := NewPodInfo(b)
			require.NoError(t, err)
			require.Equal(t, want, pi.Bound(b), "%s started %v", p.Name, started)
		}
	}
}
