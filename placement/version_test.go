package placement

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestParseVersion has no upstream counterpart: it pins the accepted
// spellings and the error for everything else.
func TestParseVersion(t *testing.T) {
	tests := []struct {
		in      string
		want    Version
		wantErr bool
	}{
		{in: "1.36", want: V1_36},
		{in: "v1.36", want: V1_36},
		{in: "1.35", want: V1_35},
		{in: "v1.35", want: V1_35},
		{in: "v1.35.4", want: V1_35},
		{in: " 1.34 ", want: V1_34},
		{in: "1.34.0", want: V1_34},
		{in: "1.034", want: V1_34},
		{in: "", wantErr: true},
		{in: "v", wantErr: true},
		{in: "1", wantErr: true},
		{in: "1.33", wantErr: true},
		{in: "1.37", wantErr: true},
		{in: "2.35", wantErr: true},
		{in: "1.35.4.1", wantErr: true},
		{in: "1.35.", wantErr: true},
		{in: "1.+35", wantErr: true},
		{in: "1.-35", wantErr: true},
		{in: "V1.35", wantErr: true},
		{in: "vv1.35", wantErr: true},
		{in: "1.35-rc.1", wantErr: true},
		{in: "latest", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseVersion(tt.in)
			if tt.wantErr {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrUnsupportedVersion))
				assert.Contains(t, err.Error(), "supported versions are 1.36, 1.35 and 1.34")
				assert.Equal(t, V1_36, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestVersionNeedsItsSnapshot: a profile and a snapshot that count bound
// pods' pod-level requests by different rules are refused by Compile and
// Prepared.Compile (ErrVersionMismatch); kubelet admission, not a scheduler
// profile, takes any snapshot.
func TestVersionNeedsItsSnapshot(t *testing.T) {
	nodes := []*corev1.Node{mkNode("a", "4", "8Gi")}
	tests := []struct {
		version Version
		without bool // SnapshotInput.WithoutPodLevelResize
		wantErr bool
	}{
		{V1_36, false, false},
		{V1_36, true, true},
		{V1_35, true, false},
		{V1_35, false, true},
		{V1_34, true, false},
		{V1_34, false, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s without=%t", tt.version, tt.without), func(t *testing.T) {
			snap, _, err := NewSnapshot(SnapshotInput{Nodes: nodes, WithoutPodLevelResize: tt.without})
			require.NoError(t, err)
			pod := mkPod("p", requests("cpu", "1"))
			opts := Options{Version: tt.version}
			_, errCompile := Compile(snap, pod, opts)
			_, errPrepared := Prepare(pod, opts).Compile(snap)
			_, errEvaluate := Evaluate(snap, pod, opts)
			for _, err := range []error{errCompile, errPrepared, errEvaluate} {
				if tt.wantErr {
					require.ErrorIs(t, err, ErrVersionMismatch)
					assert.Contains(t, err.Error(), fmt.Sprintf("WithoutPodLevelResize = %t", !tt.without))
				} else {
					require.NoError(t, err)
				}
			}
			bound := pod.DeepCopy()
			bound.Spec.NodeName = "a"
			_, err = AdmitToNode(snap, bound)
			require.NoError(t, err, "admission is the kubelet's, whatever the snapshot")
		})
	}
}

func TestVersionText(t *testing.T) {
	var zero Version
	assert.Equal(t, V1_36, zero, "the zero value is v1.36")
	for _, v := range Versions() {
		b, err := v.MarshalText()
		require.NoError(t, err)
		var back Version
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, v, back)
		assert.Equal(t, string(b), v.String())
	}
	assert.Equal(t, []string{"v1.36", "v1.35", "v1.34"}, []string{V1_36.String(), V1_35.String(), V1_34.String()})
	bad := Version(9)
	assert.False(t, bad.Valid())
	assert.Equal(t, "v?", bad.String())
	_, err := bad.MarshalText()
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
	var v Version = V1_34
	assert.ErrorIs(t, v.UnmarshalText([]byte("1.20")), ErrUnsupportedVersion)
	assert.Equal(t, V1_34, v, "a failed UnmarshalText leaves the value alone")

	type wrapper struct {
		V Version `json:"v"`
	}
	var w wrapper
	require.NoError(t, json.Unmarshal([]byte(`{"v":"v1.35"}`), &w))
	assert.Equal(t, V1_35, w.V)
	out, err := json.Marshal(wrapper{V: V1_34})
	require.NoError(t, err)
	assert.JSONEq(t, `{"v":"v1.34"}`, string(out))
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.36", "v1.35", "1.34.4", "", "1.", "v1.35.4.1", "01.035", "1.99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			if !errors.Is(err, ErrUnsupportedVersion) || v != V1_36 {
				t.Fatalf("ParseVersion(%q) = %v, %v", s, v, err)
			}
			return
		}
		if !v.Valid() {
			t.Fatalf("ParseVersion(%q) returned invalid %d", s, v)
		}
		// Whatever was accepted re-parses from its canonical form.
		again, err := ParseVersion(v.String())
		if err != nil || again != v {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}

// oracleProfile is the part of the oracle's meta.profile this test reads.
type oracleProfile struct {
	Oracle  string `json:"oracle"`
	Profile struct {
		PreFilter []struct{ Name string } `json:"preFilter"`
		Filter    []struct{ Name string } `json:"filter"`
		Score     []struct {
			Name   string
			Weight int64
		} `json:"score"`
		FeatureGates map[string]bool `json:"featureGates"`
	} `json:"profile"`
}

// TestVersionProfileMatchesUpstream checks each Profile against the profile
// the upstream release itself reported when it answered the conformance
// cases (testdata/versionprofiles, copied from meta.profile): the plugins of
// apis/config/v1/default_plugins.go getDefaultPlugins + applyFeatureGates in
// order, the weights, and every reported feature gate
// (pkg/features/kube_features.go defaultVersionedKubernetesFeatureGates).
func TestVersionProfileMatchesUpstream(t *testing.T) {
	for _, v := range Versions() {
		t.Run(v.String(), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "versionprofiles", v.String()+".json"))
			require.NoError(t, err)
			var up oracleProfile
			require.NoError(t, json.Unmarshal(raw, &up))
			require.Contains(t, up.Oracle, "k8s.io/kubernetes "+v.String()+".")

			p := v.Profile()
			assert.Equal(t, v, p.Version)
			var names []string
			for _, pl := range up.Profile.PreFilter {
				names = append(names, pl.Name)
			}
			assert.Equal(t, names, p.PreFilterPlugins)
			names = nil
			for _, pl := range up.Profile.Filter {
				names = append(names, pl.Name)
			}
			assert.Equal(t, names, p.FilterPlugins)
			var scores []WeightedPlugin
			for _, pl := range up.Profile.Score {
				scores = append(scores, WeightedPlugin{Name: pl.Name, Weight: pl.Weight})
			}
			assert.Equal(t, scores, p.ScorePlugins)

			gates := reflect.ValueOf(p.Gates)
			require.NotEmpty(t, up.Profile.FeatureGates)
			for name, want := range up.Profile.FeatureGates {
				f := gates.FieldByName(name)
				require.True(t, f.IsValid(), "gate %s reported by upstream is missing from Gates", name)
				assert.Equal(t, want, f.Bool(), "gate %s", name)
			}
		})
	}
}

