# checks.sh: checks of `pfsbench stream` runs, shared by tests/stream/*.sh
# and the real-filesystem tests (tests/fs/*.sh). Sourced after
# tests/mpi/lib.sh (check, pfs, pfs_nodes, rows, dir_unchanged, $OUT, $RC).
#   RUNNER=(pfs 2)            how run_stream starts pfsbench: pfs NP,
#   RUNNER=(pfs_nodes 2 2)    pfs_nodes NODES WORKERS, or
#   RUNNER=(pfs_single)       one process without mpirun (MPI's singleton:
#                             the same run, started in half the time)
#   run_stream ARGS...        pfsbench stream ARGS by RUNNER
#   shm_target NAME           D: a snapshotted directory on tmpfs
#   stream_cycle DIR LABEL NRANKS file|shared [prepare]
#                             writes, keeps, reads back (and prepares) on DIR
#                             (see below); DIR must be snapshotted
# shellcheck shell=bash
STREAM_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=(pfs_single)

# shm_target NAME: D, a new directory on tmpfs (/dev/shm) holding one
# file of someone else's, snapshotted, removed at the end; the test is
# skipped where /dev/shm is not tmpfs.
shm_target() {
	D=$(mktemp -d "/dev/shm/pfsbench-$1-test.XXXXXX") || skip "no /dev/shm"
	T_CLEANUP+=("rm -rf '$D' '$D.before'")
	[ "$(stat -f -c %T "$D")" = tmpfs ] || skip "/dev/shm is not tmpfs"
	echo keep >"$D/foreign"
	snapshot "$D"
}

pfs_single() {
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	(cd "$SCRATCH" && timeout 300 "$PFSBENCH" "$@") >"$OUT" 2>"$ERR"
	RC=$?
}

run_stream() {
	"${RUNNER[@]}" stream "$@"
}

# dm's throughput line, alone or after "NODE WORKER: "
DM_LINE='[0-9]+\.[0-9]{2} MB/sec \([0-9]+ B / [0-9]{2,}:[0-9]{2}\.[0-9]{6}\)'

# The rows of the report's table (Test It Node Work TestType Microsecs
# Requests Bytes MiB/s).
stream_rows() {
	rows
}

# dm_total_ok FILE.h5: the last line of $OUT is dm's line for all ranks:
# the bytes of all rows over the span from the earliest start to the latest
# end, with dm's arithmetic (MB = 2^20 bytes, %.2f, minutes:seconds).
dm_total_ok() {
	local want
	want=$("$PFSBENCH" export "$1" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ b += $c["bytes"]; s = $c["start_us"]; e = s + $c["elapsed_us"]
		  if (NR == 2 || s < lo) lo = s; if (e > hi) hi = e }
		END { us = hi - lo; sec = int(us / 1000000)
		      printf "%.2f MB/sec (%d B / %02d:%02d.%06d)\n", b / 1048576 / (us / 1e6), b,
			int(sec / 60), sec % 60, us % 1000000 }')
	[ "$(grep -E "^$DM_LINE\$" "$OUT" | tail -1)" = "$want" ] ||
		{ echo "# want '$want', the report says:"; grep -E "$DM_LINE" "$OUT"; return 1; }
}

# kept_pattern_ok DIR NRANKS file|shared SIZE: the files a --keep run left
# in DIR hold every rank's stamped pattern where that rank wrote it, as an
# independent reader (pattern.py) sees it. Ranks are numbered in the order
# of their <node>.<worker> directories, as the tests start them.
kept_pattern_ok() {
	local dir=$1 n=$2 layout=$3 size=$4 r=0 d
	if [ "$layout" = shared ]; then
		for ((r = 0; r < n; r++)); do
			"$STREAM_TESTS/pattern.py" "$dir/stream.shared" $((r * size)) "$size" "$r" >/dev/null || return 1
		done
		return 0
	fi
	for d in $(cd "$dir" && ls -d -- */ | sort -t. -k1,1 -k2,2n); do
		"$STREAM_TESTS/pattern.py" "$dir/$d/stream" 0 "$size" "$r" >/dev/null || return 1
		r=$((r + 1))
	done
	[ "$r" -eq "$n" ]
}

