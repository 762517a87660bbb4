#!/bin/bash
# busy-machine.sh - the test suite on a busy machine: runs `make check` in
# the sanitizer build (sanitizers/build, as ./build.sh check makes it)
# ROUNDS times in a row (default 3), each with one busy loop per core
# (`sh -c 'while :; do :; done'`, normal priority) running from its start
# to its end, and prints each round's duration, its counts and the load.
# No test may fail because the machine is busy: a check that judges a
# duration, a CPU share or a rate against a fixed number belongs in a
# bench (make bench-*), or judges against a reference measured in the same
# run (issue 24).
#
# Usage: tests/busy-machine.sh [ROUNDS] [MAKE-ARGS...]
#   e.g. tests/busy-machine.sh 3 -j3
# Run ./build.sh check (or its sanitizer build) first. As root, like CI.
# Exit status: 0 when every round passed, 1 when one failed.
set -u
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || exit 2
rounds=${1:-3}
shift || true
[ $# -gt 0 ] || set -- -j3
build=$top/sanitizers/build
[ -f "$build/Makefile" ] || { echo "busy-machine.sh: no $build/Makefile: run ./build.sh check first" >&2; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

loops=()
stop_loops() {
	[ ${#loops[@]} -gt 0 ] && kill "${loops[@]}" 2>/dev/null
	loops=()
}
trap stop_loops EXIT

status=0
for ((r = 1; r <= rounds; r++)); do
	for ((c = 0; c < $(nproc); c++)); do
		sh -c 'while :; do :; done' &
		loops+=($!)
	done
	start=$SECONDS
	(cd "$build" && make "$@" check >"$build/busy-round-$r.out" 2>&1)
	rc=$?
	took=$((SECONDS - start))
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	stop_loops
	counts=$(sed -n 's/^# \(TOTAL\|PASS\|FAIL\|ERROR\|SKIP\): *\([0-9]*\)/\1 \2/p' "$build/test-suite.log" | tr '\n' ' ')
	echo "busy-machine: round $r: exit $rc after $((took / 60)) min $((took % 60)) s with $(nproc) busy loops; $counts; load $load"
	if [ "$rc" -ne 0 ]; then
		status=1
		# the next round's make check removes the logs: keep the failed ones
		mkdir -p "$build/busy-round-$r"
		for t in $(sed -n 's/^\(FAIL\|ERROR\): //p' "$build/test-suite.log" | sort -u); do
			cp "$build/${t%.sh}.log" "$build/busy-round-$r/" 2>/dev/null
			echo "busy-machine: round $r: $t failed; its checks that failed:"
			grep -E '^not ok' "$build/${t%.sh}.log" | head -10
		done
		echo "busy-machine: round $r's output in $build/busy-round-$r.out, the failed tests' logs in $build/busy-round-$r/"
	fi
done
exit "$status"
