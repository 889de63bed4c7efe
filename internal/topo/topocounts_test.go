package topo

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// topoCounts' positive count follows every add, and a clone shares its
// parent's counts until it changes one: changing the clone leaves the
// parent as it was.
func TestTopoCountsCloneAndPositive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var base topoCounts
		for k := range rapid.IntRange(1, 3).Draw(t, "keys") {
			base.keys = append(base.keys, &keyCounts{col: &cluster.Column{Key: string(rune('a' + k))}, counts: make([]int64, 4)})
		}
		adds := func(c *topoCounts, label string) {
			for range rapid.IntRange(0, 12).Draw(t, label) {
				k := c.keys[rapid.IntRange(0, len(c.keys)-1).Draw(t, "key")]
				c.add(k, int32(rapid.IntRange(0, 3).Draw(t, "domain")), int64(rapid.IntRange(-2, 2).Draw(t, "n")))
			}
		}
		positives := func(c *topoCounts) int {
			n := 0
			for _, k := range c.keys {
				for _, v := range k.counts {
					if v > 0 {
						n++
					}
				}
			}
			return n
		}
		adds(&base, "base adds")
		if base.positive != positives(&base) {
			t.Fatalf("base: positive %d, counted %d", base.positive, positives(&base))
		}
		before := make([][]int64, len(base.keys))
		for i, k := range base.keys {
			before[i] = append([]int64(nil), k.counts...)
		}
		view := base.clone(map[*keyCounts]*keyCounts{})
		adds(&view, "view adds")
		if view.positive != positives(&view) || view.anyPositive() != (positives(&view) > 0) {
			t.Fatalf("view: positive %d, counted %d", view.positive, positives(&view))
		}
		for i, k := range base.keys {
			for d, v := range k.counts {
				if v != before[i][d] {
					t.Fatalf("the view's adds changed the base: key %d domain %d %d -> %d", i, d, before[i][d], v)
				}
			}
		}
	})
}
