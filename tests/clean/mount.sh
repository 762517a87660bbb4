#!/bin/bash
# pfsbench clean does not cross mount points, bind mounts of the same
# filesystem included (same st_dev, another mount ID). In a killed
# create-unlink run's directory, a directory of a worker's name is a bind
# mount of a directory of precious files named as create-unlink names its
# own, and one of the run's files has a file bind-mounted on it. clean
# (and --dry-run) must say it left both ("a mount point"), exit 1, and
# the files behind the mounts stay, content and all; the rest of the run
# goes. Runs in a private mount namespace, so no mount outlives it.
if [ -z "${PFS_MOUNT_NS:-}" ] && [ "$(id -u)" = 0 ] &&
	unshare --mount --propagation private true 2>/dev/null; then
	PFS_MOUNT_NS=1 exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/../mpi/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root: mount --bind"
command -v mount >/dev/null || skip "mount is missing (Debian's mount)"

D=$SCRATCH/d K=$SCRATCH/k P=$SCRATCH/precious
mkdir "$D" "$K" "$P"
for i in 0 1 2; do echo "precious $i" >"$P/f000000000$i"; done
echo "precious file" >"$SCRATCH/precious-file"
mkdir "$SCRATCH/probe"
if ! mount --bind "$P" "$SCRATCH/probe" 2>"$SCRATCH/mount.err"; then
	skip "mount --bind fails here: $(cat "$SCRATCH/mount.err")"
fi
umount "$SCRATCH/probe"

# A killed run: create-unlink, slowed by the fault injector, SIGKILLed
# once its worker has made 200 files.
exe=$(faulty "delay openat 2ms after=100")
(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np 1 "$exe" create-unlink -m "$K" \
	-f 300000 -F 2 -s 4k -t pa --no-drop-caches --results "$SCRATCH/cu.h5") >"$SCRATCH/bg.out" 2>&1 &
bg=$!
for ((i = 0; i < 1200; i++)); do
	n=$(find "$K" -mindepth 3 -type f 2>/dev/null | head -n 200 | wc -l)
	[ "$n" -ge 200 ] && break
	sleep 0.05
done
check "the run made 200 files before the kill" test "$n" -ge 200
pids=$(pgrep -f "^$T_PFSBENCH create-unlink .*$K")
# shellcheck disable=SC2086
[ -z "$pids" ] || kill -KILL $pids
wait "$bg"
mv "$K"/pfsbench.* "$D/"
RUN=$(find "$D" -mindepth 1 -maxdepth 1 -name 'pfsbench.*' -type d | head -1)
W=$(find "$RUN" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -n "$W" ] && [ -e "$RUN/.pfsbench-run" ] || { not_ok "no killed run directory"; finish; }

# A worker's name, bind-mounting the precious directory; a file of the
# run's with a file bind-mounted on it.
M=${W%.*}.99
mkdir "$M"
mount --bind "$P" "$M"
T_CLEANUP+=("umount -l '$M' 2>/dev/null")
F=$(find "$W" -mindepth 1 -maxdepth 1 -type f -name 'f*' | head -1)
mount --bind "$SCRATCH/precious-file" "$F"
T_CLEANUP+=("umount -l '$F' 2>/dev/null")
check "the bind mount is on the same filesystem (same st_dev)" \
	test "$(stat -c %d "$M")" = "$(stat -c %d "$RUN")"

precious_intact() {
	[ "$(cat "$P"/f000000000{0,1,2})" = "$(printf 'precious %s\n' 0 1 2)" ] &&
		[ "$(cat "$SCRATCH/precious-file")" = "precious file" ] &&
		[ "$(find "$P" -mindepth 1 | wc -l)" -eq 3 ]
}

timeout 300 "$PFSBENCH" clean --dry-run "$D" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "dry run: exit 1, the mounts would stay" test $rc -eq 1
check "dry run: says it leaves the mounted directory" \
	grep -qxF "left '$M': a mount point: not entered" "$SCRATCH/out"
timeout 300 "$PFSBENCH" clean "$D" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
cat "$SCRATCH/out" "$SCRATCH/err" | grep -v "^left '$W/f" | head -20
check "clean: exit 1, the mounts stayed" test $rc -eq 1
check "clean: says it left the mounted directory" \
	grep -qxF "left '$M': a mount point: not entered" "$SCRATCH/out"
check "clean: says it left the file with a mount on it" \
	grep -qxF "left '$F': a mount point: not removed" "$SCRATCH/out"
check "clean: the files behind the mounts intact" precious_intact
check "clean: the mount points, their worker directory, the marker stay" \
	test -d "$M" -a -f "$F" -a -e "$RUN/.pfsbench-run"
check "clean: the rest of the run's files went" \
	test "$(find "$W" -mindepth 1 | wc -l)" -eq 1
# Once the mounts are gone, a second clean finishes the job.
umount "$F" && umount "$M"
timeout 300 "$PFSBENCH" clean "$D" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "after umount: a second clean removes the whole run (exit 0)" \
	eval 'test $rc -eq 0 && test ! -e "$RUN"'
check "after umount: the precious files never touched" precious_intact
finish
