package par

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestMutexExcludes: goroutines that each add to a plain counter under
// the Mutex, holding it for a drawn time (some longer than spinFor, so
// that waiters park), never lose an addition, and a holder never sees
// another inside. A Lock that let two in fails it (and the race detector
// reports the counter).
func TestMutexExcludes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m Mutex
		goroutines := rapid.IntRange(2, 6).Draw(t, "goroutines")
		rounds := rapid.IntRange(1, 50).Draw(t, "rounds")
		hold := rapid.SampledFrom([]time.Duration{0, time.Microsecond, 2 * spinFor}).Draw(t, "hold")
		counter, inside := 0, 0
		var overlap bool
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					m.Lock()
					inside++
					if inside != 1 {
						overlap = true
					}
					counter++
					if hold > 0 && (r+g)%10 == 0 {
						time.Sleep(hold)
					}
					inside--
					m.Unlock()
				}
			}()
		}
		wg.Wait()
		require.False(t, overlap)
		require.Equal(t, goroutines*rounds, counter)
	})
}

// TestMutexWaitsPastSpinning: a Lock that finds the Mutex held for longer
// than it spins parks, and takes it once it is unlocked.
func TestMutexWaitsPastSpinning(t *testing.T) {
	var m Mutex
	m.Lock()
	got := make(chan struct{})
	go func() {
		m.Lock()
		close(got)
		m.Unlock()
	}()
	time.Sleep(3 * spinFor)
	select {
	case <-got:
		t.Fatal("Lock returned while the Mutex was held")
	default:
	}
	m.Unlock()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("Lock did not return after Unlock")
	}
}
