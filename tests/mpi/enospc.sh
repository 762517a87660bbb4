#!/bin/bash
# A filesystem that fills up: a small tmpfs mounted by the test. The plan is
# refused for lack of space; with --force the run starts, hits ENOSPC, names
# node, worker, op, path and the error, stops every rank promptly, removes
# what it created and keeps what it measured.
. "$(dirname "$0")/lib.sh"

small_fs size=4m,nr_inodes=400

# 2 ranks x 4 files x 1 MiB = 8 MiB > 4 MiB
pfs 2 create-unlink -m "$M" -f 10 -F 4 -s 1m -t se
check "space check refuses: exit 2" test "$RC" -eq 2
check "space check names what it has and needs" grep -q "has [0-9]* MiB free; this run needs 8 MiB (use --force" "$ERR"
check "refused run created nothing" dir_unchanged "$M"

pfs 2 create-unlink -m "$M" -f 10 -F 4 -s 1m -t pa,se --force --results "$SCRATCH/full.h5"
check "full filesystem: exit 1" test "$RC" -eq 1
check "message names node, worker, op, path and error" \
	grep -qE "^pfsbench: node $(hostname) worker [12]: cannot (write|close|fsync) '$M/pfsbench\.[^/]+/$(hostname)\.[12]/f[0-9]{10}': No space left on device$" "$ERR"
check "report keeps the rows measured before the failure" \
	test "$(rows | awk '$1 == "pa" && $5 == "Create"' | wc -l)" -eq 2
check "report ends Aborted." test "$(tail -1 "$OUT")" = "Aborted."
check "a failed run still says where its results are" results_said "$SCRATCH/full.h5"
check "no row of the failed op" test "$(rows | awk '$5 == "Write"' | wc -l)" -eq 0
check "the se test never started" test "$(rows | awk '$1 == "se"' | wc -l)" -eq 0
check "everything the run created is gone, the foreign file kept" dir_unchanged "$M"
"$PFSBENCH" export "$SCRATCH/full.h5" --csv --provenance >"$SCRATCH/prov.csv"
check "results file is marked aborted" grep -qx "status,aborted.*" "$SCRATCH/prov.csv"
check "results file gives the failing node, worker, op and error as the reason" \
	grep -qE "^status_reason,\"?node $(hostname) worker [12]: cannot (write|close|fsync) '.*': No space left on device" "$SCRATCH/prov.csv"
check "results file keeps the measured rows" \
	test "$("$PFSBENCH" export "$SCRATCH/full.h5" --csv | grep -c ',Create,')" -eq 2

# Out of inodes: Create itself fails.
pfs 2 create-unlink -m "$M" -f 300 -F 1 -s 1k -t pa --force
check "out of inodes: exit 1" test "$RC" -eq 1
check "create failure names the op" grep -qE "worker [12]: cannot create '.*': No space left on device" "$ERR"
check "out of inodes: everything removed" dir_unchanged "$M"
[ "$T_FAILED" -eq 0 ] || show_run
finish
