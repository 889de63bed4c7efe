package whatif

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testbuild"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

func controlled(p *corev1.Pod) *corev1.Pod {
	p.OwnerReferences = append(p.OwnerReferences, metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs", Controller: ptrTo(true)})
	return p
}

func budget(name string, allowed int32, kv ...string) *policyv1.PodDisruptionBudget {
	one := intstr.FromInt32(1)
	return &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:   policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: testbuild.Selector(kv...)},
		Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed}}
}

func TestScaleDownRules(t *testing.T) {
	pod := func(name string, opts ...func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: testbuild.Labels("app", "web")},
			Spec: corev1.PodSpec{NodeName: "a", Containers: []corev1.Container{{Name: "c",
				Resources: corev1.ResourceRequirements{Requests: testbuild.Resources("cpu", "100m")}}}}}
		for _, o := range opts {
			o(p)
		}
		return p
	}
	owned := func(p *corev1.Pod) { controlled(p) }
	annotate := func(k, v string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Annotations = map[string]string{k: v} }
	}
	emptyDir := func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	}
	for _, tc := range []struct {
		name  string
		pod   *corev1.Pod
		pdbs  []*policyv1.PodDisruptionBudget
		rules DrainabilityRules
		want  BlockingRule // "" = removable
	}{
		{"replicated pod moves", pod("p", owned), nil, DrainabilityRules{}, ""},
		{"pod without controller blocks", pod("p"), nil, DrainabilityRules{}, NotReplicated},
		{"pod without controller moves when allowed", pod("p"), nil, DrainabilityRules{EvictUnreplicated: true}, ""},
		{"safe-to-evict true moves a bare pod", pod("p", annotate(SafeToEvictAnnotation, "true")), nil, DrainabilityRules{}, ""},
		{"safe-to-evict false blocks", pod("p", owned, annotate(SafeToEvictAnnotation, "false")), nil, DrainabilityRules{}, NotSafeToEvictAnnotation},
		{"budget with no disruption blocks", pod("p", owned), []*policyv1.PodDisruptionBudget{budget("b", 0, "app", "web")}, DrainabilityRules{}, NotEnoughPdb},
		{"budget with one disruption lets it move", pod("p", owned), []*policyv1.PodDisruptionBudget{budget("b", 1, "app", "web")}, DrainabilityRules{}, ""},
		{"budget of another app does not count", pod("p", owned), []*policyv1.PodDisruptionBudget{budget("b", 0, "app", "db")}, DrainabilityRules{}, ""},
		{"safe-to-evict true still spends the budget", pod("p", annotate(SafeToEvictAnnotation, "true")), []*policyv1.PodDisruptionBudget{budget("b", 0, "app", "web")}, DrainabilityRules{}, NotEnoughPdb},
		{"local storage blocks", pod("p", owned, emptyDir), nil, DrainabilityRules{}, LocalStorageRequested},
		{"local storage moves when allowed", pod("p", owned, emptyDir), nil, DrainabilityRules{EvictLocalStorage: true}, ""},
		{"local volume listed safe moves", pod("p", owned, emptyDir, annotate(SafeToEvictLocalVolumesAnnotation, "scratch")), nil, DrainabilityRules{}, ""},
		{"kube-system pod without budget blocks", pod("p", owned, func(p *corev1.Pod) { p.Namespace = "kube-system" }), nil, DrainabilityRules{}, UnmovableKubeSystemPod},
		{"kube-system pod moves when allowed", pod("p", owned, func(p *corev1.Pod) { p.Namespace = "kube-system" }), nil, DrainabilityRules{EvictSystemPods: true}, ""},
		{"DaemonSet pod does not block", pod("p", func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: "DaemonSet", Name: "ds", UID: "ds", Controller: ptrTo(true)}}
		}), nil, DrainabilityRules{}, ""},
		{"mirror pod does not block", pod("p", annotate(corev1.MirrorPodAnnotationKey, "x")), nil, DrainabilityRules{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []*corev1.Node{exampleNodeT("a"), exampleNodeT("b")}
			snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: nodes, Pods: []*corev1.Pod{tc.pod}, PDBs: tc.pdbs})
			require.NoError(t, err)
			r, err := ScaleDown(snap, []string{"a"}, ScaleDownOptions{Rules: tc.rules})
			require.NoError(t, err)
			require.Len(t, r.Nodes, 1)
			if tc.want == "" {
				assert.True(t, r.Nodes[0].Removable, "%+v", r.Nodes[0].Blocker)
				return
			}
			require.NotNil(t, r.Nodes[0].Blocker)
			assert.Equal(t, tc.want, r.Nodes[0].Blocker.Rule)
			assert.Equal(t, tc.pod.Namespace+"/p", r.Nodes[0].Blocker.Pod)
		})
	}
}

func exampleNodeT(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: testbuild.Labels("kubernetes.io/hostname", name)},
		Status: corev1.NodeStatus{Allocatable: testbuild.Resources("cpu", "2", "memory", "4Gi", "pods", "110")}}
}

func TestScaleDownProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := worldOf(placementtest.ClusterOf(kit).Draw(t, "cluster"))
		for i, p := range w.pods {
			if rapid.Bool().Draw(t, "controlled") {
				w.pods[i] = controlled(p)
			}
		}
		var pdbs []*policyv1.PodDisruptionBudget
		for _, app := range placementtest.Apps {
			if rapid.Bool().Draw(t, "pdb") {
				pdbs = append(pdbs, budget("pdb-"+app, rapid.Int32Range(0, 2).Draw(t, "allowed"), "app", app))
			}
		}
		snap, _, err := placement.NewSnapshot(placement.SnapshotInput{Nodes: w.nodes, Pods: w.pods, PDBs: pdbs})
		require.NoError(t, err)
		r, err := ScaleDown(snap, nil, ScaleDownOptions{})
		require.NoError(t, err)
		// Every moved pod passes the node's own filters where it landed, on
		// the final cluster (resources, ports, taints, selectors). Spread
		// and inter-pod affinity are checked when a pod is placed (the
		// queue); a later removal can take away pods and domains they
		// counted, as it would in a real scale-down.
		for _, n := range r.Nodes {
			for _, m := range n.Moves {
				pi, ni, ok := r.Final.Pod(m.Pod)
				if !ok {
					continue // moved again by a later removal
				}
				if ni.Name() != m.Node {
					continue
				}
				without, err := r.Final.WithoutPods(m.Pod)
				require.NoError(t, err)
				c, err := placement.Compile(without, pi.Pod(), placement.Options{})
				require.NoError(t, err)
				nv, _ := without.Node(ni.Name())
				verdicts := c.FilterEach(nv)
				for _, st := range verdicts[:6] {
					require.True(t, st.Code.Passes(), "%s does not fit %s: %v", m.Pod, ni.Name(), st)
				}
			}
		}
		// No budget with no disruption allowed lost a pod; none lost more than allowed.
		for _, b := range pdbs {
			lost := 0
			for _, n := range r.Nodes {
				if !n.Removable {
					continue
				}
				for _, m := range n.Moves {
					pi, _, ok := snap.Pod(m.Pod)
					if ok && pi.Pod().Namespace == b.Namespace && pi.Pod().Labels["app"] == b.Spec.Selector.MatchLabels["app"] {
						lost++
					}
				}
			}
			require.LessOrEqual(t, int32(lost), b.Status.DisruptionsAllowed, "budget %s", b.Name)
		}
		// Removed nodes are gone, with their pods.
		for _, name := range r.Removed {
			_, ok := r.Final.Node(name)
			require.False(t, ok)
		}
	})
}