// TestVersionProfileRules pins the version-specific switches and the gates
// upstream does not report in meta.profile.
func TestVersionProfileRules(t *testing.T) {
	tests := []struct {
		v                      Version
		declaredFeatures       bool
		imageVolumes           bool
		balanceImprovement     bool
		podLevelResizeStatus   bool
		filters                int
		opportunisticBatching  bool
		draExtendedResource    bool
		inPlacePodLevelResizes bool
	}{
		{V1_36, true, true, true, true, 9, true, true, true},
		{V1_35, false, false, false, false, 8, true, false, false},
		{V1_34, false, false, false, false, 8, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.v.String(), func(t *testing.T) {
			p := tt.v.Profile()
			assert.Equal(t, tt.declaredFeatures, tt.v.RunsNodeDeclaredFeatures())
			assert.Equal(t, tt.declaredFeatures, p.Gates.NodeDeclaredFeatures)
			assert.Equal(t, tt.imageVolumes, tt.v.CountsImageVolumes())
			assert.Equal(t, tt.imageVolumes, p.ImageLocalityCountsImageVolumes)
			assert.Equal(t, tt.balanceImprovement, tt.v.ScoresBalanceImprovement())
			assert.Equal(t, tt.balanceImprovement, p.BalancedAllocationScoresImprovement)
			assert.Equal(t, tt.podLevelResizeStatus, tt.v.UsesPodLevelResizeStatus())
			assert.Equal(t, tt.inPlacePodLevelResizes, p.Gates.InPlacePodLevelResourcesVerticalScaling)
			assert.Equal(t, tt.opportunisticBatching, p.Gates.OpportunisticBatching)
			assert.Equal(t, tt.draExtendedResource, p.Gates.DRAExtendedResource)
			assert.Len(t, p.FilterPlugins, tt.filters)
			assert.Equal(t, tt.declaredFeatures, p.FilterPlugins[len(p.FilterPlugins)-1] == sched.NodeDeclaredFeatures)
		})
	}
	// Profile hands out fresh slices.
	a, b := V1_36.Profile(), V1_36.Profile()
	a.FilterPlugins[0] = "changed"
	assert.Equal(t, sched.NodeUnschedulable, b.FilterPlugins[0])
	assert.Equal(t, V1_36.Profile(), Version(200).Profile(), "an invalid version gets the v1.36 profile")
}

