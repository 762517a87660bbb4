#!/bin/bash
# compare.sh - compare on real runs of real filesystems. create-unlink on 2
# simulated nodes, 5 iterations, on a tmpfs and on a GlusterFS volume
# (tests/fs/gluster-lib.sh): Create and Unlink through FUSE are far slower
# than on tmpfs (over 100x on a quiet machine, 42x at load 10), and compare
# calls them out in the right direction, their intervals wholly beyond the
# 10 % margin, in both orders ("Nx slower", "Nx faster"). How large the
# factor is belongs to the machine's load, not to compare, and is only
# printed: a check of over 100x failed a fresh-machine CI at load 10,
# where tmpfs's pa Create ran at 29,000 files/s (41.8x). (Write and Read of
# 5 files take about a millisecond on tmpfs: too short to measure, and
# compare says so.) Then 20 pairs of
# runs of one configuration on the tmpfs, with steps long enough to measure
# (-f 3000: about 30 ms, median): the number of pairs with any line called
# out (false positives) is printed, with each line's step times, and the
# lines compare marks `short` (beyond the noise, but moving the steps by
# under 10 ms) or `busy` (their waits for a CPU moved 10 ms or more, their
# work, the time less those waits, under 10 ms). Issue 11's bar is none. Measured 2026-12-01 on the 2-core machine,
# with other builds and tests starting and stopping: before the ranks'
# CPU waits were recorded, 0 of 20 at load 4-5 and 2 of 20 at load 5-6
# (1.96x to 2.63x on 16-46 ms steps, each run steady in itself); with
# them, 0 of 20 at load 3-5, where 6 lines in 4 pairs (1.42x to 2.24x on
# 25-167 ms steps) were beyond the noise and said busy. The check allows
# 3, to catch a broken rule (which calls out nearly every pair) without
# failing on what the waits do not see (the disk, the hypervisor's steal).
# Root only; exit 77 = skipped.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gluster-lib.sh"

t0=$SECONDS
gluster_isolate "$0"

T=$SCRATCH/tmpfs
mkdir "$T"
mount -t tmpfs -o size=256m pfsbench-compare "$T" || skip "cannot mount a tmpfs"
T_CLEANUP+=("umount '$T'")
gluster_up pfsbench 2 || finish
echo "# volume mounted after $((SECONDS - t0)) s"

ARGS=(-f 200 -F 5 -s 64k -t se,pa -i 5)
start=$SECONDS
pfs_nodes 2 1 create-unlink -m "$T" "${ARGS[@]}" --label tmpfs --results "$SCRATCH/tmpfs.h5"
check "tmpfs run: exit 0" test "$RC" -eq 0
pfs_nodes 2 1 create-unlink -m "$M" "${ARGS[@]}" --label glusterfs --results "$SCRATCH/gluster.h5"
check "GlusterFS run: exit 0" test "$RC" -eq 0
echo "# the two runs took $((SECONDS - start)) s"

# called_beyond CSV ORDER: prints every line of run 2, and checks that
# Create and Unlink of se and pa are called out SLOWER (ORDER slower) or
# FASTER, with the ratio inside its interval and the whole interval beyond
# the 10 % margin that way.
called_beyond() {
	awk -F, -v o="$2" '{ sub(/\r$/, "") } NR > 1 && $4 == 2 {
		printf "# %s %s: %s (%s-%s), called out: %s\n", $1, $2, $17, $15, $16, $18
		if ($2 != "Create" && $2 != "Unlink") next
		n++
		if ($18 != "true" || $19 != (o == "slower" ? "SLOWER" : "FASTER")) bad = 1
		if (!($15 <= $14 && $14 <= $16)) bad = 1
		if (o == "slower" ? !($16 < 1 / 1.1) : !($15 > 1.1)) bad = 1
	} END { exit bad || n != 4 }' "$1"
}
for order in slower faster; do
	if [ $order = slower ]; then set -- tmpfs gluster; else set -- gluster tmpfs; fi
	"$PFSBENCH" compare "$SCRATCH/$1.h5" "$SCRATCH/$2.h5" --csv >"$SCRATCH/$order.csv"
	"$PFSBENCH" compare "$SCRATCH/$1.h5" "$SCRATCH/$2.h5" >"$SCRATCH/$order.txt"
	check "$1 against $2: Create and Unlink of se and pa called out ${order^^}, beyond the margin" \
		called_beyond "$SCRATCH/$order.csv" $order
	check "$1 against $2: the text says 'Nx $order'" \
		grep -Eq "^se +Create +files/s .* ${order^^} +[0-9.]+x $order \([0-9.]+x to [0-9.]+x\)" "$SCRATCH/$order.txt"
done
sed 's/^/# /' "$SCRATCH/slower.txt"
# The figures behind the lines (docs/compare.md's worked example).
tr -d '\r' <"$SCRATCH/slower.csv" | sed 's/^/# csv: /'

# 20 pairs of one configuration: how often is anything called out?
fp=0 lines=0 quiet=0 busy=0
SAME=(-f 3000 -F 10 -s 64k -t se,pa -i 3 --no-drop-caches)
for i in $(seq 1 20); do
	for s in a b; do
		pfs_nodes 2 1 create-unlink -m "$T" "${SAME[@]}" --results "$SCRATCH/same$i$s.h5"
		[ "$RC" -eq 0 ] || { not_ok "pair $i run $s: exit $RC"; show_run; }
	done
	"$PFSBENCH" compare "$SCRATCH/same${i}a.h5" "$SCRATCH/same${i}b.h5" --csv >"$SCRATCH/same$i.csv"
	"$PFSBENCH" compare "$SCRATCH/same${i}a.h5" "$SCRATCH/same${i}b.h5" >"$SCRATCH/same$i.txt"
	n=$(awk -F, '{ sub(/\r$/, "") } NR > 1 && $4 == 2 && $18 == "true"' "$SCRATCH/same$i.csv" | wc -l)
	if [ "$n" -gt 0 ]; then
		fp=$((fp + 1)) lines=$((lines + n))
	fi
	# each line called out, or beyond the noise and 10 % but under 10 ms:
	# its change, interval and both runs' median step (us)
	awk -F, -v pair="$i" '{ sub(/\r$/, "") } NR > 1 && $4 == 1 { step[$1 " " $2] = $11 }
		NR > 1 && $4 == 2 && ($18 == "true" || (($15 > 1 || $16 < 1) && ($14 > 1.1 || $14 < 1 / 1.1))) {
			print "# pair " pair ": " $1 " " $2 " " $17 " (" $15 "-" $16 "), steps " \
				step[$1 " " $2] " and " $11 " us: " ($18 == "true" ? "called out" : "short or busy") }' \
		"$SCRATCH/same$i.csv"
	q=$(sed -n 's/^short: \([0-9]*\) line.*/\1/p' "$SCRATCH/same$i.txt")
	quiet=$((quiet + ${q:-0}))
	q=$(sed -n 's/^busy: \([0-9]*\) line.*/\1/p' "$SCRATCH/same$i.txt")
	busy=$((busy + ${q:-0}))
done
echo "# false positives: $fp of 20 pairs of one configuration had a line called out ($lines of 160 lines);" \
	"$quiet lines marked short (beyond the noise, moving the steps by under 10 ms)" \
	"and $busy busy (beyond the noise, but the ranks' waits for a CPU account for it); load $(cut -d' ' -f1-3 /proc/loadavg)"
check "20 pairs of one configuration: at most 3 with a line called out ($fp)" test "$fp" -le 3
echo "# compare.sh took $((SECONDS - t0)) s"
finish
