#!/bin/bash
# test-perf-matrix.sh - the perf_matrix launcher's command line: if=, of=
# and iter= reach pfsbench matrix as they are (its own operands), other
# options unchanged; diff A B is pfsbench compare A B; -h prints the usage;
# nothing, or diff without two files, is refused with exit 2. PFSBENCH is a
# stand-in that prints what it was given; runs no MPI job
# (tests/matrix/run.sh runs the launcher for real).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pm=${PERF_MATRIX:-$here/../../src/launchers/perf_matrix}
[ -x "$pm" ] || { echo "SKIP: no launcher at '$pm' (run make first)"; exit 77; }
LAUNCHER=$pm
# shellcheck source-path=SCRIPTDIR source=stand-in.sh
. "$here/stand-in.sh"
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

done_testing
