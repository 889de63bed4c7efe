package testbuild

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestBuilders(t *testing.T) {
	assert.Equal(t, map[string]string{"a": "1", "b": "2"}, Labels("a", "1", "b", "2", "odd"))
	assert.NotNil(t, Labels(), "no pairs: an empty map, not nil")
	assert.Equal(t, map[string]string{"x": "0", "a": "1"}, AddLabels(map[string]string{"x": "0"}, "a", "1"))
	assert.Equal(t, map[string]string{"app": "web"}, Selector("app", "web").MatchLabels)
	r := Resources("cpu", "500m", "memory", "1Gi")
	assert.Equal(t, resource.MustParse("500m"), r[corev1.ResourceCPU])
	assert.Len(t, r, 2)
}
