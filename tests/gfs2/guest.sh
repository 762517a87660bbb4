#!/bin/bash
# guest.sh - init (pid 1) of a GFS2 test's virtual machine, started by the
# initramfs of tests/gfs2/lib.sh on this machine's root (read-only, under an
# overlay on a tmpfs). It mounts what a system needs, the read-write share
# (pfs_share= on the kernel command line) at the same path as on the host,
# runs the job the test wrote there, $SHARE/<pfs_name>.job, with its output
# in $SHARE/<name>.log and its exit status in $SHARE/<name>.status, and powers
# off. The job may use:
#   pfs_run NAME DIR ARGS...   pfsbench ARGS under mpirun (MPIRUN_OPTS,
#                              default 2 local ranks) in $SHARE, output in
#                              $SHARE/NAME.out, .err, .rc; DIR listed into
#                              NAME.before and NAME.after
#   node_net ADDR              eth0 up with ADDR/24
#   wait_for FILE SECONDS      until FILE exists (another guest's signal)
# Owns nothing outside the guest but the share's files the job names.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
read -r -a words </proc/cmdline
for a in "${words[@]}"; do
	case $a in
	pfs_share=*) SHARE=${a#pfs_share=} ;;
	pfs_name=*) NAME=${a#pfs_name=} ;;
	esac
done
export SHARE NAME
# Open MPI's session directories and corosync's IPC (libqb, on /dev/shm)
# want memory, not the host's copies.
mount -t tmpfs tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /dev/shm /dev/pts /sys/kernel/config
mount -t tmpfs tmpfs /dev/shm
mount -t devpts devpts /dev/pts
mount -t configfs configfs /sys/kernel/config
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p "$SHARE"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share "$SHARE" || {
	echo "guest: cannot mount the share at '$SHARE'"
	busybox poweroff -f
}
hostname "$NAME"
ip link set lo up
# The harness runs Open MPI as root; pfsbench never sets these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PFSBENCH=$(sed -n 's/^pfsbench=//p' "$SHARE/env")

node_net() {
	ip addr add "$1/24" dev eth0 && ip link set eth0 up
}

wait_for() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.2
	done
	echo "guest $NAME: no '$1' after $2 s"
	return 1
}

pfs_run() {
	local name=$1 dir=$2
	shift 2
	(cd "$dir" && find . | sort) >"$SHARE/$name.before"
	# shellcheck disable=SC2086 # MPIRUN_OPTS is a list of words
	(cd "$SHARE" && timeout -k 5 "${PFS_TIMEOUT:-400}" mpirun ${MPIRUN_OPTS:---oversubscribe -np 2} \
		"$PFSBENCH" "$@") >"$SHARE/$name.out" 2>"$SHARE/$name.err"
	echo $? >"$SHARE/$name.rc"
	(cd "$dir" && find . | sort) >"$SHARE/$name.after"
}

(
	set -x
	# shellcheck disable=SC1090 # written by the test
	. "$SHARE/$NAME.job"
) >"$SHARE/$NAME.log" 2>&1
echo $? >"$SHARE/$NAME.status"
sync
busybox poweroff -f
