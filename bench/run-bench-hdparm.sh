#!/bin/bash
# run-bench-hdparm.sh: pfsbench stream --format hdparm against hdparm -Tt
# (Debian's hdparm) on the same loop device, 1 rank: the cached reads' and
# the buffered disk reads' MB/sec, as each tool prints them, and the CPU
# time of each whole command. The device is a loop device on an image in
# /dev/shm (BENCH_IMG_DIR elsewhere) of SIZE_MIB MiB (default 512) of
# random bytes: its buffered reads come from the image's pages at memory
# speed (BLKFLSBUF empties the loop device's cache, not its backing
# file's), so both tools read the same bytes at the same speed and their
# own costs decide; at this size the buffered reads reach the device's end
# before 3 s, so both read all of it. Method (bench/lib.sh): both sides on
# one CPU, a warm-up round each, then REPS rounds (default 9) interleaved,
# the first side alternating; median and p25-p75 of each, the ratio of the
# medians pfsbench / hdparm, and the load average before and after.
# Environment: PFSBENCH, MPIRUN, REPS, SIZE_MIB, BENCH_IMG_DIR, BENCH_CPU.
# Needs root (the loop device, BLKFLSBUF) and hdparm.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
MIB=${SIZE_MIB:-512}
HDPARM=${HDPARM:-$(command -v hdparm || echo /usr/sbin/hdparm)}

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a loop device, BLKFLSBUF)"; exit 77; }
[ -x "$HDPARM" ] || { echo "SKIP: no hdparm (Debian: apt-get install hdparm)"; exit 77; }
bench_need time
trap undo_all EXIT
work=$(mktemp -d /tmp/pfsbench-bench-hdparm.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
img=$(mktemp "${BENCH_IMG_DIR:-/dev/shm}/pfsbench-hdparm.XXXXXX") || exit 1
undo+=("rm -f '$img'")
head -c $((MIB << 20)) /dev/urandom >"$img" || exit 1
DEV=$(losetup --find --show "$img") || { echo "SKIP: no loop device"; exit 77; }
undo+=("losetup -d '$DEV'")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# each round's "cached-MB/s buffered-MB/s cpu-s" (kB/sec as MB/sec / 1024)
figures() {
	awk '/^ Timing cached/ { c = $(NF - 1); if ($NF == "kB/sec") c /= 1024 }
	     /^ Timing buffered/ { b = $(NF - 1); if ($NF == "kB/sec") b /= 1024 }
	     END { printf "%s %s", c, b }' "$1"
}
side_hdparm() {
	local cpu
	cpu=$(timed "$work/h.out" "$HDPARM" -Tt "$DEV") || return 1
	[ "$1" = warm ] || echo "$(figures "$work/h.out") $cpu" >>"$work/hdparm"
}
side_pfsbench() {
	local cpu
	rm -f "$work/r.h5"
	cpu=$(timed "$work/p.out" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream --format hdparm \
		-i "$DEV" --results "$work/r.h5") || return 1
	[ "$1" = warm ] || echo "$(figures "$work/p.out") $cpu" >>"$work/pfsbench"
}
rounds "$REPS" side_hdparm side_pfsbench || { echo "bench-hdparm: a round failed"; exit 1; }

echo "hdparm -Tt and pfsbench stream --format hdparm on $DEV ($MIB MiB in ${BENCH_IMG_DIR:-/dev/shm}),"
echo "1 rank, CPU $BENCH_CPU, $REPS rounds: median (p25-p75)"
printf '%-28s %-30s %-30s %s\n' "" "hdparm" "pfsbench" "pfsbench / hdparm"
for col in 1:"cached reads MB/sec" 2:"buffered reads MB/sec" 3:"CPU s per command"; do
	c=${col%%:*}
	read -r hm h25 h75 <<<"$(stats "$work/hdparm" "$c")"
	read -r pm p25 p75 <<<"$(stats "$work/pfsbench" "$c")"
	printf '%-28s %-30s %-30s %s\n' "${col#*:}" "$hm ($h25-$h75)" "$pm ($p25-$p75)" \
		"$(awk -v p="$pm" -v h="$hm" 'BEGIN { if (h > 0) printf "%.2f", p / h; else print "-" }')"
done
echo "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
