#!/bin/bash
# The results file's own filesystem fills up (a tmpfs of 48 KiB: the
# file's head fits, the chunks of its first block do not; they are fitted
# to the run's 48 planned rows, src/outputs/hdf5.c). The run stops at the
# iteration it could not record, as any failure does: exit 1, the reason
# on stderr, the target left as it was. The file never says "complete";
# its tables store no record of the block that did not fit: /rows,
# /latency, /progress and /fsstats hold 0 records on disk (they held 8
# records of HDF5's fill value, zeros, before: issue 26 attack 10), so show
# says the file holds no measured rows, in one line, exit 1; nothing
# crashes on the way out.
. "$(dirname "$0")/lib.sh"

small_fs size=48k
R=$M/full.h5
T=$SCRATCH/target
mkdir "$T"
snapshot "$T"

pfs 2 create-unlink -m "$T" -f 20 -F 2 -s 4k -i 3 -t se,pa --no-drop-caches --results "$R"
check "exit 1 (not a crash, not 0)" test "$RC" -eq 1
check "the message names the results file" grep -q "cannot write rows to '$R'" "$ERR"
check "the file says aborted" grep -q '^status,aborted' <("$PFSBENCH" export "$R" --csv --provenance)
# Its status did reach the file: stderr must not say it may not have.
check "stderr does not say the status may still say running" \
	test "$(grep -c 'may still say running' "$ERR")" -eq 0
check "the run stopped at the first iteration" \
	test "$(rows | awk '$1 == "se"' | wc -l)" -eq 8 -a "$(rows | awk '$1 == "pa"' | wc -l)" -eq 0
check "everything the run created in the target is gone" dir_unchanged "$T"
# no_rows FILE: show refuses FILE in one line naming it: no measured rows.
no_rows() {
	"$PFSBENCH" show "$1" >"$SCRATCH/show" 2>"$SCRATCH/show.err"
	SRC=$?
	echo "# show $1 exited $SRC: $(cat "$SCRATCH/show.err")"
	test "$SRC" = 1 -a ! -s "$SCRATCH/show" -a "$(wc -l <"$SCRATCH/show.err")" = 1 &&
		grep -qF "pfsbench: cannot show '$1': it holds no measured rows (the run was aborted: " \
			"$SCRATCH/show.err"
}
check "show says the file holds no measured rows, exit 1" no_rows "$R"
check "export --csv lists no row" test "$(csv_rows "$R" | tr -d '\r' | sed 1d | wc -l)" -eq 0
# stored_records FILE TABLE: the records TABLE of FILE holds on disk, as
# h5ls reads its dataspace ("Dataset {N/Inf}"), not as pfsbench reads it.
stored_records() {
	h5ls "$1/$2" | sed -n 's|^'"$2"' *Dataset {\([0-9]*\)/Inf}$|\1|p'
}
if command -v h5ls >/dev/null; then
	for t in rows latency progress fsstats; do
		n=$(stored_records "$R" "$t")
		echo "# /$t stores ${n:-?} records"
		check "/$t stores no record (none reached the disk)" test "$n" = 0
	done
else
	echo "# h5ls missing (apt-get install hdf5-tools): the records stored on disk are not counted"
fi
# A file the writer of before left: 8 rows of zeros stored at the end of
# /rows and /latency (h5py grows them as HDF5 did). They are not
# measurements either.
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
	cp "$R" "$SCRATCH/zeros.h5"
	/usr/bin/python3 -c 'import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    for t in ("rows", "latency"):
        f[t].resize((f[t].shape[0] + 8,))' "$SCRATCH/zeros.h5"
	check "8 stored rows of zeros are no measurement" no_rows "$SCRATCH/zeros.h5"
else
	echo "# h5py missing (apt-get install python3-h5py): the file with stored zeros is not tried"
fi
[ "$T_FAILED" -eq 0 ] || show_run
finish
