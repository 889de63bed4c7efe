package cluster

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/testbuild"
)

func rl(kv ...string) corev1.ResourceList { return testbuild.Resources(kv...) }

func ctr(name string, req corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req}}
}

func sidecar(name string, req corev1.ResourceList) corev1.Container {
	always := corev1.ContainerRestartPolicyAlways
	c := ctr(name, req)
	c.RestartPolicy = &always
	return c
}

func quantities(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// TestPodRequests mirrors resourcehelper.PodRequests (k8s.io/component-helpers
// resource/helpers.go, v0.36) and its test table's shapes.
func TestPodRequests(t *testing.T) {
	tests := []struct {
		name string
		spec corev1.PodSpec
		opts RequestOptions
		want map[string]string
	}{
		{
			name: "containers are summed",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", rl("cpu", "1", "memory", "1Gi")), ctr("b", rl("cpu", "500m"))}},
			want: map[string]string{"cpu": "1500m", "memory": "1Gi"},
		},
		{
			name: "the largest init container wins over the sum",
			spec: corev1.PodSpec{
				InitContainers: []corev1.Container{ctr("i1", rl("cpu", "2", "memory", "1G")), ctr("i2", rl("cpu", "2", "memory", "3G"))},
				Containers:     []corev1.Container{ctr("a", rl("cpu", "2", "memory", "1G")), ctr("b", rl("cpu", "1", "memory", "1G"))},
			},
			want: map[string]string{"cpu": "3", "memory": "3G"},
		},
		{
			name: "sidecars add to the steady state and to later init containers",
			spec: corev1.PodSpec{
				InitContainers: []corev1.Container{sidecar("s", rl("cpu", "1")), ctr("i", rl("cpu", "3"))},
				Containers:     []corev1.Container{ctr("a", rl("cpu", "1"))},
			},
			// steady: 1 + 1 = 2; peak of i: 3 + 1 = 4.
			want: map[string]string{"cpu": "4"},
		},
		{
			name: "an init container before the sidecar does not see it",
			spec: corev1.PodSpec{
				InitContainers: []corev1.Container{ctr("i", rl("cpu", "3")), sidecar("s", rl("cpu", "1"))},
				Containers:     []corev1.Container{ctr("a", rl("cpu", "1"))},
			},
			want: map[string]string{"cpu": "3"},
		},
		{
			name: "overhead is added",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", rl("cpu", "1"))}, Overhead: rl("cpu", "250m", "memory", "64Mi")},
			want: map[string]string{"cpu": "1250m", "memory": "64Mi"},
		},
		{
			name: "pod-level requests replace the aggregate, then overhead",
			spec: corev1.PodSpec{
				Containers: []corev1.Container{ctr("a", rl("cpu", "1", "memory", "1Gi", "ephemeral-storage", "1Gi"))},
				Resources:  &corev1.ResourceRequirements{Requests: rl("cpu", "3")},
				Overhead:   rl("cpu", "100m"),
			},
			want: map[string]string{"cpu": "3100m", "memory": "1Gi", "ephemeral-storage": "1Gi"},
		},
		{
			name: "non-missing defaults per container, explicit zero kept",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", nil), ctr("b", rl("cpu", "0"))}},
			opts: RequestOptions{NonMissing: nonMissingDefaults},
			want: map[string]string{"cpu": "100m", "memory": "419430400"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: tt.spec}
			before := pod.DeepCopy()
			assert.Equal(t, tt.want, quantities(PodRequests(pod, tt.opts)))
			assert.Equal(t, before, pod, "input modified")
		})
	}
}

