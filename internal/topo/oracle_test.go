package topo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// oracleScenario is the part of a normalized scenario these plugins read.
type oracleScenario struct {
	Nodes                  []*corev1.Node                  `json:"nodes"`
	Pods                   []*corev1.Pod                   `json:"pods"`
	Namespaces             []*corev1.Namespace             `json:"namespaces"`
	Pending                []*corev1.Pod                   `json:"pending"`
	Services               []*corev1.Service               `json:"services"`
	ReplicaSets            []*appsv1.ReplicaSet            `json:"replicaSets"`
	StatefulSets           []*appsv1.StatefulSet           `json:"statefulSets"`
	ReplicationControllers []*corev1.ReplicationController `json:"replicationControllers"`
}

type oracleStatus struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

type oracleAnswer struct {
	Pods []struct {
		Pod       string `json:"pod"`
		Gated     *oracleStatus
		PreFilter struct {
			Status  oracleStatus `json:"status"`
			Skipped []string     `json:"skippedFilterPlugins"`
		} `json:"preFilter"`
		Feasible     []string `json:"feasibleNodes"`
		ScoreSkipped []string `json:"preScoreSkippedPlugins"`
		Nodes        []struct {
			Node    string         `json:"node"`
			Filters []oracleStatus `json:"filters"`
			Scores  []struct {
				Plugin     string `json:"plugin"`
				Normalized int64  `json:"normalized"`
			} `json:"scores"`
		} `json:"nodes"`
	} `json:"pods"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestOracleAnswers replays scenarios answered by kube-scheduler v1.36.3
// (testdata/oracle) through both plugins: PreFilter Skip, every node's
// Filter verdict with its reasons, PreScore Skip and the normalized score
// over upstream's feasible nodes.
func TestOracleAnswers(t *testing.T) {
	scenarios, err := filepath.Glob("testdata/oracle/*.scenario.json")
	require.NoError(t, err)
	require.NotEmpty(t, scenarios)
	for _, path := range scenarios {
		name := filepath.Base(path[:len(path)-len(".scenario.json")])
		t.Run(name, func(t *testing.T) {
			var sc oracleScenario
			var ans oracleAnswer
			readJSON(t, path, &sc)
			readJSON(t, filepath.Join("testdata/oracle", name+".filter-score.json"), &ans)
			snap := snapshotOf(t, cluster.Input{
				Nodes: sc.Nodes, Pods: sc.Pods, Namespaces: sc.Namespaces, Services: sc.Services,
				ReplicaSets: sc.ReplicaSets, StatefulSets: sc.StatefulSets, ReplicationControllers: sc.ReplicationControllers,
			})
			require.Len(t, ans.Pods, len(sc.Pending))
			checks := 0
			for i, pod := range sc.Pending {
				want := ans.Pods[i]
				require.Equal(t, pod.Namespace+"/"+pod.Name, want.Pod)
				if want.Gated != nil || want.PreFilter.Status.Code != "Success" {
					continue
				}
				_, s, a := plugins(t, snap, pod)
				plugins := []struct {
					name    string
					skipped bool
					filter  func(*cluster.NodeInfo) sched.Status
					score   func([]*cluster.NodeInfo) ([]int64, []int64, bool)
				}{
					{sched.PodTopologySpread, s.FilterSkipped(), s.Filter, s.Score},
					{sched.InterPodAffinity, a.FilterSkipped(), a.Filter, a.Score},
				}
				var feasible []*cluster.NodeInfo
				for _, n := range want.Feasible {
					ni, ok := cluster.NodeOf(snap, n)
					require.True(t, ok)
					feasible = append(feasible, ni)
				}
				for _, pl := range plugins {
					assert.Equal(t, contains(want.PreFilter.Skipped, pl.name), pl.skipped, "%s %s PreFilter skip", want.Pod, pl.name)
					wantNorm := map[string]int64{}
					for _, wn := range want.Nodes {
						ni, ok := cluster.NodeOf(snap, wn.Node)
						require.True(t, ok)
						for _, f := range wn.Filters {
							if f.Plugin != pl.name {
								continue
							}
							got := pl.filter(ni)
							code := got.Code.String()
							if pl.skipped {
								code = "Skip"
							}
							assert.Equal(t, f.Code, code, "%s on %s: %s", want.Pod, wn.Node, pl.name)
							assert.Equal(t, f.Reasons, got.Reasons, "%s on %s: %s reasons", want.Pod, wn.Node, pl.name)
							checks++
						}
						for _, sc := range wn.Scores {
							if sc.Plugin == pl.name {
								wantNorm[wn.Node] = sc.Normalized
							}
						}
					}
					if len(feasible) == 0 {
						continue
					}
					_, norm, skipped := pl.score(feasible)
					assert.Equal(t, contains(want.ScoreSkipped, pl.name), skipped, "%s %s PreScore skip", want.Pod, pl.name)
					for j, n := range feasible {
						assert.Equal(t, wantNorm[n.Name], norm[j], "%s on %s: %s score", want.Pod, n.Name, pl.name)
						checks++
					}
				}
			}
			t.Logf("%d checks", checks)
		})
	}
}
