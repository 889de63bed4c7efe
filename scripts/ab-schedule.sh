#!/usr/bin/env bash
# Compares simulate's schedule phase (-timing; PHASE=snapshot: its snapshot phase)
# between two revisions on one scenario file, run after run in alternation,
# and prints the median of the per-pair ratios B/A with its quartiles, and in
# how many pairs B was faster.
#
# On a shared two-core VM a run's time drifts by 10 % and more from minute to
# minute; two binaries timed in separate batches then differ by the drift.
# Pairs of runs a second apart share it, so their ratio shows a change of a
# few percent that batch medians hide. Scenario files come from the
# oracle's gen (../shared/oracle), e.g.
#   gen -shape mixed -seed 1 -nodes 1000 -pods 5000 -pending 1000 -out /tmp/mixed.json
#
#   scripts/ab-schedule.sh HEAD~1 HEAD /tmp/mixed.json       # 30 pairs
#   PAIRS=60 scripts/ab-schedule.sh main my-branch /tmp/mixed.json
#   PHASE=snapshot scripts/ab-schedule.sh HEAD~1 HEAD /tmp/big.json   # the snapshot phase instead
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 REV_A REV_B SCENARIO_FILE" >&2; exit 2; }
cd "$(dirname "$0")/.."
a=$1 b=$2 file=$3 pairs=${PAIRS:-30} which=${PHASE:-schedule}
case $which in schedule | snapshot) ;; *) echo "$0: PHASE must be schedule or snapshot" >&2; exit 2 ;; esac
[ -r "$file" ] || { echo "$0: cannot read $file" >&2; exit 2; }
tmp=$(mktemp -d)
cleanup() {
	git worktree remove --force "$tmp/a" >/dev/null 2>&1 || true
	git worktree remove --force "$tmp/b" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
for side in a b; do
	rev=${!side}
	git worktree add --detach "$tmp/$side" "$rev" >/dev/null 2>&1 || { echo "$0: no revision $rev" >&2; exit 2; }
	(cd "$tmp/$side" && go build -o "$tmp/sim-$side" ./examples/simulate)
done
# -timing prints "timing: evaluation T (snapshot S, schedule D)".
phase() { "$1" -mode schedule -in "$file" -out /dev/null -timing 2>&1 | sed -n "s/.*[(, ]$which \([0-9.]*\)s.*/\1/p"; }
for _ in $(seq "$pairs"); do
	echo "$(phase "$tmp/sim-a") $(phase "$tmp/sim-b")"
done | awk -v a="$a" -v b="$b" '
	$1 > 0 && $2 > 0 { n++; r[n] = $2 / $1; ta[n] = $1; tb[n] = $2; if ($2 < $1) w++ }
	function sort(v, k,   i, j, t) { for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t } }
	function q(v, k, f) { return v[int((k - 1) * f) + 1] }
	END {
		if (n == 0) { print "no timings"; exit 1 }
		sort(r, n); sort(ta, n); sort(tb, n)
		printf "%d pairs: B (%s) / A (%s) median %.3f (quartiles %.3f, %.3f); B faster in %d\n", n, b, a, q(r, n, 0.5), q(r, n, 0.25), q(r, n, 0.75), w
		printf "A: min %.3f s, median %.3f s; B: min %.3f s, median %.3f s\n", ta[1], q(ta, n, 0.5), tb[1], q(tb, n, 0.5)
	}'