// TestBalancedAllocationScore mirrors balancedResourceScorer of
// noderesources/balanced_allocation.go at v1.34.4 / v1.35.4 (balance with the
// pod) and v1.36.3 (improvement). The rows marked "case" are nodes of the
// conformance scenario small-1 whose raw scores the releases reported.
func TestBalancedAllocationScore(t *testing.T) {
	tests := []struct {
		name                        string
		withPod, alloc, allocatable []int64
		old, v136                   int64
	}{
		{
			name:    "case small-1 team-c/api-5 on node-000",
			withPod: []int64{4250, 30333206528}, alloc: []int64{1000, 268435456}, allocatable: []int64{16000, 33822867456},
			old: 68, v136: 60,
		},
		{
			name:    "case small-1 team-c/api-5 on node-006",
			withPod: []int64{13200, 50180653056}, alloc: []int64{9950, 20115881984}, allocatable: []int64{15750, 68182605824},
			old: 94, v136: 80,
		},
		{
			name:    "case small-1 team-c/api-5 on node-012",
			withPod: []int64{12000, 50046435328}, alloc: []int64{8750, 19981664256}, allocatable: []int64{15900, 68182605824},
			old: 98, v136: 80,
		},
		{
			name:    "case small-1 team-c/api-5 on node-016",
			withPod: []int64{4250, 30333206528}, alloc: []int64{1000, 268435456}, allocatable: []int64{31900, 136902082560},
			old: 95, v136: 73,
		},
		{
			name:    "case small-1 team-b/web-10 on node-000",
			withPod: []int64{1100, 335544320}, alloc: []int64{1000, 268435456}, allocatable: []int64{16000, 33822867456},
			old: 97, v136: 75,
		},
		{
			name:    "case small-1 team-b/web-10 on node-002",
			withPod: []int64{7000, 19855835136}, alloc: []int64{6900, 19788726272}, allocatable: []int64{7900, 68451041280},
			old: 70, v136: 75,
		},
		{
			// The pod makes an empty node perfectly unbalanced: 100 -> 50.
			name:    "empty node, cpu-only pod filling it",
			withPod: []int64{4000, 0}, alloc: []int64{0, 0}, allocatable: []int64{4000, 8 << 30},
			old: 50, v136: 50,
		},
		{
			// The pod restores a perfect balance from 50: improvement 50 -> 100.
			name:    "pod that balances a lopsided node",
			withPod: []int64{4000, 8 << 30}, alloc: []int64{4000, 0}, allocatable: []int64{4000, 8 << 30},
			old: 100, v136: 100,
		},
		{
			// Fractions above 1 are clamped, so an overcommitted node is as balanced as a full one.
			name:    "overcommitted resources clamp at 1",
			withPod: []int64{9000, 20 << 30}, alloc: []int64{8000, 16 << 30}, allocatable: []int64{4000, 8 << 30},
			old: 100, v136: 75,
		},
		{
			// A resource with zero allocatable is left out: one fraction, std 0.
			name:    "single resource counted",
			withPod: []int64{500, 1 << 30}, alloc: []int64{0, 0}, allocatable: []int64{1000, 0},
			old: 100, v136: 75,
		},
		{
			// Three resources use the population standard deviation:
			// fractions 0, 0.5, 1 -> std sqrt(1/6) = 0.408 -> 59.
			name:    "three resources",
			withPod: []int64{0, 50, 100}, alloc: []int64{0, 0, 0}, allocatable: []int64{100, 100, 100},
			old: 59, v136: 50 + (50+59-100)/2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.old, balancedAllocationScore(V1_34, tt.withPod, tt.alloc, tt.allocatable), "v1.34")
			assert.Equal(t, tt.old, balancedAllocationScore(V1_35, tt.withPod, tt.alloc, tt.allocatable), "v1.35")
			assert.Equal(t, tt.v136, balancedAllocationScore(V1_36, tt.withPod, tt.alloc, tt.allocatable), "v1.36")
		})
	}
}

