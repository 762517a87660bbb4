#!/bin/bash
# Stop notices go by node (agree.c): a failing rank tells its own node's
# ranks and each other node's leader, and each leader, when it first hears
# of another node's failure, tells its node's other ranks. 8 ranks on 4
# simulated nodes of 2, every create slowed by 2 ms so that a rank's 2,000
# files would take 4 s:
# - one rank fails (rank 5, not a leader, at its 101st create): it sends 4
#   notices, not 7; the 3 other nodes' leaders relay 1 each, node3's does
#   not (its other rank heard from rank 5 itself); every other rank
#   receives exactly 1; and every rank stops long before its last file,
#   those that heard through a relay too;
# - every rank fails (each at its 101st create, as a full shared
#   filesystem makes them): no rank sends more than 4 or relays more than
#   1, a rank that is not a leader receives at most 2 (its node's other
#   rank and its leader), and every notice sent is received.
# The failing rule counts only the creates (path=/f000000, the files'
# names): a rank stopped by another's notice before its 101st create makes
# its next openat in the cleanup, and a rule counting every openat under
# the target failed that one, so the run's directory was left behind (a
# fresh-machine CI run, sanitizer build).
# PFSBENCH_DEBUG_STOP makes each rank say, at the agreement that takes in
# the notices, how many it sent, relayed and received; the fault injector's
# log counts each rank's creates.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
NODES=4 WORKERS=2 FILES=2000

# notices: the debug lines as "rank sent relayed received", one a rank
notices() {
	sed -nE 's/^pfsbench: debug: stop notices: rank ([0-9]+) sent ([0-9]+), relayed ([0-9]+), received ([0-9]+)$/\1 \2 \3 \4/p' "$ERR" |
		sort -n
}
# creates: "rank count" of the creates each rank made in the target
creates() {
	sed -nE "s/^pfsfault: rank ([0-9]+) node [^:]*: openat #([0-9]+) '[^']*\/f[0-9]+'.*/\1 \2/p" "$ERR" |
		awk '{if ($2 > n[$1]) n[$1] = $2} END {for (r in n) print r, n[r]}' | sort -n
}

run_failing() {
	local f
	f=$(faulty "delay openat 2ms path=$D; $1")
	PFSBENCH=$(PFSBENCH=$f debug_env PFSBENCH_DEBUG_STOP=1 PFSBENCH_FAULT_LOG=1) \
		pfs_nodes $NODES $WORKERS create-unlink -m "$D" -F 1 -s 4k -t pa --no-drop-caches -f $FILES
}

# One rank fails.
run_failing "fail openat EIO rank=5 path=/f000000 after=100 count=1"
check "one rank fails: exit 1" test "$RC" -eq 1
check "the failure names node3's worker 2 and create" \
	grep -qE "^pfsbench: node node3 worker 2: cannot create '.*': Input/output error$" "$ERR"
notices >"$SCRATCH/one.txt"
check "every rank said what it sent and received" test "$(wc -l <"$SCRATCH/one.txt")" -eq 8
check "rank 5 sent 4 notices (node3's other rank, 3 leaders), not 7" \
	grep -qx '5 4 0 0' "$SCRATCH/one.txt"
for r in 0 2 6; do
	check "leader rank $r received 1 and relayed 1 to its node's other rank" \
		grep -qx "$r 0 1 1" "$SCRATCH/one.txt"
done
for r in 1 3 4 7; do
	check "rank $r received exactly 1 and sent none" grep -qx "$r 0 0 1" "$SCRATCH/one.txt"
done
creates >"$SCRATCH/one-creates.txt"
check "each rank's creates were counted" test "$(wc -l <"$SCRATCH/one-creates.txt")" -eq 8
most=$(awk '{if ($2 > m) m = $2} END {print m + 0}' "$SCRATCH/one-creates.txt")
check "every rank stopped long before its last file ($most of $FILES creates at most)" \
	test "$most" -lt $((FILES / 2))
check "nothing left behind" dir_unchanged "$D"

# Every rank fails.
run_failing "fail openat ENOSPC path=/f000000 after=100 count=1"
check "every rank fails: exit 1" test "$RC" -eq 1
check "a failure is named" \
	grep -qE "^pfsbench: node node[1-4] worker [12]: cannot create '.*': No space left on device$" "$ERR"
notices >"$SCRATCH/all.txt"
echo "# rank sent relayed received, when every rank fails:"
sed 's/^/#   /' "$SCRATCH/all.txt"
check "every rank said what it sent and received" test "$(wc -l <"$SCRATCH/all.txt")" -eq 8
check "no rank sent more than 4 notices" awk '$2 > 4 {exit 1}' "$SCRATCH/all.txt"
check "no rank relayed more than 1" awk '$3 > 1 {exit 1}' "$SCRATCH/all.txt"
check "no rank both sent and relayed" awk '$2 > 0 && $3 > 0 {exit 1}' "$SCRATCH/all.txt"
check "a rank that is not a leader received at most 2" awk '$1 % 2 == 1 && $4 > 2 {exit 1}' "$SCRATCH/all.txt"
check "every notice sent was received" \
	awk '{s += $2 + $3; r += $4} END {exit !(s == r && s > 0)}' "$SCRATCH/all.txt"
check "nothing left behind" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
