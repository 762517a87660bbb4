#!/bin/bash
# glusterfs.sh - pfsbench on a real GlusterFS volume the test makes: its own
# glusterd (state, pid files and sockets under $SCRATCH, listening on the
# host name's loopback address only), a 2-brick distribute volume with its
# bricks in $SCRATCH, mounted through FUSE. create-unlink on 2 simulated
# nodes and a small tree: the report's first line says FUSE.GLUSTERFS, every
# row is there, nothing is left on the volume, and the results file records
# HOST:/VOLUME as mount source. Teardown leaves no mount, volume or daemon.
#
# glusterd and the gluster CLI write into system directories whatever their
# configuration says: the first glusterd on a machine creates
# /var/lib/glusterd/geo-replication and ss_brick, the CLI logs to
# /var/log/glusterfs, glusterd listens on /run/glusterd.socket. So the test
# runs in a private mount namespace with a tmpfs over each of them, and the
# outer script proves, from outside, that none of them changed. Root only;
# exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
pfs_need_root "a GlusterFS volume (glusterd, bricks, a FUSE mount)"
command -v glusterd >/dev/null || need_pkg glusterfs-server
command -v mount.glusterfs >/dev/null || need_pkg glusterfs-client
[ -c /dev/fuse ] || skip "no /dev/fuse: FUSE mounts are not possible here"
command -v unshare >/dev/null || need_pkg util-linux
# What gluster writes outside its configured directories (see above).
SYSTEM_STATE=(/var/lib/glusterd /var/log/glusterfs /run)

# Every file and directory under the system state directories, with type,
# mode, size and modification time: equal before and after, or the test
# (or pfsbench) touched them. /run holds other programs' files too; only
# its gluster entries are listed.
system_state() {
	local d
	for d in /var/lib/glusterd /var/log/glusterfs /run/gluster /run/glusterd.socket; do
		if [ -e "$d" ]; then
			find "$d" -printf '%p %y %m %s %T@\n' | sort
		else
			echo "$d absent"
		fi
	done
}

if [ -z "${PFS_GLUSTER_NAMESPACE:-}" ]; then
	# glusterd's port 24007 and volume names are machine-wide: one such
	# test at a time, and never next to a glusterd someone else runs.
	fs_lock glusterfs
	pgrep -x glusterd >/dev/null && skip "a glusterd this test did not start is running; leaving it alone"
	system_state >"$SCRATCH/system-before"
	PFS_GLUSTER_NAMESPACE=1 unshare --mount --propagation private -- "$BASH" "$0"
	rc=$?
	[ "$rc" -eq 77 ] && exit 77
	check "the volume test, in its own mount namespace, passes" test "$rc" -eq 0
	check "no gluster process is left" test -z "$(pgrep -x glusterd; pgrep -x glusterfsd; pgrep -x glusterfs)"
	check "/var/lib/glusterd, /var/log/glusterfs and /run/gluster* untouched" \
		diff "$SCRATCH/system-before" <(system_state)
	echo "# glusterfs.sh took $((SECONDS - t0)) s"
	finish
fi

# Inside the namespace: a tmpfs over each system state directory, made
# where it is missing (on the tmpfs over its parent, never on the disk).
mask() {
	local d=$1
	if [ ! -d "$d" ]; then
		mask "$(dirname "$d")"
		mkdir "$d"
	fi
	mount -t tmpfs pfsbench-gluster-mask "$d" || { echo "cannot mask '$d'"; exit 1; }
}
for d in "${SYSTEM_STATE[@]}"; do
	mask "$d"
done
mkdir -p /run/lock
HOST=$(hostname)
ADDR=$(getent ahostsv4 "$HOST" | awk 'NR == 1 {print $1}')
# gluster refuses 127.0.0.1 and localhost as a brick host, not a host name
# that resolves to a loopback address; traffic stays on loopback then.
case $ADDR in
127.*) ;;
*) skip "host name '$HOST' resolves to '${ADDR:-nothing}', not a loopback address" ;;
esac

G=$SCRATCH/gluster
V=pfsbench$$
mkdir -p "$G/state" "$G/run" "$G/log" "$G/brick1" "$G/brick2" "$G/mnt"
cat >"$G/glusterd.vol" <<VOL
volume management
    type mgmt/glusterd
    option working-directory $G/state
    option run-directory $G/run
    option transport-type socket
    option transport.socket.listen-port 24007
    option transport.socket.bind-address $ADDR
    option ping-timeout 0
    option event-threads 1
end-volume
VOL
T_CLEANUP+=("gluster_down")

