package cluster

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedkit/schedkit/internal/testbuild"
)

// TestKeyArena: keys built a chunk at a time are namespace/name for every
// pod, across chunk boundaries, ranges and nil pods.
func TestKeyArena(t *testing.T) {
	var pods []*corev1.Pod
	for i := range 3*keyChunk + 7 {
		if i%11 == 3 {
			pods = append(pods, nil)
			continue
		}
		pods = append(pods, pod(fmt.Sprintf("ns%d", i%3), fmt.Sprintf("p%d", i), "", nil))
	}
	for _, r := range [][2]int{{0, len(pods)}, {5, keyChunk + 9}, {keyChunk - 1, 2*keyChunk + 1}} {
		var a keyArena
		for i := r[0]; i < r[1]; i++ {
			if pods[i] == nil {
				continue
			}
			require.Equal(t, pods[i].Namespace+"/"+pods[i].Name, a.key(pods, i, r[1]), "pod %d of range %v", i, r)
		}
	}
}

// TestSetPodsSumsScalars: a node's requested extended resources are the sum
// over its pods (framework.NodeInfo.AddPod's Resource.Add), in a map of the
// node's own: the pods' maps are not modified.
func TestSetPodsSumsScalars(t *testing.T) {
	gpu := func(name, n string) *corev1.Pod {
		return pod("ns", name, "n1", rl("cpu", "1", "example.com/gpu", n))
	}
	pods := []*corev1.Pod{gpu("a", "1"), pod("ns", "b", "n1", rl("cpu", "1")), gpu("c", "2"),
		pod("ns", "d", "n1", rl("cpu", "1", "hugepages-2Mi", "4Mi"))}
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "100"))}, Pods: pods})
	require.NoError(t, err)
	n := NodesOf(snap)[0]
	assert.Equal(t, Resource{MilliCPU: 4000, Scalar: map[corev1.ResourceName]int64{"example.com/gpu": 3, "hugepages-2Mi": 4 << 20}}, n.Requested)
	first := n.Pods[0]
	assert.Equal(t, map[corev1.ResourceName]int64{"example.com/gpu": 1}, first.Requests().Scalar, "the pod's own map is unchanged")
	// The node's sum equals the views' copy-on-write sum over the same pods.
	var sum Resource
	for _, p := range n.Pods {
		sum = sum.add(p.Requests(), 1)
	}
	assert.Equal(t, sum, n.Requested)
}

// TestLeftOutPodsAreNotFound: a pod New leaves out (unbound, terminal,
// unknown node) is not found by key, and a pod of that key can still be
// bound in a view.
func TestLeftOutPodsAreNotFound(t *testing.T) {
	done := pod("ns", "done", "n1", nil)
	done.Status.Phase = corev1.PodFailed
	snap, warnings, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "4", "pods", "10"))},
		Pods: []*corev1.Pod{done, pod("ns", "pending", "", nil), pod("ns", "lost", "zzz", nil), pod("ns", "here", "n1", nil)}})
	require.NoError(t, err)
	require.Len(t, warnings, 3)
	for _, k := range []string{"ns/done", "ns/pending", "ns/lost", "ns/nothing"} {
		_, _, ok := PodOf(snap, k)
		assert.False(t, ok, k)
	}
	_, ni, ok := PodOf(snap, "ns/here")
	require.True(t, ok)
	assert.Equal(t, "n1", ni.Name)
	v, err := snap.WithPod(pod("ns", "done", "n1", nil))
	require.NoError(t, err)
	_, _, ok = PodOf(v, "ns/done")
	assert.True(t, ok)
	assert.Same(t, snap, snap.WithoutPods("ns/pending"))
}

func service(ns, name string, selector map[string]string) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: corev1.ServiceSpec{Selector: selector}}
}

