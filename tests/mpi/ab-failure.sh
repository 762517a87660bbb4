#!/bin/bash
# pfsbench ab: a run that fails ends the rounds with the engine's message
# and exit status, and the results files of the runs before it stay. Side
# B works on a small tmpfs out of inodes (--force lets its run start).
. "$(dirname "$0")/lib.sh"

small_fs size=4m,nr_inodes=100
D=$(mktemp -d /dev/shm/pfsbench-ab.XXXXXX)
T_CLEANUP+=("rm -rf '$D' '$D.before'")
snapshot "$D"
R=$SCRATCH/res
mkdir "$R"


pfs 2 ab --rounds 3 --results "$R/f" -A "-m $D -f 20" -B "-m $M -f 300 --force" \
	create-unlink -F 1 -s 1k -t pa
check "B1 fails: exit 1, the engine's status" test "$RC" -eq 1
check "the engine's message names the op and the error" \
	grep -qE "worker [12]: cannot create '.*': No space left on device" "$ERR"
check "ab says the rounds stop at B1" \
	grep -qxF "pfsbench ab: run B1 did not complete; no more runs (the results files of those before it stay)" "$ERR"
check "A1 and B1 have files, no later run began" test "$(cd "$R" && echo *)" = "f-A1.h5 f-B1.h5"
check "A1 complete" test "$(provenance "$R/f-A1.h5" status)" = complete
check "B1 aborted" test "$(provenance "$R/f-B1.h5" status)" = aborted
check "no round 2 on stdout" test "$(grep -c '^pfsbench ab: round' "$OUT")" -eq 2
check "no comparison" test "$(grep -c 'A against B' "$OUT")" -eq 0
check "nothing left in A's directory" dir_unchanged "$D"
check "nothing left in B's directory" dir_unchanged "$M"
[ "$T_FAILED" -eq 0 ] || show_run
finish