# stream_cycle DIR LABEL NRANKS LAYOUT [prepare]: on DIR, with RUNNER's
# NRANKS ranks, a file per rank (file) or one shared file (shared):
#  1. a write of 1000000 bytes per rank in 64 KiB requests (the last one
#     short) with -y -m -p --verify --keep: rank 0's marks, dm's lines, a
#     row per rank of every byte, dm's total from the rows, every byte read
#     back and checked (the Check step), the files kept; they hold each
#     rank's pattern at its offset, as an independent reader sees it;
#  2. a read of them with -m --verify: 15 R and an r, every byte checked,
#     the kept files gone, nothing left;
#  3. with "prepare": a read with --prepare --verify, nothing left.
stream_cycle() {
	local d=$1 label=$2 n=$3 layout=$4 lines opt=() kept
	[ "$layout" = shared ] && opt=(--shared)
	lines=$((n > 1 ? n + 1 : 1))

	run_stream -o "$d" -b 64k -s 1000000 -y -m -p --verify --keep "${opt[@]}" \
		--results "$SCRATCH/$label-w.h5"
	cp "$OUT" "$SCRATCH/$label-w.out"
	check "$label: write --verify --keep: exit 0" test "$RC" -eq 0
	check "$label: write: rank 0's marks, 15 whole requests and a short one (R, r)" \
		test "$(head -1 "$OUT")" = RRRRRRRRRRRRRRRr
	check "$label: write: dm's line for each of $n ranks and for all" \
		test "$(grep -cE "^([^ ]+ [0-9]+: )?$DM_LINE\$" "$OUT")" -eq "$lines"
	check "$label: write: a row per rank, 16 requests, 1000000 bytes" \
		test "$(stream_rows | awk '$5 == "Write" && $7 == 16 && $8 == 1000000' | wc -l)" -eq "$n"
	check "$label: write: dm's total is all bytes over the rows' span" dm_total_ok "$SCRATCH/$label-w.h5"
	check "$label: write: the report ends Done." test "$(tail -1 "$OUT")" = Done.
	kept=$(ls -d "$d"/pfsbench.stream.* 2>/dev/null)
	check "$label: write --keep: the files stay in pfsbench.stream.$layout.s1000000" \
		test "$kept" = "$d/pfsbench.stream.$layout.s1000000"
	check "$label: the kept files hold each rank's pattern at its offset" \
		kept_pattern_ok "$kept" "$n" "$layout" 1000000
	[ "$RC" -eq 0 ] || show_run

	run_stream -i "$d" -b 64k -s 1000000 -m --verify "${opt[@]}" --results "$SCRATCH/$label-r.h5"
	check "$label: read --verify of the kept files: exit 0" test "$RC" -eq 0
	check "$label: read: 15 whole requests and a short one (R, r)" \
		test "$(head -1 "$OUT")" = RRRRRRRRRRRRRRRr
	check "$label: read: a row per rank, 16 requests, 1000000 bytes" \
		test "$(stream_rows | awk '$5 == "Read" && $7 == 16 && $8 == 1000000' | wc -l)" -eq "$n"
	check "$label: read: the kept files are gone, nothing left" dir_unchanged "$d"
	[ "$RC" -eq 0 ] || show_run

	[ "${5:-}" = prepare ] || return 0
	run_stream -i "$d" -b 64k -s 256k --prepare --verify "${opt[@]}" --results "$SCRATCH/$label-p.h5"
	check "$label: read --prepare --verify: exit 0" test "$RC" -eq 0
	check "$label: read --prepare: a row per rank, 4 requests, 262144 bytes" \
		test "$(stream_rows | awk '$5 == "Read" && $7 == 4 && $8 == 262144' | wc -l)" -eq "$n"
	check "$label: read --prepare: nothing left" dir_unchanged "$d"
	[ "$RC" -eq 0 ] || show_run
}
