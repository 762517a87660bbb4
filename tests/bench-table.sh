#!/bin/bash
# bench-table.sh: the arithmetic of the bench table (make bench-table) on
# figures made up for the purpose, whose answers are worked out by hand
# here: bench/bonnie_csv_rates.awk (bonnie's CSV lines as rate lines and
# CPU seconds an item) and bench/table.py (the rounds' ratios, their median
# and p25-p75 by nearest rank, the SLOWER and FASTER flags, +++++ cells,
# bonnie's CPU an item, the whole jobs, each order of a round apart, the
# rounds left out where the machine changed speed) and
# bench/lib.sh's rounds (who sits where in a round). Runs no benchmark.
. "$(dirname "$0")/lib.sh"
t_scratch
top=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 (Debian: apt-get install python3)"

# ---- bonnie_csv_rates.awk ----
# Two lines of bonnie++ 1.98's CSV (columns from 0: putc 9, its %CP 10;
# put_block 11; getc 15; seq_create 26; seq_stat 28): putc 1000 K/s at
# 50 % and 3000 at 30 %, put_block +++++ in one line, getc with a %CP of
# 0 in one, seq_create 200 and 300 files/s at 40 % and 60 %, seq_stat
# empty in both.
csv_line() { # PUTC CP PUTB CPB GETC CPG SEQC CPS
	local f=() i
	for ((i = 0; i < 40; i++)); do f[i]=""; done
	f[0]=1.98 f[1]=1.98 f[2]=bench f[9]=$1 f[10]=$2 f[11]=$3 f[12]=$4 f[15]=$5 f[16]=$6 f[26]=$7 f[27]=$8
	(IFS=,; echo "${f[*]}")
}
{ csv_line 1000 50 5000 10 800 20 200 40; csv_line 3000 30 +++++ +++ 900 0 300 60; } >"$SCRATCH/csv"
awk -F, -v r=4 -v side=peer -v tests="putc:9 put_block:11 getc:15 seq_create:26 seq_stat:28" \
	-f "$top/bench/bonnie_csv_rates.awk" "$SCRATCH/csv" >"$SCRATCH/rates"
sed 's/^/# /' "$SCRATCH/rates"
# shellcheck disable=SC2317 # called by check
line() { grep -qx "$1" "$SCRATCH/rates"; }
check "awk: putc's rates summed over the lines" line '4 peer bonnie putc 4000'
# (0.5 / 1000 + 0.3 / 3000) / 2 = 0.0003 CPU seconds a KiB
check "awk: putc's CPU an item, the lines' mean" line '4 peer bonnie cpu:putc 0.0003'
check "awk: a +++++ in one line makes the sum +++++" line '4 peer bonnie put_block +++++'
check "awk: no CPU an item beside +++++" test "$(grep -c 'cpu:put_block' "$SCRATCH/rates")" -eq 0
check "awk: getc's rate kept where a %CP is 0" line '4 peer bonnie getc 1700'
check "awk: no CPU an item where a %CP is 0" test "$(grep -c 'cpu:getc' "$SCRATCH/rates")" -eq 0
# (0.4 / 200 + 0.6 / 300) / 2 = 0.002
check "awk: seq_create's CPU an item" line '4 peer bonnie cpu:seq_create 0.002'
check "awk: nothing for a test no line has" test "$(grep -c 'seq_stat' "$SCRATCH/rates")" -eq 0