G_PIDS=()
# gluster_down: unmounts, stops and deletes the volume, ends glusterd and
# the bricks by pid (TERM, then KILL after 10 s). Their sockets in /run
# go with the namespace's tmpfs. Safe to run twice.
gluster_down() {
	local pid f i client
	# The FUSE client exits on its own after the unmount, but not at once:
	# it is waited for by pid like the others, or a later check sees it.
	client=$(pgrep -f -- " $G/mnt\$")
	if mountpoint -q "$G/mnt"; then umount "$G/mnt" || umount -l "$G/mnt"; fi
	for pid in $client; do
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null
	done
	for f in "$G"/run/vols/"$V"/*.pid; do
		[ -s "$f" ] && G_PIDS+=("$(cat "$f")")
	done
	if [ -s "$G/glusterd.pid" ] && kill -0 "$(cat "$G/glusterd.pid")" 2>/dev/null; then
		gluster_cli volume stop "$V" force >/dev/null 2>&1
		gluster_cli volume delete "$V" >/dev/null 2>&1
		G_PIDS+=("$(cat "$G/glusterd.pid")")
	fi
	for pid in "${G_PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for ((i = 0; i < 100; i++)); do
		alive=0
		for pid in "${G_PIDS[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && break
		sleep 0.1
	done
	for pid in "${G_PIDS[@]}"; do
		kill -9 "$pid" 2>/dev/null
	done
	return 0
}

gluster_cli() {
	timeout 60 gluster --mode=script "$@"
}

glusterd -f "$G/glusterd.vol" -p "$G/glusterd.pid" -l "$G/log/glusterd.log" ||
	{ not_ok "glusterd starts"; finish; }
for ((i = 0; i < 300; i++)); do
	gluster_cli volume info >/dev/null 2>&1 && break
	sleep 0.1
done
check "glusterd answers 'gluster volume info'" gluster_cli volume info
echo "# glusterd up after $((SECONDS - t0)) s"
check "volume create: 2 bricks on $HOST" gluster_cli volume create "$V" "$HOST:$G/brick1" "$HOST:$G/brick2" force
check "volume start" gluster_cli volume start "$V"
# The volume's profile is on, so each step's fops are recorded (fsprobe).
check "volume profile start" gluster_cli volume profile "$V" start
# The bricks start in the background; until both are online the profile
# cannot be read (and pfsbench would record no counters).
for ((i = 0; i < 300; i++)); do
	[ "$(gluster_cli volume status "$V" detail 2>/dev/null | grep -c '^Online.*: Y')" -eq 2 ] &&
		gluster_cli volume profile "$V" info incremental >/dev/null 2>&1 && break
	sleep 0.2
done
check "both bricks online, their profile readable" gluster_cli volume profile "$V" info incremental
echo "# bricks online after $((SECONDS - t0)) s"
check "mount -t glusterfs $HOST:/$V" mount -t glusterfs -o "log-file=$G/log/mount.log" "$HOST:/$V" "$G/mnt"
mountpoint -q "$G/mnt" || { cat "$G/log/mount.log"; finish; }
M=$G/mnt
echo keep >"$M/foreign"
snapshot "$M"
echo "# volume mounted after $((SECONDS - t0)) s"

start=$SECONDS
pfs_nodes 2 1 create-unlink -m "$M" -f 200 -F 5 -s 64k --results "$SCRATCH/glusterfs.h5"
echo "# create-unlink took $((SECONDS - start)) s; $(head -1 "$OUT")"
check_create_unlink FUSE.GLUSTERFS "$M" "$SCRATCH/glusterfs.h5"
check "results file: mount source $HOST:/$V" test "$(prov "$SCRATCH/glusterfs.h5" mount_source)" = "$HOST:/$V"
check "2 nodes of 1 worker each" test "$(rows | awk '{print $3, $4}' | sort -u | tr '\n' ' ')" = "node1 1 node2 1 "
# The filesystem's own counters: node 1 reads the volume's profile around
# every step (once for the whole volume), and the bricks' CREATE calls of a
# Create step are the files that step created.
"$PFSBENCH" export "$SCRATCH/glusterfs.h5" --json --provenance >"$SCRATCH/gprov.json"
fsdesc() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["nodes"][int(sys.argv[2])]["fsstats"])' "$SCRATCH/gprov.json" "$1"; }
check "results file: node1 reads the volume's profile" test "$(fsdesc 0)" = "gluster profile of volume $V"
check "results file: node2 leaves it to node 1" test "$(fsdesc 1)" = "gluster profile of volume $V, read on node 0"
"$PFSBENCH" export "$SCRATCH/glusterfs.h5" --csv --fs-stats | tr -d '\r' >"$SCRATCH/fss.csv"
creates() { # TEST STEP: the bricks' CREATE calls in that step
	awk -F, -v t="$1" -v s="$2" '$1 == t && $2 == 1 && $3 == s && $5 ~ /^b[0-9]+\.CREATE\.calls$/ {n += $6} END {print n + 0}' "$SCRATCH/fss.csv"
}
echo "# bricks' CREATE calls: se steps 0 and 1: $(creates se 0), $(creates se 1); pa step 0: $(creates pa 0)"
check "fs-stats: se's Create steps made 200 files each on the bricks" test "$(creates se 0) $(creates se 1)" = "200 200"
check "fs-stats: pa's Create step made 400" test "$(creates pa 0)" -eq 400
"$PFSBENCH" show "$SCRATCH/glusterfs.h5" --fs-stats >"$SCRATCH/fss.txt"
check "show --fs-stats prints the counters" grep -q "b1.CREATE.calls" "$SCRATCH/fss.txt"
check "show --fs-stats heads se's step 1 with what ran in it" \
	grep -qx " se   1 step  1 (Create on node2), node1's counters:" "$SCRATCH/fss.txt"
[ "$T_FAILED" -eq 0 ] || show_run

# The tree run meets a glusterd that stops answering mid-run: its gluster
# CLI answers the probe's first call (which finds the profile), then fails.
# The run goes on, and says once that steps lack their counters.
mkdir "$SCRATCH/mute"
cat >"$SCRATCH/mute/gluster" <<MUTE
#!/bin/sh
[ -e "$SCRATCH/mute/answered" ] && exit 1
: >"$SCRATCH/mute/answered"
exec $(command -v gluster) "\$@"
MUTE
chmod +x "$SCRATCH/mute/gluster"
start=$SECONDS
PATH=$SCRATCH/mute:$PATH pfs_nodes 2 1 tree -o "$M" -l 2 -d 3 -f 4 -s 2 --results "$SCRATCH/glusterfs-tree.h5"
echo "# tree took $((SECONDS - start)) s"
check_tree FUSE.GLUSTERFS "$M" "$SCRATCH/glusterfs-tree.h5"
check "a glusterd that stops answering: said once, by node1" \
	test "$(grep -c "node node1: the filesystem's counters of a step could not be read (gluster profile of volume $V)" "$ERR")" -eq 1
[ "$T_FAILED" -eq 0 ] || show_run
# pfsbench stream on the volume (tests/stream/checks.sh): 2 simulated nodes,
# a file per rank and one shared file, every byte read back and checked.
# shellcheck source=../stream/checks.sh
. "$(dirname "$0")/../stream/checks.sh"
RUNNER=(pfs_nodes 2 1)
start=$SECONDS
stream_cycle "$M" glusterfs-file 2 file
stream_cycle "$M" glusterfs-shared 2 shared
echo "# stream took $((SECONDS - start)) s"
check "stream: results file: fstype FUSE.GLUSTERFS" \
	test "$(prov "$SCRATCH/glusterfs-file-w.h5" fstype)" = FUSE.GLUSTERFS
[ "$T_FAILED" -eq 0 ] || show_run

# pfsbench matrix on the volume (tests/matrix/checks.sh): 2 simulated
# nodes x 2 ranks, writes and reads of small lists, every cell's bytes, the
# marks and the report from the rows, the slowest node against the median.
# 4 cells, not checks.sh's 12: a step costs 1 to 3 s here whatever its size
# (barriers, fsyncs through FUSE, the of= run's machine-wide cache drops);
# 12 cells took 155 s.
# shellcheck source=../matrix/checks.sh
. "$(dirname "$0")/../matrix/checks.sh"
RUNNER=(pfs_nodes 2 2)
start=$SECONDS
matrix_cycle "$M" glusterfs-matrix 4 4k,64k 64k,256k
echo "# matrix took $((SECONDS - start)) s"
check "matrix: results file: fstype FUSE.GLUSTERFS" \
	test "$(prov "$SCRATCH/glusterfs-matrix-w.h5" fstype)" = FUSE.GLUSTERFS
check "matrix: the slowest node per cell, against the median node" \
	grep -qE "^Slowest node: node[12] in [0-9]+ cells?" "$OUT"
[ "$T_FAILED" -eq 0 ] || show_run

check "the bricks hold no pfsbench file" \
	test -z "$(find "$G/brick1" "$G/brick2" -path '*/.glusterfs' -prune -o -name 'pfsbench.*' -print)"

gluster_down
check "teardown: the volume is unmounted" test -z "$(grep -F " $G/mnt " /proc/self/mountinfo)"
check "teardown: glusterd and both bricks were found by pid" test "${#G_PIDS[@]}" -eq 3
check "teardown: glusterd and the bricks are gone" \
	test -z "$(for pid in "${G_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done)"
check "teardown: no gluster process of this test's volume or state is left" test -z "$(pgrep -f "$G")"
finish
