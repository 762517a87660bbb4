# stand-in.sh: what the tests of the launchers that hand their command line
# to pfsbench share (sourced by test-dm.sh and test-perf-matrix.sh):
#   LAUNCHER=PATH          the launcher under test
#   expect NAME STATUS EXPECTED-OUTPUT ARGS...
#                          runs the launcher with ARGS, PFSBENCH being a
#                          stand-in that prints each argument it was given
#                          in brackets ([stream][-b][1M]); checks its
#                          status and its output (stdout and stderr)
#   done_testing           the count of passes and failures; fails if any
# shellcheck shell=bash
passed=0 failed=0
fake=$(mktemp)
trap 'rm -f "$fake"' EXIT
printf '#!/bin/sh\nfor a in "$@"; do printf "[%%s]" "$a"; done; echo\n' >"$fake"
chmod +x "$fake"

expect() {
    local name=$1 want_rc=$2 want=$3 got rc=0
    shift 3
    got=$(PFSBENCH=$fake "$LAUNCHER" "$@" 2>&1) || rc=$?
    [ "$rc.$got" = "$want_rc.$want" ] && { passed=$((passed + 1)); echo "ok - $name"; return; }
    failed=$((failed + 1))
    printf 'not ok - %s\n  want (%s): %s\n  got (%s): %s\n' "$name" "$want_rc" "$want" "$rc" "$got"
}

done_testing() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