// TestScoringRequests mirrors resourceAllocationScorer.calculatePodResourceRequest
// (noderesources/resource_allocation.go, v1.36) for the two scorers:
// NodeResourcesFit's scorer is built without feature flags
// (fit.go nodeResourceStrategyTypeMap), so it skips pod-level requests and
// adds the per-container defaults; BalancedAllocation uses pod-level requests.
func TestScoringRequests(t *testing.T) {
	podLevel := corev1.PodSpec{
		Containers: []corev1.Container{ctr("a", rl("cpu", "100m")), ctr("b", nil)},
		Resources:  &corev1.ResourceRequirements{Requests: rl("cpu", "3", "memory", "5Gi")},
		Overhead:   rl("cpu", "50m"),
	}
	tests := []struct {
		name        string
		spec        corev1.PodSpec
		useDefaults bool
		want        map[string]string
	}{
		{name: "fit scorer ignores pod-level requests, defaults missing container requests",
			spec: podLevel, useDefaults: true,
			want: map[string]string{"cpu": "250m", "memory": "419430400"}},
		{name: "balanced scorer takes pod-level requests",
			spec: podLevel, useDefaults: false,
			want: map[string]string{"cpu": "3050m", "memory": "5Gi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: tt.spec}
			assert.Equal(t, tt.want, quantities(ScoringRequests(pod, tt.useDefaults)))
		})
	}
}

// TestPodResources mirrors framework.PodInfo.CalculateResource (v1.36),
// including getNonMissingContainerRequests with pod-level requests.
func TestPodResources(t *testing.T) {
	tests := []struct {
		name        string
		spec        corev1.PodSpec
		status      corev1.PodStatus
		wantCPU     int64
		wantNon0CPU int64
		wantNon0Mem int64
	}{
		{name: "best effort gets the defaults per container",
			spec:    corev1.PodSpec{Containers: []corev1.Container{ctr("a", nil), ctr("b", nil)}},
			wantCPU: 0, wantNon0CPU: 200, wantNon0Mem: 2 * DefaultMemoryRequest},
		{name: "requests count as given",
			spec:    corev1.PodSpec{Containers: []corev1.Container{ctr("a", rl("cpu", "1", "memory", "1Mi"))}},
			wantCPU: 1000, wantNon0CPU: 1000, wantNon0Mem: 1 << 20},
		{name: "pod-level cpu: memory default only because no container names it",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", nil), ctr("b", nil)},
				Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "2")}},
			wantCPU: 2000, wantNon0CPU: 2000, wantNon0Mem: 2 * DefaultMemoryRequest},
		{name: "pod-level cpu and a container memory: no default at all",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", rl("memory", "1Mi")), ctr("b", nil)},
				Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "2")}},
			wantCPU: 2000, wantNon0CPU: 2000, wantNon0Mem: 1 << 20},
		{name: "in-place resize: the larger of spec and allocated",
			spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", rl("cpu", "1"))}},
			status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "a",
				AllocatedResources: rl("cpu", "2"), Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "1500m")}}}},
			wantCPU: 2000, wantNon0CPU: 2000, wantNon0Mem: DefaultMemoryRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pi, err := NewPodInfo(&corev1.Pod{Spec: tt.spec, Status: tt.status})
			require.NoError(t, err)
			assert.Equal(t, tt.wantCPU, pi.Requests().MilliCPU)
			assert.Equal(t, tt.wantNon0CPU, pi.NonZeroRequests().MilliCPU)
			assert.Equal(t, tt.wantNon0Mem, pi.NonZeroRequests().Memory)
		})
	}
}

func TestIsScalarResourceName(t *testing.T) {
	for name, want := range map[string]bool{
		"cpu": false, "memory": false, "pods": false, "ephemeral-storage": false,
		"example.com/gpu": true, "hugepages-2Mi": true, "kubernetes.io/batch": true,
		"attachable-volumes-aws-ebs": true, "requests.example.com/x": false, "bad/name/x": false,
	} {
		assert.Equal(t, want, IsScalarResourceName(corev1.ResourceName(name)), name)
	}
}

func node(name string, labels map[string]string, alloc corev1.ResourceList) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Status: corev1.NodeStatus{Allocatable: alloc}}
}

func pod(ns, name, nodeName string, req corev1.ResourceList) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{ctr("c", req)}}}
}

