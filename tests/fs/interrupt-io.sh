#!/bin/bash
# A signal stops a run inside a long write and inside the cache drop, the
# two places where pfsbench once sat in one long call: an ext4 filesystem
# on a loop device whose writes are throttled to 16 MiB/s (blkio), so that
#  - writing a 128 MiB file takes about 8 s (the device may hold only
#    4 MiB of dirty pages), and SIGINT 2 s into it stops the ranks within
#    3 s (the results file closed, aborted), and the run leaves nothing;
#  - the cache drop after writing 128 MiB without fsync syncs for about 8 s,
#    and SIGINT 1 s into it stops the ranks within 3 s, leaving nothing.
# The bound is half of what the throttled device still had to do when the
# signal came (6 s and more), which no CPU load shortens: a stop that
# waited for the call could not make it, and a busy machine's slower stop
# path (0.1 s idle) has room. (It was 1 s until issue 24.)
# The run's end comes later: removing a file waits for the writes the
# kernel has already sent to the device; both times are printed.
# As root; skips where loop devices or the throttle are missing.
. "$(dirname "$0")/lib.sh"

pfs_need_root "a throttled loop device"
fs_lock interrupt-io
BLKIO=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
[ -w "$BLKIO" ] || skip "no cgroup v1 blkio write throttle at $BLKIO"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
loop_fs slow ext4 512M "" mkfs.ext4 -q -F || finish
MM=$(lsblk -no MAJ:MIN "$DEV" | tr -d ' ')
BDI=/sys/class/bdi/$MM
echo "$MM 16777216" >"$BLKIO" || skip "cannot throttle $DEV"
T_CLEANUP+=("echo '$MM 0' >'$BLKIO'")
BOUND=3 # seconds from the signal to the stop (pfsbench's "removing" line)

# run_until WHAT SECONDS-AFTER-START-OF-PHASE ARGS...: runs pfsbench on 2
# ranks on $M; SIGINT to the ranks once the test file has grown to a byte
# (the write began) or to its full size (the drop began), and again after
# the given delay; sets RC, STOP_S (seconds from the signal to the stop:
# the results file closed, pfsbench's "removing" line) and TOOK_S (to the
# run's end: removing a file waits for what the kernel has already sent
# to the slow device).
run_and_signal() {
	local ready=$1 delay=$2 i
	shift 2
	(cd "$SCRATCH" && exec timeout 300 "$MPIRUN" --oversubscribe -np 2 "$PFSBENCH" \
		create-unlink -m "$M" -t pa "$@") >"$SCRATCH/out" 2> >(while IFS= read -r l; do
		printf '%s %s\n' "$EPOCHREALTIME" "$l"
	done >"$SCRATCH/err") &
	local pid=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(find "$M" -mindepth 3 -type f -size "$ready" 2>/dev/null | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	sleep "$delay"
	local sent=$EPOCHREALTIME
	pkill -INT -f "^$PFSBENCH create-unlink -m $M"
	wait "$pid"
	RC=$?
	TOOK_S=$(awk -v a="$EPOCHREALTIME" -v s="$sent" 'BEGIN {printf "%.2f", a - s}')
	sleep 0.2 # the stderr reader's last lines
	local at
	at=$(awk '/removing the run.s files in/ {print $1; exit}' "$SCRATCH/err")
	STOP_S=$(awk -v a="${at:-0}" -v s="$sent" 'BEGIN {printf "%.2f", a ? a - s : 999}')
}

# checks NAME WHAT H5: the run just signalled ended as it must.
checks() {
	local name=$1 h5=$3
	echo "# SIGINT $2: stopped after $STOP_S s, ended after $TOOK_S s, exit $RC"
	check "$name: exit 1" test "$RC" -eq 1
	check "$name: the ranks stopped within $BOUND s of the signal ($STOP_S s)" \
		awk -v s="$STOP_S" -v b="$BOUND" 'BEGIN {exit !(s < b)}'
	check "$name: the results file says aborted by SIGINT" \
		grep -Eq '^Status: aborted: .*interrupted by SIGINT|: it holds no measured rows \(the run was aborted: .*interrupted by SIGINT' \
		<("$PFSBENCH" show "$h5" 2>&1)
	check "$name: nothing of the run is left" dir_unchanged "$M"
	[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH/out" "$SCRATCH/err"
}

echo 1 >"$BDI/strict_limit" && echo 4194304 >"$BDI/max_bytes" ||
	skip "cannot limit the dirty pages of $DEV ($BDI)"
run_and_signal +0c 2 -f 1 -F 1 -s 128m --results "$SCRATCH/write.h5"
checks "long write" "2 s into a 128 MiB write at 16 MiB/s" "$SCRATCH/write.h5"

# The drop: the write goes to the page cache at once, the sync is slow.
echo 0 >"$BDI/strict_limit"
echo 0 >"$BDI/max_bytes" 2>/dev/null || true
echo 100 >"$BDI/max_ratio"
run_and_signal 65536k 1 -f 1 -F 1 -s 64m --no-fsync --results "$SCRATCH/drop.h5"
checks "cache drop" "1 s into the cache drop after 128 MiB at 16 MiB/s" "$SCRATCH/drop.h5"
finish