func replicaSet(ns, name string) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// TestWorkloads: services by namespace in input order (those without a
// selector left out), the first controller of each namespace and name, an
// empty namespace read as "default", nil objects skipped.
func TestWorkloads(t *testing.T) {
	s1, s2, s3 := service("", "s1", testbuild.Labels("a", "1")), service("default", "s2", map[string]string{}), service("x", "s3", testbuild.Labels("a", "1"))
	rs1, rs2, rs3 := replicaSet("x", "rs"), replicaSet("x", "rs"), replicaSet("", "rs")
	ss := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "x", Name: "ss"}}
	rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc"}}
	in := &Input{
		Services:               []*corev1.Service{s1, nil, service("default", "no-selector", nil), s2, s3},
		ReplicaSets:            []*appsv1.ReplicaSet{nil, rs1, rs2, rs3},
		StatefulSets:           []*appsv1.StatefulSet{ss},
		ReplicationControllers: []*corev1.ReplicationController{rc, nil},
	}
	w := in.Workloads()
	assert.Equal(t, []*corev1.Service{s1, s2}, w.Services("default"))
	assert.Equal(t, []*corev1.Service{s3}, w.Services("x"))
	assert.Empty(t, w.Services(""), "an empty pod namespace selects no service")
	assert.Same(t, rs1, w.ReplicaSet("x", "rs"), "first in input order")
	assert.Same(t, rs3, w.ReplicaSet("default", "rs"))
	assert.Nil(t, w.ReplicaSet("y", "rs"))
	assert.Same(t, ss, w.StatefulSet("x", "ss"))
	assert.Nil(t, w.StatefulSet("x", "rs"), "kinds are apart")
	assert.Same(t, rc, w.ReplicationController("default", "rc"))
}

// TestControllerRequirements: a controller's selector is parsed on first
// ask, the same for every caller (concurrent ones too), and ok is false for
// an unknown controller and a nil, invalid or match-nothing selector; the
// first controller of a name is the one parsed.
func TestControllerRequirements(t *testing.T) {
	sel := func(k, v string) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchLabels: map[string]string{k: v}}
	}
	rsWith := func(name string, s *metav1.LabelSelector) *appsv1.ReplicaSet {
		rs := replicaSet("x", name)
		rs.Spec.Selector = s
		return rs
	}
	in := &Input{
		ReplicaSets: []*appsv1.ReplicaSet{rsWith("web", sel("app", "web")), rsWith("web", sel("app", "other")),
			rsWith("nil", nil), rsWith("invalid", sel("a b", "c")), rsWith("nothing", &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: metav1.LabelSelectorOpIn}}})},
		StatefulSets: []*appsv1.StatefulSet{{ObjectMeta: metav1.ObjectMeta{Namespace: "x", Name: "db"}, Spec: appsv1.StatefulSetSpec{Selector: sel("app", "db")}}},
	}
	w := in.Workloads()
	got := make([]labels.Requirements, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			reqs, ok := w.ReplicaSetRequirements("x", "web")
			assert.True(t, ok)
			got[i] = reqs
		})
	}
	wg.Wait()
	for _, reqs := range got {
		require.Equal(t, "app=web", labels.NewSelector().Add(reqs...).String(), "the first ReplicaSet of the name")
	}
	for _, name := range []string{"nil", "invalid", "missing"} {
		_, ok := w.ReplicaSetRequirements("x", name)
		assert.False(t, ok, name)
	}
	_, ok := w.ReplicaSetRequirements("x", "db")
	assert.False(t, ok, "kinds are apart")
	reqs, ok := w.StatefulSetRequirements("x", "db")
	require.True(t, ok)
	assert.Equal(t, "app=db", labels.NewSelector().Add(reqs...).String())
}

// TestSnapshotWorkloads: a snapshot builds its index once, shares it with
// its views and concurrent callers, and does not answer a copy of its Input
// whose slices were replaced.
func TestSnapshotWorkloads(t *testing.T) {
	in := Input{Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "4"))}, ReplicaSets: []*appsv1.ReplicaSet{replicaSet("x", "a")}}
	snap, _, err := New(in)
	require.NoError(t, err)
	got := make([]*Workloads, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = InputOf(snap).Workloads() })
	}
	wg.Wait()
	for _, w := range got {
		require.Same(t, got[0], w)
	}
	view := snap.WithoutPods()
	v, err := view.WithPod(pod("ns", "p", "n1", nil))
	require.NoError(t, err)
	assert.Same(t, got[0], InputOf(v).Workloads(), "views share the index")
	assert.NotSame(t, got[0], in.Workloads(), "the caller's Input is not indexed")

	changed := *InputOf(snap)
	changed.ReplicaSets = []*appsv1.ReplicaSet{replicaSet("x", "b")}
	assert.NotNil(t, changed.Workloads().ReplicaSet("x", "b"), "a copy with other slices is indexed afresh")
	assert.Nil(t, changed.Workloads().ReplicaSet("x", "a"))
	assert.NotNil(t, InputOf(snap).Workloads().ReplicaSet("x", "a"))
	assert.NotNil(t, snap.Input().Workloads().ReplicaSet("x", "a"), "a copy handed out is indexed too")
}
