#!/bin/bash
# lib.sh - common start of the tests that run pfsbench on real filesystems
# they make and mount themselves (sourced): the checks and runs of
# tests/mpi/lib.sh and tests/lib.sh (check, finish, skip, need_pkg, pfs,
# pfs_nodes, rows, snapshot, dir_unchanged; $SCRATCH removed at exit), the
# root, lock and loop device helpers of tests/cluster/lib.sh
# (pfs_need_root, fs_lock, loop_fs), and
#   prov FILE KEY           a provenance attribute of results FILE, read back
#                           through `pfsbench export --json --provenance`
#   need_loop               root, losetup and mkfs.ext4, and a loop device
#                           that attaches, or the test skips saying why
#   counter FILE OP NAME    a filesystem or block-device counter (blk.*,
#                           drbd.*) summed over the steps where OP ran
#   nodes_blockdev FILE     each node's block device entry, one a line
#   check_create_unlink FS DIR FILE   the run in $OUT: see below
#   check_tree FS DIR FILE            the run in $OUT: see below
# PFSBENCH defaults to the binary of this source tree.
# shellcheck source-path=SCRIPTDIR
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PFSBENCH:=$here/../../src/pfsbench}"
export PFSBENCH
. "$here/../mpi/lib.sh"
. "$here/../cluster/lib.sh"

[ -x "$PFSBENCH" ] || skip "no pfsbench binary at '$PFSBENCH' (run make first)"

prov() {
	"$PFSBENCH" export "$1" --json --provenance |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["provenance"][sys.argv[1]])' "$2"
}

# need_loop: what a test of filesystems on loop devices needs, or a skip
# that says which is missing.
need_loop() {
	local probe dev
	pfs_need_root "making filesystems on loop devices"
	command -v losetup >/dev/null || need_pkg mount
	command -v mkfs.ext4 >/dev/null || need_pkg e2fsprogs
	probe=$SCRATCH/probe.img
	truncate -s 1M "$probe"
	dev=$(losetup --find --show "$probe" 2>&1) || skip "cannot attach a loop device: $dev"
	losetup -d "$dev"
}

# counter FILE OP NAME: NAME's value (0 when not stored: it did not move)
# in the steps where OP ran, summed, from `export --fs-stats`.
counter() {
	awk -F, -v op="$2" -v name="$3" '
	FNR == 1 {f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next}
	f == 1 {if ($c[1, "op"] == op) ran[$c[1, "test"], $c[1, "iteration"], $c[1, "step"]] = 1; next}
	$c[2, "name"] == name && (($c[2, "test"], $c[2, "iteration"], $c[2, "step"]) in ran) {s += $c[2, "value"]}
	END {print s + 0}' <("$PFSBENCH" export "$1" --csv | tr -d '\r') \
		<("$PFSBENCH" export "$1" --csv --fs-stats | tr -d '\r')
}
# nodes_blockdev FILE: the nodes' blockdev descriptions, one a line.
nodes_blockdev() {
	"$PFSBENCH" export "$1" --json |
		/usr/bin/python3 -c 'import json, sys; [print(n.get("blockdev", "(missing)")) for n in json.load(sys.stdin)["nodes"]]'
}

# check_create_unlink FS DIR FILE: the create-unlink run in $OUT (all tests,
# 2 workers, -f 200 -F 5) on DIR, results in FILE, measured a filesystem of
# type FS (upper case, as the report prints it) to the end, with every row,
# and left DIR as it found it.
check_create_unlink() {
	local fs=$1 dir=$2 h5=$3
	check "$fs: create-unlink exits 0" test "$RC" -eq 0
	check "$fs: the report's first line names the filesystem" \
		test "$(head -1 "$OUT")" = "$fs mount point: $dir"
	check "$fs: 28 rows: se 8, pa 8, ua 4, ub 4, uc 4" test \
		"$(rows | awk '{n[$1]++} END {print n["se"], n["pa"], n["ua"], n["ub"], n["uc"]}')" = "8 8 4 4 4"
	check "$fs: every row did all its files (Create, Unlink 200; Write, Read 5)" \
		test "$(rows | awk '($5 ~ /Create|Unlink/ && $7 != 200) || ($5 ~ /Write|Read/ && $7 != 5)' | wc -l)" -eq 0
	check "$fs: us/fil and files/sec agree with Microsecs and Files" columns_consistent
	check "$fs: the report ends Done." test "$(tail -1 "$OUT")" = "Done."
	check "$fs: nothing of the run is left" dir_unchanged "$dir"
	check "$fs: results file: fstype $fs" test "$(prov "$h5" fstype)" = "$fs"
	check "$fs: results file: mount point $dir" test "$(prov "$h5" mount_point)" = "$dir"
	check "$fs: results file: status complete" test "$(prov "$h5" status)" = complete
}

# check_tree FS DIR FILE: the tree run in $OUT (2 workers, -l 2 -d 3 -f 4
# -s 2, so 13 directories and 52 files a worker) on DIR, results in FILE.
check_tree() {
	local fs=$1 dir=$2 h5=$3
	check "$fs: tree exits 0" test "$RC" -eq 0
	check "$fs: tree reports its 4 phases" test "$(grep -c "TIME IN, OUT, TOTAL *= " "$OUT")" -eq 4
	check "$fs: tree: one row a phase and worker, every item done" test "$(rows |
		awk '$1 == "tree" && (($5 ~ /Mkdir|Rmdir/ && $7 == 13) || ($5 ~ /Create|Unlink/ && $7 == 52))' |
		wc -l)" -eq 8
	check "$fs: tree ends Done." test "$(tail -1 "$OUT")" = "Done."
	check "$fs: tree leaves nothing" dir_unchanged "$dir"
	check "$fs: tree results file: fstype $fs" test "$(prov "$h5" fstype)" = "$fs"
}
