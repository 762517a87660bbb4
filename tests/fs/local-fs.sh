#!/bin/bash
# local-fs.sh - pfsbench on real local filesystems the test makes on loop
# devices: ext3 (mounted noatime), ext4 and xfs. On each, create-unlink on 2
# ranks and a small tree: the report's first line names the type, every row
# is there, nothing is left, and the results file records the type, the loop
# device as mount source and the mount options; compare names each run by its
# type; pfsbench bonnie on ext4 and xfs of their own. A full ext4 stops the
# run with ENOSPC and keeps nothing. Root only;
# exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

need_loop

FSES=(ext3 ext4)
# Debian's xfsprogs is not installed by default; without it xfs is left out,
# saying why (need_pkg prints the reason; its exit 77 ends only the subshell).
if command -v mkfs.xfs >/dev/null || (need_pkg xfsprogs); then
	FSES+=(xfs)
else
	echo "# xfs not tested: xfsprogs (mkfs.xfs) could not be installed"
fi

for fs in "${FSES[@]}"; do
	start=$SECONDS
	case $fs in
	ext3) loop_fs ext3 ext3 64M noatime mkfs.ext3 -q -F ;;
	ext4) loop_fs ext4 ext4 64M "" mkfs.ext4 -q -F ;;
	# mkfs.xfs refuses less than 300 MiB; the file is sparse
	xfs) loop_fs xfs xfs 320M "" mkfs.xfs -q -f ;;
	esac || continue
	FS=${fs^^}
	pfs 2 create-unlink -m "$M" -f 200 -F 5 -s 64k --results "$SCRATCH/$fs.h5"
	echo "# $fs: $(head -1 "$OUT")"
	check_create_unlink "$FS" "$M" "$SCRATCH/$fs.h5"
	check "$fs: results file: mount source is the loop device $DEV" \
		test "$(prov "$SCRATCH/$fs.h5" mount_source)" = "$DEV"
	opts=$(prov "$SCRATCH/$fs.h5" mount_options)
	echo "# $fs: mount options recorded: $opts"
	opts=$(tr , '\n' <<<"$opts")
	case $fs in
	ext3) check "ext3: results file: mount options say noatime" grep -qx noatime <<<"$opts" ;;
	*) check "$fs: results file: mount options say relatime (the default)" grep -qx relatime <<<"$opts" ;;
	esac
	[ "$T_FAILED" -eq 0 ] || show_run
	pfs 2 tree -o "$M" -l 2 -d 3 -f 4 -s 2 --results "$SCRATCH/$fs-tree.h5"
	check_tree "$FS" "$M" "$SCRATCH/$fs-tree.h5"
	[ "$T_FAILED" -eq 0 ] || show_run
	echo "# $fs took $((SECONDS - start)) s"
done

runs=()
for fs in "${FSES[@]}"; do
	[ -f "$SCRATCH/$fs.h5" ] && runs+=("$SCRATCH/$fs.h5")
done
OUT=$SCRATCH/compare.out
"$PFSBENCH" compare "${runs[@]}" >"$OUT" 2>&1
check "compare reads the runs of every filesystem" test $? -eq 0
for i in "${!runs[@]}"; do
	fs=$(basename "${runs[i]}" .h5)
	check "compare names run $((i + 1)) by its type: ${fs^^}" \
		grep -qx "\[$((i + 1))\] ${fs^^} $SCRATCH/$fs" "$OUT"
done
check "compare has the 14 tests and ops of the runs" \
	test "$(grep -cE "^(se|pa|ua|ub|uc) +(Create|Write|Read|Unlink) " "$OUT")" -eq 14
[ "$T_FAILED" -eq 0 ] || cat "$OUT"

