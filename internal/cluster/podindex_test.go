package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPodIndex checks that the location index finds every indexed pod's
// node, nodes without pods included, and no other key.
func TestPodIndex(t *testing.T) {
	perNode := []int{0, 3, 0, 0, 1, 40, 0, 7, 0}
	var pods []*PodInfo
	var ends []int32
	var names []string
	want := map[string]string{}
	for k, n := range perNode {
		name := fmt.Sprintf("node-%d", k)
		for j := range n {
			key := fmt.Sprintf("ns/p-%d-%d", k, j)
			pods = append(pods, &PodInfo{Key: key})
			want[key] = name
		}
		ends, names = append(ends, int32(len(pods))), append(names, name)
	}
	x := newPodIndex(pods, ends, names)
	for key, node := range want {
		got, ok := x.find(key)
		require.True(t, ok, key)
		assert.Equal(t, node, got, key)
	}
	for _, key := range []string{"", "ns/p-0-0", "ns/p-1-3", "other/p-1-0"} {
		_, ok := x.find(key)
		assert.False(t, ok, key)
	}
	_, ok := (*podIndex)(nil).find("ns/p-1-0")
	assert.False(t, ok)
	_, ok = newPodIndex(nil, nil, nil).find("ns/p-1-0")
	assert.False(t, ok)
}

// TestKeyTable fills tables of many sizes (so that probes wrap around the
// end) and finds every key inserted and none other.
func TestKeyTable(t *testing.T) {
	for n := range 200 {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("ns-%d/p-%d", n, i)
		}
		keyAt := func(pos int32) string { return keys[pos] }
		tab := newKeyTable(n)
		for i, k := range keys {
			pos, slot := tab.find(k, keyAt)
			require.Equal(t, int32(-1), pos)
			tab.insert(slot, int32(i))
		}
		for i, k := range keys {
			pos, _ := tab.find(k, keyAt)
			require.Equal(t, int32(i), pos, k)
		}
		pos, _ := tab.find("absent", keyAt)
		require.Equal(t, int32(-1), pos)
	}
}