// TestNewValidates: every problem at once, with paths.
func TestNewValidates(t *testing.T) {
	badAffinity := pod("ns", "bad", "n1", nil)
	badAffinity.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey:   "zone",
			LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}},
		}}}}
	_, _, err := New(Input{
		Nodes: []*corev1.Node{node("n1", nil, nil), node("n1", nil, nil), node("", nil, nil), node("n2", nil, rl("cpu", "-1"))},
		Pods:  []*corev1.Pod{pod("ns", "a", "n1", nil), pod("ns", "a", "n1", nil), badAffinity, pod("ns", "neg", "n1", rl("memory", "-1Gi"))},
		Namespaces: []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "x"}},
			{ObjectMeta: metav1.ObjectMeta{Name: "x"}}},
	})
	require.Error(t, err)
	msg := err.Error()
	for _, want := range []string{
		"nodes[1].metadata.name: Duplicate value", "nodes[2].metadata.name: Required value",
		"pods[1].metadata.name: Duplicate value", "pods[2].spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector",
		"namespaces[1].metadata.name: Duplicate value",
		"nodes[3].status.allocatable[cpu]: Invalid value", "pods[3].spec.containers[0].resources.requests[memory]: Invalid value",
	} {
		assert.Contains(t, msg, want)
	}
}

// TestNewWarnsAndIndexes covers the scheduler cache's view: unbound,
// unknown-node and terminal pods are left out; nodes in name order; sums.
func TestNewWarnsAndIndexes(t *testing.T) {
	done := pod("ns", "done", "b", rl("cpu", "1"))
	done.Status.Phase = corev1.PodSucceeded
	withPorts := pod("ns", "web", "b", rl("cpu", "500m"))
	withPorts.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: 80}, {HostPort: 53, Protocol: corev1.ProtocolUDP, HostIP: "10.0.0.1"}}
	capOnly := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Status: corev1.NodeStatus{Capacity: rl("cpu", "4", "pods", "10")}}
	snap, warnings, err := New(Input{
		Nodes: []*corev1.Node{node("b", nil, rl("cpu", "8", "memory", "8Gi", "pods", "110", "example.com/gpu", "2")), capOnly},
		Pods: []*corev1.Pod{pod("ns", "x", "b", rl("cpu", "1", "memory", "1Gi", "example.com/gpu", "1")), withPorts, done,
			pod("ns", "pending", "", nil), pod("ns", "lost", "zzz", nil), pod("ns", "besteffort", "b", nil)},
		Namespaces: []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "ns", Labels: map[string]string{"team": "a"}}}},
	})
	require.NoError(t, err)
	assert.Equal(t, []Warning{
		{Object: "pod ns/done", Reason: "terminal phase Succeeded; ignored"},
		{Object: "pod ns/pending", Reason: "not bound to a node (no spec.nodeName); ignored"},
		{Object: "pod ns/lost", Reason: `bound to unknown node "zzz"; ignored`},
	}, warnings)
	require.Len(t, NodesOf(snap), 2)
	assert.Equal(t, "a", NodesOf(snap)[0].Name)
	assert.Equal(t, int64(4000), NodesOf(snap)[0].Allocatable.MilliCPU, "capacity when allocatable is unset")
	b, ok := NodeOf(snap, "b")
	require.True(t, ok)
	assert.Equal(t, 1, b.Index)
	var keys []string
	for _, p := range b.Pods {
		keys = append(keys, p.Key)
	}
	assert.Equal(t, []string{"ns/besteffort", "ns/web", "ns/x"}, keys)
	assert.Equal(t, int64(1500), b.Requested.MilliCPU)
	assert.Equal(t, int64(1), b.Requested.Scalar["example.com/gpu"])
	assert.Equal(t, int64(1600), b.NonZeroRequested.MilliCPU)
	assert.Equal(t, []HostPort{{IP: "0.0.0.0", Protocol: corev1.ProtocolTCP, Port: 80}, {IP: "10.0.0.1", Protocol: corev1.ProtocolUDP, Port: 53}}, b.UsedPorts)
	assert.Equal(t, map[string]string{"team": "a", "kubernetes.io/metadata.name": "ns"}, snap.NamespaceLabels("ns"))
	assert.Nil(t, snap.NamespaceLabels("other"))
}

