#!/bin/bash
# run.sh: pfsbench stream on tmpfs (/dev/shm) with 1 rank, 2 ranks and 2
# simulated nodes x 2 workers, a file per rank and one shared file: every
# byte written is read back and checked, by pfsbench (--verify) and by an
# independent reader of the pattern (stream_cycle, checks.sh). Then: show
# prints the run's report without rank 0's marks, export and compare read
# stream runs, dd's and lmdd's lines, -w's cap, -d's percentages, reads and
# writes without -s, the dm launcher as one process and under mpirun.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/checks.sh"

shm_target stream

host=$(hostname)
RUNNER=(pfs_single)
stream_cycle "$D" 1rank-file 1 file
stream_cycle "$D" 1rank-shared 1 shared
RUNNER=(pfs 2)
stream_cycle "$D" 2ranks-file 2 file
stream_cycle "$D" 2ranks-shared 2 shared
RUNNER=(pfs_nodes 2 2)
stream_cycle "$D" 2x2-file 4 file prepare
stream_cycle "$D" 2x2-shared 4 shared prepare
check "2x2: the table lists node1's workers, then node2's" \
	test "$(stream_rows | awk '{printf "%s.%s ", $3, $4}')" = "node1.1 node1.2 node2.1 node2.2 "

# show: the report as the run printed it, without rank 0's marks (they
# are progress, drawn as the stream went).
for run in 1rank-file 2ranks-shared 2x2-shared; do
	"$PFSBENCH" show "$SCRATCH/$run-w.h5" >"$SCRATCH/show.out"
	check "show $run: the run's report, byte for byte, but rank 0's marks" \
		cmp -s "$SCRATCH/show.out" <(tail -n +2 "$SCRATCH/$run-w.out")
done
"$PFSBENCH" export "$SCRATCH/2x2-file-r.h5" --csv | tr -d '\r' >"$SCRATCH/rows.csv"
check "export: 4 rows in bytes, unit bytes, op Read" \
	test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["unit"] == "bytes" && $c["op"] == "Read" && $c["bytes"] == 1000000 && $c["items"] == 16' \
		"$SCRATCH/rows.csv" | wc -l)" -eq 4
# Open is untimed and keeps nothing from the stream: the stream itself
# started with caches dropped, and the results file says so.
check "results file: caches dropped before the stream" \
	grep -qx 'caches_dropped,true' <("$PFSBENCH" export "$SCRATCH/2x2-file-w.h5" --csv --provenance | tr -d '\r')
"$PFSBENCH" export "$SCRATCH/2x2-file-w.h5" --csv --progress | tr -d '\r' >"$SCRATCH/ticks.csv"
check "export --progress: the timeline's header" \
	test "$(head -1 "$SCRATCH/ticks.csv")" = "test,iteration,step,rank,time_us,items,bytes"
"$PFSBENCH" compare "$SCRATCH/2ranks-file-w.h5" "$SCRATCH/2x2-file-w.h5" >"$SCRATCH/cmp.out" 2>&1
check "compare: exit 0" test $? -eq 0
check "compare: the Write line in MiB/s" grep -qE '^seq +Write +MiB/s +[0-9]+\.[0-9]!? ' "$SCRATCH/cmp.out"

# dd's and lmdd's lines: 2 ranks of 100000 bytes in 64 KiB requests.
RUNNER=(pfs 2)
run_stream -o "$D" -b 64k -s 100000 --format dd
check "--format dd: exit 0" test "$RC" -eq 0
check "--format dd: each rank's records lines" \
	test "$(grep -cE "^$(hostname) [12]: 1\+1 records (in|out)\$" "$OUT")" -eq 4
check "--format dd: each rank's bytes line" \
	test "$(grep -cE "^$(hostname) [12]: 100000 bytes \(100 kB, 98 KiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMG]?B/s\$" "$OUT")" -eq 2
check "--format dd: all ranks' lines" test "$(grep -vE "^$(hostname) " "$OUT" | head -3 | sed -E 's/copied, .*/copied/')" = \
	"$(printf '2+2 records in\n2+2 records out\n200000 bytes (200 kB, 195 KiB) copied')"
run_stream -o "$D" -b 64k -s 100000 --format lmdd
check "--format lmdd: each rank's and all ranks' lines" test "$(grep -cE \
	"^($(hostname) [12]: )?0\.[12]000 MB in [0-9]+\.[0-9]{4} secs, [0-9]+\.[0-9]{4} MB/sec\$" "$OUT")" -eq 3
check "--format lmdd: all ranks' bytes" grep -qE '^0\.2000 MB in ' "$OUT"
check "nothing left after the format runs" dir_unchanged "$D"

# -w: at most 4 MiB/s, so 2 MiB take at least 0.5 s.
RUNNER=(pfs_single)
run_stream -o "$D" -b 256k -s 2M -w 4M --results "$SCRATCH/cap.h5"
check "-w 4M: exit 0" test "$RC" -eq 0
check "-w 4M: 2 MiB take 0.5 s or more, at 4.0 MiB/s or less" \
	test "$(stream_rows | awk '$6 >= 500000 && $9 <= 4.0' | wc -l)" -eq 1

