package eviction

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
)

// newTestSnapshot is cluster.New presented as a public Snapshot: the input
// is taken as given (no StoredPod), as the tests build it.
func newTestSnapshot(in cluster.Input) (*placement.Snapshot, []cluster.Warning, error) {
	s, w, err := cluster.New(in)
	return publicSnapshot(s), w, err
}
