#!/bin/bash
# cgroup-throttle.sh - a rank held back by its cgroup's CPU quota says so
# in throttled_us, and a rank beside it that is not says 0.
# create-unlink pa and uc on a small tmpfs with 2 ranks: rank 1 in a cgroup
# of its own capped at 1 ms of CPU in every 5 ms (a fifth of a CPU), rank 0
# in a cgroup of its own without a quota (so that a quota on the cgroup the
# test itself runs in, a CI container's, cannot show in rank 0's rows: the
# kernel counts a cgroup's own throttling only). Linux counts a throttled
# thread's time off the CPU as waiting for one (run_delay, wait_us), so
# wait_us alone cannot tell the cap from a busy machine; throttled_us can.
# What must hold, whatever else the machine runs:
#   - rank 0's rows: throttled_us is 0;
#   - rank 1's rows that used more than 3 quotas of CPU (so spanned a whole
#     period in which the cgroup ran out of quota while the op still had
#     work): throttled_us > 0, and there are such rows;
#   - every row: throttled_us <= elapsed_us;
#   - a results file written before the field existed reads it as 0.
# Skips without root or without a cgroup CPU controller (v1 or v2).
. "$(dirname "$0")/lib.sh"

QUOTA_US=1000
PERIOD_US=5000

[ "$(id -u)" -eq 0 ] || skip "not root: cannot make a cgroup with a CPU quota"
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	CGROOT=/sys/fs/cgroup/cpu
elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	CGROOT=/sys/fs/cgroup
else
	skip "no cgroup CPU controller (neither v1's /sys/fs/cgroup/cpu nor cpu in v2's subtree_control)"
fi
CAPPED=$CGROOT/pfsbench-throttle-capped-$$
FREE=$CGROOT/pfsbench-throttle-free-$$
mkdir "$CAPPED" || skip "cannot make the cgroup '$CAPPED'"
T_CLEANUP+=("rmdir '$CAPPED'")
mkdir "$FREE" || skip "cannot make the cgroup '$FREE'"
T_CLEANUP+=("rmdir '$FREE'")
if [ "$CGROOT" = /sys/fs/cgroup/cpu ]; then
	{ echo "$PERIOD_US" >"$CAPPED/cpu.cfs_period_us" && echo "$QUOTA_US" >"$CAPPED/cpu.cfs_quota_us"; } ||
		skip "cannot set the CPU quota of '$CAPPED'"
else
	echo "$QUOTA_US $PERIOD_US" >"$CAPPED/cpu.max" || skip "cannot set the CPU quota of '$CAPPED'"
fi

small_fs size=64m,nr_inodes=40000
ARGS=(create-unlink -m "$M" -f 5000 -F 2 -s 4k -t pa,uc -i 2 --no-drop-caches
	--results "$SCRATCH/throttle.h5")
OUT=$SCRATCH/out ERR=$SCRATCH/err
# each rank moves itself into its cgroup, then becomes pfsbench
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" \
	-np 1 sh -c "echo \$\$ >'$FREE/cgroup.procs' && exec \"\$0\" \"\$@\"" "$PFSBENCH" "${ARGS[@]}" : \
	-np 1 sh -c "echo \$\$ >'$CAPPED/cgroup.procs' && exec \"\$0\" \"\$@\"" "$PFSBENCH" "${ARGS[@]}") \
	>"$OUT" 2>"$ERR"
RC=$?
check "exits 0" test "$RC" -eq 0
[ "$RC" -eq 0 ] || show_run
check "nothing is left" dir_unchanged "$M"

# rank, op, elapsed_us, cpu_us, wait_us, throttled_us of each row, by name
csv_rows "$SCRATCH/throttle.h5" | tr -d '\r' | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["test"], $c["rank"], $c["op"], $c["elapsed_us"], $c["cpu_us"], $c["wait_us"], $c["throttled_us"] }' \
	>"$SCRATCH/rows"
echo "# test rank op elapsed_us cpu_us wait_us throttled_us:"
sed 's/^/#   /' "$SCRATCH/rows"

check "every row has throttled_us" \
	awk 'NF != 7 || $7 !~ /^[0-9]+$/ { bad++ } END { exit !(NR == 24 && !bad) }' "$SCRATCH/rows"
check "rank 0, in no quota: every row's throttled_us is 0" \
	awk '$2 == 0 { n++; if ($7 != 0) bad++ } END { exit !(n == 12 && !bad) }' "$SCRATCH/rows"
check "rank 1: every row that used more than 3 quotas of CPU was throttled, and there are such rows" \
	awk -v q="$QUOTA_US" '$2 == 1 && $5 > 3 * q { n++; if ($7 == 0) bad++ } END { exit !(n >= 2 && !bad) }' \
	"$SCRATCH/rows"
check "no row's throttled_us exceeds its elapsed_us" \
	awk '$7 > $4 { bad++ } END { exit bad > 0 }' "$SCRATCH/rows"

# Written before throttled_us existed: the column is there, all 0.
csv_rows "$SRCDIR/docs/runs/tmpfs.h5" | tr -d '\r' >"$SCRATCH/old.csv"
check "an older results file reads throttled_us as 0" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throttled_us") c = i; next }
	c && $c == 0 { z++ } END { exit !(c && NR > 1 && z == NR - 1) }' "$SCRATCH/old.csv"

finish
