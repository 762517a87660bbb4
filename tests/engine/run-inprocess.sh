#!/bin/bash
# The engine in-process (tests/engine/run_inprocess.c): pfs_engine_run on
# MPI_COMM_WORLD and on a communicator of one rank, its text read from
# memory, and the skeleton workload with an output of the test's own, each
# registered by one line. On 1 rank and on 2; the program says what it
# checked, one line each, and exits 1 on any failure.
. "$(dirname "$0")/../mpi/lib.sh"

: "${RUN_INPROCESS:?run me from make check}"
for np in 1 2; do
	mkdir "$SCRATCH/np$np"
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np "$np" "$RUN_INPROCESS" \
		"$SCRATCH/np$np") >"$SCRATCH/out.$np" 2>"$SCRATCH/err.$np"
	rc=$?
	check "on $np ranks: every check passed (exit 0)" test "$rc" -eq 0
	check "on $np ranks: the checks ran" test "$(grep -c '^ok - ' "$SCRATCH/out.$np")" -ge 20
	grep '^not ok' "$SCRATCH/out.$np"
	[ "$rc" -eq 0 ] || cat "$SCRATCH/err.$np"
	check "on $np ranks: no stray file in the working directory" \
		test -z "$(find "$SCRATCH" -maxdepth 1 -name '*.h5')"
done
finish
