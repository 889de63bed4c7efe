#!/usr/bin/env bash
# Runs every fuzz target of the module for a budget each and prints one line
# per target: package, target, executions, seconds, findings.
#
#   scripts/fuzz-campaign.sh                 # 30s per target
#   FUZZTIME=1000000x scripts/fuzz-campaign.sh ./placement/...   # a million executions each
#
# FUZZTIME is passed to -fuzztime (a duration or Nx). A finding is written by
# go test under the package's testdata/fuzz/TARGET/ and makes the line say
# FAIL: commit that file as the regression input with the fix.
set -uo pipefail
cd "$(dirname "$0")/.."
budget="${FUZZTIME:-30s}"
pkgs=("${@:-./...}")
printf '%-45s %-32s %12s %8s %s\n' package target execs seconds findings
for pkg in $(go list "${pkgs[@]}"); do
	targets=$(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true)
	for t in $targets; do
		log=$(mktemp)
		start=$(date +%s)
		if go test -run '^$' -fuzz "^${t}\$" -fuzztime "$budget" "$pkg" >"$log" 2>&1; then
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