# ---- table.py ----
# 9 rounds on "ext4", 1 rank. The peer 100 a round; pfsbench's rates give
# the rounds' ratios (listed out of order, as rounds come):
#   stream Write 0.90 ... 0.98: median (5th of 9) 0.94, p25 (3rd) 0.92,
#     p75 (7th) 0.96: SLOWER;
#   stream Read 1.00 ... 1.08: 1.04 [1.02-1.06], inside 0.95-1.05;
#   bonnie getc 1.10 ... 1.18: 1.14 [1.12-1.16], FASTER;
#   bonnie putc 0.9479 in every round: SLOWER, and printed 0.948, since
#     0.95 would read as inside the lines;
#   bonnie seq_stat: the peer +++++ in 6 rounds: 3 of 9 timed, no ratio;
#   bonnie cpu:getc: pfsbench 2e-6 against 1e-6: 2.00;
#   the stream jobs: pfsbench's wall 3 s, the peer's 2 s; CPU 1 s and 4 s.
raw=$SCRATCH/raw
order=(4 0 8 2 6 1 5 3 7)
for i in "${!order[@]}"; do
	k=${order[i]}
	{
		echo "ext4 1 $i peer stream Write 100"
		echo "ext4 1 $i pfsbench stream Write $((90 + k))"
		echo "ext4 1 $i pfsbench stream Read $((100 + k))"
		echo "ext4 1 $i peer stream Read 100"
		echo "ext4 1 $i pfsbench bonnie getc $((110 + k))"
		echo "ext4 1 $i peer bonnie getc 100"
		echo "ext4 1 $i pfsbench bonnie putc 94.79"
		echo "ext4 1 $i peer bonnie putc 100"
		echo "ext4 1 $i pfsbench bonnie cpu:getc 2e-06"
		echo "ext4 1 $i peer bonnie cpu:getc 1e-06"
		echo "ext4 1 $i pfsbench bonnie seq_stat 5000"
		if ((i < 6)); then echo "ext4 1 $i peer bonnie seq_stat +++++"; else echo "ext4 1 $i peer bonnie seq_stat 5000"; fi
		echo "ext4 1 $i pfsbench stream job 3 1"
		echo "ext4 1 $i peer stream job 2 4"
	} >>"$raw"
done
# The same 9 rounds on "tmpfs", 2 ranks, now with seats: pfsbench first in
# the even rounds (5), its peer in the odd (4). stream Read's ratios where
# pfsbench went first: 4, 2, 4, 2, 4 (median 4, p25 2, p75 4, nearest rank
# of 5); where dd did: 1, 0.25, 1, 0.25 (median 0.25 (2nd of 4), p25 0.25,
# p75 1). The cell: sqrt(4 * 0.25) = 1.00 [sqrt(2 * 0.25) = 0.71 -
# sqrt(4 * 1) = 2.00], not flagged; all 9 rounds pooled would give 2.00
# (the 5th of 0.25 0.25 1 1 2 2 4 4 4), FASTER. pfsbench's own rate: 400
# [200-400] and 25 [25-100], so 100 [70.7-200].
pr=(400 100 200 25 400 100 200 25 400)
for i in "${!pr[@]}"; do
	{
		echo "tmpfs 2 $i pfsbench stream seat $((i % 2))"
		echo "tmpfs 2 $i peer stream seat $((1 - i % 2))"
		echo "tmpfs 2 $i pfsbench stream Read ${pr[i]}"
		echo "tmpfs 2 $i peer stream Read 100"
	} >>"$raw"
done
# Probes (the machine's speed before and after each job, "probe US CPU").
# "tmpfs", 1 rank, stream Write, 9 rounds: in rounds 0-3 the probes say
# 100 and 126 (126 > 1.25 x 100: the machine changed speed) and the ratio
# is 0.50; in rounds 4-8 they say 100 and 124 (within 1.25) and the ratios
# are 1.00 ... 1.04. The cell: the 5 steady rounds, 1.02 [1.01-1.03], and
# 4 of 9 left out; all 9 would give 1.00 [0.50-1.02]. "xfs", 2 ranks, 5
# rounds, CPU 1 at 150 all along (a slower CPU that stays so: steady), CPU
# 0 at 100, but in 3 rounds it goes to 130 on the peer's side, at a ratio
# of 0.50; the 2 others at 1.00. Each CPU judged apart: 3 of 5 unsteady
# (the CPUs pooled, all 5 would be), fewer than half steady, so all 5
# count: 0.50 [0.50-1.00], SLOWER, and the cell says so.
for i in 0 1 2 3 4 5 6 7 8; do
	if ((i < 4)); then p=50 hi=126; else p=$((96 + i)) hi=124; fi
	{
		echo "tmpfs 1 $i pfsbench stream probe 100 1"
		echo "tmpfs 1 $i pfsbench stream Write $p"
		echo "tmpfs 1 $i pfsbench stream probe $hi 1"
		echo "tmpfs 1 $i peer stream probe 100 1"
		echo "tmpfs 1 $i peer stream Write 100"
		echo "tmpfs 1 $i peer stream probe 100 1"
	} >>"$raw"
