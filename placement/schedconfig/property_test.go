package schedconfig_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/placementtest"
	"github.com/schedkit/schedkit/placement/schedconfig"
	"github.com/schedkit/schedkit/preemption"
)

// defaultWrittenOut is the v1.36 default profile spelled out: every default
// plugin and weight at multiPoint, every plugin's default args.
const defaultWrittenOut = header + `parallelism: 16
percentageOfNodesToScore: 0
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: SchedulingGates
      - name: PrioritySort
      - name: NodeUnschedulable
      - name: NodeName
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
      - name: NodeResourcesFit
        weight: 1
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DefaultPreemption
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
      - name: NodeDeclaredFeatures
  pluginConfig:
  - name: DefaultPreemption
    args: {minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100}
  - name: InterPodAffinity
    args: {hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false}
  - name: NodeAffinity
    args: {}
  - name: NodeResourcesBalancedAllocation
    args: {resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: LeastAllocated, resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}}
  - name: PodTopologySpread
    args: {defaultingType: System}
`

// kit is the clusters of the properties: up to 6 nodes, 8 bound pods bound
// anywhere, pods of several constraint families at once (every plugin
// gives verdicts), spread-out priorities and budgets (preemption in the
// queue).
var kit = placementtest.Config{MaxNodes: 6, MaxPods: 8, MaxPending: 4, Overcommit: true, Mixed: true, Preemption: true}

// TestDefaultProfileWrittenOut: the default profile written out as a
// configuration (and the empty configuration) gives answers identical to
// no configuration, pod by pod and for a whole queue with preemption.
func TestDefaultProfileWrittenOut(t *testing.T) {
	var profiles []placement.Options
	for _, body := range []string{header, defaultWrittenOut} {
		p, err := schedconfig.Read([]byte(body))
		require.NoError(t, err)
		profiles = append(profiles, p.Options)
	}
	t.Run("the default profile written out gives the answers of no configuration", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			c := placementtest.ClusterOf(kit).Draw(t, "cluster")
			pending := c.Pending
			// The profile combines with every release's rules.
			v := rapid.SampledFrom(placement.Versions()).Draw(t, "version")
			in := c.SnapshotInput()
			in.WithoutPodLevelResize = !v.UsesPodLevelResizeStatus()
			snap, _, err := placement.NewSnapshot(in)
			require.NoError(t, err)
			want, err := placement.Evaluate(snap, pending[0], placement.Options{Version: v})
			require.NoError(t, err)
			wantQ, err := preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{Placement: placement.Options{Version: v}})
			require.NoError(t, err)
			for _, opts := range profiles {
				opts.Version = v
				got, err := placement.Evaluate(snap, pending[0], opts)
				require.NoError(t, err)
				require.Equal(t, want, got)
				gotQ, err := preemption.ScheduleQueue(snap, pending, preemption.QueueOptions{Placement: opts})
				require.NoError(t, err)
				require.Equal(t, wantQ.Results, gotQ.Results)
				require.Equal(t, wantQ.Evicted, gotQ.Evicted)
			}
		})
	})
}

// TestConfigMatchesGoOptions: each public configuration read from its file
// answers as the same profile built in Go with placement.Options alone.
func TestConfigMatchesGoOptions(t *testing.T) {
	spread := []corev1.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway},
		{MaxSkew: 2, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule},
	}
	cpuMem := []placement.ResourceSpec{{Name: corev1.ResourceCPU, Weight: 1}, {Name: corev1.ResourceMemory, Weight: 1}}
	inGo := map[string]placement.Options{
		"most-allocated": {ScoringStrategy: placement.ScoringStrategy{Type: placement.MostAllocated, Resources: cpuMem}},
		"requested-to-capacity-ratio": {ScoringStrategy: placement.ScoringStrategy{Type: placement.RequestedToCapacityRatio,
			Resources: []placement.ResourceSpec{{Name: corev1.ResourceCPU, Weight: 3}, {Name: corev1.ResourceMemory, Weight: 1}, {Name: "example.com/gpu", Weight: 5}},
			Shape:     []placement.UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}}},
		"reweighted-scores": {ScoreWeights: map[string]int64{"ImageLocality": 0, "NodeResourcesBalancedAllocation": 0,
			"InterPodAffinity": 5, "PodTopologySpread": 1}},
		"topology-spread-list-defaults": {DefaultSpreadConstraints: spread},
	}
	for name, goOpts := range inGo {
		data, err := os.ReadFile(filepath.Join("../../testdata/conformance/configs", name+".yaml"))
		require.NoError(t, err)
		prof, err := schedconfig.Read(data)
		require.NoError(t, err)
		t.Run(name+" read from its file answers as built in Go", func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				c := placementtest.ClusterOf(kit).Draw(t, "cluster")
				pod := c.Pending[0]
				pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs", Controller: ptrTo(true)}}
				pod.Spec.TopologySpreadConstraints = nil
				in := c.SnapshotInput()
				in.ReplicaSets = []*appsv1.ReplicaSet{{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: pod.Namespace, UID: "rs"},
					Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: pod.Labels}}}}
				snap, _, err := placement.NewSnapshot(in)
				require.NoError(t, err)
				want, err := placement.Evaluate(snap, pod, goOpts)
				require.NoError(t, err)
				got, err := placement.Evaluate(snap, pod, prof.Options)
				require.NoError(t, err)
				require.Equal(t, want, got)
			})
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
