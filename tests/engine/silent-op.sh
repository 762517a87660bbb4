#!/bin/bash
# An op that returns an error without calling pfs_fail (tests/engine/
# silent_op.c, on rank 1 of 2) must not vanish: the run exits 1, the
# engine's message names the node, the worker and the op with the error,
# the other rank stops too, the results file says aborted and why, and the
# run directory is gone.
. "$(dirname "$0")/../mpi/lib.sh"

: "${SILENT_OP:?run me from make check}"
D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
PFSBENCH=$SILENT_OP SILENT_OP_RANK=1 pfs 2 -m "$D" --results "$SCRATCH/silent.h5"
check "exit status 1" test "$RC" -eq 1
check "the engine names node, worker, op and error" \
	grep -qx "pfsbench: node $(hostname) worker 2: Boom failed: Cannot allocate memory" "$ERR"
check "said once" test "$(grep -c 'Boom failed' "$ERR")" -eq 1
check "the report ends Aborted." test "$(tail -1 "$OUT")" = "Aborted."
"$PFSBENCH" export "$SCRATCH/silent.h5" --csv --provenance | tr -d '\r' >"$SCRATCH/prov.csv"
check "the results file says aborted" grep -qx "status,aborted" "$SCRATCH/prov.csv"
check "the results file gives the reason" \
	grep -qx "status_reason,node $(hostname) worker 2: Boom failed: Cannot allocate memory" "$SCRATCH/prov.csv"
check "nothing of the run is left" dir_unchanged "$D"

# The same op on no failing rank: two rows, exit 0 (the test can pass).
PFSBENCH=$SILENT_OP SILENT_OP_RANK=-1 pfs 2 -m "$D" --results "$SCRATCH/fine.h5"
check "without the failure: exit 0" test "$RC" -eq 0
check "without the failure: a row per worker" test "$(rows | grep -c ' Boom ')" -eq 2
[ "$T_FAILED" -eq 0 ] || show_run
finish
