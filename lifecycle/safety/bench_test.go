package safety_test

import (
	"testing"
	"time"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

// BenchmarkScenario runs a partition resolved by fencing, from New to the
// replacement's start, on four nodes and four identities with volumes.
func BenchmarkScenario(b *testing.B) {
	events := []safety.Event{
		safety.PartitionNode("node-a"), safety.AdvanceBy(10 * time.Minute),
		safety.FenceNode("node-a"), safety.MarkNodeOutOfService("node-a"), safety.AdvanceBy(time.Minute),
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := safety.New(safety.Config{Nodes: []string{"node-a", "node-b", "node-c", "node-d"}, Identities: []string{"db-0", "db-1", "db-2", "db-3"}, Volumes: true, Start: start})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range events {
			if _, err := c.Apply(e); err != nil {
				b.Fatal(err)
			}
		}
		if !c.Check().AtMostOne {
			b.Fatal("violation")
		}
	}
}
