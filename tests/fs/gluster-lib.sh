#!/bin/bash
# gluster-lib.sh - a private GlusterFS volume for a test (sourced after
# tests/mpi/lib.sh and tests/cluster/lib.sh, which give check, skip,
# $SCRATCH, T_CLEANUP, pfs_need_root, need_pkg and fs_lock). Its own glusterd
# (state, pid files and sockets under $SCRATCH/gluster, listening on the
# host name's loopback address only), a distribute volume with its bricks
# in $SCRATCH, mounted through FUSE.
#
# glusterd and the gluster CLI write into system directories whatever their
# configuration says: the first glusterd on a machine creates
# /var/lib/glusterd/geo-replication and ss_brick, the CLI logs to
# /var/log/glusterfs, glusterd listens on /run/glusterd.socket. So the test
# runs in a private mount namespace with a tmpfs over each of them, and the
# outer script proves, from outside, that none of them changed:
#   gluster_isolate "$0"   outside: lock, run the calling script again in a
#                          private mount namespace, check what it left, and
#                          exit with its verdict; inside: mask the system
#                          directories and return
#   gluster_up NAME BRICKS [profile]
#                          mount volume NAME of BRICKS bricks at $G/mnt ($M),
#                          with its profile on if asked (pfsbench then reads
#                          it around every step, which takes time), once
#                          every brick is online; torn down at exit
#                          (gluster_down)
#   gluster_down           unmount (and wait for the FUSE client), stop and
#                          delete the volume, end glusterd and the bricks
#                          by pid; safe to call twice
# Sets G (its directory), V (the volume), HOST, G_PIDS.

# Every file and directory under the system state directories, with type,
# mode, size and modification time: equal before and after, or the test
# (or pfsbench) touched them. /run holds other programs' files too; only
# its gluster entries are listed.
gluster_system_state() {
	local d
	for d in /var/lib/glusterd /var/log/glusterfs /run/gluster /run/glusterd.socket; do
		if [ -e "$d" ]; then
			find "$d" -printf '%p %y %m %s %T@\n' | sort
		else
			echo "$d absent"
		fi
	done
}

gluster_need() {
	pfs_need_root "a GlusterFS volume (glusterd, bricks, a FUSE mount)"
	command -v glusterd >/dev/null || need_pkg glusterfs-server
	command -v mount.glusterfs >/dev/null || need_pkg glusterfs-client
	[ -c /dev/fuse ] || skip "no /dev/fuse: FUSE mounts are not possible here"
	command -v unshare >/dev/null || need_pkg util-linux
}

# A tmpfs over d, made where it is missing (on the tmpfs over its parent,
# never on the disk).
gluster_mask() {
	local d=$1
	if [ ! -d "$d" ]; then
		gluster_mask "$(dirname "$d")"
		mkdir "$d"
	fi
	mount -t tmpfs pfsbench-gluster-mask "$d" || { echo "cannot mask '$d'"; exit 1; }
}

gluster_isolate() {
	local script=$1 rc d t0=$SECONDS
	if [ -n "${PFS_GLUSTER_NAMESPACE:-}" ]; then
		for d in /var/lib/glusterd /var/log/glusterfs /run; do
			gluster_mask "$d"
		done
		mkdir -p /run/lock
		return 0
	fi
	gluster_need
	# glusterd's port 24007 and volume names are machine-wide: one such
	# test at a time, and never next to a glusterd someone else runs.
	fs_lock glusterfs
	if pgrep -x glusterd >/dev/null; then
		skip "a glusterd this test did not start is running; leaving it alone"
	fi
	gluster_system_state >"$SCRATCH/system-before"
	rc=0
	PFS_GLUSTER_NAMESPACE=1 unshare --mount --propagation private -- "$BASH" "$script" || rc=$?
	[ "$rc" -eq 77 ] && exit 77
	check "the volume test, in its own mount namespace, passes" test "$rc" -eq 0
	check "no gluster process is left" test -z "$(pgrep -x glusterd; pgrep -x glusterfsd; pgrep -x glusterfs)"
	check "/var/lib/glusterd, /var/log/glusterfs and /run/gluster* untouched" \
		diff "$SCRATCH/system-before" <(gluster_system_state)
	echo "# $(basename "$script") took $((SECONDS - t0)) s"
	finish
}

gluster_cli() {
	timeout 60 gluster --mode=script "$@"
}