done
for i in 0 1 2 3 4; do
	if ((i < 3)); then p=50 a=130; else p=100 a=100; fi
	{
		echo "xfs 2 $i pfsbench stream probe 100 0"
		echo "xfs 2 $i pfsbench stream probe 150 1"
		echo "xfs 2 $i pfsbench stream Write $p"
		echo "xfs 2 $i peer stream Write 100"
		echo "xfs 2 $i peer stream probe $a 0"
		echo "xfs 2 $i peer stream probe 150 1"
	} >>"$raw"
done
# Orders left unbalanced (rounds left out): "btrfs", 1 rank, stream Write,
# pfsbench first in 5 rounds at 1.16, 0.95, 0.98, 0.98, 0.98, its peer
# first in 1 at 1.43. One order under 3 rounds: all 6 pooled, 0.98
# [0.98-1.16]; each order apart would make it sqrt(0.98 x 1.43) = 1.18,
# FASTER, on one round.
btrfs=(116 95 98 98 98 143)
for i in "${!btrfs[@]}"; do
	{
		echo "btrfs 1 $i pfsbench stream seat $((i < 5 ? 0 : 1))"
		echo "btrfs 1 $i peer stream seat $((i < 5 ? 1 : 0))"
		echo "btrfs 1 $i pfsbench stream Write ${btrfs[i]}"
		echo "btrfs 1 $i peer stream Write 100"
	} >>"$raw"
done
/usr/bin/python3 "$top/bench/table.py" "$raw" >"$SCRATCH/table" 2>&1
check "table.py: exit 0" test $? -eq 0
sed 's/^/# /' "$SCRATCH/table"
# shellcheck disable=SC2317 # called by check
has() { grep -qF -- "$1" "$SCRATCH/table"; }
check "table.py: stream Write, the rounds' ratios' median and p25-p75, SLOWER" \
	has '| stream | Write | dd | 0.94 [0.92-0.96] **SLOWER** |'
check "table.py: stream Read inside 0.95-1.05, not flagged" has '| stream | Read | dd | 1.04 [1.02-1.06] |'
check "table.py: each order's median, p25, p75 apart, their geometric mean" \
	has '| stream | Read | dd | 1.04 [1.02-1.06] | 1.00 [0.71-2.00] |'
check "table.py: each side's own rate, each order apart" has '| stream | Read | tmpfs | 2 | 100 [70.7-200] | dd 100 [100-100] |'
check "table.py: the cell whose orders differ, each order's figures" \
	has '| stream Read on tmpfs, 2 ranks | 4.00 [2.00-4.00] (5 rounds) | dd first: 0.25 [0.25-1.00] (4 rounds) |'
check "table.py: no order listing for rounds without seats" test "$(grep -c '^| stream Read on ext4' "$SCRATCH/table")" -eq 0
check "table.py: getc FASTER" has '| bonnie | getc | bonnie++ | 1.14 [1.12-1.16] **FASTER** |'
check "table.py: a ratio just under 0.95 in 3 decimals" has '| bonnie | putc | bonnie++ | 0.948 [0.948-0.948] **SLOWER** |'
check "table.py: seq_stat, too few rounds timed for a ratio" \
	has '| bonnie | seq stat | bonnie++ | +++++ peer (3 of 9 rounds timed) |'
check "table.py: each side's own rate" has '| stream | Write | ext4 | 1 | 94.0 [92.0-96.0] | dd 100 [100-100] |'
check "table.py: bonnie's CPU an item, pfsbench's over bonnie++'s" has '| getc | 2.00 [2.00-2.00] |'
check "table.py: the whole jobs' wall, CPU and pfsbench's CPU seconds" \
	has '| stream | 1.50 [1.50-1.50] | 0.25 [0.25-0.25] | 1.00 [1.00-1.00] |'
check "table.py: the flags listed under the tables" has 'stream Write on ext4, 1 rank: 0.94 [0.92-0.96] SLOWER'
check "table.py: a round whose probes differ by over 1.25x left out, one within kept" \
	has '| 1.02 [1.01-1.03] (4 of 9 rounds left out: machine unsteady) |'
