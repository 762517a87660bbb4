#!/bin/bash
# test-perf-matrix.sh - the perf_matrix launcher's command line: if=, of=
# and iter= reach pfsbench matrix as they are (its own operands), other
# options unchanged; diff A B is pfsbench compare A B; -h prints the usage;
# nothing, or diff without two files, is refused with exit 2. PFSBENCH is a
# stand-in that prints what it was given; runs no MPI job
# (tests/matrix/run.sh runs the launcher for real).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pm=${PERF_MATRIX:-$here/../../src/perf_matrix}
[ -x "$pm" ] || { echo "SKIP: no launcher at '$pm' (run make first)"; exit 77; }
passed=0 failed=0
fake=$(mktemp)
trap 'rm -f "$fake"' EXIT
printf '#!/bin/sh\nfor a in "$@"; do printf "[%%s]" "$a"; done; echo\n' >"$fake"
chmod +x "$fake"

# expect NAME STATUS EXPECTED-OUTPUT ARGS...: the launcher's output (stdout
# and stderr) and status with ARGS, pfsbench being the stand-in
expect() {
    local name=$1 want_rc=$2 want=$3 got rc=0
    shift 3
    got=$(PFSBENCH=$fake "$pm" "$@" 2>&1) || rc=$?
    [ "$rc.$got" = "$want_rc.$want" ] && { passed=$((passed + 1)); echo "ok - $name"; return; }
    failed=$((failed + 1))
    printf 'not ok - %s\n  want (%s): %s\n  got (%s): %s\n' "$name" "$want_rc" "$want" "$rc" "$got"
}
hint="Try 'perf_matrix -h'."

expect "the seed's read passes as it is" 0 "[matrix][if=/dev/vg/linear][iter=5]" \
    if=/dev/vg/linear iter=5
expect "the seed's write passes as it is" 0 "[matrix][of=/dev/vg/linear][iter=5]" \
    of=/dev/vg/linear iter=5
expect "pfsbench's own options pass unchanged" 0 \
    "[matrix][of=/mnt/x][--force][--req][4k..4m][--results][r.h5]" \
    of=/mnt/x --force --req 4k..4m --results r.h5
expect "diff A B is pfsbench compare A B" 0 "[compare][clinear-read.txt][clinear-write.txt]" \
    diff clinear-read.txt clinear-write.txt
expect "diff without two files" 2 "perf_matrix: diff takes two files: perf_matrix diff A B
$hint" diff a.txt
expect "diff with three files" 2 "perf_matrix: diff takes two files: perf_matrix diff A B
$hint" diff a b c
expect "nothing to do" 2 "perf_matrix: say what to measure: if=PATH (read) or of=PATH (write)
$hint"
got=$(PFSBENCH=$fake "$pm" -h) && case $got in
"Usage: perf_matrix if=PATH [iter=N]"*"perf_matrix diff A B"*) passed=$((passed + 1)); echo "ok - -h prints the usage, exit 0" ;;
*) failed=$((failed + 1)); echo "not ok - -h prints the usage: $got" ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
