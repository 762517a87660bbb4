#!/bin/bash
# leak-check.sh: the sanitizer build's leak check (tests/sanitizers.supp,
# tests/keep_modules.c, Makefile.am's ASAN_OPTIONS) still sees a leak of
# ours in an MPI rank, and sees nothing of Open MPI's: two ranks of
# tests/engine/leaky_rank, which leaks 4321 bytes each on purpose, report
# exactly that leak, with its function, and nothing else. Also holds the
# suppressions' one assumption about pfsbench's code: it never calls
# asprintf (glibc's vasprintf is suppressed, having no frame pointers).
# Skips outside the sanitizer build.
. "$(dirname "$0")/../mpi/lib.sh"

check "pfsbench's sources call no asprintf or vasprintf (tests/sanitizers.supp)" \
	test -z "$(grep -rlwE 'v?asprintf' "$SRCDIR/src" "$SRCDIR/include")"
case ${ASAN_OPTIONS:-} in
*detect_leaks=1*) ;;
*) echo "# not the sanitizer build (no leak check in ASAN_OPTIONS): the leak check is not tried"; finish ;;
esac
: "${LEAKY_RANK:?LEAKY_RANK must point at tests/engine/leaky_rank}"
mkdir "$SCRATCH/reports"
# This run's reports go to a directory of its own: they are expected, and
# tests/sanitized.sh fails a test on any report in its own. The leak check
# exits 0 here: with its usual 23 the first rank to finish made mpirun kill
# the other before its check had written a report (a CI at load 17 found
# one report of two).
(cd "$SCRATCH" && ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$SCRATCH/reports/asan" \
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=0" \
	timeout 300 "$MPIRUN" --oversubscribe -np 2 "$LEAKY_RANK") >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
echo "# mpirun's exit status: $rc; reports: $(ls "$SCRATCH/reports" | tr '\n' ' ')"
check "two ranks: one report each" test "$(ls "$SCRATCH/reports" | wc -l)" -eq 2
for r in "$SCRATCH"/reports/*; do
	[ -f "$r" ] || continue
	sed 's/^/#   /' "$r" | head -20
	check "$(basename "$r"): the planted leak, in its function" \
		grep -q 'in leak_on_purpose .*leaky_rank.c' "$r"
	check "$(basename "$r"): that leak and nothing else (Open MPI's own are suppressed)" \
		grep -qx 'SUMMARY: AddressSanitizer: 4321 byte(s) leaked in 1 allocation(s).' "$r"
done
finish
