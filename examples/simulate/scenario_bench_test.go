package main

// Benchmarks of simulate's evaluation window on a scenario file named by
// SIMULATE_BENCH_SCENARIO (skipped when unset), e.g. one made by the
// oracle's gen:
//
//	SIMULATE_BENCH_SCENARIO=/tmp/g7.json go test ./examples/simulate -run '^$' -bench Scenario
//
// Scenario{FS,Sched} time snapshot building plus the mode (what -timing
// reports); Scenario{Snap,EvalFS,EvalSched} time each part alone.

import (
	"os"
	"testing"
)

func benchMode(b *testing.B, mode string) {
	data, err := os.ReadFile(os.Getenv("SIMULATE_BENCH_SCENARIO"))
	if err != nil {
		b.Skip(err)
	}
	in0, err := prepare(data, config{mode: mode})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in := *in0
		in.snap, err = buildSnapshot(&in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := modes[mode](&in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScenarioFS(b *testing.B)    { benchMode(b, "filter-score") }
func BenchmarkScenarioSched(b *testing.B) { benchMode(b, "schedule") }

func BenchmarkScenarioSnap(b *testing.B) {
	data, err := os.ReadFile(os.Getenv("SIMULATE_BENCH_SCENARIO"))
	if err != nil {
		b.Skip(err)
	}
	in0, err := prepare(data, config{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in := *in0
		if _, err := buildSnapshot(&in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScenarioEvalFS(b *testing.B) {
	data, err := os.ReadFile(os.Getenv("SIMULATE_BENCH_SCENARIO"))
	if err != nil {
		b.Skip(err)
	}
	in, err := prepare(data, config{})
	if err != nil {
		b.Fatal(err)
	}
	in.snap, err = buildSnapshot(in)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := runFilterScore(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScenarioEvalSched(b *testing.B) {
	data, err := os.ReadFile(os.Getenv("SIMULATE_BENCH_SCENARIO"))
	if err != nil {
		b.Skip(err)
	}
	in, err := prepare(data, config{})
	if err != nil {
		b.Fatal(err)
	}
	in.snap, err = buildSnapshot(in)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := runScheduleMode(in); err != nil {
			b.Fatal(err)
		}
	}
}
