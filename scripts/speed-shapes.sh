#!/usr/bin/env bash
# Runs the scheduler_perf-shaped Go benchmarks (preemption BenchmarkShapes,
# BenchmarkShapeSnapshot) and prints per shape: pods per second, ns per
# pod-node pair, allocations per pod; and the snapshot's bytes per bound pod.
# Compare with scheduler_perf's published thresholds (end to end with an API
# server, so only as context: SchedulingBasic 5000 nodes 270 pods/s,
# SchedulingPodAntiAffinity 60, TopologySpreading 85, SchedulingPodAffinity 35).
#
#   scripts/speed-shapes.sh                       # 1000 nodes, 5000 bound, 1000 pending
#   SHAPES_NODES=5000 SHAPES_BOUND=20000 SHAPES_PENDING=500 scripts/speed-shapes.sh
#   COUNT=5 scripts/speed-shapes.sh               # median of 5 runs each
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-1}"
out=$(go test ./preemption -run '^$' -bench 'BenchmarkShape' -benchtime 1x -count "$count" 2>&1)
echo "# ${SHAPES_NODES:-1000} nodes, ${SHAPES_BOUND:-5000} bound, ${SHAPES_PENDING:-1000} pending; $(nproc) cores; median of $count"
printf '%-26s %10s %12s %11s\n' shape pods/s ns/pod-node allocs/pod
awk '
/^BenchmarkShapes\// {
	split($1, a, "/"); shape = a[2]
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "pods/s") ps[shape] = ps[shape] " " $i
		if ($(i+1) == "ns/pod-node") np[shape] = np[shape] " " $i
		if ($(i+1) == "allocs/pod") ap[shape] = ap[shape] " " $i
	}
	if (!(shape in seen)) { seen[shape] = 1; order[++n] = shape }
}
/^BenchmarkShapeSnapshot/ { for (i = 2; i < NF; i++) if ($(i+1) == "B/bound-pod") bp = bp " " $i }
function median(s,   v, k, i, j, t) {
	k = split(s, v, " ")
	for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return v[int((k + 1) / 2)]
}
END {
	for (i = 1; i <= n; i++) { s = order[i]; printf "%-26s %10.0f %12.1f %11.1f\n", s, median(ps[s]), median(np[s]), median(ap[s]) }
	printf "snapshot: %.0f bytes per bound pod beyond the input objects\n", median(bp)
}' <<<"$out"
