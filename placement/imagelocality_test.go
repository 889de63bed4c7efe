package placement

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

// TestImageLocalityRules mirrors imagelocality.sumImageScores,
// scaledImageScore, calculatePriority and normalizedImageName (v1.36):
// sizes are scaled by the share of nodes holding the image, clamped to
// [23MB, 1000MB per container], and names are compared after adding only a
// missing ":latest" tag (no registry or library prefix). Every expected
// value is upstream's answer (oracle, filter-score) on the same scenario.
func TestImageLocalityRules(t *testing.T) {
	const mb = 1024 * 1024
	nodes := []*corev1.Node{
		mkNode("a", "4", "8Gi", withImage(10*mb, "nginx:latest"), withImage(400*mb, "docker.io/library/redis:7", "redis:7")),
		mkNode("b", "4", "8Gi", withImage(5000*mb, "registry.example.com/big:1")),
		mkNode("c", "4", "8Gi", withImage(400*mb, "redis:7"), withImage(300*mb, "nginx:latest")),
		mkNode("d", "4", "8Gi"),
	}
	pod := func(images ...string) *corev1.Pod {
		p := mkPod("p")
		p.Spec.Containers = nil
		for i, img := range images {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: string(rune('a' + i)), Image: img})
		}
		return p
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		want map[string]int64 // raw = normalized
	}{
		// a: 10*2/4 + 400*2/4 = 205MB -> (205-23)*100/(3000-23) = 6;
		// b: 5000/4 = 1250MB -> 41; c: 200 + 150 = 350MB -> 10.
		{"three containers: scaled by spread, max threshold 3000MB",
			pod("nginx", "redis:7", "registry.example.com/big:1"), map[string]int64{"a": 6, "b": 41, "c": 10, "d": 0}},
		{"above the max threshold: 100", pod("registry.example.com/big:1"), map[string]int64{"a": 0, "b": 100, "c": 0, "d": 0}},
		// a: 5MB is under the 23MB minimum -> 0; c: 150MB -> 12.
		{"under the min threshold: 0; per-node sizes", pod("nginx:latest"), map[string]int64{"a": 0, "b": 0, "c": 12, "d": 0}},
		{"a registry prefix is not stripped", pod("docker.io/library/nginx"), map[string]int64{"a": 0, "b": 0, "c": 0, "d": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scoresOf(t, nodes, nil, tt.pod, Options{})
			for node, want := range tt.want {
				assert.Equal(t, [2]int64{want, want}, got[node][sched.ImageLocality], node)
			}
		})
	}
}

// ImageLocality's scores are kept per set of images among the snapshots
// that share the image counts (imageScoresOf). A view that changes a
// node's images, replaces a node without changing them, or removes or
// adds nodes scores as a snapshot built afresh from the same nodes, and so
// does a second pod with the same images on the first snapshot.
func TestImageScoresFollowViews(t *testing.T) {
	const mb = 1024 * 1024
	nodes := []*corev1.Node{
		mkNode("a", "4", "8Gi", withImage(400*mb, "redis:7")),
		mkNode("b", "4", "8Gi", withImage(400*mb, "redis:7"), withImage(300*mb, "nginx:latest")),
		mkNode("c", "4", "8Gi"),
	}
	pod := mkPod("p")
	pod.Spec.Containers = []corev1.Container{{Name: "a", Image: "redis:7"}, {Name: "b", Image: "nginx"}}
	imageScores := func(snap *Snapshot) map[string]int64 { return imageLocalityRaw(t, snap, pod) }
	fresh := func(nodes ...*corev1.Node) map[string]int64 {
		snap, _, err := NewSnapshot(SnapshotInput{Nodes: nodes})
		require.NoError(t, err)
		return imageScores(snap)
	}
	base, _, err := NewSnapshot(SnapshotInput{Nodes: nodes})
	require.NoError(t, err)
	assert.Equal(t, fresh(nodes...), imageScores(base))
	assert.Equal(t, fresh(nodes...), imageScores(base), "the kept scores")

	cWithImages := mkNode("c", "4", "8Gi", withImage(900*mb, "redis:7"))
	relabelled := mkNode("a", "4", "8Gi", withImage(400*mb, "redis:7"))
	relabelled.Labels["tier"] = "x"
	tainted := mkNode("b", "4", "8Gi", withImage(400*mb, "redis:7"), withImage(300*mb, "nginx:latest"),
		withTaint("k", "", corev1.TaintEffectPreferNoSchedule))
	d := mkNode("d", "4", "8Gi")
	for _, tc := range []struct {
		name  string
		view  func() (*Snapshot, error)
		nodes []*corev1.Node
	}{
		{"a node gets images", func() (*Snapshot, error) { return base.WithNode(cWithImages) }, []*corev1.Node{nodes[0], nodes[1], cWithImages}},
		{"a node is relabelled", func() (*Snapshot, error) { return base.WithNode(relabelled) }, []*corev1.Node{relabelled, nodes[1], nodes[2]}},
		{"a node is tainted", func() (*Snapshot, error) { return base.WithNode(tainted) }, []*corev1.Node{nodes[0], tainted, nodes[2]}},
		{"a node leaves", func() (*Snapshot, error) { return base.WithoutNodes("c") }, nodes[:2]},
		{"a node holding the images leaves", func() (*Snapshot, error) { return base.WithoutNodes("a") }, nodes[1:]},
		// Nodes without images come and go: the view keeps base's image
		// counts, and as many nodes on one slot more.
		{"a node without images replaces another", func() (*Snapshot, error) {
			v, err := base.WithNodes(d)
			if err != nil {
				return nil, err
			}
			return v.WithoutNodes("c")
		}, []*corev1.Node{nodes[0], nodes[1], d}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			view, err := tc.view()
			require.NoError(t, err)
			assert.Equal(t, fresh(tc.nodes...), imageScores(view))
			// Another set of images, first asked on the view: the
			// images' columns kept from base serve it where they hold.
			other := mkPod("q")
			other.Spec.Containers = []corev1.Container{{Name: "a", Image: "redis:7"}}
			snap, _, err := NewSnapshot(SnapshotInput{Nodes: tc.nodes})
			require.NoError(t, err)
			assert.Equal(t, imageLocalityRaw(t, snap, other), imageLocalityRaw(t, view, other))
		})
	}
}

// imageLocalityRaw is pod's ImageLocality raw score on each of snap's nodes.
func imageLocalityRaw(t *testing.T, snap *Snapshot, pod *corev1.Pod) map[string]int64 {
	t.Helper()
	r, err := Evaluate(snap, pod, Options{})
	require.NoError(t, err)
	out := map[string]int64{}
	for _, n := range r.Nodes {
		for _, s := range n.Scores {
			if s.Plugin == sched.ImageLocality {
				out[n.Node] = s.Raw
			}
		}
	}
	return out
}