// TestViews: WithPod and WithoutPods change only the touched node, leave the
// receiver unchanged, and undo each other.
func TestViews(t *testing.T) {
	p1 := pod("ns", "p1", "n1", rl("cpu", "1"))
	p1.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: 8080}}
	snap, _, err := New(Input{
		Nodes: []*corev1.Node{node("n1", nil, rl("cpu", "4", "pods", "10")), node("n2", nil, rl("cpu", "4", "pods", "10"))},
		Pods:  []*corev1.Pod{p1},
	})
	require.NoError(t, err)
	n1, n2 := NodesOf(snap)[0], NodesOf(snap)[1]

	added, err := snap.WithPod(pod("ns", "p2", "n1", rl("cpu", "2")))
	require.NoError(t, err)
	assert.Same(t, n2, NodesOf(added)[1], "untouched node shared")
	assert.NotSame(t, n1, NodesOf(added)[0])
	assert.Equal(t, int64(3000), NodesOf(added)[0].Requested.MilliCPU)
	assert.Equal(t, int64(1000), NodesOf(snap)[0].Requested.MilliCPU, "receiver unchanged")
	_, _, ok := PodOf(added, "ns/p2")
	assert.True(t, ok)

	_, err = added.WithPod(pod("ns", "p2", "n2", nil))
	require.ErrorIs(t, err, ErrInvalidView, "already bound")
	_, err = snap.WithPod(pod("ns", "p3", "nope", nil))
	require.ErrorIs(t, err, ErrInvalidView, "unknown node")

	removed := added.WithoutPods("ns/p1", "ns/unknown")
	got := NodesOf(removed)[0]
	assert.Equal(t, int64(2000), got.Requested.MilliCPU)
	assert.Empty(t, got.UsedPorts)
	assert.Len(t, got.Pods, 1)
	_, _, ok = PodOf(removed, "ns/p1")
	assert.False(t, ok)
	assert.Same(t, snap, snap.WithoutPods("ns/unknown"), "nothing to remove: same snapshot")

	back, err := removed.WithPod(p1)
	require.NoError(t, err)
	assert.Equal(t, int64(3000), NodesOf(back)[0].Requested.MilliCPU)
	assert.Equal(t, 2, back.NumPods())
}

// TestNodeOrder: NodeInfo.Order follows framework.NodeInfo's pod slice
// (framework/types.go AddPod appends, removeFromSlice moves the last pod into
// the removed one's slot), starting from the input order, while Pods stays
// in key order.
func TestNodeOrder(t *testing.T) {
	names := func(list []*PodInfo) []string {
		var out []string
		for _, p := range list {
			out = append(out, p.Pod.Name)
		}
		return out
	}
	var pods []*corev1.Pod
	for _, n := range []string{"d", "b", "a", "c"} {
		pods = append(pods, pod("ns", n, "n1", nil))
	}
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("pods", "10"))}, Pods: pods})
	require.NoError(t, err)
	assert.Equal(t, []string{"d", "b", "a", "c"}, names(NodesOf(snap)[0].Order))
	assert.Equal(t, []string{"a", "b", "c", "d"}, names(NodesOf(snap)[0].Pods))

	added, err := snap.WithPod(pod("ns", "e", "n1", nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"d", "b", "a", "c", "e"}, names(NodesOf(added)[0].Order))

	// Removed one at a time in the order given: b's slot takes e, then d's takes c.
	removed := added.WithoutPods("ns/b", "ns/d")
	assert.Equal(t, []string{"c", "e", "a"}, names(NodesOf(removed)[0].Order))
	assert.Equal(t, []string{"d", "b", "a", "c", "e"}, names(NodesOf(added)[0].Order), "receiver unchanged")

	n := NodesOf(added)[0]
	a, _, _ := PodOf(added, "ns/a")
	assert.Equal(t, []string{"d", "b", "e", "c"}, names(n.WithoutPod(a).Order))
	assert.Equal(t, []string{"d", "b", "e", "c", "a"}, names(n.WithoutPod(a).WithPodInfo(a).Order))
	assert.Equal(t, []string{"d", "b", "a", "c", "e"}, names(n.Order), "receiver unchanged")
}

