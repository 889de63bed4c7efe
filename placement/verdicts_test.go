package placement

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// referenceNodes is Evaluate's per-node report built the obvious way, one
// node at a time from FilterEach with a fresh Filters list per node: what
// Evaluate gave before its verdict table shared rows between nodes.
func referenceNodes(c *Compiled) []NodeResult {
	var out []NodeResult
	for _, n := range cluster.NodesOf(c.snap) {
		nr := NodeResult{Node: n.Name}
		each := c.filterEach(n)
		first := sched.Status{}
		for p := range numFilters {
			if !c.includesFilter(p) {
				continue
			}
			nr.Filters = append(nr.Filters, toPluginStatus(each[p]))
			if first.Code.Passes() && !each[p].Code.Passes() {
				first = each[p]
			}
		}
		if !c.InPreFilterResult(n.Name) {
			nr.ExcludedByPreFilter = true
			first = c.absent
		}
		nr.Status = toPluginStatus(first)
		nr.Feasible = first.Code.Passes()
		out = append(out, nr)
	}
	return out
}

// verdictsOnly drops the scores, which the verdict table does not touch.
func verdictsOnly(in []NodeResult) []NodeResult {
	out := make([]NodeResult, len(in))
	for i, nr := range in {
		nr.Scores, nr.TotalScore = nil, nil
		out[i] = nr
	}
	return out
}

// checkAgainstReference asserts that the shared-row report (with the given
// bound on distinct statuses per plugin) equals the reference, node by node.
func checkAgainstReference(t require.TestingT, c *Compiled, limit int) {
	r := c.evaluate(limit)
	if r.Gated != nil || !c.PreFilterStatus().Code.Passes() {
		return
	}
	want := referenceNodes(c)
	require.Equal(t, want, verdictsOnly(r.Nodes))
	var feasible []string
	for _, nr := range want {
		if nr.Feasible {
			feasible = append(feasible, nr.Node)
		}
	}
	require.Equal(t, append([]string{}, feasible...), r.FeasibleNodes)
}

// TestVerdictTableMatchesReferenceOnConformanceData: on every upstream
// scenario of testdata/conformance, each pending pod's per-node verdicts,
// Filters lists and recorded statuses are those FilterEach gives node by
// node, whether rows are shared (the default bound) or a plugin's table
// overflows at once (bound 1: every node with a second distinct status
// takes the unshared path).
func TestVerdictTableMatchesReferenceOnConformanceData(t *testing.T) {
	for _, name := range filterScoreCases(t) {
		t.Run(name, func(t *testing.T) {
			snap, pending := loadScenario(t, filepath.Join("testdata/conformance", name+".json"))
			for _, p := range pending {
				c, err := Compile(snap, p, Options{})
				require.NoError(t, err)
				for _, limit := range []int{maxIDs, 2, 1} {
					checkAgainstReference(t, c, limit)
				}
			}
		})
	}
}

// TestParallelHelpers: forChunks covers [0, n) once in non-empty ranges
// and runAll runs every task once, for any parallelism.
func TestParallelHelpers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 4*minChunk).Draw(t, "n")
		par := rapid.IntRange(0, 5).Draw(t, "par")
		r := runner{n: par}
		if rapid.Bool().Draw(t, "workers") {
			r.w = NewWorkers()
			defer r.w.Close()
		}
		seen := make([]int32, n)
		var mu sync.Mutex
		var ranges [][2]int
		forChunks(n, r, func(lo, hi int) {
			mu.Lock()
			ranges = append(ranges, [2]int{lo, hi})
			mu.Unlock()
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i := range seen {
			require.Equal(t, int32(1), seen[i], "index %d", i)
		}
		// Up to four ranges per goroutine (so that a helper joining late
		// still takes a share), none empty unless n is 0.
		require.LessOrEqual(t, len(ranges), max(4*par, 1))
		for _, r := range ranges {
			require.True(t, r[0] < r[1] || n == 0, "range %v", r)
		}
		ran := make([]int32, rapid.IntRange(0, 6).Draw(t, "tasks"))
		var tasks []func()
		for i := range ran {
			tasks = append(tasks, func() { ran[i]++ })
		}
		runAll(r, tasks)
		for i := range ran {
			require.Equal(t, int32(1), ran[i], "task %d", i)
		}
	})
}

// checkFilterCode asserts that Schedule's code-only pass agrees with Filter
// on every node, and each node-local code with its status.
func checkFilterCode(t require.TestingT, c *Compiled) {
	for _, n := range cluster.NodesOf(c.snap) {
		st := c.filter(n)
		require.Equal(t, st.Code, c.filterCode(n), n.Name)
		// The status rebuilt from what failed is Filter's, reasons and
		// plugin included.
		code, why := c.filterWhy(n)
		require.Equal(t, st.Code, code, n.Name)
		require.Equal(t, st, c.statusOf(n, why), n.Name)
		for p := range numFilters {
			if !isLocal(p) {
				continue
			}
			if code, ok := c.localCode(p, n); ok && code != 0 {
				require.Equal(t, localStatus(p, code).Code, localStatusCode(p, code), "%s plugin %d", n.Name, p)
			}
		}
	}
}

// TestFilterCodeMatchesFilter: on the upstream scenarios filterCode gives
// Filter's code, and statusOf rebuilds Filter's status from filterWhy (TestFilterCodeMatchesFilterOnKitClusters: on random
// clusters).
func TestFilterCodeMatchesFilter(t *testing.T) {
	for _, name := range filterScoreCases(t) {
		snap, pending := loadScenario(t, filepath.Join("testdata/conformance", name+".json"))
		for _, p := range pending {
			c, err := Compile(snap, p, Options{})
			require.NoError(t, err)
			checkFilterCode(t, c)
		}
	}
}
