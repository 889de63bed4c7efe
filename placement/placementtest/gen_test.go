package placementtest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

var configs = map[string]Config{
	"default":          {},
	"crowded":          {Crowded: true},
	"preemption":       {Preemption: true, Crowded: true},
	"spread":           {Family: Spread},
	"inter-pod":        {Family: InterPod},
	"overcommit":       {Overcommit: true},
	"mixed":            {Mixed: true},
	"mixed-overcommit": {Mixed: true, Overcommit: true, Preemption: true},
}

// TestGeneratedObjectsAreValid: every generated object passes what the API
// server validates and schedkit checks: names and labels, the scenario
// decoder's validation (simulate reads the printed scenario without a
// warning), the snapshot, every pending pod's compilation, the priority
// classes and the budgets.
func TestGeneratedObjectsAreValid(t *testing.T) {
	for name, cfg := range configs {
		t.Run(name, rapid.MakeCheck(func(t *rapid.T) {
			c := ClusterOf(cfg).Draw(t, "cluster")
			for _, n := range c.Nodes {
				require.Empty(t, validation.IsDNS1123Subdomain(n.Name))
				for k, v := range n.Labels {
					require.Empty(t, validation.IsQualifiedName(k))
					require.Empty(t, validation.IsValidLabelValue(v))
				}
			}
			for _, p := range append(append([]*corev1.Pod{}, c.Pods...), c.Pending...) {
				require.Empty(t, validation.IsDNS1123Subdomain(p.Name))
			}
			var buf bytes.Buffer
			require.NoError(t, c.WriteScenario(&buf))
			_, warnings, err := scenario.Load(buf.Bytes())
			require.NoError(t, err)
			require.Empty(t, warnings)
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)
			for _, p := range c.Pending {
				_, err := placement.Compile(snap, p, placement.Options{})
				require.NoError(t, err)
			}
			_, err = preemption.NewPriorityClasses(c.PriorityClasses)
			require.NoError(t, err)
			for _, b := range c.PDBs {
				require.Empty(t, eviction.ValidatePDB(b))
			}
		}))
	}
}

// TestBoundPodsFit: without Overcommit every bound pod passes every filter
// on its node, with the other pods bound.
func TestBoundPodsFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := ClusterOf(Config{Crowded: rapid.Bool().Draw(t, "crowded"), Mixed: rapid.Bool().Draw(t, "mixed"),
			Releases: rapid.Bool().Draw(t, "releases")}).Draw(t, "cluster")
		snap, _, err := placement.NewSnapshot(c.SnapshotInput())
		require.NoError(t, err)
		for _, p := range c.Pods {
			key := p.Namespace + "/" + p.Name
			without, err := snap.WithoutPods(key)
			require.NoError(t, err)
			unbound := p.DeepCopy()
			unbound.Spec.NodeName = ""
			comp, err := placement.Compile(without, unbound, placement.Options{})
			require.NoError(t, err)
			n, ok := without.Node(p.Spec.NodeName)
			require.True(t, ok)
			// The pods bound after p were placed seeing p; they may now
			// make p's own anti-affinity or spread fail on a replay, so
			// only resources, ports, selectors and taints are checked.
			st := comp.FilterEach(n)
			for _, s := range st[:6] {
				require.True(t, s.Code.Passes(), "%s on %s: %v", key, n.Name, s)
			}
		}
	})
}

// TestMinNodes: a cluster has MinNodes to MaxNodes nodes; MinNodes above
// MaxNodes is MaxNodes.
func TestMinNodes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo, hi := rapid.IntRange(0, 6).Draw(t, "min"), rapid.IntRange(1, 6).Draw(t, "max")
		c := ClusterOf(Config{MinNodes: lo, MaxNodes: hi, MaxPods: 1}).Draw(t, "cluster")
		require.GreaterOrEqual(t, len(c.Nodes), min(max(lo, 1), hi))
		require.LessOrEqual(t, len(c.Nodes), hi)
	})
}

