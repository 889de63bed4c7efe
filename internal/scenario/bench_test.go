package scenario

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkDecode and BenchmarkNormalize measure the command's input path on
// the largest public scenario (60 nodes, 400 bound pods, 20 pending).
func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile("../../testdata/conformance/cases/medium-1.json")
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNormalize(b *testing.B) {
	data, err := os.ReadFile("../../testdata/conformance/cases/medium-1.json")
	require.NoError(b, err)
	s, _, err := Decode(data)
	require.NoError(b, err)
	for b.Loop() {
		if _, _, err := Normalize(s); err != nil {
			b.Fatal(err)
		}
	}
}
