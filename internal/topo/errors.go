package topo

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ErrInvalidConstraint is wrapped by NewSpread's (and Spread.On's) error for
// spread constraints the API server would refuse or whose selector does not
// parse; the *ValidationError in the same chain lists every problem.
var ErrInvalidConstraint = errors.New("topology: invalid spread constraint")

// ValidationError carries every validation problem of one input with its
// API field path (spec.topologySpreadConstraints[1].maxSkew), for
// errors.As. Its text is the list's aggregate text.
type ValidationError struct {
	Errors field.ErrorList
}

// Error returns the problems' aggregate text.
func (e *ValidationError) Error() string { return e.Errors.ToAggregate().Error() }