// TestOwners: with Owners, DaemonSet pods and groups of ReplicaSet
// replicas identical but for name and UID are drawn; without, no owner.
func TestOwners(t *testing.T) {
	for _, owners := range []bool{false, true} {
		seen := map[string]bool{}
		rapid.Check(t, func(t *rapid.T) {
			c := ClusterOf(Config{Owners: owners, MaxPending: 8}).Draw(t, "cluster")
			groups := map[string][]*corev1.Pod{}
			for _, p := range append(append([]*corev1.Pod{}, c.Pods...), c.Pending...) {
				if ref := metav1.GetControllerOf(p); ref != nil {
					seen[ref.Kind] = true
					require.Empty(t, validation.IsDNS1123Subdomain(ref.Name))
					if ref.Kind == "ReplicaSet" {
						groups[string(ref.UID)] = append(groups[string(ref.UID)], p)
					}
				}
			}
			for _, g := range groups {
				for _, p := range g[1:] {
					seen["group"] = true
					require.Equal(t, g[0].Spec, p.Spec)
					require.Equal(t, g[0].Labels, p.Labels)
					require.NotEqual(t, g[0].UID, p.UID)
				}
			}
		})
		for _, what := range []string{"DaemonSet", "ReplicaSet", "group"} {
			require.Equal(t, owners, seen[what], "owners=%v: %s", owners, what)
		}
	}
}

// TestReleases: with Releases, nodes declaring features or with room for
// 3 pods, image volumes, pod-level requests (at least the containers'),
// resized bound pods and restart rules are drawn; without, none.
func TestReleases(t *testing.T) {
	for _, releases := range []bool{false, true} {
		seen := map[string]bool{}
		rapid.Check(t, func(t *rapid.T) {
			c := ClusterOf(Config{Releases: releases}).Draw(t, "cluster")
			for _, n := range c.Nodes {
				seen["declared"] = seen["declared"] || len(n.Status.DeclaredFeatures) > 0
				seen["room for 3"] = seen["room for 3"] || n.Status.Allocatable.Pods().Value() == 3
			}
			for _, p := range append(append([]*corev1.Pod{}, c.Pods...), c.Pending...) {
				seen["image volume"] = seen["image volume"] || len(p.Spec.Volumes) > 0
				seen["restart rule"] = seen["restart rule"] || len(p.Spec.Containers[0].RestartPolicyRules) > 0
				seen["resized"] = seen["resized"] || p.Status.Resources != nil
				if p.Spec.Resources != nil {
					seen["pod-level"] = true
					sum := p.Spec.Containers[0].Resources.Requests.Cpu().DeepCopy()
					for _, ic := range p.Spec.InitContainers {
						sum.Add(*ic.Resources.Requests.Cpu())
					}
					require.GreaterOrEqual(t, p.Spec.Resources.Requests.Cpu().Cmp(sum), 0, "pod-level below the containers'")
				}
			}
		})
		for _, what := range []string{"declared", "room for 3", "image volume", "restart rule", "resized", "pod-level"} {
			require.Equal(t, releases, seen[what], "releases=%v: %s", releases, what)
		}
	}
}

// TestExtended: with Extended, nodes offer and pods request (with equal
// limits) extended resources; without, never.
func TestExtended(t *testing.T) {
	for _, extended := range []bool{false, true} {
		seen := map[string]bool{}
		rapid.Check(t, func(t *rapid.T) {
			cfg := Config{Extended: extended}
			n := NodeOf(cfg, "node").Draw(t, "node")
			p := PodOf(cfg, "pod").Draw(t, "pod")
			for _, r := range ExtendedResources {
				_, offered := n.Status.Allocatable[r]
				seen["offered"] = seen["offered"] || offered
				q, requested := p.Spec.Containers[0].Resources.Requests[r]
				seen["requested"] = seen["requested"] || requested
				if requested {
					require.True(t, q.Equal(p.Spec.Containers[0].Resources.Limits[r]), "limit of %s", r)
				}
			}
		})
		for _, what := range []string{"offered", "requested"} {
			require.Equal(t, extended, seen[what], "extended=%v: %s", extended, what)
		}
	}
}

