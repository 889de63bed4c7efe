package safety_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

func TestParseEvents(t *testing.T) {
	events, err := safety.ParseEvents(`
# a partition resolved by fencing
Partition(node-a); GracefulDelete(web-0, 5s)
Advance(10m)
Fence(node-a)
MarkOutOfService( node-a )
ForceDelete(web-1); GracefulDelete(web-1)
`)
	require.NoError(t, err)
	assert.Equal(t, []safety.Event{
		safety.PartitionNode("node-a"), safety.DeletePodWithGrace("web-0", 5), safety.AdvanceBy(10 * time.Minute),
		safety.FenceNode("node-a"), safety.MarkNodeOutOfService("node-a"), safety.ForceDeletePod("web-1"), safety.DeletePod("web-1"),
	}, events)

	for _, bad := range []string{"Partition", "Partition()", "Explode(node-a)", "Advance(-1s)", "Advance(soon)", "GracefulDelete(web-0, 1.5s)",
		"GracefulDelete(web-0, 1s, 2s)", "Heal(a, b)", "ForceDelete(x, 1s)", "(node-a)"} {
		_, err := safety.ParseEvent(bad)
		assert.ErrorIs(t, err, safety.ErrInvalidEvent, bad)
	}
	_, err = safety.ParseEvents("Heal(a)\nNope(b)")
	assert.ErrorContains(t, err, "event 2:")
}

func TestParseEventRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kinds := []safety.EventKind{safety.Partition, safety.Heal, safety.CrashKubelet, safety.RestartKubelet, safety.GracefulDelete,
			safety.ForceDelete, safety.DeleteNode, safety.Fence, safety.MarkOutOfService, safety.Advance}
		e := safety.Event{Kind: rapid.SampledFrom(kinds).Draw(t, "kind")}
		switch e.Kind {
		case safety.GracefulDelete, safety.ForceDelete:
			e.Identity = rapid.SampledFrom([]string{"web-0", "db-1"}).Draw(t, "id")
			if e.Kind == safety.GracefulDelete && rapid.Bool().Draw(t, "grace") {
				g := int64(rapid.IntRange(0, 3600).Draw(t, "seconds"))
				e.GracePeriodSeconds = &g
			}
		case safety.Advance:
			e.Duration = time.Duration(rapid.Int64Range(0, int64(24*time.Hour)).Draw(t, "d"))
		default:
			e.Node = rapid.SampledFrom([]string{"node-a", "n1"}).Draw(t, "node")
		}
		got, err := safety.ParseEvent(e.String())
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != e.String() || got.Kind != e.Kind {
			t.Fatalf("round trip %q -> %q", e, got)
		}
	})
}

func FuzzParseEvents(f *testing.F) {
	f.Add("Partition(node-a); GracefulDelete(web-0, 5s)\nAdvance(10m)")
	f.Add("GracefulDelete(,)")
	f.Fuzz(func(t *testing.T, s string) {
		events, err := safety.ParseEvents(s)
		if err != nil {
			return
		}
		for _, e := range events {
			again, err := safety.ParseEvent(e.String())
			if err != nil || again.String() != e.String() {
				t.Fatalf("%q does not round-trip: %v", e, err)
			}
		}
	})
}
