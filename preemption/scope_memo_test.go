package preemption

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
)

// TestScopeMemoMatchesScope: scopeMemo.affects (labelsAffect decided once
// per interned label set) answers as topologyScope.affects (selectors
// matched against every pod's labels) for every bound pod of random worlds,
// on first use and from the memo, and for a pod the index never interned;
// the memo's scope is narrowed by the label index's set candidates.
func TestScopeMemoMatchesScope(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// The kit's pods with selectors of every form (nil, empty, set
		// operators over app and tier) and optional labels, so that
		// selectors collide with the bound pods' labels often.
		cfg := placementtest.Config{MaxNodes: 4, MaxPods: 12, MaxPending: 1, Overcommit: true, Mixed: true, Selectors: true,
			Family: rapid.SampledFrom([]placementtest.Family{placementtest.AnyFamily, placementtest.Spread, placementtest.InterPod}).Draw(t, "family")}
		kc := placementtest.ClusterOf(cfg).Draw(t, "cluster")
		nodes, pods, pod := kc.Nodes, kc.Pods, kc.Pending[0]
		if len(pods) == 0 {
			return
		}
		// The empty namespace (the default one) too, which no stored
		// object has.
		for _, p := range append([]*corev1.Pod{pod}, pods...) {
			if rapid.IntRange(0, 3).Draw(t, "empty namespace") == 0 {
				p.Namespace = ""
			}
		}
		// Enough copies of the drawn pods that New interns their label sets
		// up front (it does so from 2048 pods on, with more than one CPU):
		// the memo is then shared by many pods per set.
		drawn := len(pods)
		for i := drawn; i < 2100; i++ {
			p := pods[i%drawn].DeepCopy()
			p.Name = fmt.Sprintf("copy%d", i)
			pods = append(pods, p)
		}
		snap, _, err := newTestSnapshot(cluster.Input{Nodes: nodes, Pods: pods, Namespaces: kc.Namespaces, Parallelism: runtime.GOMAXPROCS(0)})
		require.NoError(t, err)
		c, err := placement.Compile(snap, pod, placement.Options{})
		if err != nil {
			t.Skip("invalid preemptor:", err)
		}
		scope := newTopologyScope(c)
		narrowed := newTopologyScope(c)
		is := snapshotOf(snap)
		narrowed.narrow(is)
		memo := scopeMemo{scope: narrowed, snap: is}
		var all []*cluster.PodInfo
		for _, n := range cluster.NodesOf(is) {
			for _, pi := range n.Pods {
				if _, ok := is.PodLabelSet(pi); !ok && runtime.GOMAXPROCS(0) > 1 {
					t.Fatalf("pod %s bound by New is not interned", pi.Key)
				}
				all = append(all, pi)
			}
		}
		_, ok := is.PodLabelSet(podInfoOf(c))
		require.False(t, ok, "the preemptor was never interned")
		all = append(all, podInfoOf(c))
		decided := 0
		for round := 0; round < 2; round++ {
			for _, pi := range all {
				require.Equal(t, hasRequiredAntiAffinity(pi.Pod), pi.HasRequiredAntiAffinity(), pi.Key)
				require.Equal(t, scope.affects(pi), memo.affects(pi), "round %d, pod %s", round, pi.Key)
			}
		}
		for _, pi := range all {
			// Decided without matching: excluded by the candidates or memoized.
			if id, ok := is.PodLabelSet(pi); ok {
				c := narrowed.candidates
				if (c != nil && !c[id]) || (int(id) < len(memo.bySet) && memo.bySet[id] != 0) {
					decided++
				}
			}
		}
		if runtime.GOMAXPROCS(0) > 1 && scope.active() && !scope.all {
			require.Positive(t, decided, "label sets decided by the index")
		}
	})
}