// TestSelectors: with Selectors, nil, empty and expression selectors, two
// constraints or terms, pods without app or with tier are drawn; without,
// never.
func TestSelectors(t *testing.T) {
	for _, selectors := range []bool{false, true} {
		seen := map[string]bool{}
		rapid.Check(t, func(t *rapid.T) {
			p := PodOf(Config{Selectors: selectors, Mixed: true}, "pod").Draw(t, "pod")
			_, hasApp := p.Labels["app"]
			_, hasTier := p.Labels["tier"]
			seen["without app"] = seen["without app"] || !hasApp
			seen["tier"] = seen["tier"] || hasTier
			var sels []*metav1.LabelSelector
			for _, c := range p.Spec.TopologySpreadConstraints {
				sels = append(sels, c.LabelSelector)
			}
			seen["two"] = seen["two"] || len(p.Spec.TopologySpreadConstraints) > 1
			if a := p.Spec.Affinity; a != nil {
				var terms []corev1.PodAffinityTerm
				if a.PodAffinity != nil {
					terms = append(terms, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
				}
				if a.PodAntiAffinity != nil {
					terms = append(terms, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
				}
				seen["two"] = seen["two"] || len(terms) > 1
				for _, term := range terms {
					sels = append(sels, term.LabelSelector)
				}
			}
			for _, s := range sels {
				seen["nil"] = seen["nil"] || s == nil
				seen["empty"] = seen["empty"] || (s != nil && len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0)
				seen["expressions"] = seen["expressions"] || (s != nil && len(s.MatchExpressions) > 0)
			}
		})
		for _, what := range []string{"without app", "tier", "two", "nil", "empty", "expressions"} {
			require.Equal(t, selectors, seen[what], "selectors=%v: %s", selectors, what)
		}
	}
}

// TestEdgePDBs: EdgePDBOf's budgets pass validation, and every kind and
// value of BudgetValues is drawn.
func TestEdgePDBs(t *testing.T) {
	seen := map[string]bool{}
	rapid.Check(t, func(t *rapid.T) {
		b := EdgePDBOf("budget", "default").Draw(t, "budget")
		require.Empty(t, eviction.ValidatePDB(b))
		switch {
		case b.Spec.MinAvailable != nil:
			seen["min "+b.Spec.MinAvailable.String()] = true
		case b.Spec.MaxUnavailable != nil:
			seen["max "+b.Spec.MaxUnavailable.String()] = true
		default:
			seen["neither"] = true
		}
		if b.Spec.UnhealthyPodEvictionPolicy != nil {
			seen[string(*b.Spec.UnhealthyPodEvictionPolicy)] = true
		}
	})
	require.True(t, seen["neither"] && seen["AlwaysAllow"] && seen["IfHealthyBudget"], "%v", seen)
	require.True(t, seen["min 34%"] || seen["max 34%"], "%v", seen)
}

// TestMixedDrawsTheVariety: with Mixed, pods with constraints of several
// families, pods requesting no cpu or no memory and NoExecute taints are
// drawn, and bound pods that are not Ready (the old hand-written
// generators of the project's properties drew them); without it, never.
func TestMixedDrawsTheVariety(t *testing.T) {
	for _, mixed := range []bool{false, true} {
		seen := map[string]bool{}
		rapid.Check(t, func(t *rapid.T) {
			cfg := Config{Mixed: mixed}
			n := NodeOf(cfg, "node").Draw(t, "node")
			for _, taint := range n.Spec.Taints {
				seen["no-execute"] = seen["no-execute"] || taint.Effect == corev1.TaintEffectNoExecute
			}
			p := PodOf(cfg, "pod").Draw(t, "pod")
			families := 0
			if p.Spec.NodeSelector != nil || p.Spec.Tolerations != nil || (p.Spec.Affinity != nil && p.Spec.Affinity.NodeAffinity != nil) {
				families++
			}
			if p.Spec.TopologySpreadConstraints != nil {
				families++
			}
			if p.Spec.Affinity != nil && (p.Spec.Affinity.PodAffinity != nil || p.Spec.Affinity.PodAntiAffinity != nil) {
				families++
			}
			if p.Spec.Containers[0].Ports != nil {
				families++
			}
			seen["several families"] = seen["several families"] || families > 1
			req := p.Spec.Containers[0].Resources.Requests
			seen["no cpu"] = seen["no cpu"] || req.Cpu().IsZero()
			seen["no memory"] = seen["no memory"] || req.Memory().IsZero()
			c := ClusterOf(Config{Mixed: mixed, MaxNodes: 2, MaxPods: 4, MaxPending: 1, Overcommit: true}).Draw(t, "cluster")
			// The cluster's nodes count too: a NoExecute taint is one
			// node in fifteen, which a hundred single nodes once missed.
			for _, n := range c.Nodes {
				for _, taint := range n.Spec.Taints {
					seen["no-execute"] = seen["no-execute"] || taint.Effect == corev1.TaintEffectNoExecute
				}
			}
			for _, b := range c.Pods {
				require.Len(t, b.Status.Conditions, 1)
				require.Equal(t, corev1.PodReady, b.Status.Conditions[0].Type)
				seen["unready"] = seen["unready"] || b.Status.Conditions[0].Status == corev1.ConditionFalse
			}
		})
		for _, what := range []string{"no-execute", "several families", "no cpu", "no memory", "unready"} {
			require.Equal(t, mixed, seen[what], "mixed=%v: %s", mixed, what)
		}
	}
}

// TestShapes: every shape's cluster is valid (simulate reads it without a
// warning), deterministic for a seed, and its bound pods fit where they are.
func TestShapes(t *testing.T) {
	for _, shape := range Shapes {
		t.Run(shape, func(t *testing.T) {
			c, err := Shape(shape, 12, 40, 6, 3)
			require.NoError(t, err)
			again, err := Shape(shape, 12, 40, 6, 3)
			require.NoError(t, err)
			require.Equal(t, c, again)
			require.Len(t, c.Pending, 6)
			var buf bytes.Buffer
			require.NoError(t, c.WriteScenario(&buf))
			_, warnings, err := scenario.Load(buf.Bytes())
			require.NoError(t, err)
			require.Empty(t, warnings)
			snap, _, err := placement.NewSnapshot(c.SnapshotInput())
			require.NoError(t, err)
			require.Equal(t, len(c.Pods), snap.NumPods())
			for _, p := range c.Pods {
				without, err := snap.WithoutPods(p.Namespace + "/" + p.Name)
				require.NoError(t, err)
				unbound := p.DeepCopy()
				unbound.Spec.NodeName = ""
				comp, err := placement.Compile(without, unbound, placement.Options{})
				require.NoError(t, err)
				n, _ := without.Node(p.Spec.NodeName)
				st := comp.FilterEach(n)
				for _, s := range st[:6] {
					require.True(t, s.Code.Passes(), "%s on %s: %v", p.Name, n.Name, s)
				}
			}
		})
	}
	_, err := Shape("bogus", 1, 0, 0, 1)
	require.Error(t, err)
}

// TestMixedShapeMixes: a mixed cluster's pods carry the constraints of
// several templates, some of them two at once, and several requests.
func TestMixedShapeMixes(t *testing.T) {
	c, err := Shape("mixed", 30, 200, 60, 1)
	require.NoError(t, err)
	kinds, requests := map[string]bool{}, map[string]bool{}
	combined := false
	for _, p := range append(append([]*corev1.Pod{}, c.Pods...), c.Pending...) {
		var has []string
		if a := p.Spec.Affinity; a != nil {
			if a.PodAffinity != nil {
				has = append(has, "pod affinity")
			}
			if a.PodAntiAffinity != nil {
				has = append(has, "pod anti-affinity")
			}
			if a.NodeAffinity != nil {
				has = append(has, "node affinity")
			}
		}
		if len(p.Spec.TopologySpreadConstraints) > 0 {
			has = append(has, "spread")
		}
		for _, k := range has {
			kinds[k] = true
		}
		combined = combined || len(has) > 1
		requests[p.Spec.Containers[0].Resources.Requests.Cpu().String()] = true
	}
	require.Len(t, kinds, 4, "every kind of constraint appears: %v", kinds)
	require.True(t, combined, "some pod carries two templates")
	require.Greater(t, len(requests), 2, "requests vary across groups")
	require.NotContains(t, mixedKinds, "preemption")
	require.NotContains(t, mixedKinds, "mixed")
	require.NotContains(t, mixedKinds, "varied")
}

// TestVariedShapeSeldomSharesSpecs: a varied cluster's pending pods each
// start a group of their own (their own label value) and most have
// requests no earlier pending pod has.
func TestVariedShapeSeldomSharesSpecs(t *testing.T) {
	c, err := Shape("varied", 30, 200, 60, 1)
	require.NoError(t, err)
	groups, requests := map[string]bool{}, map[string]bool{}
	for _, p := range c.Pending {
		r := p.Spec.Containers[0].Resources.Requests
		requests[r.Cpu().String()+"/"+r.Memory().String()] = true
		groups[fmt.Sprint(p.Labels)] = true
	}
	require.Len(t, groups, len(c.Pending), "every pending pod its own group")
	require.Greater(t, len(requests), len(c.Pending)*3/4, "requests seldom repeat")
}
