#!/bin/bash
# random.sh: pfsbench stream --pattern random on tmpfs (/dev/shm). With 1
# and 2 ranks, a file per rank and one shared file, at --iodepth 1
# (pread/pwrite) and 8 (io_uring): a random write with --verify --keep
# (each rank's 64 blocks once, read back and checked), the kept files hold
# every rank's stamped pattern at every offset as an independent reader
# sees it (so every block was written, each where it belongs), then a random
# read of them with --verify, nothing left. A flipped byte fails a random
# read. --runtime: every rank the same requests. --format fio: fio's terse
# line per rank, each field of the shape of a real fio's line. Without
# io_uring (a build without liburing), --iodepth over 1 is refused and the
# depth-8 cases are left out. Bad input: one message, exit 2, nothing
# created.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/checks.sh"

shm_target random

SIZE=262144 # 64 blocks of 4 KiB per rank

# The rows of the random table (It Node Work TestType Microsecs Requests
# IOPS MiB/s p50 p99 max).
random_rows() {
	sed -n '/^-- ----/,/^$/p' "$OUT" | sed '1d;$d'
}

# random_cycle LABEL NRANKS DEPTH file|shared
random_cycle() {
	local label=$1 n=$2 depth=$3 layout=$4 opt=() kept
	[ "$layout" = shared ] && opt=(--shared)
	run_stream -o "$D" -b 4k -s $SIZE --pattern random --iodepth "$depth" --seed 7 \
		--verify --keep "${opt[@]}" --results "$SCRATCH/$label-w.h5"
	check "$label: random write --verify --keep: exit 0" test "$RC" -eq 0
	check "$label: write: a row per rank, 64 requests" \
		test "$(random_rows | awk '$4 == "Write" && $6 == 64' | wc -l)" -eq "$n"
	check "$label: the report says random, seed 7, $depth in flight" \
		grep -qE "^random order: each block of 4096 bytes once, seed 7, $depth in flight " "$OUT"
	check "$label: write: every request's latency in the row" \
		test "$(csv_rows "$SCRATCH/$label-w.h5" | tr -d '\r' | awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["op"] == "Write" && $c["lat_count"] == 64 && $c["bytes"] == '$SIZE'' | wc -l)" -eq "$n"
	kept=$(ls -d "$D"/pfsbench.stream.* 2>/dev/null)
	check "$label: every block written, each rank's pattern at every offset" \
		kept_pattern_ok "$kept" "$n" "$layout" $SIZE
	[ "$RC" -eq 0 ] || show_run

	run_stream -i "$D" -b 4k -s $SIZE --pattern random --iodepth "$depth" --verify "${opt[@]}" \
		--results "$SCRATCH/$label-r.h5"
	check "$label: random read --verify: exit 0" test "$RC" -eq 0
	check "$label: read: a row per rank, 64 requests" \
		test "$(random_rows | awk '$4 == "Read" && $6 == 64' | wc -l)" -eq "$n"
	check "$label: read: the kept files are gone, nothing left" dir_unchanged "$D"
	[ "$RC" -eq 0 ] || show_run
}

# io_uring: a build without liburing, or a kernel that refuses io_uring,
# refuses --iodepth over 1 before the run (exit 2, nothing created); the
# cases at depth 8 are then left out.
DEPTHS="1 8"
RUNNER=(pfs_single)
run_stream -o "$D" -b 4k -s 4k --pattern random --iodepth 2 --results "$SCRATCH/probe.h5"
if [ "$RC" -ne 0 ]; then
	check "no io_uring: --iodepth 2 refused, exit 2" test "$RC" -eq 2
	check "no io_uring: the refusal says why and what to do" \
		grep -qE -- "--iodepth 2: (this pfsbench was built without liburing|the kernel refuses io_uring).*run with --iodepth 1" "$ERR"
	check "no io_uring: nothing created" dir_unchanged "$D"
	echo "# no io_uring here: the cases at depth 8 are left out"
	DEPTHS=1
fi

for depth in $DEPTHS; do
	RUNNER=(pfs_single)
	random_cycle 1rank-d$depth 1 "$depth" file
	RUNNER=(pfs 2)
	random_cycle 2ranks-d$depth 2 "$depth" file
	random_cycle 2ranks-shared-d$depth 2 "$depth" shared
done

# The rows of a random stream are the test rand, a sequential stream's
# seq: compare pairs rows by test and op, so a random run against a
# sequential one pairs nothing, and says so.
RUNNER=(pfs 2)
run_stream -o "$D" -b 4k -s $SIZE --results "$SCRATCH/name-seq.h5"
check "a sequential stream: exit 0" test "$RC" -eq 0
run_stream -o "$D" -b 4k -s $SIZE --pattern random --results "$SCRATCH/name-rand.h5"
check "a random stream: exit 0" test "$RC" -eq 0
check "every row of the sequential stream is the test seq" \
	test "$(csv_rows "$SCRATCH/name-seq.h5" | tr -d '\r' | awk -F, 'NR > 1 { print $1 }' | sort | uniq -c |
		awk '{ print $1, $2 }')" = "2 seq"
check "every row of the random stream is the test rand" \
	test "$(csv_rows "$SCRATCH/name-rand.h5" | tr -d '\r' | awk -F, 'NR > 1 { print $1 }' | sort | uniq -c |
		awk '{ print $1, $2 }')" = "2 rand"
"$PFSBENCH" compare "$SCRATCH/name-seq.h5" "$SCRATCH/name-rand.h5" >"$SCRATCH/cmp.out" 2>&1
check "compare seq against rand: no Write line pairs them" \
	test "$(grep -cE '^(seq|rand) +Write ' "$SCRATCH/cmp.out")" -eq 0
