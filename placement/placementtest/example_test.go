package placementtest_test

import (
	"fmt"
	"io"
	"os"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// placedPodsFit is a user's property: a pod placed by placement.Evaluate
// passes every filter on its node. It returns the number of pods placed.
func placedPodsFit(t *rapid.T) int {
	c := placementtest.ClusterOf(placementtest.Config{Crowded: true}).Draw(t, "cluster")
	snap, _, err := placement.NewSnapshot(c.SnapshotInput())
	if err != nil {
		t.Fatal(err)
	}
	placed := 0
	for _, pod := range c.Pending {
		r, err := placement.Evaluate(snap, pod, placement.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.BestNodes) == 0 {
			continue
		}
		node, _ := snap.Node(r.BestNodes[0])
		compiled, err := placement.Compile(snap, pod, placement.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !compiled.Fits(node) {
			// A counterexample, as a file examples/simulate reads.
			_ = c.WriteScenario(os.Stderr)
			t.Fatalf("%s placed on %s, which it does not fit", pod.Name, node.Name())
		}
		placed++
	}
	return placed
}

// The property as a user's test runs it.
func TestPlacedPodsFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { placedPodsFit(t) })
}

// A generated cluster, drawn outside a test (Generator.Example), printed
// as a scenario file.
func ExampleClusterOf() {
	c := placementtest.ClusterOf(placementtest.Config{MaxNodes: 3, MaxPods: 4, MaxPending: 1}).Example(7)
	fmt.Println(len(c.Nodes) >= 1 && len(c.Nodes) <= 3, len(c.Pods) <= 4, len(c.Pending))
	bound := true
	for _, p := range c.Pods {
		_, ok := c.NodeNamed(p.Spec.NodeName)
		bound = bound && ok
	}
	fmt.Println("every pod bound to a node of the cluster:", bound)
	if err := c.WriteScenario(io.Discard); err != nil {
		fmt.Println(err)
	}
	// Output:
	// true true 1
	// every pod bound to a node of the cluster: true
}
