#!/bin/bash
# The results file's own filesystem fills up (a tmpfs of 256 KiB: the
# file's head fits, its first chunk of rows does not). The run stops at the
# iteration it could not record, as any failure does: exit 1, the reason
# on stderr, the target left as it was. The file never says "complete",
# holds no row of zeros, and show reads it as aborted or refuses it as
# damaged in one line; nothing crashes on the way out.
. "$(dirname "$0")/lib.sh"

small_fs size=256k
R=$M/full.h5
T=$SCRATCH/target
mkdir "$T"
snapshot "$T"

pfs 2 create-unlink -m "$T" -f 20 -F 2 -s 4k -i 3 -t se,pa --no-drop-caches --results "$R"
check "exit 1 (not a crash, not 0)" test "$RC" -eq 1
check "the message names the results file" grep -q "cannot write rows to '$R'" "$ERR"
check "the run stopped at the first iteration" \
	test "$(rows | awk '$1 == "se"' | wc -l)" -eq 8 -a "$(rows | awk '$1 == "pa"' | wc -l)" -eq 0
check "everything the run created in the target is gone" dir_unchanged "$T"
"$PFSBENCH" show "$R" >"$SCRATCH/show" 2>"$SCRATCH/show.err"
SRC=$?
echo "# show exited $SRC; its last line: $(tail -n 1 "$SCRATCH/show") $(cat "$SCRATCH/show.err")"
if [ "$SRC" = 0 ]; then
	check "show reads the file as aborted" grep -q "^Status: aborted" "$SCRATCH/show"
	check "no row of zeros" test -z "$(awk '$1 ~ /^(se|pa)$/ && $6 == 0' "$SCRATCH/show")"
else
	check "show refuses the file in one line, exit 1" \
		test "$SRC" = 1 -a "$(wc -l <"$SCRATCH/show.err")" = 1
fi
[ "$T_FAILED" -eq 0 ] || show_run
finish
