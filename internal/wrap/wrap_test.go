package wrap

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

type inner struct{ a, b int }
type outer struct{ i inner }
type twoFields struct {
	i inner
	x int
}
type otherField struct{ i int }

func TestSameLayout(t *testing.T) {
	assert.True(t, SameLayout[outer, inner]())
	assert.False(t, SameLayout[twoFields, inner](), "a second field")
	assert.False(t, SameLayout[otherField, inner](), "another field type")
	assert.False(t, SameLayout[int, inner](), "not a struct")
}

func TestCast(t *testing.T) {
	in := &inner{1, 2}
	o := Cast[outer](in)
	assert.Equal(t, 2, o.i.b, "the same memory")
	assert.Same(t, in, Cast[inner](o))
	assert.Nil(t, Cast[outer]((*inner)(nil)))
	s := Slice[outer]([]*inner{in, nil})
	assert.Equal(t, []*outer{o, nil}, s)
	assert.Nil(t, Slice[outer]([]*inner(nil)))
}