# pfsbench bonnie with bonnie++'s small sizes (-s 64m -r 32m -n 1) on an
# ext4 and an xfs of its own, large enough for 4 ranks' 64 MiB files: 1
# rank, 2 ranks, 2 nodes x 2 (tests/mpi/bonnie-lib.sh).
. "$here/../mpi/bonnie-lib.sh"
for fs in ext4 xfs; do
	[[ " ${FSES[*]} " == *" $fs "* ]] || continue
	start=$SECONDS
	case $fs in
	ext4) loop_fs bonnie-ext4 ext4 512M "" mkfs.ext4 -q -F ;;
	xfs) loop_fs bonnie-xfs xfs 512M "" mkfs.xfs -q -f ;;
	esac || continue
	bonnie_run "$fs" 1 "$M"
	bonnie_run "$fs" 2 "$M" --bonnie-version 1.98
	bonnie_run "$fs" 2x2 "$M" --bonnie-version 1.98 -q
	check "$fs: bonnie: results file: fstype ${fs^^}" test "$(prov "$SCRATCH/$fs-2x2.h5" fstype)" = "${fs^^}"
	echo "# bonnie on $fs took $((SECONDS - start)) s"
done

# ENOSPC on a real filesystem: ext4 allocates on write (delayed
# allocation), so the error may come from write, fsync or close.
if loop_fs ext4-full ext4 8M "" mkfs.ext4 -q -F; then
	pfs 2 create-unlink -m "$M" -f 10 -F 4 -s 4m -t pa
	check "full ext4: the plan is refused (exit 2)" test "$RC" -eq 2
	pfs 2 create-unlink -m "$M" -f 10 -F 4 -s 4m -t pa --force --results "$SCRATCH/full.h5"
	check "full ext4: exit 1" test "$RC" -eq 1
	check "full ext4: the message names worker, op, path and the error" grep -qE \
		"^pfsbench: node $(hostname) worker [12]: cannot (write|fsync|close) '$M/pfsbench\.[^/]+/$(hostname)\.[12]/f[0-9]{10}': No space left on device$" "$ERR"
	check "full ext4: the report ends Aborted." test "$(tail -1 "$OUT")" = "Aborted."
	check "full ext4: results file says aborted" test "$(prov "$SCRATCH/full.h5" status)" = aborted
	check "full ext4: results file names the failing worker and the error" grep -qE \
		"^node $(hostname) worker [12]: cannot (write|fsync|close) '.*': No space left on device$" \
		<<<"$(prov "$SCRATCH/full.h5" status_reason)"
	check "full ext4: everything the run wrote is removed" dir_unchanged "$M"
	[ "$T_FAILED" -eq 0 ] || show_run
fi

# ---- pfsbench stream (tests/stream/checks.sh) ------------------------------------
# On each filesystem: 2 ranks, a file per rank and one shared file, every
# byte read back and checked; O_DIRECT taken, without dm's fallback message.
# shellcheck source=../stream/checks.sh
. "$(dirname "$0")/../stream/checks.sh"
RUNNER=(pfs 2)
for fs in "${FSES[@]}"; do
	M=$SCRATCH/$fs
	mountpoint -q "$M" || { not_ok "$fs: stream: '$M' is not mounted (its loop_fs above failed)"; continue; }
	start=$SECONDS
	stream_cycle "$M" "$fs-file" 2 file
	stream_cycle "$M" "$fs-shared" 2 shared
	check "$fs: stream: results file: fstype ${fs^^}" \
		test "$(prov "$SCRATCH/$fs-file-w.h5" fstype)" = "${fs^^}"
	run_stream -o "$M" -x -b 64k -s 1M --verify -p
	check "$fs: stream -x: exit 0, O_DIRECT taken (no fallback message)" \
		eval 'test "$RC" -eq 0 && ! grep -q "NOT using O_DIRECT" "$ERR"'
	check "$fs: stream -x: nothing left" dir_unchanged "$M"
	[ "$T_FAILED" -eq 0 ] || show_run
	echo "# $fs: stream took $((SECONDS - start)) s"
done

# A block device, as dm is used on one: a loop device of 16 MiB, named
# with --force, written with O_DIRECT and fsync, read back, never removed.
raw=$SCRATCH/raw.img
truncate -s 16M "$raw"
if ! DEV=$(losetup --find --show "$raw"); then
	not_ok "block device: stream: attach a loop device over '$raw'"
