package safety_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

// Small pools: three nodes that suffer, a spare that never does, two
// identities.
var (
	troubled   = []string{"node-a", "node-b", "node-c"}
	allNodes   = append(append([]string{}, troubled...), "node-d")
	identities = []string{"web-0", "web-1"}
	steps      = []time.Duration{time.Second, 10 * time.Second, 30 * time.Second, 5 * time.Minute, 10 * time.Minute}
)

func genCluster(t *rapid.T) *safety.Cluster {
	cfg := safety.Config{Nodes: allNodes, Identities: identities, Volumes: rapid.Bool().Draw(t, "volumes"), Start: start}
	switch rapid.IntRange(0, 2).Draw(t, "tgps") {
	case 1:
		one := int64(1)
		cfg.TerminationGracePeriodSeconds = &one
	case 2:
		long := int64(120)
		cfg.TerminationGracePeriodSeconds = &long
	}
	c, err := safety.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func apply(t *rapid.T, c *safety.Cluster, e safety.Event) {
	if _, err := c.Apply(e); err != nil {
		t.Fatalf("%s: %v", e, err)
	}
}

// safeActions are the events that never declare anything gone without
// confirmation: partitions, crashes, graceful deletes (grace >= 1), time,
// fencing.
func safeActions(c *safety.Cluster) map[string]func(*rapid.T) {
	node := func(t *rapid.T) string { return rapid.SampledFrom(troubled).Draw(t, "node") }
	return map[string]func(*rapid.T){
		"partition":       func(t *rapid.T) { apply(t, c, safety.PartitionNode(node(t))) },
		"heal":            func(t *rapid.T) { apply(t, c, safety.HealNode(node(t))) },
		"crash kubelet":   func(t *rapid.T) { apply(t, c, safety.CrashKubeletOn(node(t))) },
		"restart kubelet": func(t *rapid.T) { apply(t, c, safety.RestartKubeletOn(node(t))) },
		"fence":           func(t *rapid.T) { apply(t, c, safety.FenceNode(node(t))) },
		"advance":         func(t *rapid.T) { apply(t, c, safety.AdvanceBy(rapid.SampledFrom(steps).Draw(t, "step"))) },
		"graceful delete": func(t *rapid.T) {
			id := rapid.SampledFrom(identities).Draw(t, "identity")
			if rapid.Bool().Draw(t, "default-grace") {
				apply(t, c, safety.DeletePod(id))
			} else {
				apply(t, c, safety.DeletePodWithGrace(id, int64(rapid.IntRange(1, 60).Draw(t, "grace"))))
			}
		},
	}
}

func isUnsafe(e safety.Event) bool {
	return e.IsForceDeletion() || e.Kind == safety.DeleteNode || e.Kind == safety.MarkOutOfService
}

// TestSafetyProperties are state-machine tests over random event sequences.
func TestSafetyProperties(t *testing.T) {
	t.Run("partitions, crashes and graceful deletes never run two instances", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := genCluster(t)
			actions := safeActions(c)
			actions[""] = func(t *rapid.T) {
				if v := c.Check(); !v.AtMostOne {
					t.Fatalf("%s\nhistory: %v\nlog: %v", c.Explain(v.Violations[0]), c.History(), c.Log())
				}
				if inc := c.Incidents(); len(inc) > 0 {
					t.Fatalf("incident: %s", c.Explain(inc[0]))
				}
			}
			t.Repeat(actions)
		})
	})

	t.Run("two instances only after an unsafe event, which the model names", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := genCluster(t)
			actions := safeActions(c)
			actions["force delete"] = func(t *rapid.T) {
				apply(t, c, safety.ForceDeletePod(rapid.SampledFrom(identities).Draw(t, "identity")))
			}
			actions["delete with grace 0"] = func(t *rapid.T) {
				apply(t, c, safety.DeletePodWithGrace(rapid.SampledFrom(identities).Draw(t, "identity"), 0))
			}
			actions["delete node"] = func(t *rapid.T) {
				apply(t, c, safety.DeleteNodeObject(rapid.SampledFrom(troubled).Draw(t, "node")))
			}
			actions["mark out of service"] = func(t *rapid.T) {
				apply(t, c, safety.MarkNodeOutOfService(rapid.SampledFrom(troubled).Draw(t, "node")))
			}
			actions[""] = func(t *rapid.T) {
				h := c.History()
				check := func(v safety.Violation) {
					if v.AllowedBy < 0 || v.AllowedBy >= len(h) || !isUnsafe(h[v.AllowedBy]) {
						t.Fatalf("violation not attributed to an unsafe event: %s\nhistory: %v\nlog: %v", c.Explain(v), h, c.Log())
					}
				}
				for _, v := range c.Incidents() {
					check(v)
				}
				for _, v := range c.Check().Violations {
					check(v)
				}
			}
			t.Repeat(actions)
		})
	})

	t.Run("once the old pods are confirmed gone, replacements start", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := genCluster(t)
			actions := safeActions(c)
			for i := rapid.IntRange(0, 12).Draw(t, "n"); i > 0; i-- {
				names := []string{"partition", "heal", "crash kubelet", "restart kubelet", "fence", "advance", "graceful delete"}
				actions[rapid.SampledFrom(names).Draw(t, "action")](t)
			}
			// Resolve: reconnect and restart what is alive; fence and mark
			// out of service what is not, or was fenced.
			byFencing := rapid.Bool().Draw(t, "resolve-by-fencing")
			for _, n := range c.Nodes() {
				switch {
				case !n.PoweredOn:
					apply(t, c, safety.MarkNodeOutOfService(n.Name))
				case byFencing && (n.Partitioned || !n.KubeletUp):
					apply(t, c, safety.FenceNode(n.Name))
					apply(t, c, safety.MarkNodeOutOfService(n.Name))
				default:
					apply(t, c, safety.HealNode(n.Name))
					apply(t, c, safety.RestartKubeletOn(n.Name))
				}
			}
			apply(t, c, safety.AdvanceBy(5*time.Minute))
			apply(t, c, safety.AdvanceBy(5*time.Minute))
			if v := c.Check(); !v.AtMostOne || len(c.Incidents()) > 0 {
				t.Fatalf("unsafe resolution: %v", c.Log())
			}
			for _, id := range identities {
				running := c.Running(id)
				p := c.Pod(id)
				if len(running) != 1 || p == nil || p.DeletionTimestamp != nil || running[0].UID != p.UID {
					t.Fatalf("%s did not recover: running %v, pod %v\nhistory: %v\nlog: %v", id, running, p, c.History(), c.Log())
				}
			}
		})
	})

	t.Run("the model is deterministic", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			a := genCluster(t)
			b := a.Clone()
			actions := safeActions(a)
			actions["force delete"] = func(t *rapid.T) {
				apply(t, a, safety.ForceDeletePod(rapid.SampledFrom(identities).Draw(t, "identity")))
			}
			actions[""] = func(t *rapid.T) {}
			t.Repeat(actions)
			for _, e := range a.History() {
				apply(t, b, e)
			}
			if la, lb := a.Log(), b.Log(); len(la) != len(lb) {
				t.Fatalf("replay differs: %d vs %d log lines", len(la), len(lb))
			} else {
				for i := range la {
					if la[i] != lb[i] {
						t.Fatalf("replay differs at %d: %q vs %q", i, la[i], lb[i])
					}
				}
			}
		})
	})
}
