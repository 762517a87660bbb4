#!/bin/bash
# lib.sh - helpers shared by the tests/cluster scripts (sourced, owns
# nothing), on tests/lib.sh (skip, need_pkg, check, ...):
#   pfs_need_root WHY  skip unless real root (uid 0, not in a user namespace)
#   pfs_cluster_lock   one cluster test at a time on this machine
#   fs_lock NAME       one test holding NAME at a time on this machine
#   loop_fs NAME TYPE SIZE OPTS MKFS...  a filesystem on a loop device at $M
#                      (with tests/mpi/lib.sh's helpers: $SCRATCH, T_CLEANUP)
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

pfs_need_root() {
	[ "$(id -u)" -eq 0 ] || skip "$* needs root"
	# a user namespace maps only part of the uid range: root there can't
	# mount /run/netns or setgroups, so treat it as "not root"
	[ "$(awk '{print $3}' /proc/self/uid_map)" = 4294967295 ] ||
		skip "$* needs root outside a user namespace"
}

# The namespace hosts, their names and the Slurm ports are machine-wide, so
# two worktrees running check-cluster at once would tear down each other's
# hosts. The lock (fd 9) is held until the test exits.
pfs_cluster_lock() {
	local f=/run/lock/pfsbench-cluster.lock
	pfs_need_root "this cluster test"
	exec 9>>"$f"
	flock -w 900 9 || { echo "pfs_cluster_lock: '$f' still held after 15 min" >&2; exit 99; }
}

# Machine-wide things (glusterd's port, a daemon) allow one user at a time;
# the lock (fd 8) is held until the test exits.
fs_lock() {
	local f=/run/lock/pfsbench-$1.lock
	exec 8>>"$f"
	flock -w 600 8 || { echo "fs_lock: '$f' still held after 10 min" >&2; exit 99; }
}

# loop_fs NAME TYPE SIZE MOUNT-OPTIONS MKFS...: a TYPE filesystem made by
# MKFS on a sparse file of SIZE on a loop device ($DEV), mounted at
# $SCRATCH/NAME ($M) with MOUNT-OPTIONS (may be empty); both undone at exit.
# It holds one file of someone else's and is snapshotted.
loop_fs() {
	local name=$1 type=$2 size=$3 opts=$4 img=$SCRATCH/$1.img
	shift 4
	M=$SCRATCH/$name
	truncate -s "$size" "$img"
	DEV=$(losetup --find --show "$img") || { not_ok "$name: attach a loop device"; return 1; }
	T_CLEANUP+=("losetup -d '$DEV'")
	"$@" "$DEV" >"$SCRATCH/mkfs.log" 2>&1 || { not_ok "$name: $*: $(tail -1 "$SCRATCH/mkfs.log")"; return 1; }
	mkdir "$M"
	mount -t "$type" ${opts:+-o "$opts"} "$DEV" "$M" || { not_ok "$name: mount -t $type $DEV"; return 1; }
	T_CLEANUP+=("umount '$M' || umount -l '$M'")
	echo keep >"$M/foreign"
	snapshot "$M"
}