# -d: rank 0's percentages, "\r%3d" when the figure changes, as dm.
run_stream -o "$D" -b 256k -s 1M -d
check "-d: 25, 50, 75, 100 percent, then a newline" \
	test "$(head -c 17 "$OUT")" = "$(printf '\r 25\r 50\r 75\r100')"

# Without -s: a read runs to the end of its file, and that is no error.
head -c 300000 /dev/zero >"$SCRATCH/zeros"
run_stream -i "$SCRATCH/zeros" -b 64k -p --force
check "a named file without -s: read to its end, exit 0" test "$RC" -eq 0
check "a named file without -s: 300000 bytes in 5 requests" \
	test "$(stream_rows | awk '$7 == 5 && $8 == 300000' | wc -l)" -eq 1
check "a named file stays" test "$(stat -c %s "$SCRATCH/zeros")" -eq 300000
run_stream -i "$SCRATCH/zeros" -b 64k -s 400000 --force
check "a named file shorter than -s: exit 1" test "$RC" -eq 1
check "a short read names the file, the offset and how much is missing" grep -qx \
	"pfsbench: node $(hostname) worker 1: cannot read '$SCRATCH/zeros' at offset 300000: the file ends there, 100000 bytes short of -s" "$ERR"
check "a named file stays after a failed run" test "$(stat -c %s "$SCRATCH/zeros")" -eq 300000

# A named file written: made when missing (exclusively, no --force needed:
# it destroys nothing), kept, rank r at r x -s.
RUNNER=(pfs 2)
mkdir "$SCRATCH/newdir"
echo other >"$SCRATCH/newdir/other"
run_stream -o "$SCRATCH/newdir/named" -b 64k -s 200000 -a 0x5a
check "a named new file without --force: exit 0" test "$RC" -eq 0
check "a named new file: made beside what was there, which is as it was" \
	test "$(ls "$SCRATCH/newdir" | xargs):$(cat "$SCRATCH/newdir/other")" = "named other:other"
mv "$SCRATCH/newdir/named" "$SCRATCH/named"
check "a named new file: exit 0" test "$RC" -eq 0
check "a named new file stays, with both ranks' bytes" test "$(stat -c %s "$SCRATCH/named")" -eq 400000
check "-a 0x5a: every byte 0x5a" test "$(tr -d Z <"$SCRATCH/named" | wc -c)" -eq 0
run_stream -o "$SCRATCH/named" -b 64k -s 100000 --force -l 1000 --verify
check "a named file rewritten at -l 1000: exit 0, checked" test "$RC" -eq 0
check "... truncated first, as dm's O_TRUNC does" test "$(stat -c %s "$SCRATCH/named")" -eq 201000
check "... each rank's pattern at 1000 + r x 100000" \
	eval '"$STREAM_TESTS/pattern.py" "$SCRATCH/named" 1000 100000 0 >/dev/null &&
		"$STREAM_TESTS/pattern.py" "$SCRATCH/named" 101000 100000 1 >/dev/null'

# The dm launcher, as one process, with dm's long options.
if [ -x "${DM:-}" ]; then
	OUT=$SCRATCH/dm.out ERR=$SCRATCH/dm.err
	(cd "$SCRATCH" && PFSBENCH=$PFSBENCH timeout 120 "$DM" --input-pattern 0 --buffer-size 1M \
		--size 2M --sync --progress --performance -o "$D") >"$OUT" 2>"$ERR"
	RC=$?
	check "dm launcher, one process: exit 0" test "$RC" -eq 0
	check "dm launcher: dm's output: the marks, then dm's line" \
		eval 'test "$(head -1 "$OUT")" = RR && sed -n 2p "$OUT" | grep -qxE "$DM_LINE"'
	[ "$RC" -eq 0 ] || show_run
	# ... and as every rank under mpirun
	OUT=$SCRATCH/dm.out ERR=$SCRATCH/dm.err
	mpi_env PFSBENCH="$PFSBENCH"
	(cd "$SCRATCH" && PFSBENCH=$PFSBENCH timeout 120 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 2 \
		"${MPI_ENV[@]}" "$DM" -a 0 -b 64k -s 256k -m -p -o "$D") >"$OUT" 2>"$ERR"
	RC=$?
	check "dm launcher under mpirun, 2 ranks: exit 0" test "$RC" -eq 0
	check "dm launcher under mpirun: rank 0's marks, a line per rank and one for all" \
		eval 'test "$(head -1 "$OUT")" = RRRR &&
			test "$(grep -cE "^($host [12]: )?$DM_LINE\$" "$OUT")" -eq 3'
	[ "$RC" -eq 0 ] || show_run
else
	echo "# the dm launcher is not built (DM unset): not run"
fi
check "nothing of any run is left" dir_unchanged "$D"
finish
