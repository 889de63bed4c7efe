package topo

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/internal/testbuild"
)

// Small builders for the tests of this package.

func mkNode(name string, kv ...string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: testbuild.Labels(kv...)}}
	n.Status.Allocatable = corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("64"),
		corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods:   resource.MustParse("1000"),
	}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

// zoned builds a node with a hostname label and a zone label.
func zoned(name, zone string) *corev1.Node {
	return mkNode(name, corev1.LabelHostname, name, corev1.LabelTopologyZone, zone)
}

type podOpt func(*corev1.Pod)

func mkPod(name, nodeName string, kv []string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Labels: testbuild.Labels(kv...)}}
	p.Spec.NodeName = nodeName
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "img"}}
	for _, o := range opts {
		o(p)
	}
	return p
}

func lbl(kv ...string) []string { return kv }

func inNamespace(ns string) podOpt { return func(p *corev1.Pod) { p.Namespace = ns } }

func terminating() podOpt {
	return func(p *corev1.Pod) {
		ts := metav1.Now()
		p.DeletionTimestamp = &ts
	}
}

func selector(kv ...string) *metav1.LabelSelector { return testbuild.Selector(kv...) }

func spreadOn(maxSkew int32, key string, when corev1.UnsatisfiableConstraintAction, sel *metav1.LabelSelector, mod ...func(*corev1.TopologySpreadConstraint)) podOpt {
	return func(p *corev1.Pod) {
		c := corev1.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: sel}
		for _, m := range mod {
			m(&c)
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
}

func minDomains(n int32) func(*corev1.TopologySpreadConstraint) {
	return func(c *corev1.TopologySpreadConstraint) { c.MinDomains = &n }
}

func policies(aff, taints corev1.NodeInclusionPolicy) func(*corev1.TopologySpreadConstraint) {
	return func(c *corev1.TopologySpreadConstraint) {
		if aff != "" {
			c.NodeAffinityPolicy = &aff
		}
		if taints != "" {
			c.NodeTaintsPolicy = &taints
		}
	}
}

func ensureAffinity(p *corev1.Pod) *corev1.Affinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	return p.Spec.Affinity
}

func term(key string, sel *metav1.LabelSelector) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{TopologyKey: key, LabelSelector: sel}
}

func requiredAffinity(terms ...corev1.PodAffinityTerm) podOpt {
	return func(p *corev1.Pod) {
		a := ensureAffinity(p)
		if a.PodAffinity == nil {
			a.PodAffinity = &corev1.PodAffinity{}
		}
		a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, terms...)
	}
}

func requiredAntiAffinity(terms ...corev1.PodAffinityTerm) podOpt {
	return func(p *corev1.Pod) {
		a := ensureAffinity(p)
		if a.PodAntiAffinity == nil {
			a.PodAntiAffinity = &corev1.PodAntiAffinity{}
		}
		a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, terms...)
	}
}

func preferredAffinity(weight int32, t corev1.PodAffinityTerm) podOpt {
	return func(p *corev1.Pod) {
		a := ensureAffinity(p)
		if a.PodAffinity == nil {
			a.PodAffinity = &corev1.PodAffinity{}
		}
		a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			corev1.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: t})
	}
}

func preferredAntiAffinity(weight int32, t corev1.PodAffinityTerm) podOpt {
	return func(p *corev1.Pod) {
		a := ensureAffinity(p)
		if a.PodAntiAffinity == nil {
			a.PodAntiAffinity = &corev1.PodAntiAffinity{}
		}
		a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			corev1.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: t})
	}
}

func nodeSelector(kv ...string) podOpt {
	return func(p *corev1.Pod) { p.Spec.NodeSelector = testbuild.Labels(kv...) }
}

func tolerate(key string) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists})
	}
}

func tainted(n *corev1.Node, key string) *corev1.Node {
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Effect: corev1.TaintEffectNoSchedule})
	return n
}

func snapshotOf(t testing.TB, in cluster.Input) *cluster.Snapshot {
	t.Helper()
	s, _, err := cluster.New(in)
	require.NoError(t, err)
	return s
}

func podInfo(t require.TestingT, p *corev1.Pod) *cluster.PodInfo {
	pi, err := cluster.NewPodInfo(p)
	require.NoError(t, err)
	return pi
}

// plugins compiles pod and both plugins on snap with default options.
func plugins(t require.TestingT, snap *cluster.Snapshot, pod *corev1.Pod) (*cluster.PodInfo, *Spread, *InterPodAffinity) {
	pi := podInfo(t, pod)
	s, err := NewSpread(pi, snap, SpreadOptions{})
	require.NoError(t, err)
	a, err := NewInterPodAffinity(pi, snap, AffinityOptions{})
	require.NoError(t, err)
	return pi, s, a
}

// codes runs a filter over every node of the snapshot and returns the codes
// by node name.
func codes(snap *cluster.Snapshot, filter func(*cluster.NodeInfo) sched.Status) map[string]string {
	out := map[string]string{}
	for _, n := range cluster.NodesOf(snap) {
		out[n.Name] = filter(n).Code.String()
	}
	return out
}
