#!/usr/bin/env bash
# Runs every fuzz target of the module for a budget each and prints one line
# per target: package, target, executions, seconds, findings.
#
#   scripts/fuzz-campaign.sh                 # 30s per target
#   FUZZTIME=1000000x scripts/fuzz-campaign.sh ./placement/...   # a million executions each
#   FUZZPARALLEL=1 FUZZNICE=15 scripts/fuzz-campaign.sh ./eviction   # one worker, low priority
#
# FUZZTIME is passed to -fuzztime (a duration or Nx). FUZZPARALLEL, when set,
# is passed to -parallel (the number of fuzzing workers; unset lets go test use
# GOMAXPROCS). FUZZNICE, when set, runs each target under nice -n FUZZNICE so a
# shared machine keeps a core. FUZZTARGETS, when set, is an extended regular
# expression: only targets whose name matches it run. FUZZMINIMIZETIME, when
# set, is passed to -fuzzminimizetime: go test minimizes every input that
# reaches new coverage for up to 60s by default, and for the decoders, which
# find new coverage often, that minimizing is nearly all the budget (0 turns it
# off; a crasher is then written as found and is minimized by hand). A finding is written by
# go test under the package's testdata/fuzz/TARGET/ and makes the line say
# FAIL: commit that file as the regression input with the fix.
set -uo pipefail
cd "$(dirname "$0")/.."
budget="${FUZZTIME:-30s}"
flags=()
[ -n "${FUZZPARALLEL:-}" ] && flags=(-parallel "$FUZZPARALLEL")
[ -n "${FUZZMINIMIZETIME:-}" ] && flags+=(-fuzzminimizetime "$FUZZMINIMIZETIME")
run=()
[ -n "${FUZZNICE:-}" ] && run=(nice -n "$FUZZNICE")
pkgs=("${@:-./...}")
printf '%-45s %-32s %12s %8s %s\n' package target execs seconds findings
for pkg in $(go list "${pkgs[@]}"); do
	targets=$(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' | grep -E "${FUZZTARGETS:-.}" || true)
	for t in $targets; do
		log=$(mktemp)
		start=$(date +%s)
		if "${run[@]}" go test -run '^$' -fuzz "^${t}\$" -fuzztime "$budget" "${flags[@]}" "$pkg" >"$log" 2>&1; then
			finding=none
		else
			finding="FAIL (see $log)"
		fi
		secs=$(( $(date +%s) - start ))
		execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | awk '{print $2}')
		printf '%-45s %-32s %12s %8s %s\n' "${pkg#github.com/schedkit/schedkit/}" "$t" "${execs:-?}" "$secs" "$finding"
		[ "$finding" = none ] && rm -f "$log"
	done
done
