package cluster

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// ImageMemo fills a key once among the snapshots sharing the image counts
// (views of pods, and node views that keep every node's images), starts
// afresh on a node view that changes them, and stops keeping keys past
// maxImageMemo.
func TestImageMemo(t *testing.T) {
	withImage := func(n *corev1.Node, name string) *corev1.Node {
		n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: []string{name}, SizeBytes: 100 << 20})
		return n
	}
	base, _, err := New(Input{Nodes: []*corev1.Node{withImage(node("a", nil, nil), "redis:7"), node("b", nil, nil)},
		Pods: []*corev1.Pod{pod("ns", "p", "a", nil)}})
	require.NoError(t, err)
	var fills atomic.Int32
	fill := func() any { return fills.Add(1) }

	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); assert.Equal(t, int32(1), ImageMemo(base, "k", fill)) }()
	}
	wg.Wait()
	podView := base.WithoutPods("ns/p")
	assert.Equal(t, int32(1), ImageMemo(podView, "k", fill), "a view of pods shares it")
	labelled, err := base.WithNode(node("b", map[string]string{"x": "y"}, nil))
	require.NoError(t, err)
	assert.Equal(t, int32(1), ImageMemo(labelled, "k", fill), "a node view keeping the images shares it")
	imaged, err := base.WithNode(withImage(node("b", nil, nil), "nginx:1"))
	require.NoError(t, err)
	assert.Equal(t, int32(2), ImageMemo(imaged, "k", fill), "a node view changing them starts afresh")
	assert.Equal(t, int32(2), fills.Load())

	for i := range maxImageMemo {
		ImageMemo(base, strconv.Itoa(i), fill)
	}
	assert.Nil(t, ImageMemo(base, "one too many", fill))
	assert.Equal(t, int32(1), ImageMemo(base, "k", fill), "kept keys are still answered")
}
