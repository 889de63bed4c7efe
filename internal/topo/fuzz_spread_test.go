package topo

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// FuzzCompileSpread feeds arbitrary topology spread constraints (selector,
// matchLabelKeys, maxSkew, minDomains, policies, whenUnsatisfiable) to
// NewSpread, which compiles them as PodTopologySpread's
// filterTopologySpreadConstraints does. A constraint the API server refuses
// (maxSkew or minDomains below 1, no topologyKey, another action) must give
// an error naming it, an invalid selector an error naming
// spec.topologySpreadConstraints[0].labelSelector; any other
// input must compile and the plugin's Filter and Score must run on every
// node without panicking, deterministically, and without modifying the pod.
func FuzzCompileSpread(f *testing.F) {
	f.Add("app In a", "rev", int32(1), int32(0), "topology.kubernetes.io/zone", "DoNotSchedule", "", "")
	f.Add("app Bogus a", "", int32(1), int32(2), "kubernetes.io/hostname", "ScheduleAnyway", "Honor", "Honor")
	f.Add("", "app,rev", int32(0), int32(-1), "", "DoNotSchedule", "Ignore", "Ignore")
	f.Add("x DoesNotExist", "", int32(-3), int32(5), "zone", "Other", "Bad", "")
	f.Fuzz(func(t *testing.T, sel, matchKeys string, maxSkew, minDom int32, key, when, affPolicy, taintPolicy string) {
		c := corev1.TopologySpreadConstraint{
			MaxSkew:           maxSkew,
			TopologyKey:       key,
			WhenUnsatisfiable: corev1.UnsatisfiableConstraintAction(when),
			LabelSelector:     &metav1.LabelSelector{MatchExpressions: parseExprs(sel)},
		}
		if matchKeys != "" {
			c.MatchLabelKeys = strings.Split(matchKeys, ",")
		}
		if minDom != 0 {
			c.MinDomains = &minDom
		}
		if affPolicy != "" {
			p := corev1.NodeInclusionPolicy(affPolicy)
			c.NodeAffinityPolicy = &p
		}
		if taintPolicy != "" {
			p := corev1.NodeInclusionPolicy(taintPolicy)
			c.NodeTaintsPolicy = &p
		}
		pod := mkPod("incoming", "", lbl("app", "a", "rev", "1"), func(p *corev1.Pod) {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{c}
		})
		before := pod.DeepCopy()
		snap, _, err := cluster.New(cluster.Input{
			Nodes: []*corev1.Node{zoned("n1", "z1"), zoned("n2", "z2"), mkNode("n3", corev1.LabelHostname, "n3")},
			Pods:  []*corev1.Pod{mkPod("b1", "n1", lbl("app", "a", "rev", "1")), mkPod("b2", "n2", lbl("app", "b"))},
		})
		if err != nil {
			t.Fatal(err)
		}
		pi, err := cluster.NewPodInfo(pod)
		if err != nil {
			return // rejected before the plugin: nothing further to check here
		}
		run := func() string {
			s, err := NewSpread(pi, snap, SpreadOptions{})
			invalid := maxSkew <= 0 || minDom < 0 || key == "" ||
				(c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway)
			if invalid && err == nil {
				t.Fatalf("constraint %+v accepted, the API server refuses it", c)
			}
			if err != nil {
				path := "spec.topologySpreadConstraints[0].labelSelector"
				if invalid {
					path = "spec.topologySpreadConstraints[0]."
				}
				if !strings.Contains(err.Error(), path) {
					t.Fatalf("error without the constraint's path: %v", err)
				}
				return "error"
			}
			var b strings.Builder
			for _, n := range cluster.NodesOf(snap) {
				b.WriteString(s.Filter(n).String())
				b.WriteByte(';')
			}
			raw, norm, skip := s.Score(cluster.NodesOf(snap))
			fmt.Fprint(&b, raw, norm, skip)
			return b.String()
		}
		first := run()
		if second := run(); first != second {
			t.Fatalf("not deterministic: %q then %q", first, second)
		}
		if pod.String() != before.String() {
			t.Fatal("the pod was modified")
		}
	})
}
