package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOwnReasons(t *testing.T) {
	shared := []string{"a", "b"}
	sts := []Status{{Reasons: shared}, {}, {Reasons: shared[:1]}}
	OwnReasons(len(sts), func(i int) *Status { return &sts[i] })
	sts[0].Reasons[0] = "x"
	sts[2].Reasons = append(sts[2].Reasons, "y")
	assert.Equal(t, []string{"a", "b"}, shared, "the shared texts are untouched")
	assert.Equal(t, []string{"x", "b"}, sts[0].Reasons, "appending to one status changes no other")
	assert.Nil(t, sts[1].Reasons)
	assert.Equal(t, []string{"a", "y"}, sts[2].Reasons)
}

func TestOwnSharedReasons(t *testing.T) {
	shared, other := []string{"a", "b"}, []string{"c"}
	sts := []Status{{Reasons: shared}, {}, {Reasons: shared}, {Reasons: shared[:1]}, {Reasons: other}}
	OwnSharedReasons(len(sts), func(i int) *Status { return &sts[i] })
	sts[0].Reasons[0] = "x"
	sts[3].Reasons = append(sts[3].Reasons, "y")
	sts[4].Reasons[0] = "z"
	assert.Equal(t, []string{"a", "b"}, shared, "the shared texts are untouched")
	assert.Equal(t, []string{"c"}, other)
	assert.Equal(t, []string{"x", "b"}, sts[2].Reasons, "statuses with one slice share its copy")
	assert.Nil(t, sts[1].Reasons)
	assert.Equal(t, []string{"a", "y"}, sts[3].Reasons, "a shorter slice of the same texts is a copy of its own")
	assert.Equal(t, []string{"x", "b"}, sts[0].Reasons, "appending to another copy changes none")

	// Past the list's bound, every status gets a copy of its own.
	many := make([]Status, 100)
	texts := make([][]string, len(many))
	for i := range many {
		texts[i] = []string{"r"}
		many[i].Reasons = texts[i]
	}
	OwnSharedReasons(len(many), func(i int) *Status { return &many[i] })
	for i := range many {
		many[i].Reasons[0] = "w"
		assert.Equal(t, []string{"r"}, texts[i], "status %d", i)
	}
}
