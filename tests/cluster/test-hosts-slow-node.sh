#!/bin/bash
# test-hosts-slow-node.sh - slow-node detection on 3 namespace hosts x 1
# worker (pfsh2, pfsh3, pfsh4), on a tmpfs all of them see. 5 runs with
# pfsh3's rank capped at 3 % of a CPU (a cgroup CPU quota): `show --analyze`
# names pfsh3, and no other host, in all 5. 5 runs in which pfsh3's rows are
# normal but it starts 100 ms late after every barrier (the test-only fault
# injector delays the getrusage pfsbench makes between a step's barrier and
# its op's clock): pfsh3 is named for leaving barriers late in all 5, its
# rows never 2x slower (below). 5 runs without either, taking turns
# with the capped ones: no host is named in any. compare of the
# 5 unthrottled runs and the 5 capped ones calls an op of the capped runs
# out as slower and names pfsh3 under the table, in each capped run.
#
# The namespace hosts share the machine's CPUs, unlike real hosts, and the
# machine's other load (other tests, other users) often falls on one CPU
# more than the other: a rank that stays on the busier one runs 2-3x slower
# than the others in every op of a run (3 of 26 unthrottled runs on the
# 2-core development machine named such a host; its rows had the others'
# CPU time and twice their wall time). That host is really slow, but not by
# this test's doing. So every rank runs on one CPU (taskset), where each
# host gets the same share of whatever else runs; and mpirun runs on a host
# of its own, pfsh1, with no rank. Exit 77 = skipped.
. "$(dirname "$0")/hosts-test-lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
hosts_begin 4

M=$SCRATCH/tmpfs
mkdir "$M"
mount -t tmpfs -o size=256m pfsbench-slow-node "$M" || skip "cannot mount a tmpfs"
T_CLEANUP+=("umount '$M'")
snapshot "$M"

# A CPU quota for pfsh3's rank: cgroup v1's cpu controller, or v2's.
CG=
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    CG=/sys/fs/cgroup/cpu/pfsbench-slow-node-$$
    mkdir "$CG"
    echo 3000 >"$CG/cpu.cfs_quota_us"   # 3 ms of every 100 ms
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    CG=/sys/fs/cgroup/pfsbench-slow-node-$$
    mkdir "$CG"
    echo "3000 100000" >"$CG/cpu.max"
fi
[ -n "$CG" ] || skip "no cgroup cpu controller to cap a host with"
T_CLEANUP+=("rmdir '$CG'")

# Every rank on the first CPU this test may use; the rank on pfsh3 joins
# the cgroup before it becomes pfsbench.
CPU=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
command -v taskset >/dev/null || need_pkg util-linux
PINNED=$SCRATCH/pinned-pfsbench
printf '#!/bin/bash\nexec taskset -c %q %q "$@"\n' "$CPU" "$PFSBENCH" >"$PINNED"
CAPPED=$SCRATCH/capped-pfsbench
printf '#!/bin/bash\n[ "$(hostname)" = pfsh3 ] && echo $$ >%q/cgroup.procs\nexec taskset -c %q %q "$@"\n' \
    "$CG" "$CPU" "$PFSBENCH" >"$CAPPED"
LATE=$SCRATCH/late-pfsbench
printf '#!/bin/bash\nexec taskset -c %q env LD_PRELOAD=%q PFSBENCH_FAULT=%q %q "$@"\n' \
    "$CPU" "$PFSFAULT" "delay getrusage 100ms node=pfsh3" "$PFSBENCH" >"$LATE"
chmod +x "$PINNED" "$CAPPED" "$LATE"

# Long enough steps to judge, also on a fast machine: the analysis leaves
# out ops whose median step lasts under 10 ms. With -f 2000, a Create took
# some 30 ms on the first development machine but 5-7 ms on a later one,
# where only pa's Create outlasted 10 ms, so a capped pfsh3 was slow in
# that one judged op and not named, in 3 of 10 runs. With -f 8000 every
# Create and Unlink lasts over 10 ms on both. The late runs keep -f 2000:
# lateness is judged from the steps' starts, whatever their length, and
# with -f 8000 se's Create, judged now, was 1.3x slower on the late node
# in 1 of 15 late runs, so it was named for more than lateness. The tests
# whose steps are alike on every node.
ARGS=(-f 8000 -F 20 -s 64k -i 3 -t se,pa,ub --no-drop-caches)
LATE_ARGS=(-f 2000 -F 20 -s 64k -i 3 -t se,pa,ub --no-drop-caches)

# slow_lines FILE: the slow-node lines of show --analyze, one a node;
# one_op FILE: its line of nodes slower in one (test, op) alone, not named
slow_lines() {
    "$PFSBENCH" show --analyze "$1" | sed -n '/^Slow nodes/,/^$/p' | sed -n 's/^ \(pfsh[0-9]*:.*\)/\1/p'
}
one_op() {
    "$PFSBENCH" show --analyze "$1" | sed -n 's/^Slower in one (test, op) only, not named: /; not named: /p'
}