else
	T_CLEANUP+=("losetup -d '$DEV'")
	run_stream -o "$DEV" -b 64k -s 4M
	check "block device: refused without --force (exit 2)" test "$RC" -eq 2
	check "block device: the message says why" grep -qF \
		"'$DEV' is not a directory: pfsbench writes a file or device only with --force" "$ERR"
	run_stream -o "$DEV" -b 64k -s 4M -x -y -p --verify --force --results "$SCRATCH/dev-w.h5"
	check "block device: write -x -y --verify: exit 0" test "$RC" -eq 0
	check "block device: O_DIRECT taken" eval '! grep -q "NOT using O_DIRECT" "$ERR"'
	check "block device: rank 0's pattern at 0, rank 1's at 4 MiB" \
		eval '"$STREAM_TESTS/pattern.py" "$DEV" 0 4194304 0 >/dev/null &&
			"$STREAM_TESTS/pattern.py" "$DEV" 4194304 4194304 1 >/dev/null'
	run_stream -i "$DEV" -b 64k -s 4M -x --verify --force
	check "block device: read -x --verify: exit 0" test "$RC" -eq 0
	RUNNER=(pfs 1)
	run_stream -i "$DEV" -b 1M --force
	check "block device: a read without -s ends at the device's end: 16 MiB" \
		test "$(stream_rows | awk '$8 == 16777216' | wc -l)" -eq 1
	run_stream -o "$DEV" -b 1M -l 12M -a 0 --force
	check "block device: a write without -s ends at the device's end (ENOSPC), exit 0" \
		eval 'test "$RC" -eq 0 && test "$(stream_rows | awk '"'"'$8 == 4194304'"'"' | wc -l)" -eq 1'
	check "block device: never written past its end, the data below -l kept" \
		eval 'test "$(stat -c %s "$raw")" -eq 16777216 &&
			"$STREAM_TESTS/pattern.py" "$DEV" 4194304 4194304 1 >/dev/null'
	check "block device: still there" test -b "$DEV"
	[ "$T_FAILED" -eq 0 ] || show_run
fi

# ---- pfsbench matrix (tests/matrix/checks.sh) --------------------------------------
# On ext4: 1 rank, 2 ranks, then 2 simulated nodes x 2, writes and reads of small
# lists, every cell's bytes, the outlier rule's marks and the report from
# the rows, nothing left; perf_matrix's 13 request sizes, lines of 13
# numbers; then writes with O_DIRECT on the filesystem.
# shellcheck source=../matrix/checks.sh
. "$(dirname "$0")/../matrix/checks.sh"
M=$SCRATCH/ext4
if ! mountpoint -q "$M"; then
	not_ok "ext4: matrix: '$M' is not mounted (its loop_fs above failed)"
else
	start=$SECONDS
	RUNNER=(pfs 1)
	matrix_cycle "$M" ext4-matrix-1 1
	RUNNER=(pfs 2)
	matrix_cycle "$M" ext4-matrix 2
	check "ext4: matrix: results file: fstype EXT4" \
		test "$(prov "$SCRATCH/ext4-matrix-w.h5" fstype)" = EXT4
	RUNNER=(pfs_nodes 2 2)
	matrix_cycle "$M" ext4-matrix-2x2 4
	check "ext4: matrix 2 x 2: the slowest node per cell, against the median node" \
		grep -qE "^Slowest node: node[12] in [0-9]+ cells?" "$OUT"
	RUNNER=(pfs 2)
	matrix_columns "$M" ext4-matrix-13 2 1m,2m
	run_matrix --write "$M" --direct --req 4k,64k --xfer 64k,1m -i 2 --results "$SCRATCH/ext4-direct.h5"
	matrix_ok "ext4 matrix --direct" 2 Write "$SCRATCH/ext4-direct.h5" 4k,64k 64k,1m 2
	check "ext4: matrix --direct: the report says O_DIRECT and fsync" \
		grep -q "^O_DIRECT, fsync inside the time; caches dropped before each cell\$" "$OUT"
	check "ext4: matrix --direct: nothing left" dir_unchanged "$M"
	echo "# ext4: matrix took $((SECONDS - start)) s"
fi

