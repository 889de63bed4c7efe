package main

// Benchmarks of simulate's evaluation window on a scenario file named by
// SIMULATE_BENCH_SCENARIO (skipped when unset), e.g. one made by the
// oracle's gen:
//
//	SIMULATE_BENCH_SCENARIO=/tmp/g7.json go test ./examples/simulate -run '^$' -bench Scenario
//
// Scenario{FS,Sched} time snapshot building plus the mode (what -timing
// reports); Scenario{Snap,EvalFS,EvalSched} time each part alone;
// ScenarioCommand times the whole command in schedule mode, reading and
// decoding the file included (in a warm process: a fresh one also pays
// for first touching its memory).

import (
	"io"
	"os"
	"runtime"
	"testing"
)

// loadScenario decodes and normalizes the benchmark's scenario (outside
// the timed window, as in simulate), skipping when none is named.
func loadScenario(b *testing.B) *input {
	b.Helper()
	data, err := os.ReadFile(os.Getenv("SIMULATE_BENCH_SCENARIO"))
	if err != nil {
		b.Skip(err)
	}
	in, err := prepare(data, config{})
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// benchWindow times what -timing measures: building the snapshot, then the
// mode. As simulate does before its window, each iteration starts after a
// collection (untimed), so that the heap each run leaves is not collected
// inside the next.
func benchWindow(b *testing.B, mode string) {
	in0 := loadScenario(b)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		in := *in0
		if _, _, err := evaluate(&in, modes[mode]); err != nil {
			b.Fatal(err)
		}
	}
}

// benchEval times the mode alone on a snapshot built once.
func benchEval(b *testing.B, mode string) {
	in := loadScenario(b)
	var err error
	if in.snap, err = buildSnapshot(in); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in.queue, in.queueErr = nil, nil
		if _, err := modes[mode].run(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScenarioFS(b *testing.B)        { benchWindow(b, "filter-score") }
func BenchmarkScenarioSched(b *testing.B)     { benchWindow(b, "schedule") }
func BenchmarkScenarioEvalFS(b *testing.B)    { benchEval(b, "filter-score") }
func BenchmarkScenarioEvalSched(b *testing.B) { benchEval(b, "schedule") }

func BenchmarkScenarioSnap(b *testing.B) {
	in0 := loadScenario(b)
	for b.Loop() {
		in := *in0
		if _, err := buildSnapshot(&in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScenarioCommand(b *testing.B) {
	path := os.Getenv("SIMULATE_BENCH_SCENARIO")
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if err := run(config{mode: "schedule", in: path, out: os.DevNull, format: "json"}, nil, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