# run_one KIND I BINARY ARGS...: run I of KIND on pfsh2-4; counts, by
# kind, the runs that name pfsh3 (named), another host (others), pfsh3 for
# leaving barriers late (late), for that alone (late_only).
declare -A named others late late_only worst
run_one() {
    local kind=$1 i=$2 bin=$3 lines start
    shift 3
    start=$SECONDS
    PFSBENCH=$bin hosts_run 1 --host pfsh2,pfsh3,pfsh4 -np 3 -- \
        create-unlink -m "$M" "$@" --results "$SCRATCH/$kind$i.h5"
    if [ "$RC" -ne 0 ]; then not_ok "$kind $i: exit status $RC"; show_run; return 0; fi
    lines=$(slow_lines "$SCRATCH/$kind$i.h5")
    echo "# $kind $i ($((SECONDS - start)) s): ${lines:-no slow node}$(one_op "$SCRATCH/$kind$i.h5")"
    # A capped run that names no one: what the analysis saw, in the log.
    if [ "$kind" = capped ] && ! grep -q '^pfsh3:' <<<"$lines"; then
        "$PFSBENCH" show --analyze "$SCRATCH/$kind$i.h5" | sed -n '/^Done/,$p' | sed 's/^/#   /'
    fi
    grep -q '^pfsh3:' <<<"$lines" && named[$kind]=$((${named[$kind]:-0} + 1))
    grep -q '^pfsh[124]:' <<<"$lines" && others[$kind]=$((${others[$kind]:-0} + 1))
    grep -q '^pfsh3: .*leaves barriers [0-9.]* ms late' <<<"$lines" &&
        late[$kind]=$((${late[$kind]:-0} + 1))
    grep -qx 'pfsh3: leaves barriers [0-9.]* ms late, its rows within the spread of the nodes' \
        <<<"$lines" && late_only[$kind]=$((${late_only[$kind]:-0} + 1))
    # the largest factor by which pfsh3's rows were named slower (1: none)
    worst[$kind]=$(sed -n 's/^pfsh3: \(.*\) slower than the median node.*/\1/p' <<<"$lines" |
        awk -v w="${worst[$kind]:-1}" '{
            while (match($0, /[0-9][0-9.]*x/)) {
                f = substr($0, RSTART, RLENGTH - 1) + 0
                if (f > w) w = f
                $0 = substr($0, RSTART + RLENGTH)
            }
        } END { print w }')
    return 0
}

# The capped and unthrottled runs take turns, so that compare's two sides
# (below) meet the machine's other load alike: in the CI of 8bb5add, all
# capped runs first, the unthrottled ones 5 minutes later, the other lanes
# had changed in between.
for i in 1 2 3 4 5; do
    run_one capped "$i" "$CAPPED" "${ARGS[@]}"
    run_one plain "$i" "$PINNED" "${ARGS[@]}"
done
check "capped at 3 % CPU: 5 of 5 runs name pfsh3 (${named[capped]:-0})" \
    test "${named[capped]:-0}" -eq 5
check "capped: no run names another host (${others[capped]:-0})" test "${others[capped]:-0}" -eq 0
check "unthrottled: 0 of 5 runs name any host (${named[plain]:-0} of pfsh3, ${others[plain]:-0} of others)" \
    test "$((${named[plain]:-0} + ${others[plain]:-0}))" -eq 0

# Whether its rows are also named is said, not judged: pfsh3's op runs
# some 100 ms after the others', alone on the CPU they all share, so the
# machine's other load in that window decides its rows. In the CI of
# 8197d09 (the other lanes beside it) 1 of 5 late runs named pfsh3's pa
# Create and Unlink 1.2x slower as well; before, -f 8000 made se's Create
# 1.3x slower on it in 1 of 15 (above); beside 4 busy loops all 5 named
# some of its rows 1.1-1.2x slower. A barrier wait counted in its rows
# would make them 4-20x (5-30 ms steps, 100 ms late) in every run, so no
# run may name them 2x slower or more: a factor against the other nodes of
# the same run, not a threshold on the machine's speed. (It asked for at
# least one run with its rows within the spread, which the busy loops
# failed.)
for i in 1 2 3 4 5; do
    run_one late "$i" "$LATE" "${LATE_ARGS[@]}"
done
check "late after barriers: 5 of 5 runs name pfsh3 for it (${late[late]:-0})" \
    test "${late[late]:-0}" -eq 5
echo "# late: its rows within the spread in ${late_only[late]:-0} of 5 runs"
check "late: its rows under 2x the median node's in all 5 runs (at most ${worst[late]:-1}x)" \
    awk -v w="${worst[late]:-1}" 'BEGIN { exit !(w < 2) }'
check "late: no run names another host (${others[late]:-0})" test "${others[late]:-0}" -eq 0
check "nothing of the 15 runs is left" dir_unchanged "$M"

# The 5 unthrottled runs against the 5 capped ones, as replicates: one run
# a side is judged against a 15 % floor and its iterations' spread, which a
# 3 % CPU quota makes wide (in a fresh-machine CI of 8bb5add, beside the
# other lanes, plain1 against capped1 found pa Create 2.44x slower "in the
# noise, could detect >= 5.55x", and no line called out). compare's own
# advice is 3 runs a side or more.
"$PFSBENCH" compare "$SCRATCH"/plain[1-5].h5 -- "$SCRATCH"/capped[1-5].h5 >"$SCRATCH/compare.txt"
sed 's/^/# /' "$SCRATCH/compare.txt"
check "compare calls an op of the capped runs out as slower" \
    grep -Eq '^(se|pa|ub) .* SLOWER ' "$SCRATCH/compare.txt"
check "compare names the slow nodes of each run: none in [1.1-5], pfsh3 in [2.1-5]" test \
    "$(sed -n '/^Slow nodes/,$p' "$SCRATCH/compare.txt" |
        grep -c -e '^ \[1\.[1-5]\] none$' -e '^ \[2\.[1-5]\] pfsh3: ')" -eq 10
finish
