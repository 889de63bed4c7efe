package cluster

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// keyTable is an open-addressing hash table of positions in a list of
// keys (the list is the caller's): each slot holds a position plus one, 0
// for a free slot, or removed for a position taken out. It probes linearly
// from the slot the key's hash maps to (multiply-shift, so that the size
// need not be a power of two) and has half again as many slots as
// positions, so that a lookup reads about two slots when the key is there
// and five when not. It costs 6 bytes a position where a map[string]string
// costs about 50 bytes a key, and bound pods take one entry each.
type keyTable []int32

// keyTableSeed seeds every keyTable's hash (a table is never compared
// across processes).
var keyTableSeed = maphash.MakeSeed()

// newKeyTable returns an empty table for up to n positions.
func newKeyTable(n int) keyTable {
	return make(keyTable, max(8, n+n/2+1))
}

// find returns the position of key (keyAt gives the key at a position), or
// -1 and the free slot where key goes (insert).
func (t keyTable) find(key string, keyAt func(pos int32) string) (pos int32, slot int) {
	h, _ := bits.Mul64(maphash.String(keyTableSeed, key), uint64(len(t)))
	for i := int(h); ; i++ {
		if i == len(t) {
			i = 0
		}
		v := t[i]
		if v == 0 {
			return -1, i
		}
		if v > 0 && keyAt(v-1) == key {
			return v - 1, i
		}
	}
}

// removed marks a slot whose position was taken out (podIndexFrom): find
// goes on past it, as past another key's slot.
const removed = -1

// insert records pos at slot, a free slot find returned.
func (t keyTable) insert(slot int, pos int32) { t[slot] = pos + 1 }

// podIndex is a snapshot's location index as of its last full index (New,
// reindex): the node name of every bound pod by key. pods holds the pods
// grouped by node, node k's (named names[k]) at pods[ends[k-1]:ends[k]],
// and keys finds a key's position there. The slices are never modified:
// New's pods are the array its nodes' Order lists are cut from, which no
// one modifies in place.
type podIndex struct {
	pods  []*PodInfo
	ends  []int32
	names []string
	keys  keyTable
}

// podIndexFrom is newPodIndex for New, which has already found every
// named pod's key in seen (a table of input positions): seen becomes the
// index in place, each bound pod's slot holding its position in pods
// (orderOf, by input position) and every other pod's slot removed. The
// slots stay where the keys' hashes put them, so find answers as a table
// built from the bound pods alone would (a left-out pod's removed slot
// only lengthens the probes that pass it); seen must not be used after.
func podIndexFrom(seen keyTable, orderOf []int32, pods []*PodInfo, ends []int32, names []string) *podIndex {
	for i, v := range seen {
		if v <= 0 {
			continue
		}
		if o := orderOf[v-1]; o >= 0 {
			seen[i] = o + 1
		} else {
			seen[i] = removed
		}
	}
	return &podIndex{pods: pods, ends: ends, names: names, keys: seen}
}

// newPodIndex indexes pods (keys unique), grouped by node as ends and names
// say.
func newPodIndex(pods []*PodInfo, ends []int32, names []string) *podIndex {
	x := &podIndex{pods: pods, ends: ends, names: names, keys: newKeyTable(len(pods))}
	for i, p := range pods {
		_, slot := x.keys.find(p.Key, x.keyAt)
		x.keys.insert(slot, int32(i))
	}
	return x
}

func (x *podIndex) keyAt(pos int32) string { return x.pods[pos].Key }

// find returns the name of the node of the pod of key, if indexed.
func (x *podIndex) find(key string) (string, bool) {
	if x == nil {
		return "", false
	}
	pos, _ := x.keys.find(key, x.keyAt)
	if pos < 0 {
		return "", false
	}
	// The node is the first whose end is past pos.
	k, _ := slices.BinarySearch(x.ends, pos+1)
	return x.names[k], true
}