check "compare seq against rand: both pairs named as not in every run" \
	grep -q '^2 (test, op) pairs are not in every run' "$SCRATCH/cmp.out"
check "compare seq against rand: pattern among the differing parameters" \
	grep -qE '^ +pattern +1: seq +2: random' "$SCRATCH/cmp.out"
check "after the named runs: nothing left" dir_unchanged "$D"

# --runtime: each rank stops submitting at the count all agree on and
# completes what is in flight: every row the same requests, none over -s.
RUNNER=(pfs 2)
for depth in $DEPTHS; do
	run_stream -o "$D" -b 4k -s 64m --pattern random --iodepth "$depth" --runtime 1 \
		--results "$SCRATCH/rt$depth.h5"
	check "depth $depth --runtime 1: exit 0" test "$RC" -eq 0
	check "depth $depth --runtime 1: both ranks the same requests, at most 16384" \
		test "$(random_rows | awk '$4 == "Write" && $6 <= 16384 { print $6 }' | sort -u | wc -l)" -eq 1 -a \
		"$(random_rows | wc -l)" -eq 2
	check "depth $depth --runtime 1: nothing left" dir_unchanged "$D"
done

# A byte changed in a kept file: the random read names the file and offset.
RUNNER=(pfs_single)
for depth in $DEPTHS; do
	run_stream -o "$D" -b 4k -s $SIZE --pattern random --keep --results "$SCRATCH/c-w$depth.h5"
	kept=$(ls -d "$D"/pfsbench.stream.*)
	f=$(ls "$kept"/*/stream)
	printf 'X' | dd of="$f" bs=1 seek=200000 conv=notrunc status=none
	run_stream -i "$D" -b 4k -s $SIZE --pattern random --iodepth $depth --verify \
		--results "$SCRATCH/c$depth.h5"
	check "depth $depth: a changed byte fails the random read: exit 1" test "$RC" -eq 1
	check "depth $depth: ... naming the file and the offset" \
		grep -qF "data differs in '$f' at offset 200000: read 0x58" "$ERR"
	rm -rf "$kept"
done
check "after the failed reads: nothing left" dir_unchanged "$D"

# ---- --format fio: fio's terse line, version 3 -----------------------------------
# Each rank's line has fio's 121 fields, each of the same shape as fio's
# own (digits, decimals, "P%=N", percentages), but the version and job name;
# where fio is installed, against a line of the real fio.
shape() { # a terse line on stdin: one shape per field
	tr ';' '\n' | sed -E 's/^[0-9]+\.[0-9]{6}%=[0-9]+$/P=N/; s/^0%=0$/P0/;
		s/^[0-9]+\.[0-9]+%$/F%/; s/^[0-9]+\.[0-9]{6}$/F6/; s/^[0-9]+$/N/' | sed '2,3s/.*/name/'
}
RUNNER=(pfs 2)
run_stream -o "$D" -b 4k -s $SIZE --pattern random --iodepth "${DEPTHS##* }" --format fio \
	--results "$SCRATCH/fio.h5"
check "--format fio: exit 0" test "$RC" -eq 0
check "--format fio: a line per rank, no line for all" test "$(grep -c '^3;' "$OUT")" -eq 2
check "--format fio: 121 fields" \
	test "$(grep -m1 '^3;' "$OUT" | tr ';' '\n' | wc -l)" -eq 121
check "--format fio: each rank's job, NODE.WORKER, a write of 256 KiB" \
	test "$(grep '^3;' "$OUT" | cut -d';' -f3,47 | sort | tr '\n' ' ')" = \
	"$(hostname).1;256 $(hostname).2;256 "
"$PFSBENCH" show "$SCRATCH/fio.h5" >"$SCRATCH/show.out"
check "--format fio: show prints the run's report, byte for byte" cmp -s "$SCRATCH/show.out" "$OUT"
if command -v fio >/dev/null && [ "$DEPTHS" != 1 ]; then
	fio --name=t --filename="$D/fio.file" --rw=randwrite --bs=4k --size=256k \
		--ioengine=io_uring --iodepth=8 --minimal >"$SCRATCH/fio.out" 2>&1
	rm -f "$D/fio.file"
	check "--format fio: every field of the shape of fio's own line" \
		diff <(grep -m1 '^3;' "$OUT" | shape | sed 's/%$//') <(head -1 "$SCRATCH/fio.out" | shape | sed 's/%$//')
fi

# ---- bad input: one message, exit 2, nothing created ------------------------------
refusals_of stream
refused 1 "--pattern random visits each block of -s bytes once: give -s" \
	-o "$D" --pattern random
refused 1 "--pattern random needs -s (10000) a multiple of -b (4096)" \
	-o "$D" --pattern random -b 4k -s 10000
refused 1 "--pattern random takes requests of at most 4194304 bytes (-b 8388608)" \
	-o "$D" --pattern random -b 8m -s 16m
refused 1 "--pattern random aligns requests to -b: -l 512 is no multiple of 4096" \
	-o "$D" --pattern random -b 4k -s 1m -l 512
refused 1 "--iodepth is for --pattern random; a sequential stream has one request in flight" \
	-o "$D" -s 1m --iodepth 4
refused 1 "-w caps a sequential stream; not with --pattern random" \
	-o "$D" --pattern random -s 1m -w 1m
refused 1 "-m and -d mark a sequential stream; not with --pattern random" \
	-o "$D" --pattern random -s 1m -m
refused 1 "--verify reads back every block a random write wrote, and --runtime may stop it before all are written" \
	-o "$D" --pattern random -s 1m --verify --runtime 5
refused 1 "--pattern wants one of seq, random, not 'sideways'" -o "$D" --pattern sideways -s 1m
refused 2 "--iodepth '5000' is too large" -o "$D" --pattern random -s 1m --iodepth 5000

finish
