package cluster

import (
	"encoding/binary"
	"maps"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestEachKeyLabelReadsAppendLabelSet: the labels read back from a
// label-set key are the map it was built from.
func TestEachKeyLabelReadsAppendLabelSet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ns := rapid.String().Draw(t, "ns")
		l := rapid.MapOf(rapid.String(), rapid.String()).Draw(t, "labels")
		var kb keyBuf
		key := string(kb.appendLabelSet(nil, ns, l))
		got := map[string]string{}
		prev, first := "", true
		require.True(t, eachKeyLabel(key, func(k, v string) {
			require.True(t, first || k > prev, "key order")
			prev, first = k, false
			got[k] = v
		}))
		require.True(t, maps.Equal(l, got) || (len(l) == 0 && len(got) == 0))
		// Any strict prefix is malformed.
		if len(key) > 0 {
			cut := rapid.IntRange(0, len(key)-1).Draw(t, "cut")
			require.False(t, eachKeyLabel(key[:cut], func(string, string) { t.Fatal("called on a malformed key") }))
		}
	})
}

// TestUvarintString agrees with binary.Uvarint.
func TestUvarintString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 12).Draw(t, "b")
		x1, n1 := binary.Uvarint(b)
		x2, n2 := uvarintString(string(b))
		require.Equal(t, n1, n2)
		require.Equal(t, x1, x2)
	})
}

// FuzzEachKeyLabel: any string is read without a panic, and the labels
// read from a well-formed one read back the same from their own key (a
// varint need not be minimal, so the key itself may differ).
func FuzzEachKeyLabel(f *testing.F) {
	var kb keyBuf
	f.Add(string(kb.appendLabelSet(nil, "ns", map[string]string{"app": "web", "tier": "db"})))
	f.Add("")
	f.Fuzz(func(t *testing.T, key string) {
		l := map[string]string{}
		ordered := true
		prev, first := "", true
		if !eachKeyLabel(key, func(k, v string) {
			ordered = ordered && (first || k > prev)
			prev, first = k, false
			l[k] = v
		}) || !ordered {
			return
		}
		var kb keyBuf
		again := map[string]string{}
		require.True(t, eachKeyLabel(string(kb.appendLabelSet(nil, "ns", l)), func(k, v string) { again[k] = v }))
		require.Equal(t, l, again)
	})
}