// TestViewChainCompacts: a long chain of WithPod views keeps finding pods.
func TestViewChainCompacts(t *testing.T) {
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("pods", "5000"))}})
	require.NoError(t, err)
	for i := range compactThreshold + 10 {
		snap, err = snap.WithPod(pod("ns", "p"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strconv.Itoa(i), "n1", nil))
		require.NoError(t, err)
	}
	assert.Equal(t, compactThreshold+10, snap.NumPods())
	_, _, ok := PodOf(snap, "ns/pa0")
	assert.True(t, ok)
	assert.Equal(t, compactThreshold+9, snap.WithoutPods("ns/pa0").NumPods())
}

// TestRemovedPodFreesSharedPort mirrors HostPortInfo.Remove's set semantics
// (framework.NodeInfo.RemovePod): two pods declare the same host port, and
// removing one frees it, as upstream does.
func TestRemovedPodFreesSharedPort(t *testing.T) {
	a, b := pod("ns", "a", "n1", nil), pod("ns", "b", "n1", nil)
	a.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: 80}}
	b.Spec.Containers[0].Ports = []corev1.ContainerPort{{HostPort: 80, Protocol: corev1.ProtocolTCP, HostIP: "0.0.0.0"}}
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, rl("pods", "10"))}, Pods: []*corev1.Pod{a, b}})
	require.NoError(t, err)
	assert.Len(t, NodesOf(snap)[0].UsedPorts, 1, "a set: one entry for both pods")
	assert.Empty(t, NodesOf(snap.WithoutPods("ns/a"))[0].UsedPorts)
}

// TestPodInfoStartTime: a PodInfo records status.startTime and whether it
// is set, so that a set zero time (upstream's GetPodStartTime returns it)
// differs from no start time (upstream uses the current time).
func TestPodInfoStartTime(t *testing.T) {
	at := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	zero := metav1.Time{}
	var decoded metav1.Time
	require.NoError(t, decoded.UnmarshalJSON([]byte(`"2025-01-02T03:04:05Z"`)))
	now := metav1.Now()
	zoned := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600)))
	far := metav1.NewTime(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC))
	early := metav1.NewTime(time.Date(1600, 1, 1, 0, 0, 0, 0, time.Local))
	anti := &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
		{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}}}
	for _, tt := range []struct {
		name   string
		start  *metav1.Time
		want   time.Time
		wantOK bool
	}{
		{"unset", nil, time.Time{}, false},
		{"set", &at, at.Time, true},
		{"set to the zero time", &zero, time.Time{}, true},
		{"decoded (local)", &decoded, decoded.Time, true},
		{"with a monotonic reading", &now, now.Time, true},
		{"in another location", &zoned, zoned.Time, true},
		{"past int64 nanoseconds", &far, far.Time, true},
		{"before int64 nanoseconds", &early, early.Time, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// With pod anti-affinity too: the terms are shared among
			// equal specs, the start time is each pod's own.
			for _, aff := range []*corev1.Affinity{nil, anti} {
				pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
				pod.Spec.Affinity = aff
				pod.Status.StartTime = tt.start
				pi, err := NewPodInfo(pod)
				require.NoError(t, err)
				got, ok := pi.StartTime()
				require.Equal(t, tt.wantOK, ok)
				require.True(t, tt.want.Equal(got), "got %v", got)
				// The very time recorded: location and monotonic reading.
				require.True(t, tt.want == got, "got %#v, want %#v", got, tt.want)
				require.Equal(t, aff != nil, len(pi.RequiredAntiAffinityTerms()) == 1)
			}
		})
	}
}

