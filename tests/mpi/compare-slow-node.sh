#!/bin/bash
# compare-slow-node.sh - one slow node, judged by its own time (issue 25).
# 4 simulated nodes of one rank each on a tmpfs, create-unlink se,pa, 3 runs
# a side, the sides interleaved (A B B A A B): in side B node3's first 4
# creates of se and first 4 unlinks of se and of pa each sleep 200 ms (the
# test-only fault injector), 800 ms more in each of those ops on node3
# alone. In se node3 works alone, so the median step does not move; until
# issue 25 compare's 10 ms rule looked at it, and show --analyze left se
# out whenever the other nodes' turns were short. Now:
#   compare A1 A2 A3 -- B1 B2 B3 calls se Create, se Unlink and pa Unlink
#     out SLOWER, and nothing else (the other lines are the same work);
#   show --analyze names node3 in every B run (slow in those 3 ops: a run
#     of one iteration asks 3), and no other node: the time a rank waited
#     for a CPU held by other work is left out of its rate (CI of stop 35
#     named node4 here, 3.3-3.4x slower in 3 ops, beside QEMU guests); if
#     one is named all the same, its rows' times, CPU and waits are printed;
#   the sleeps add time however busy the machine is, so the verdicts do not
#   depend on its load beyond the intervals compare itself measures. How
#     long each sleep is: with 20 ms, beside four busy lanes, one run of pa
#     Unlink said "2.37x slower, in the noise (could detect >= 9.18x)"; with
#     40, the sanitizer build at load 14 said se Create "4.83x slower (1.08x
#     to 21.6x), not surely over 10 %"; with 80, a CI of stop 41 on a slow
#     host (the other nodes waiting for a CPU 66-70 % of their time in ops)
#     did not call se Create out, and here at that load the line said
#     2.12-2.43x slower, its interval down to 1.44x: the whole se Create of
#     the 4 nodes takes about 260 ms there, so 320 ms more is only about
#     twice it. With 200 ms a sleep, at the same load, it said 5.30x
#     slower (3.87x to 7.25x). Each check of a line says the line, so that
#     a failure shows its figures in the log's first lines.
. "$(dirname "$0")/lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so: run me from make check}"

[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
D=$(mktemp -d /dev/shm/pfsbench-slownode.XXXXXX) || skip "cannot make a directory in /dev/shm"
T_CLEANUP+=("rm -rf '$D'")
F=2000
ARGS=(create-unlink -m "$D" -f "$F" -F 2 -s 4k -t se,pa -i 1 --no-drop-caches)
# Both sides run under the fault injector with the same rules, side A's
# delays 0 ms: the path rule costs node3 a readlink of /proc per openat
# (pa Create on node3 1.5-1.7x slower in B under the sanitizers, called
# out SLOWER once in a CI of stop 37), and the sides must differ only by
# the sleeps.
rules() { echo "delay openat $1 node=node3 path=f000000 count=4; delay unlinkat $1 node=node3 count=4; delay unlinkat $1 node=node3 after=$F count=4"; }
SAME=$(faulty "$(rules 0ms)")
SLOW=$(faulty "$(rules 200ms)")
run() { # run SIDE K
	local p=$SAME
	[ "$1" = B ] && p=$SLOW
	PFSBENCH=$p pfs_nodes 4 1 "${ARGS[@]}" --label "$1" --results "$SCRATCH/$1$2.h5"
	check "run $1$2: exit 0" test "$RC" -eq 0
}
run A 1
run B 1
run B 2
run A 2
run A 3
run B 3

"$PFSBENCH" compare "$SCRATCH"/A[123].h5 -- "$SCRATCH"/B[123].h5 >"$SCRATCH/cmp.txt"
check "compare of 3 runs a side: exit 0" test $? -eq 0
sed 's/^/# /' "$SCRATCH/cmp.txt"
for line in "se +Create" "se +Unlink" "pa +Unlink"; do
	said=$(grep -E "^$line " "$SCRATCH/cmp.txt" | tr -s ' ')
	check "$line: called out SLOWER (${said:-no such line})" \
		grep -Eq "^$line +files/s +[0-9]+!? +[0-9]+!? +SLOWER +[0-9.]+x slower \\(" "$SCRATCH/cmp.txt"
done
others=$(grep -E ' (SLOWER|FASTER) ' "$SCRATCH/cmp.txt" | grep -vE '^(se +(Create|Unlink)|pa +Unlink) ' | awk '{ printf "%s%s %s", n++ ? ", " : "", $1, $2 }')
check "no other line called out (${others:-none})" test -z "$others"
named=0 others=0
for k in 1 2 3; do
	"$PFSBENCH" show --analyze "$SCRATCH/B$k.h5" >"$SCRATCH/an$k.txt"
	grep -q '^ node3: .*se Unlink' "$SCRATCH/an$k.txt" && named=$((named + 1))
	if grep -Eq '^ node[124]: ' "$SCRATCH/an$k.txt"; then
		others=$((others + 1))
		# What its rows say: slowed on its CPU, or waiting for one.
		sed -n 's/^/# B'"$k"': /p' "$SCRATCH/an$k.txt" | grep -E 'node[124]:|Waited'
		"$PFSBENCH" export "$SCRATCH/B$k.h5" --csv | awk -F, -v k="$k" '
			NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$h["elapsed_us"] > 1000 { printf "# B%s %s %s %s: elapsed %s us, cpu %s us, wait %s us\n", k,
				$h["node"], $h["test"], $h["op"], $h["elapsed_us"], $h["cpu_us"], $h["wait_us"] }'
	fi
done
check "show --analyze names node3, slow in se Unlink, in 3 of 3 B runs ($named)" test "$named" -eq 3
check "show --analyze names no other node in the B runs ($others)" test "$others" -eq 0
# Where the judgement is withheld, the table says so on the row (issue 29:
# only a footnote's '!' said that steps under 10 ms were not judged, so a
# node slow there went unsaid): every (test, op) row says "judged" or
# "not judged: why", under its header; the ones not judged for their short
# steps are listed under the slow nodes, the same ones.
sed -n '/^Slow nodes/,$p' "$SCRATCH/an1.txt" | sed 's/^/# B1: /'
check "show --analyze: the imbalance table's rows under its header" python3 "$(dirname "$0")/../columns.py" \
	"$SCRATCH/an1.txt" "Test +TestType +imbalance" "Test:L?" "TestType:L" "imbalance:R" "step:R" "slow nodes:L"
imbalance_rows() { sed -n '/^Test  *TestType  *imbalance/,/^$/p' "$SCRATCH/an1.txt" | sed '1d;/^$/d'; }
check "show --analyze: each (test, op) row says whether its nodes were judged" \
	test "$(imbalance_rows | grep -cvE '  (judged|not judged: [a-z0-9 ]+)$')" -eq 0
check "show --analyze: se and pa, 4 ops each, have a row each" test "$(imbalance_rows | wc -l)" -eq 8
short=$(imbalance_rows | awk '/not judged: steps under 10 ms$/ { printf "%s%s %s", n++ ? ", " : "", $1, $2 }')
listed=$(sed -n 's/^Not judged, steps under 10 ms: //p' "$SCRATCH/an1.txt")
echo "# rows not judged for short steps: '$short'; listed: '$listed'"
check "show --analyze: the ops not judged for short steps are listed under the slow nodes" test "$short" = "$listed"
finish