# A block device, as perf_matrix was used on one: a loop device of 8 MiB
# over the first half of a 16 MiB file whose every byte is 0xab. Refused
# without --force, and with too many ranks for its size; with --force, 2
# ranks of 2 MiB parts, O_DIRECT by default: each rank's last cell is in
# its part, and nothing past the parts changed, in the device or beyond.
# Then 2 ranks of 4 MiB parts, the second ending at the device's end: the
# file's bytes past it, 8 MiB to 16 MiB, still all 0xab.
raw=$SCRATCH/matrix-raw.img
parts_are() { # PART: on the device, rank 0's pattern at 0 and rank 1's at PART, PART bytes each
	"$STREAM_TESTS/pattern.py" "$DEV" 0 "$1" 0 >/dev/null && "$STREAM_TESTS/pattern.py" "$DEV" "$1" "$1" 1 >/dev/null
}
untouched_from() { # OFFSET: the file's bytes from OFFSET to its end, 16 MiB, all 0xab
	test "$(tail -c +$(($1 + 1)) "$raw" | tr -d '\253' | wc -c)" -eq 0 && test "$(stat -c %s "$raw")" -eq 16777216
}
head -c 16777216 /dev/zero | tr '\0' '\253' >"$raw"
if ! DEV=$(losetup --find --show --sizelimit 8388608 "$raw"); then
	not_ok "block device: matrix: attach a loop device of 8 MiB over '$raw'"
else
	T_CLEANUP+=("losetup -d '$DEV'")
	sum=$(md5sum <"$raw")
	run_matrix of="$DEV" --req 64k,1m --xfer 1m,2m
	check "block device: refused without --force (exit 2)" test "$RC" -eq 2
	check "block device: the message says why" grep -qF \
		"'$DEV' is not a directory: pfsbench matrix writes a file or device only with --force" "$ERR"
	RUNNER=(pfs 3)
	run_matrix of="$DEV" --force --req 64k --xfer 1m,4m
	check "block device: 3 ranks of 4 MiB on 8 MiB refused (exit 2)" test "$RC" -eq 2
	check "block device: ... saying what it holds and what they need" grep -qF \
		"pfsbench: '$DEV' holds 8388608 bytes; 3 ranks of 4194304 bytes each (the largest transfer) need 12582912" "$ERR"
	RUNNER=(pfs 2)
	run_matrix of="$DEV" --force --req 1000 --xfer 1m
	check "block device: a request of 1000 bytes under O_DIRECT refused (exit 2)" eval \
		'test "$RC" -eq 2 && grep -qF "with O_DIRECT every size must be a multiple of the device'"'"'s block size, 512 bytes: request size 1000 is not" "$ERR"'
	check "block device: the refused runs wrote nothing" test "$(md5sum <"$raw")" = "$sum"
	run_matrix of="$DEV" iter=2 --force --req 4k,64k,1m --xfer 1m,2m --results "$SCRATCH/matrix-dev-w.h5"
	matrix_ok "block device write" 2 Write "$SCRATCH/matrix-dev-w.h5" 4k,64k,1m 1m,2m 2
	check "block device: O_DIRECT by default, said in the report" \
		grep -q "^O_DIRECT, fsync inside the time; caches dropped before each cell\$" "$OUT"
	check "block device: each rank's last cell (2 MiB) in its part: rank 0 at 0, rank 1 at 2 MiB" \
		parts_are 2097152
	check "block device: never written past the parts: bytes 4 MiB to 16 MiB of the file all 0xab" \
		untouched_from 4194304
	run_matrix if="$DEV" --force --req 4k,64k,1m --xfer 1m,2m --results "$SCRATCH/matrix-dev-r.h5"
	matrix_ok "block device read" 2 Read "$SCRATCH/matrix-dev-r.h5" 4k,64k,1m 1m,2m 1
	check "block device: the device is 8 MiB" test "$(blockdev --getsize64 "$DEV")" -eq 8388608
	run_matrix of="$DEV" --force --req 64k,1m --xfer 1m,4m --results "$SCRATCH/matrix-dev-end.h5"
	matrix_ok "block device to its end" 2 Write "$SCRATCH/matrix-dev-end.h5" 64k,1m 1m,4m 1
	check "block device to its end: each rank's last cell (4 MiB) in its part: rank 0 at 0, rank 1 at 4 MiB to the end" \
		parts_are 4194304
	check "block device to its end: never written past it: bytes 8 MiB to 16 MiB of the file all 0xab" \
		untouched_from 8388608
	check "block device: still there" test -b "$DEV"
	[ "$T_FAILED" -eq 0 ] || show_run
fi
finish
