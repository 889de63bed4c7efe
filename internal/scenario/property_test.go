package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// Small pools, so that collisions (same class, same label, same port) happen.
var (
	poolQuantities = []string{"100m", "0.5", "1", "250m", "0.0001", "1Gi", "64Mi", "1.5"}
	poolResources  = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, "example.com/gpu"}
	poolClasses    = []string{"", "", "low", "high", "ghost", SystemNodeCritical}
	poolLabelKeys  = []string{"app", "version", "tier"}
	poolValues     = []string{"a", "b", "c"}
	poolNamespaces = []string{"", "team"}
)

func genResourceList(t *rapid.T, label string) corev1.ResourceList {
	n := rapid.IntRange(0, 2).Draw(t, label+"-n")
	if n == 0 {
		return nil
	}
	out := corev1.ResourceList{}
	for i := 0; i < n; i++ {
		name := rapid.SampledFrom(poolResources).Draw(t, label+"-name")
		out[name] = resource.MustParse(rapid.SampledFrom(poolQuantities).Draw(t, label+"-q"))
	}
	return out
}

func genContainer(t *rapid.T, name string) corev1.Container {
	c := corev1.Container{Name: name, Image: rapid.SampledFrom([]string{"app", "app:1", "app:latest"}).Draw(t, "image")}
	c.Resources.Requests = genResourceList(t, "req")
	c.Resources.Limits = genResourceList(t, "lim")
	for i := rapid.IntRange(0, 2).Draw(t, "ports"); i > 0; i-- {
		c.Ports = append(c.Ports, corev1.ContainerPort{
			ContainerPort: rapid.SampledFrom([]int32{53, 80, 8080}).Draw(t, "port"),
			HostPort:      rapid.SampledFrom([]int32{0, 0, 80}).Draw(t, "hostPort"),
			Protocol:      rapid.SampledFrom([]corev1.Protocol{"", corev1.ProtocolTCP, corev1.ProtocolUDP}).Draw(t, "protocol"),
		})
	}
	return c
}

func genPod(t *rapid.T, name string) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: rapid.SampledFrom(poolNamespaces).Draw(t, "ns")}}
	p.Labels = map[string]string{}
	for _, k := range poolLabelKeys {
		if rapid.Bool().Draw(t, "has-"+k) {
			p.Labels[k] = rapid.SampledFrom(poolValues).Draw(t, "value-"+k)
		}
	}
	p.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	p.Spec.PriorityClassName = rapid.SampledFrom(poolClasses).Draw(t, "class")
	if rapid.Bool().Draw(t, "has-priority") {
		v := rapid.Int32Range(-5, 5).Draw(t, "priority")
		p.Spec.Priority = &v
	}
	for i := rapid.IntRange(1, 2).Draw(t, "containers"); i > 0; i-- {
		p.Spec.Containers = append(p.Spec.Containers, genContainer(t, fmt.Sprintf("c%d", i)))
	}
	if rapid.Bool().Draw(t, "has-init") {
		p.Spec.InitContainers = append(p.Spec.InitContainers, genContainer(t, "init"))
	}
	if rapid.Bool().Draw(t, "has-pod-resources") {
		p.Spec.Resources = &corev1.ResourceRequirements{Limits: genResourceList(t, "pod-lim"), Requests: genResourceList(t, "pod-req")}
	}
	if rapid.Bool().Draw(t, "has-affinity") {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
			TopologyKey:       "zone",
			MatchLabelKeys:    rapid.SliceOfNDistinct(rapid.SampledFrom(poolLabelKeys), 0, 2, rapid.ID[string]).Draw(t, "matchLabelKeys"),
			MismatchLabelKeys: rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"tier"}), 0, 1, rapid.ID[string]).Draw(t, "mismatchLabelKeys"),
		}}}}
	}
	if rapid.Bool().Draw(t, "has-nominated") {
		p.Status.NominatedNodeName = "n1"
	}
	return p
}

