package eviction

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement"
)

// TestPlanDrainSchedulerAgreesWithUpstreamDrain: on the public drain cases
// (upstream kube-scheduler's answers, testdata/conformance/cases-drain),
// PlanDrain with PlanOptions.Scheduler and kubectl drain --ignore-daemonsets
// --delete-emptydir-data --force places every evicted pod where upstream's
// scheduler put it, and gives an unplaced one upstream's message, wherever
// no budget blocks an eviction (without budgets, always).
func TestPlanDrainSchedulerAgreesWithUpstreamDrain(t *testing.T) {
	dir := "../testdata/conformance/cases-drain"
	answers, err := filepath.Glob(filepath.Join(dir, "*.drain.json"))
	require.NoError(t, err)
	require.NotEmpty(t, answers)
	for _, answer := range answers {
		name := strings.TrimSuffix(filepath.Base(answer), ".drain.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name+".json"))
			require.NoError(t, err)
			sc, _, err := scenario.Load(data)
			require.NoError(t, err)
			nodes, err := os.ReadFile(filepath.Join(dir, name+".nodes"))
			require.NoError(t, err)
			var exp struct {
				Pods []struct{ Pod, Outcome, Node, Message string }
			}
			data, err = os.ReadFile(answer)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &exp))

			in := sc.ClusterInput(false)
			snap, _, err := placement.NewSnapshot(publicInput(in))
			require.NoError(t, err)
			// The DaemonSets the cases' pods name exist (the generator gave
			// pods a DaemonSet owner without the object).
			seen := map[types.UID]bool{}
			var daemonSets []*appsv1.DaemonSet
			for _, p := range in.Pods {
				for _, o := range p.OwnerReferences {
					if o.Kind == "DaemonSet" && !seen[o.UID] {
						seen[o.UID] = true
						daemonSets = append(daemonSets, &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: p.Namespace, UID: o.UID}})
					}
				}
			}
			opts := PlanOptions{Scheduler: true, DaemonSets: daemonSets, Drain: DrainOptions{Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true,
				Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}
			// No budgets: upstream's what-if drain checks none.
			plan, err := PlanDrain(snap, strings.Split(strings.TrimSpace(string(nodes)), ","), []*policyv1.PodDisruptionBudget{}, opts)
			require.NoError(t, err)
			require.Empty(t, plan.Blocked)
			if os.Getenv("DEBUG_PLAN") != "" {
				for _, e := range plan.Evictions {
					t.Logf("plan %s/%s from %s to %s prio %v", e.Pod.Namespace, e.Pod.Name, e.From, e.To, *e.Pod.Spec.Priority)
				}
				for _, e := range exp.Pods {
					t.Logf("exp %s %s %s", e.Pod, e.Outcome, e.Node)
				}
			}
			got := map[string]PlannedEviction{}
			for _, e := range plan.Evictions {
				got[e.Pod.Namespace+"/"+e.Pod.Name] = e
			}
			for _, e := range exp.Pods {
				ev, ok := got[e.Pod]
				if !assert.True(t, ok, "%s not evicted by the plan", e.Pod) {
					continue
				}
				if e.Outcome == string(corev1.PodPending) || e.Outcome == "Scheduled" {
					assert.Equal(t, e.Node, ev.To, "%s", e.Pod)
				} else {
					assert.Equal(t, "", ev.To, "%s", e.Pod)
					assert.Equal(t, e.Message, ev.Message, "%s", e.Pod)
				}
			}
			assert.Equal(t, len(exp.Pods), len(plan.Evictions), "the plan evicts what upstream's drain moves")

			// First fit reports the scheduler's text for what it cannot place.
			opts.Scheduler = false
			plan, err = PlanDrain(snap, strings.Split(strings.TrimSpace(string(nodes)), ","), []*policyv1.PodDisruptionBudget{}, opts)
			require.NoError(t, err)
			for _, e := range plan.Evictions {
				if e.To == "" {
					assert.Regexp(t, `^0/\d+ nodes are available: .* preemption: not eligible due to preemptionPolicy=Never\.$`, e.Message, "%s", e.Pod.Name)
				} else {
					assert.Empty(t, e.Message)
				}
			}
		})
	}
}

// publicInput is a scenario's cluster as placement.NewSnapshot takes it.
func publicInput(in cluster.Input) placement.SnapshotInput {
	return placement.SnapshotInput{Nodes: in.Nodes, Pods: in.Pods, Namespaces: in.Namespaces, Services: in.Services,
		ReplicaSets: in.ReplicaSets, StatefulSets: in.StatefulSets, ReplicationControllers: in.ReplicationControllers,
		PDBs: in.PDBs, WithoutPodLevelResize: in.WithoutPodLevelResize, Parallelism: in.Parallelism}
}
