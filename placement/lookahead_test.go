package placement

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

// A decision that takes a lookahead returns only once no helper runs any
// of it: a range a helper started before the decision dropped the
// lookahead is waited for, so that the queue may retire the lookahead's
// snapshot (and reuse its node list) as soon as the decision is made.
func TestCompileDecideEndsItsLookahead(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two processors")
	}
	defer func(n int) { pipelineMinNodes = n; lookaheadRangeHook.Store(nil) }(pipelineMinNodes)
	pipelineMinNodes = 0
	var nodes []*corev1.Node
	for i := range 32 {
		nodes = append(nodes, mkNode(fmt.Sprintf("n%02d", i), "4", "8Gi"))
	}
	snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes})
	require.NoError(t, err)
	w := NewWorkers()
	defer w.Close()
	p := Prepare(mkPod("p", requests("cpu", "1")), Options{Parallelism: 2})

	var running atomic.Int32
	started := make(chan struct{}, lookaheadRanges)
	hold := func() {
		running.Add(1)
		started <- struct{}{}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
	}
	lookaheadRangeHook.Store(&hold)
	bufs := &decisionBuffers{}
	defer bufs.endLookaheads()
	la := bufs.startLookahead(p, internalOf(snap), w)
	require.NotNil(t, la)
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("no helper started the lookahead")
	}
	lookaheadRangeHook.Store(nil) // the decision's own work is not held up
	var d Decision
	_, err = p.compileDecide(internalOf(snap), w, bufs, nil, la, &d)
	require.NoError(t, err)
	require.Zero(t, running.Load(), "a lookahead range still runs after the decision")
	require.Equal(t, "n00", d.Node)
}
