package placement_test

import (
	"encoding/json"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/framework"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// Version property tests, on the kit's clusters with what the releases
// treat differently (Releases): declared node features, image volumes,
// pod-level requests, and, with versionFeatures, RestartAllContainers
// rules and bound pods resized in place.

// versionWorld draws, inside a property, a small cluster of the kit with
// one pending pod; without versionFeatures its pods use none of the
// features the releases decide differently (restart rules, in-place
// resize).
func versionWorld(t *rapid.T, versionFeatures bool) *placementtest.Cluster {
	c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 5, MaxPods: 8, MaxPending: 1,
		Overcommit: true, Mixed: true, Releases: true}).Draw(t, "cluster")
	if !versionFeatures {
		for _, p := range append(append([]*corev1.Pod{}, c.Pods...), c.Pending...) {
			p.Spec.Containers[0].RestartPolicy, p.Spec.Containers[0].RestartPolicyRules = nil, nil
			p.Status.Resources, p.Status.AllocatedResources = nil, nil
		}
	}
	return c
}

func verEvaluate(t *rapid.T, c *placementtest.Cluster, v placement.Version) *placement.Result {
	in := c.SnapshotInput()
	in.WithoutPodLevelResize = !v.UsesPodLevelResizeStatus()
	snap, _, err := placement.NewSnapshot(in)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	r, err := placement.Evaluate(snap, c.Pending[0], placement.Options{Version: v})
	if err != nil {
		t.Fatalf("Evaluate at %s: %v", v, err)
	}
	return r
}

// filtersWithout drops one plugin's entry from a Filters list.
func filtersWithout(fs []framework.Status, plugin string) []framework.Status {
	var out []framework.Status
	for _, f := range fs {
		if f.Plugin != plugin {
			out = append(out, f)
		}
	}
	return out
}

func verScoresWithout(ss []placement.PluginScore, drop ...string) map[string]placement.PluginScore {
	out := map[string]placement.PluginScore{}
next:
	for _, s := range ss {
		for _, d := range drop {
			if s.Plugin == d {
				continue next
			}
		}
		out[s.Plugin] = s
	}
	return out
}

func TestVersionProperties(t *testing.T) {
	t.Run("filter verdicts are the same under every version for pods that use no version-specific feature", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := versionWorld(t, false)
			want := verEvaluate(t, w, placement.V1_36)
			for _, v := range []placement.Version{placement.V1_35, placement.V1_34} {
				got := verEvaluate(t, w, v)
				if want.PreFilter.Status.Code != got.PreFilter.Status.Code || fmt.Sprint(want.FeasibleNodes) != fmt.Sprint(got.FeasibleNodes) || want.Message != got.Message {
					t.Fatalf("%s: prefilter %v / feasible %v / message %q, v1.36: %v / %v / %q",
						v, got.PreFilter.Status, got.FeasibleNodes, got.Message, want.PreFilter.Status, want.FeasibleNodes, want.Message)
				}
				for i := range want.Nodes {
					wn, gn := want.Nodes[i], got.Nodes[i]
					if wn.Node != gn.Node || wn.Feasible != gn.Feasible || fmt.Sprint(wn.Status) != fmt.Sprint(gn.Status) {
						t.Fatalf("%s on %s: %v %v, v1.36: %v %v", v, gn.Node, gn.Feasible, gn.Status, wn.Feasible, wn.Status)
					}
					for _, f := range wn.Filters {
						if f.Plugin == sched.NodeDeclaredFeatures && !f.Code.Passes() {
							t.Fatalf("v1.36 NodeDeclaredFeatures rejected a pod needing no feature on %s: %v", wn.Node, f)
						}
					}
					if a, b := fmt.Sprint(filtersWithout(wn.Filters, sched.NodeDeclaredFeatures)), fmt.Sprint(gn.Filters); a != b {
						t.Fatalf("%s filters on %s: %s, v1.36: %s", v, gn.Node, b, a)
					}
					for _, f := range gn.Filters {
						if f.Plugin == sched.NodeDeclaredFeatures {
							t.Fatalf("%s runs NodeDeclaredFeatures", v)
						}
					}
				}
			}
		})
	})

	t.Run("v1.34 and v1.35 decide and score alike, whatever the pod", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := versionWorld(t, true)
			a, b := verEvaluate(t, w, placement.V1_35), verEvaluate(t, w, placement.V1_34)
			ja, errA := json.Marshal(a)
			jb, errB := json.Marshal(b)
			if errA != nil || errB != nil || string(ja) != string(jb) {
				t.Fatalf("v1.35 %s\nv1.34 %s", ja, jb)
			}
		})
	})

	t.Run("before v1.36 only NodeResourcesBalancedAllocation and image-volume ImageLocality scores differ", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			w := versionWorld(t, false)
			want, got := verEvaluate(t, w, placement.V1_36), verEvaluate(t, w, placement.V1_35)
			drop := []string{sched.NodeResourcesBalancedAllocation}
			if len(w.Pending[0].Spec.Volumes) > 0 {
				drop = append(drop, sched.ImageLocality)
			}
			for i := range want.Nodes {
				a := verScoresWithout(want.Nodes[i].Scores, drop...)
				b := verScoresWithout(got.Nodes[i].Scores, drop...)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("%s: v1.35 %v, v1.36 %v", want.Nodes[i].Node, b, a)
				}
			}
		})
	})
}