G_PIDS=()
gluster_down() {
	local pid f i alive client
	# The FUSE client exits on its own after the unmount, but not at once:
	# it is waited for by pid like the others, or a later check sees it.
	client=$(pgrep -f -- " $G/mnt\$" || true)
	if mountpoint -q "$G/mnt"; then umount "$G/mnt" || umount -l "$G/mnt"; fi
	for pid in $client; do
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
	done
	for f in "$G"/run/vols/"$V"/*.pid; do
		if [ -s "$f" ]; then G_PIDS+=("$(cat "$f")"); fi
	done
	if [ -s "$G/glusterd.pid" ] && kill -0 "$(cat "$G/glusterd.pid")" 2>/dev/null; then
		gluster_cli volume stop "$V" force >/dev/null 2>&1 || true
		gluster_cli volume delete "$V" >/dev/null 2>&1 || true
		G_PIDS+=("$(cat "$G/glusterd.pid")")
	fi
	for pid in "${G_PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for ((i = 0; i < 100; i++)); do
		alive=0
		for pid in "${G_PIDS[@]}"; do
			if kill -0 "$pid" 2>/dev/null; then alive=1; fi
		done
		[ $alive -eq 0 ] && break
		sleep 0.1
	done
	for pid in "${G_PIDS[@]}"; do
		kill -9 "$pid" 2>/dev/null || true
	done
	return 0
}

# gluster_up NAME BRICKS [profile]: glusterd, then volume NAME (the test's
# pid appended) of BRICKS bricks on this host, its profile started if asked,
# mounted at $G/mnt, $M.
gluster_up() {
	local name=$1 bricks=$2 profile=${3:-} i addr list=() start=$SECONDS all=both
	[ "$bricks" -eq 2 ] || all="all $bricks"
	HOST=$(hostname)
	addr=$(getent ahostsv4 "$HOST" | awk 'NR == 1 {print $1}')
	# gluster refuses 127.0.0.1 and localhost as a brick host, not a host
	# name that resolves to a loopback address; traffic stays on loopback.
	case $addr in
	127.*) ;;
	*) skip "host name '$HOST' resolves to '${addr:-nothing}', not a loopback address" ;;
	esac
	G=$SCRATCH/gluster
	V=$name$$
	mkdir -p "$G/state" "$G/run" "$G/log" "$G/mnt"
	for ((i = 1; i <= bricks; i++)); do
		mkdir -p "$G/brick$i"
		list+=("$HOST:$G/brick$i")
	done
	cat >"$G/glusterd.vol" <<VOL
volume management
    type mgmt/glusterd
    option working-directory $G/state
    option run-directory $G/run
    option transport-type socket
    option transport.socket.listen-port 24007
    option transport.socket.bind-address $addr
    option ping-timeout 0
    option event-threads 1
end-volume
VOL
	T_CLEANUP+=("gluster_down")
	glusterd -f "$G/glusterd.vol" -p "$G/glusterd.pid" -l "$G/log/glusterd.log" ||
		{ not_ok "glusterd starts"; return 1; }
	for ((i = 0; i < 300; i++)); do
		gluster_cli volume info >/dev/null 2>&1 && break
		sleep 0.1
	done
	check "glusterd answers 'gluster volume info'" gluster_cli volume info || return 1
	echo "# glusterd up after $((SECONDS - start)) s"
	check "volume create: $bricks bricks on $HOST" gluster_cli volume create "$V" "${list[@]}" force || return 1
	check "volume start" gluster_cli volume start "$V" || return 1
	if [ "$profile" = profile ]; then
		# The volume's profile is on, so each step's fops are recorded (fsprobe).
		check "volume profile start" gluster_cli volume profile "$V" start || return 1
	fi
	# The bricks start in the background; until all are online the volume
	# is not whole (and its profile cannot be read: pfsbench would record
	# no counters).
	for ((i = 0; i < 300; i++)); do
		[ "$(gluster_cli volume status "$V" detail 2>/dev/null | grep -c '^Online.*: Y')" -eq "$bricks" ] &&
			{ [ "$profile" != profile ] ||
				gluster_cli volume profile "$V" info incremental >/dev/null 2>&1; } && break
		sleep 0.2
	done
	if [ "$profile" = profile ]; then
		check "$all bricks online, their profile readable" \
			gluster_cli volume profile "$V" info incremental || return 1
	else
		check "$all bricks online" test "$(gluster_cli volume status "$V" detail 2>/dev/null |
			grep -c '^Online.*: Y')" -eq "$bricks" || return 1
	fi
	echo "# bricks online after $((SECONDS - start)) s"
	check "mount -t glusterfs $HOST:/$V" \
		mount -t glusterfs -o "log-file=$G/log/mount.log" "$HOST:/$V" "$G/mnt" || return 1
	mountpoint -q "$G/mnt" || { cat "$G/log/mount.log"; return 1; }
	M=$G/mnt
}