check "table.py: each CPU's probes apart; fewer than half the rounds steady: all of them, said" \
	has '| 0.50 [0.50-1.00] **SLOWER** (machine unsteady in 3 of 5 rounds: all used) |'
check "table.py: an order of under 3 rounds: all rounds pooled" \
	has '| 0.98 [0.98-1.16] |'
# shellcheck disable=SC2317 # called by check
probe_row() { grep -E '^\| stream \|' "$SCRATCH/table" | tail -n 1 | grep -qF "$1"; }
check "table.py: the probes' figures and the rounds left out, each configuration" \
	probe_row '| 100 [100-100] | 4 of 9 | 130 [100-150] | 3 of 5 (all used) |'
check "table.py: the cells outside 0.95-1.05 counted (Write, getc, putc, xfs's Write)" has 'table: 4 cells outside 0.95-1.05'
# --short (the top-up's question): tmpfs at 1 rank has 5 steady rounds of
# stream, xfs at 2 ranks 2 of 5; ext4's rounds have no probes, so all 9 of
# stream and of bonnie count.
short() { test "$(/usr/bin/python3 "$top/bench/table.py" --short "$raw" "$1" "$2" "$3")" = "$4"; }
check "table.py --short: stream at tmpfs, 1 rank, has 5 steady rounds: short of 6" short tmpfs 1 6 stream
check "table.py --short: ... and not of 5" short tmpfs 1 5 ""
check "table.py --short: xfs, 2 ranks: 2 steady, short of 3" short xfs 2 3 stream
check "table.py --short: ... and of 2 as well, 2 being under half its 5 rounds" short xfs 2 2 stream
check "table.py --short: ... but not of 5 of 9 steady, over half" short tmpfs 1 1 ""
check "table.py --short: rounds without probes count, every workload listed in order" short ext4 1 10 "stream bonnie"
check "table.py --short: ... none short of 9" short ext4 1 9 ""

# ---- lib.sh's rounds ----
# Two sides, 4 rounds: A first in rounds 0 and 2, B in 1 and 3; each side
# told its seat (ROUND_SEAT); the warm-up runs A then B.
(
	. "$top/bench/lib.sh"
	# shellcheck disable=SC2317 # called by rounds
	A() { echo "A $1 ${ROUND_SEAT:--}"; }
	# shellcheck disable=SC2317 # called by rounds
	B() { echo "B $1 ${ROUND_SEAT:--}"; }
	rounds 4 A B
) >"$SCRATCH/seats"
sed 's/^/# /' "$SCRATCH/seats"
check "lib.sh: rounds alternate who goes first and tell each its seat" \
	test "$(tr '\n' ' ' <"$SCRATCH/seats")" = "A warm - B warm - A 0 0 B 0 1 B 1 0 A 1 1 A 2 0 B 2 1 B 3 0 A 3 1 "
# more_rounds: rounds 10 and up while the list says so (twice A and B,
# then nothing), turned every other round; none past TO.
(
	. "$top/bench/lib.sh"
	# shellcheck disable=SC2317 # called by more_rounds
	A() { echo "A $1 ${ROUND_SEAT:--}"; }
	# shellcheck disable=SC2317 # called by more_rounds
	B() { echo "B $1 ${ROUND_SEAT:--}"; }
	# shellcheck disable=SC2317 # called by more_rounds
	list() { [ "$(wc -l <"$SCRATCH/more")" -lt 4 ] && echo "A B"; }
	: >"$SCRATCH/more"
	more_rounds 10 20 list >>"$SCRATCH/more"
	echo end >>"$SCRATCH/more"
	# shellcheck disable=SC2317 # called by more_rounds
	always() { echo "B"; }
	more_rounds 10 12 always >>"$SCRATCH/more"
)
sed 's/^/# /' "$SCRATCH/more"
check "lib.sh: more_rounds runs what the list says, turned every other round, until it says nothing or TO" \
	test "$(tr '\n' ' ' <"$SCRATCH/more")" = "A 10 0 B 10 1 B 11 0 A 11 1 end B 10 0 B 11 0 "
finish
