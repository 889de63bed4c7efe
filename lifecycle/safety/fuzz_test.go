package safety_test

import (
	"errors"
	"testing"
	"time"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

// FuzzApply decodes bytes into event sequences (including invalid ones) and
// checks the model never panics, always settles, and that every violation
// names an unsafe event.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 0, 5, 1, 9, 2})
	f.Add([]byte{0, 1, 7, 1, 8, 1, 9, 0})
	kinds := []safety.EventKind{safety.Partition, safety.Heal, safety.CrashKubelet, safety.RestartKubelet, safety.GracefulDelete,
		safety.ForceDelete, safety.DeleteNode, safety.Fence, safety.MarkOutOfService, safety.Advance, "Bogus"}
	nodes := []string{"node-a", "node-b", "node-c", "nowhere"}
	ids := []string{"web-0", "web-1", "nobody"}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := safety.New(safety.Config{Nodes: nodes[:3], Identities: ids[:2], Volumes: len(data)%2 == 0, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(data) && i < 64; i += 2 {
			e := safety.Event{Kind: kinds[int(data[i])%len(kinds)], Node: nodes[int(data[i+1])%len(nodes)], Identity: ids[int(data[i+1])%len(ids)],
				Duration: time.Duration(int(data[i+1])-64) * 10 * time.Second}
			if e.Kind == safety.GracefulDelete && data[i+1]%3 == 0 {
				g := int64(data[i+1] % 5)
				e.GracePeriodSeconds = &g
			}
			if _, err := c.Apply(e); errors.Is(err, safety.ErrNotSettled) {
				t.Fatalf("%s: %v", e, err)
			}
		}
		h := c.History()
		for _, v := range c.Incidents() {
			if v.AllowedBy < 0 || !isUnsafe(h[v.AllowedBy]) {
				t.Fatalf("unattributed violation: %s", c.Explain(v))
			}
		}
	})
}
