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