// TestBalancedAllocationScoreProperties: in range for every version, and
// v1.36's score is a function of v1.34's with and without the pod.
func TestBalancedAllocationScoreProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3).Draw(t, "resources")
		gen := rapid.Int64Range(0, 64)
		withPod, alloc, allocatable := make([]int64, n), make([]int64, n), make([]int64, n)
		for i := 0; i < n; i++ {
			allocatable[i] = gen.Draw(t, "allocatable")
			alloc[i] = gen.Draw(t, "allocated")
			withPod[i] = alloc[i] + gen.Draw(t, "request")
		}
		old := balancedAllocationScore(V1_34, withPod, alloc, allocatable)
		if old != balancedAllocationScore(V1_35, withPod, alloc, allocatable) {
			t.Fatalf("v1.34 and v1.35 differ")
		}
		if old < 0 || old > maxNodeScore {
			t.Fatalf("v1.34 score %d out of range", old)
		}
		without := balancedAllocationScore(V1_34, alloc, alloc, allocatable)
		got := balancedAllocationScore(V1_36, withPod, alloc, allocatable)
		if want := int64(50 + (50+old-without)/2); got != want {
			t.Fatalf("v1.36 score %d, want %d from %d and %d", got, want, old, without)
		}
		if got < 0 || got > maxNodeScore {
			t.Fatalf("v1.36 score %d out of range", got)
		}
	})
}

// TestImageLocalityImages mirrors sumImageScores of
// imagelocality/image_locality.go: v1.36 adds image volumes.
func TestImageLocalityImages(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "init", Image: "init:1"}},
		Containers:     []corev1.Container{{Name: "a", Image: "app:2"}, {Name: "b", Image: "side"}},
		Volumes: []corev1.Volume{
			{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			{Name: "model", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry.example.com/model:v3"}}},
			{Name: "weights", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "weights"}}},
		},
	}}
	before := pod.DeepCopy()
	tests := []struct {
		v    Version
		want []string
	}{
		{V1_36, []string{"init:1", "app:2", "side", "registry.example.com/model:v3", "weights"}},
		{V1_35, []string{"init:1", "app:2", "side"}},
		{V1_34, []string{"init:1", "app:2", "side"}},
	}
	for _, tt := range tests {
		t.Run(tt.v.String(), func(t *testing.T) {
			var got []string
			imageLocalityImages(tt.v, pod, func(s string) { got = append(got, s) })
			assert.Equal(t, tt.want, got)
		})
	}
	assert.Equal(t, before, pod, "the pod is not modified")
}
