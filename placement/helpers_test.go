package placement

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/testbuild"
)

// Small builders for table tests.

type nodeOpt func(*corev1.Node)

func mkNode(name string, cpu, mem string, opts ...nodeOpt) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(cpu),
			corev1.ResourceMemory: resource.MustParse(mem),
			corev1.ResourcePods:   resource.MustParse("110"),
		}},
	}
	for _, o := range opts {
		o(n)
	}
	return n
}

func withLabels(kv ...string) nodeOpt {
	return func(n *corev1.Node) { testbuild.AddLabels(n.Labels, kv...) }
}

func withTaint(key, value string, effect corev1.TaintEffect) nodeOpt {
	return func(n *corev1.Node) {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
	}
}

func unschedulable() nodeOpt { return func(n *corev1.Node) { n.Spec.Unschedulable = true } }

func withAllocatable(name corev1.ResourceName, q string) nodeOpt {
	return func(n *corev1.Node) { n.Status.Allocatable[name] = resource.MustParse(q) }
}

func withImage(size int64, names ...string) nodeOpt {
	return func(n *corev1.Node) {
		n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: names, SizeBytes: size})
	}
}

type podOpt func(*corev1.Pod)

func mkPod(name string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img"}}},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func requests(kv ...string) podOpt {
	return func(p *corev1.Pod) { p.Spec.Containers[0].Resources.Requests = testbuild.Resources(kv...) }
}

func onNode(n string) podOpt { return func(p *corev1.Pod) { p.Spec.NodeName = n } }

func hostPort(port int32, ip string, proto corev1.Protocol) podOpt {
	return func(p *corev1.Pod) {
		c := &p.Spec.Containers[0]
		c.Ports = append(c.Ports, corev1.ContainerPort{ContainerPort: port, HostPort: port, HostIP: ip, Protocol: proto})
	}
}

func tolerate(key, value string, op corev1.TolerationOperator, effect corev1.TaintEffect) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Value: value, Operator: op, Effect: effect})
	}
}

func withNodeSelector(kv ...string) podOpt {
	return func(p *corev1.Pod) { p.Spec.NodeSelector = testbuild.Labels(kv...) }
}

func nodeAffinity(na *corev1.NodeAffinity) podOpt {
	return func(p *corev1.Pod) {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &corev1.Affinity{}
		}
		p.Spec.Affinity.NodeAffinity = na
	}
}

func requiredTerms(terms ...corev1.NodeSelectorTerm) *corev1.NodeAffinity {
	return &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms}}
}

func expr(key string, op corev1.NodeSelectorOperator, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func snapshotOf(t testing.TB, nodes []*corev1.Node, pods ...*corev1.Pod) *Snapshot {
	t.Helper()
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods})
	require.NoError(t, err)
	return snap
}

// bigCluster builds nodes nodes in 3 zones with podsPerNode bound pods each
// (requests only), the benchmark shape of the issue.
func bigCluster(tb testing.TB, nodes, podsPerNode int) *Snapshot {
	tb.Helper()
	in := bigInput(nodes, podsPerNode)
	snap, _, err := newTestSnapshot(in)
	require.NoError(tb, err)
	return snap
}

func bigInput(nodes, podsPerNode int) cluster.Input {
	var ns []*corev1.Node
	var ps []*corev1.Pod
	for i := range nodes {
		name := fmt.Sprintf("node-%05d", i)
		ns = append(ns, mkNode(name, "32", "128Gi", withLabels(corev1.LabelTopologyZone, fmt.Sprintf("zone-%d", i%3)),
			withImage(300*1024*1024, "registry.example.com/app:1.0")))
		for j := range podsPerNode {
			ps = append(ps, mkPod(fmt.Sprintf("p-%05d-%02d", i, j), onNode(name), requests("cpu", "250m", "memory", "1Gi")))
		}
	}
	return cluster.Input{Nodes: ns, Pods: ps}
}

// newTestSnapshot is cluster.New presented as a public Snapshot: the
// input is taken as given (no StoredPod), as the internal tests build it.
func newTestSnapshot(in cluster.Input) (*Snapshot, []cluster.Warning, error) {
	s, w, err := cluster.New(in)
	return publicSnapshot(s), w, err
}
