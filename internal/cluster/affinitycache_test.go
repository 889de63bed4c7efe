package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func antiAffinity(key, value, topologyKey string, namespaces ...string) *corev1.Affinity {
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{key: value}},
			TopologyKey:   topologyKey, Namespaces: namespaces,
		}},
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight:          5,
			PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{}, TopologyKey: topologyKey},
		}},
	}}
}

// TestNewSharesEqualAffinity: New compiles equal affinity specs once
// (framework.NewPodInfo's terms, shared as an equivalence class would), and
// every input compileAffinity reads keeps specs apart: the pod's namespace
// (the default term namespace), selector values, topology key, namespaces.
func TestNewSharesEqualAffinity(t *testing.T) {
	mk := func(ns, name string, aff *corev1.Affinity) *corev1.Pod {
		p := pod(ns, name, "n1", rl("cpu", "1"))
		p.Spec.Affinity = aff
		return p
	}
	pods := []*corev1.Pod{
		mk("a", "p1", antiAffinity("app", "web", "zone")),
		mk("a", "p2", antiAffinity("app", "web", "zone")),
		mk("b", "p3", antiAffinity("app", "web", "zone")),
		mk("a", "p4", antiAffinity("app", "db", "zone")),
		mk("a", "p5", antiAffinity("app", "web", "host")),
		mk("a", "p6", antiAffinity("app", "web", "zone", "x")),
	}
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "100"))}, Pods: pods})
	require.NoError(t, err)
	got := map[string]*PodInfo{}
	for _, pi := range snap.Nodes()[0].Pods {
		want, err := NewPodInfo(pi.Pod)
		require.NoError(t, err)
		require.Equal(t, want.RequiredAntiAffinityTerms, pi.RequiredAntiAffinityTerms, pi.Key)
		require.Equal(t, want.PreferredAntiAffinityTerms, pi.PreferredAntiAffinityTerms, pi.Key)
		got[pi.Pod.Name] = pi
	}
	same := func(a, b string) bool {
		return &got[a].RequiredAntiAffinityTerms[0] == &got[b].RequiredAntiAffinityTerms[0]
	}
	require.True(t, same("p1", "p2"), "equal specs share their compiled terms")
	for _, other := range []string{"p3", "p4", "p5", "p6"} {
		require.False(t, same("p1", other), other)
	}
	require.True(t, got["p3"].RequiredAntiAffinityTerms[0].Namespaces.Has("b"))
}

// TestPreparePodsParallelAgrees: New's per-pod pass gives the same keys,
// PodInfos and errors whether the input is split among goroutines or not
// (each goroutine has its own range and its own affinity cache).
func TestPreparePodsParallelAgrees(t *testing.T) {
	var pods []*corev1.Pod
	for i := range parallelPods + 101 {
		p := pod(fmt.Sprintf("ns-%d", i%3), fmt.Sprintf("p-%05d", i), "n1", rl("cpu", "100m", "memory", "1Gi"))
		switch i % 7 {
		case 1:
			p.Spec.Affinity = antiAffinity("app", fmt.Sprintf("a-%d", i%5), "zone")
		case 2:
			p.Spec.Containers[0].Resources.Requests = rl("cpu", "-1")
		case 3:
			p.Spec.Affinity = antiAffinity("app", "bad value!", "zone")
		case 4:
			p.Spec.Containers[0].Resources.Requests = rl("cpu", "1u", "example.com/gpu", "1")
		case 5:
			p.Name = ""
		case 6:
			if i%2 == 0 {
				p = nil
			}
		}
		pods = append(pods, p)
	}
	byName := map[string]int{"n1": 0}
	serial := preparePods(pods, false, byName, 1)
	parallel := preparePods(pods, false, byName, 4)
	require.Len(t, parallel, len(serial))
	errCount := 0
	for i := range serial {
		require.Equal(t, serial[i].key, parallel[i].key, i)
		require.Equal(t, serial[i].node, parallel[i].node, i)
		require.Equal(t, serial[i].errs, parallel[i].errs, i)
		require.Equal(t, serial[i].pi, parallel[i].pi, i)
		if serial[i].errs != nil {
			errCount++
		}
	}
	require.Positive(t, errCount, "the input has invalid pods")
}