// TestNewNegativeNodeQuantity: the nodes' quantities are checked beside the
// pods (preparePods), yet a node with a negative quantity is left out as a
// serial pass leaves it: a later node of its name is no duplicate, pods
// bound to it are warned about as bound to an unknown node, and the errors
// keep input order (nodes, namespaces, pods), for small and large inputs.
func TestNewNegativeNodeQuantity(t *testing.T) {
	for _, extra := range []int{0, parallelPods} {
		neg := node("n1", nil, rl("cpu", "-1"))
		capNeg := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n2"}, Status: corev1.NodeStatus{Capacity: rl("cpu", "4", "memory", "-1")}}
		pods := []*corev1.Pod{pod("ns", "on-n2", "n2", nil), pod("ns", "on-n1", "n1", nil), pod("ns", "neg", "n1", rl("memory", "-1Gi"))}
		for i := range extra {
			pods = append(pods, pod("ns", fmt.Sprintf("p%05d", i), "n1", nil))
		}
		_, warnings, err := New(Input{
			Nodes:      []*corev1.Node{neg, node("n1", nil, nil), capNeg, nil},
			Pods:       pods,
			Namespaces: []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, {ObjectMeta: metav1.ObjectMeta{Name: "x"}}},
		})
		require.Error(t, err)
		assert.Equal(t, "[nodes[0].status.allocatable[cpu]: Invalid value: \"-1\": must be greater than or equal to 0, "+
			"nodes[2].status.capacity[memory]: Invalid value: \"-1\": must be greater than or equal to 0, "+
			"nodes[3]: Required value: node must not be null, "+
			"namespaces[1].metadata.name: Duplicate value: \"x\", "+
			"pods[2].spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0]", err.Error())
		assert.Equal(t, []Warning{{Object: "pod ns/on-n2", Reason: `bound to unknown node "n2"; ignored`}}, warnings)
	}
}

// TestNewSharedExtras: pods whose affinity specs are equal share their
// compiled terms, while each keeps its own host ports and start time.
func TestNewSharedExtras(t *testing.T) {
	anti := &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
		{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}}}
	utc := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	zoned := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600)))
	a, b, c := pod("ns", "a", "n1", nil), pod("ns", "b", "n1", nil), pod("ns", "c", "n1", nil)
	for _, p := range []*corev1.Pod{a, b, c} {
		p.Spec.Affinity = anti
	}
	a.Status.StartTime, b.Status.StartTime = &utc, &zoned
	b.Spec.Containers = append(b.Spec.Containers, corev1.Container{Name: "ports", Ports: []corev1.ContainerPort{{HostPort: 80}}})
	snap, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, nil)}, Pods: []*corev1.Pod{a, b, c}})
	require.NoError(t, err)
	got := map[string]*PodInfo{}
	for _, pi := range snap.nodes[0].Pods {
		got[pi.Pod.Name] = pi
	}
	require.Same(t, &got["a"].RequiredAntiAffinityTerms()[0], &got["c"].RequiredAntiAffinityTerms()[0])
	require.Len(t, got["b"].RequiredAntiAffinityTerms(), 1)
	for name, want := range map[string]*metav1.Time{"a": &utc, "b": &zoned, "c": nil} {
		st, ok := got[name].StartTime()
		require.Equal(t, want != nil, ok, name)
		if want != nil {
			require.True(t, want.Time == st, "%s: %v", name, st)
		}
	}
	require.Nil(t, got["a"].HostPorts())
	require.Nil(t, got["c"].HostPorts())
	require.Equal(t, []HostPort{{IP: "0.0.0.0", Protocol: corev1.ProtocolTCP, Port: 80}}, got["b"].HostPorts())
}

// TestNewPodIdentityErrors: a null pod, an unnamed one and a second pod of
// a key are errors with their paths, in input order, for small and large
// inputs; the first pod of a key is kept.
func TestNewPodIdentityErrors(t *testing.T) {
	for _, extra := range []int{0, parallelPods} {
		pods := []*corev1.Pod{pod("ns", "a", "n1", nil), nil, pod("ns", "", "n1", nil), pod("ns", "a", "n1", nil)}
		for i := range extra {
			pods = append(pods, pod("ns", fmt.Sprintf("p%05d", i), "n1", nil))
		}
		_, _, err := New(Input{Nodes: []*corev1.Node{node("n1", nil, nil)}, Pods: pods})
		require.Error(t, err)
		assert.Equal(t, "[pods[1]: Required value: pod must not be null, "+
			"pods[2].metadata.name: Required value, "+
			"pods[3].metadata.name: Duplicate value: \"ns/a\"]", err.Error())
	}
}
