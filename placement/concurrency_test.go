package placement

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConcurrentEvaluateAgrees: one snapshot shared by goroutines that each
// evaluate every pod (with parallel chunks too) gives the sequential answers
// (run with -race).
func TestConcurrentEvaluateAgrees(t *testing.T) {
	snap, pending := loadScenario(t, "testdata/conformance/small-1.json")
	want := make([]*Result, len(pending))
	for i, p := range pending {
		want[i], _ = Evaluate(snap, p, Options{})
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, p := range pending {
				r, _ := Evaluate(snap, p, Options{Parallelism: 3})
				assert.Equal(t, want[i], r)
			}
		}()
	}
	wg.Wait()
}
