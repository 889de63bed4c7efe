package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWithoutKey: withoutKey (RemovePodInPlace's affinity lists, mirroring
// framework.NodeInfo.RemovePod's removal from PodsWithAffinity) keeps the
// order and content filterOut gives for one key, and never writes to the
// list it was given.
func TestWithoutKey(t *testing.T) {
	a, b, c := &PodInfo{Key: "ns/a"}, &PodInfo{Key: "ns/b"}, &PodInfo{Key: "ns/c"}
	tests := []struct {
		name string
		list []*PodInfo
		key  string
	}{
		{"nil list", nil, "ns/a"},
		{"empty list", []*PodInfo{}, "ns/a"},
		{"only pod", []*PodInfo{a}, "ns/a"},
		{"first", []*PodInfo{a, b, c}, "ns/a"},
		{"middle", []*PodInfo{a, b, c}, "ns/b"},
		{"last", []*PodInfo{a, b, c}, "ns/c"},
		{"absent", []*PodInfo{a, c}, "ns/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := append([]*PodInfo(nil), tt.list...)
			got := withoutKey(tt.list, tt.key)
			assert.Equal(t, filterOut(tt.list, map[string]bool{tt.key: true}), got)
			assert.Equal(t, before, append([]*PodInfo(nil), tt.list...), "input unchanged")
		})
	}
}
