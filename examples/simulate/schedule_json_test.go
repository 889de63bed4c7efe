package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/par"
	"github.com/schedkit/schedkit/placement"
)

// The schedule report written from the results (appendJSON) is byte for
// byte what encoding/json writes for the converted document, compact and
// indented, on every bundled scenario and on every custom profile's.
func TestScheduleJSONMatchesEncoding(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(casesDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		if strings.Count(filepath.Base(path), ".") > 1 {
			continue // an expected answer, not a scenario
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, out := scheduleCase(t, path, false)
			require.NotNil(t, out.raw)

			converted := *out
			converted.raw = nil
			converted.Results = make([]scheduleResult, len(out.raw))
			par.Run(1, len(out.raw), func(i int) { converted.Results[i] = convertResult(&out.raw[i], false) })
			if len(converted.Results) == 0 {
				converted.Results = nil
			}
			for _, pretty := range []bool{false, true} {
				var want, got bytes.Buffer
				require.NoError(t, encodeJSON(&want, &converted, pretty))
				require.NoError(t, writeJSON(&got, out, pretty))
				require.Equal(t, want.String(), got.String())
			}
		})
	}
}

// appendString writes any string as encoding/json does without HTML
// escaping: control characters, quotes, backslashes, HTML characters,
// invalid UTF-8, U+2028 and U+2029.
func TestAppendStringMatchesEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.String(),
			rapid.StringOf(rapid.SampledFrom([]rune{'a', '"', '\\', '\n', '\t', 0x01, 0x7f, '<', '&', 0x2028, 0x2029, 'é', 0xfffd})),
			rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),
		).Draw(t, "s")
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		require.Equal(t, strings.TrimSuffix(want.String(), "\n"), string(appendString(nil, s)))
	})
}

// scheduleCase runs schedule mode on the scenario at path, with or
// without the losing candidates' reasons.
func scheduleCase(t *testing.T, path string, reasons bool) (*input, *scheduleOutput) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	in, err := prepare(data, config{mode: "schedule", version: placement.V1_36})
	require.NoError(t, err)
	in.snap, err = buildSnapshot(in)
	require.NoError(t, err)
	prepareQueue(in)
	require.NoError(t, in.queueErr)
	out, err := runSchedule(in.snap, in.queue, in.warnings, in.opts, reasons)
	require.NoError(t, err)
	return in, out
}
