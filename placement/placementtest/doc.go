// Package placementtest is a kit for property tests of programs built on
// schedkit, in the manner of net/http/httptest: rapid generators of the
// Kubernetes objects the scheduler reads (nodes, pods, budgets, priority
// classes) and of whole clusters with bound and pending pods, drawn from
// small pools of keys and values so that selectors match, constraints
// collide and scores tie.
//
// # Writing a property
//
// A property draws a cluster, asks schedkit and the code under test, and
// compares:
//
//	rapid.Check(t, func(t *rapid.T) {
//		c := placementtest.ClusterOf(placementtest.Config{}).Draw(t, "cluster")
//		snap, _, err := placement.NewSnapshot(c.SnapshotInput())
//		if err != nil {
//			t.Fatal(err)
//		}
//		for _, pod := range c.Pending {
//			// ... my autoscaler never proposes a node placement.Evaluate refuses
//		}
//	})
//
// rapid shrinks a failing cluster towards fewer nodes, fewer pods and the
// first value of every pool, so counterexamples read well;
// Cluster.WriteScenario prints one as a scenario file that
// `go run ./examples/simulate -in FILE` reads, to see what the scheduler
// decides and why.
//
// # What is generated
//
// Every object is what the API server would store: names are DNS labels,
// label keys and values are valid, quantities are non-negative, spread
// constraints and affinity terms pass the API server's validation, and
// pods carry their admitted priority (spec.priority from their class). A
// cluster's bound pods are running and Ready, and fit where they are bound
// (resources, ports, node selectors, taints) unless Config.Overcommit asks
// otherwise.
//
// Config biases the draw, so that a property reaches what it is about:
//
//   - Crowded fills nodes; Preemption spreads priorities and adds budgets.
//   - Family restricts pods to one constraint family; Mixed gives pods
//     constraints of several families at once, best-effort requests,
//     NoExecute taints and bound pods that are not Ready.
//   - Owners gives pods DaemonSets and pending replicas of ReplicaSets.
//   - Releases draws what the releases treat differently (declared node
//     features, image volumes, pod-level and resized requests, restart
//     rules).
//   - Extended adds extended resources to nodes and requests.
//   - Selectors draws selectors of every form and optional labels.
//   - MinNodes keeps clusters wide enough for code that splits the nodes
//     between goroutines.
//
// EdgePDBOf draws budgets for properties of the disruption arithmetic
// (percentages at the rounding edges, unhealthy-pod eviction policies).
//
// The package's own tests check that every generated object passes
// validation; schedkit's property tests are written with it.
package placementtest