func genScenario(t *rapid.T) *Scenario {
	never := corev1.PreemptNever
	s := &Scenario{
		Nodes: []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: corev1.NodeStatus{Capacity: genResourceList(t, "capacity")}}},
		PriorityClasses: []schedulingv1.PriorityClass{
			{ObjectMeta: metav1.ObjectMeta{Name: "low"}, Value: 10, GlobalDefault: rapid.Bool().Draw(t, "low-default")},
			{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000, PreemptionPolicy: &never, GlobalDefault: rapid.Bool().Draw(t, "high-default")},
		},
	}
	for i := rapid.IntRange(0, 3).Draw(t, "bound"); i > 0; i-- {
		p := genPod(t, fmt.Sprintf("bound-%d", i))
		p.Spec.NodeName = "n1"
		s.Pods = append(s.Pods, p)
	}
	for i := rapid.IntRange(1, 4).Draw(t, "pending"); i > 0; i-- {
		s.Pending = append(s.Pending, genPod(t, fmt.Sprintf("pending-%d", i)))
	}
	return s
}

// TestNormalizeProperties checks invariants of the API-server emulation on
// random scenarios.
func TestNormalizeProperties(t *testing.T) {
	t.Run("the input is never modified", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			s := genScenario(t)
			before := s.DeepCopy()
			_, _, err := Normalize(s)
			require.NoError(t, err)
			require.Equal(t, before, s)
		})
	})
	t.Run("every pod leaves with what the scheduler relies on", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n, _, err := Normalize(genScenario(t))
			require.NoError(t, err)
			for _, p := range append(slices.Clone(n.Pods), n.Pending...) {
				require.NotEmpty(t, p.Namespace)
				require.NotEmpty(t, p.UID)
				require.NotNil(t, p.Spec.Priority)
				require.NotNil(t, p.Spec.PreemptionPolicy)
				require.Equal(t, corev1.RestartPolicyAlways, p.Spec.RestartPolicy)
				for _, c := range append(slices.Clone(p.Spec.Containers), p.Spec.InitContainers...) {
					for name, lim := range c.Resources.Limits {
						_, ok := c.Resources.Requests[name]
						require.True(t, ok, "a limit without a request gets one: %s", name)
						require.Zero(t, lim.Cmp(roundedToMilli(lim)), "limits are rounded to milli: %s", lim.String())
					}
					for _, req := range c.Resources.Requests {
						require.Zero(t, req.Cmp(roundedToMilli(req)), "requests are rounded to milli: %s", req.String())
					}
					for _, port := range c.Ports {
						require.NotEmpty(t, port.Protocol)
						if p.Spec.HostNetwork {
							require.NotZero(t, port.HostPort, "hostNetwork ports are host ports")
						}
					}
				}
			}
			for _, p := range n.Pending {
				require.Empty(t, p.Status.NominatedNodeName, "pending pods' nominated node is ignored")
			}
			for _, p := range n.Pods {
				require.NotNil(t, p.Status.StartTime, "bound pods have a start time")
			}
		})
	})
	t.Run("pods are normalized independently of their order", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			s := genScenario(t)
			n, _, err := Normalize(s)
			require.NoError(t, err)
			r := s.DeepCopy()
			slices.Reverse(r.Pending)
			rn, _, err := Normalize(r)
			require.NoError(t, err)
			slices.Reverse(rn.Pending)
			require.Equal(t, n.Pending, rn.Pending)
		})
	})
	t.Run("a normalized scenario survives a JSON round trip and normalizes to the same defaults", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n, _, err := Normalize(genScenario(t))
			require.NoError(t, err)
			data, err := json.Marshal(n)
			require.NoError(t, err)
			again, warnings, err := Decode(data)
			require.NoError(t, err)
			require.Empty(t, warnings)
			twice, _, err := Normalize(again)
			require.NoError(t, err)
			for i := range n.Pending {
				a, b := n.Pending[i].Spec, twice.Pending[i].Spec
				assert.Equal(t, a.Priority, b.Priority)
				assert.Equal(t, a.PreemptionPolicy, b.PreemptionPolicy)
				for j := range a.Containers {
					assert.Equal(t, quantities(a.Containers[j].Resources.Requests), quantities(b.Containers[j].Resources.Requests))
					assert.Equal(t, a.Containers[j].Ports, b.Containers[j].Ports)
				}
				if a.Resources != nil {
					assert.Equal(t, quantities(a.Resources.Requests), quantities(b.Resources.Requests))
				}
			}
		})
	})
}

// roundedToMilli is q as SetDefaults_ResourceList leaves it: rounded up to
// milli precision.
func roundedToMilli(q resource.Quantity) resource.Quantity {
	c := q.DeepCopy()
	c.RoundUp(-3)
	return c
}
