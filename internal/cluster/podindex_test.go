package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
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

// TestPodIndexFromSeen checks that New's table of input positions, turned
// into the location index (podIndexFrom), answers as an index built from
// the bound pods alone: every bound pod's node, and no key of a pod left
// out (unbound, terminal, on an unknown node) nor any other key.
func TestPodIndexFromSeen(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "pods")
		nodes := rapid.IntRange(1, 12).Draw(t, "nodes")
		keys := make([]string, n)
		nodeOf := make([]int, n) // -1: left out
		for i := range keys {
			keys[i] = fmt.Sprintf("ns/p-%d", i)
			nodeOf[i] = rapid.IntRange(-1, nodes-1).Draw(t, "node")
		}
		// seen as New fills it: every pod, in input order.
		seen := newKeyTable(n)
		for i, k := range keys {
			pos, slot := seen.find(k, func(p int32) string { return keys[p] })
			require.Equal(t, int32(-1), pos)
			seen.insert(slot, int32(i))
		}
		// The bound pods grouped by node, in input order within a node.
		var pods []*PodInfo
		var ends []int32
		var names []string
		orderOf := make([]int32, n)
		for i := range orderOf {
			orderOf[i] = -1
		}
		for k := range nodes {
			for i := range keys {
				if nodeOf[i] == k {
					orderOf[i] = int32(len(pods))
					pods = append(pods, &PodInfo{Key: keys[i]})
				}
			}
			ends, names = append(ends, int32(len(pods))), append(names, fmt.Sprintf("node-%d", k))
		}
		x := podIndexFrom(seen, orderOf, pods, ends, names)
		for i, k := range keys {
			got, ok := x.find(k)
			if nodeOf[i] < 0 {
				require.False(t, ok, "%s is left out", k)
				continue
			}
			require.True(t, ok, k)
			require.Equal(t, fmt.Sprintf("node-%d", nodeOf[i]), got, k)
		}
		for _, k := range []string{"", "ns/p-x", fmt.Sprintf("ns/p-%d", n)} {
			_, ok := x.find(k)
			require.False(t, ok, k)
		}
	})
}
