#!/bin/bash
# hdparm.sh: pfsbench stream --format hdparm against the real hdparm -Tt
# (Debian's hdparm) on a loop device this test makes: on 2 simulated nodes
# every timing line matches hdparm's own line word for word but for the
# figures, one pair per node under "NODE:DEVICE:"; `show` of the results
# file prints the same lines; pfsbench's best rate is within a factor of
# 10 of hdparm's best on the same device, each taken from runs in turns
# (loosely: the machine is busy; this catches a unit slip, and
# bench/run-bench-hdparm.sh compares the figures); with 3 nodes,
# one slowed by the fault shim, the note names it and only it. A file, a
# directory and a missing device are refused with one line, exit 2, and
# nothing is created; the device is only read.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

pfs_need_root "a loop device"
need_pkg hdparm
command -v losetup >/dev/null || skip "no losetup"

img=$SCRATCH/disk.img
head -c $((64 << 20)) /dev/urandom >"$img"
DEV=$(losetup --find --show "$img") || skip "cannot attach a loop device"
T_CLEANUP+=("losetup -d '$DEV'")
sum_before=$(md5sum <"$DEV")

# hdparm's two lines, and the same with the figures taken out
LINE_RE='^ Timing (cached reads:   |buffered disk reads: ) *[0-9]+ MB in +[0-9]+\.[0-9]{2} seconds = +[0-9]+\.[0-9]{2} [kM]B/sec$'
words() { sed -E 's/ +[0-9]+(\.[0-9]+)?/ N/g'; }

hdparm -Tt "$DEV" >"$SCRATCH/hdparm.out" 2>&1
check "hdparm -Tt $DEV: exit 0" test $? -eq 0
grep '^ Timing' "$SCRATCH/hdparm.out" >"$SCRATCH/hdparm.lines"
check "hdparm prints 2 timing lines, both of the pattern" \
	test "$(grep -cE "$LINE_RE" "$SCRATCH/hdparm.lines")" -eq 2
check "hdparm names the device above them" grep -qx "$DEV:" "$SCRATCH/hdparm.out"

res=$SCRATCH/hd.h5
pfs_nodes 2 1 stream --format hdparm -i "$DEV" --results "$res"
check "stream --format hdparm on 2 nodes: exit 0" test "$RC" -eq 0
grep '^ Timing' "$OUT" >"$SCRATCH/pfs.lines"
check "4 timing lines, a pair per node" test "$(wc -l <"$SCRATCH/pfs.lines")" -eq 4
check "every line matches hdparm's pattern" \
	test "$(grep -cE "$LINE_RE" "$SCRATCH/pfs.lines")" -eq 4
check "word for word hdparm's lines but for the figures" \
	test "$(words <"$SCRATCH/pfs.lines" | sort -u)" = "$(words <"$SCRATCH/hdparm.lines" | sort -u)"
for n in node1 node2; do
	check "$n: 'NODE:DEVICE:', then cached, then buffered" test "$(grep -A2 -x "$n:$DEV:" "$OUT" |
		sed -E 's/:.*//' | tr '\n' '|')" = "$n| Timing cached reads| Timing buffered disk reads|"
done
check "a note on the odd node out for each timing" \
	test "$(grep -c '^Timing .*: no odd node out: 2 nodes' "$OUT")" -eq 2
check "the device was only read" test "$(md5sum <"$DEV")" = "$sum_before"

"$PFSBENCH" show "$res" >"$SCRATCH/show.out" 2>&1
check "show: exit 0" test $? -eq 0
check "show prints the same hdparm lines and notes" test \
	"$(grep -E '^ Timing|^node[12]:|odd node' "$SCRATCH/show.out")" = \
	"$(grep -E '^ Timing|^node[12]:|odd node' "$OUT")"

# hdparm again after pfsbench, so that each side's figures come from runs
# taken in turns (hdparm, pfsbench, hdparm, pfsbench, hdparm). The 64 MB
# device is read in 0.03 to 0.15 s, so one run each is a coin toss on a busy
# machine: a fresh-machine CI run once had hdparm at 149.80 MB/s against
# pfsbench's 1683.46, where this machine idle gives 486-559 and 995-2074.
hdparm_again() {
	hdparm -Tt "$DEV" 2>&1 | grep '^ Timing' >>"$SCRATCH/hdparm.lines"
}
hdparm_again

# ---- the odd node out: node3's reads each 1 s late (the fault shim), so
# its rates are a few MB/s against the others' hundreds ----------------------
if [ -x "${PFSFAULT:-}" ] || [ -f "${PFSFAULT:-}" ]; then
	PFSBENCH=$(faulty "delay pread 1s node=node3") \
		pfs_nodes 3 1 stream --format hdparm -i "$DEV" --results "$SCRATCH/odd.h5"
	check "3 nodes, node3 slow: exit 0" test "$RC" -eq 0
	for t in "cached reads" "buffered disk reads"; do
		check "$t: the note names node3, and only node3" test \
			"$(grep "^Timing $t: " "$OUT" | sed -E 's/, [0-9.]+x slower.*//')" = \
			"Timing $t: odd node out: node3"
	done
	check "show names node3 as the run did" test \
		"$("$PFSBENCH" show "$SCRATCH/odd.h5" 2>&1 | grep 'odd node out')" = "$(grep 'odd node out' "$OUT")"
	# node1 and node2 ran at full speed: two more of pfsbench's figures
	grep -A2 -E '^node[12]:' "$OUT" | grep '^ Timing' >>"$SCRATCH/pfs.lines"
	hdparm_again
else
	not_ok "the odd node out: no fault shim (PFSFAULT) to slow a node"
fi

# MB/sec (kB/sec / 1024) of the line of a timing
rate() { awk -v t="$1" '$0 ~ t { r = $(NF - 1); if ($NF == "kB/sec") r /= 1024; print r }'; }
for t in cached buffered; do
	h=$(rate "$t" <"$SCRATCH/hdparm.lines" | sort -g | tail -1)
	p=$(rate "$t" <"$SCRATCH/pfs.lines" | sort -g | tail -1)
	check "$t reads: pfsbench's best ($p MB/s) within 10x of hdparm's best ($h MB/s), of $(rate "$t" <"$SCRATCH/pfs.lines" | wc -l) and $(rate "$t" <"$SCRATCH/hdparm.lines" | wc -l) figures" \
		awk -v h="$h" -v p="$p" 'BEGIN { exit !(p > h / 10 && p < h * 10) }'
done

# ---- refusals: one line, exit 2, nothing created ---------------------------------
refusals_of stream
echo data >"$D/file"
mkdir "$D/dir"
snapshot "$D"
refused 1 "'$D/file' is no block device: --format hdparm times a disk, as hdparm -Tt does" \
	--format hdparm -i "$D/file"
refused 1 "'$D/dir' is no block device: --format hdparm times a disk, as hdparm -Tt does" \
	--format hdparm -i "$D/dir"
refused 1 "cannot read '$D/none': No such file or directory" --format hdparm -i "$D/none"
refused 1 "--format hdparm times a block device: give it with -i DEVICE" --format hdparm -o "$D"
refused 1 "--format hdparm reads as hdparm -Tt does: not with -s" --format hdparm -i "$DEV" -s 1M
for f in "$D/file" "$D/dir" "$D/none"; do
	pfs 1 stream --format hdparm -i "$f"
	# the project's refusals add "Try 'pfsbench stream --help'." below
	check "'$f': one message" test "$(grep -c '^pfsbench stream: ' "$ERR")" -eq 1
done
finish
