#!/bin/bash
# run-bench-stream.sh: pfsbench stream against GNU dd and fio, 1 rank, one
# 1 GiB file in 1 MiB requests on the same filesystem: a write ended by
# fsync inside the timing, then a read after a cache drop. The filesystem is
# BENCH_DIR, or by default an ext4 the script makes on a loop device whose
# image lives in /dev/shm: a disk that always answers at memory speed, so
# that the three tools' own costs decide, not a shared machine's disk (on a
# virtual machine the host's cache and its neighbours make a real disk's
# rate swing 3x between runs of the same command). The commands:
#   dd bs=1M count=1024 conv=fsync             dd if=FILE of=/dev/null bs=1M
#   fio --rw=write --bs=1M --end_fsync=1       fio --rw=read --bs=1M
#   pfsbench stream -b 1M -s 1g -y -o DIR --keep    pfsbench stream -b 1M -s 1g -i DIR
# Method (bench/lib.sh): every side on one CPU, a warm-up round each, then
# REPS rounds (default 9) interleaved and rotated; before each write and
# each read the page cache is synced, 1 s passes for the kernel's deferred
# work, and the cache is dropped: by the script right before dd and fio,
# by pfsbench itself, in its plan (until 2026-12-07 the script dropped it
# before pfsbench too). Rates are each tool's own: dd's bytes over the
# seconds it prints, fio's io_bytes over its runtime (which includes end_fsync),
# pfsbench's row (bytes over elapsed_us, fsync included). CPU per byte:
# user + system time of the dd and fio processes (and fio's job process),
# and the rank's CPU over the stream (the row's cpu_us; the whole mpirun
# job's, start-up included, is shown beside it). Median and p25-p75.
# Targets: rate >= 0.95x the faster of dd and fio; CPU per byte <= 1.1x dd's.
# Environment: PFSBENCH, MPIRUN, BENCH_DIR (e.g. /var/tmp for the machine's
# disk), REPS, SIZE_MIB (default 1024), BENCH_CPU. Needs root (drop_caches,
# the loop device) and fio (Debian: apt-get install fio).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
MIB=${SIZE_MIB:-1024}
bench_need fio time drop
trap undo_all EXIT
if [ -n "${BENCH_DIR:-}" ]; then
	base=$BENCH_DIR
else
	ext4_on_shm bench-stream $((MIB * 3)) || exit
	base=$EXT4_DIR
fi
work=$(mktemp -d "$base/pfsbench-bench-stream.XXXXXX") || exit 1
undo+=("rm -rf '$work'")
mkdir "$work/run"
cd "$work" || exit 1
F=$work/file

# Before each write and each read: the last run's deferred work (freeing a
# removed 1 GiB file, the journal) finishes first, then the cache goes.
# pfsbench's side only settles: it drops the cache itself, in its plan,
# right before each phase. A drop here as well, half a second before its
# own, would leave its own with nothing to free, and on a virtual machine
# that returns freed memory to its host the read would refill memory the
# host had taken back (docs/benchmarks.md, "stream on the ext4").
drop() {
	settle
	echo 3 >/proc/sys/vm/drop_caches
}

# Each side appends "OP bytes seconds cpu_seconds [job_cpu_seconds]" lines.
dd_side() {
	local out=$work/dd.rates cpu
	[ "$1" = warm ] && out=/dev/null
	drop
	cpu=$(timed "$work/o" dd if=/dev/zero of="$F" bs=1M count="$MIB" conv=fsync) || return 1
	awk -v c="$cpu" '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") print "write", $1, $(i-1), c }' "$work/o" >>"$out"
	drop
	cpu=$(timed "$work/o" dd if="$F" of=/dev/null bs=1M) || return 1
	awk -v c="$cpu" '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") print "read", $1, $(i-1), c }' "$work/o" >>"$out"
	rm -f "$F"
}

fio_line() { # OP CPU: fio's JSON in $work/o as a rates line
	/usr/bin/python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
print(sys.argv[2], j["io_bytes"], j["runtime"] / 1000, sys.argv[3])' "$work/o" "$1" "$2"
}
fio_side() {
	local out=$work/fio.rates cpu
	[ "$1" = warm ] && out=/dev/null
	drop
	cpu=$(timed "$work/o" fio --name=w --filename="$F" --rw=write --bs=1M --size="${MIB}M" \
		--end_fsync=1 --output-format=json) || return 1
	fio_line write "$cpu" >>"$out" || return 1
	drop
	cpu=$(timed "$work/o" fio --name=r --filename="$F" --rw=read --bs=1M --size="${MIB}M" \
		--output-format=json) || return 1
	fio_line read "$cpu" >>"$out" || return 1
	rm -f "$F"
}

pfs_line() { # OP JOB-CPU: the row of results file $work/r.h5 as a rates line
	"$PFSBENCH" export "$work/r.h5" --csv | tr -d '\r' | awk -F, -v op="$1" -v job="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print op, $c["bytes"], $c["elapsed_us"] / 1e6, $c["cpu_us"] / 1e6, job }'
	rm -f "$work/r.h5"
}
pfs_side() {
	local out=$work/pfs.rates cpu
	[ "$1" = warm ] && out=/dev/null
	settle
	cpu=$(timed "$work/o" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream -o "$work/run" -b 1M \
		-s "${MIB}M" -y --keep --progress=never --results "$work/r.h5") || return 1
	pfs_line write "$cpu" >>"$out"
	settle
	cpu=$(timed "$work/o" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream -i "$work/run" -b 1M \
		-s "${MIB}M" --progress=never --results "$work/r.h5") || return 1
	pfs_line read "$cpu" >>"$out"
}

echo "pfsbench stream against dd and fio: 1 rank, $MIB MiB in 1 MiB requests on $base ($(findmnt -n -o FSTYPE,SOURCE --target "$base")), CPU $BENCH_CPU, $REPS rounds after a warm-up"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rounds "$REPS" dd_side fio_side pfs_side || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# per OP FILE: "MiB_per_s cpu_ns_per_byte job_cpu_ns_per_byte" lines of OP
per() {
	awk -v op="$1" '$1 == op { print $2 / 1048576 / $3, $4 * 1e9 / $2, ($5 == "" ? 0 : $5) * 1e9 / $2 }' "$2" >"$work/per"
}
report() { # OP
	local op=$1 d dc f fc p pc pj
	per "$op" "$work/dd.rates"; d=$(stats "$work/per" 1); dc=$(stats "$work/per" 2)
	per "$op" "$work/fio.rates"; f=$(stats "$work/per" 1); fc=$(stats "$work/per" 2)
	per "$op" "$work/pfs.rates"; p=$(stats "$work/per" 1); pc=$(stats "$work/per" 2); pj=$(stats "$work/per" 3)
	awk -v op="$op" -v d="$d" -v dc="$dc" -v f="$f" -v fc="$fc" -v p="$p" -v pc="$pc" -v pj="$pj" 'BEGIN {
		split(d, D, " "); split(dc, DC, " "); split(f, F, " "); split(fc, FC, " ")
		split(p, P, " "); split(pc, PC, " "); split(pj, PJ, " ")
		best = D[1] > F[1] ? D[1] : F[1]
		printf "%s: median (p25-p75) MiB/s; CPU ns per byte\n", op
		printf "  %-9s %7.1f (%.1f-%.1f)   %.3f (%.3f-%.3f)\n", "dd", D[1], D[2], D[3], DC[1], DC[2], DC[3]
		printf "  %-9s %7.1f (%.1f-%.1f)   %.3f (%.3f-%.3f)\n", "fio", F[1], F[2], F[3], FC[1], FC[2], FC[3]
		printf "  %-9s %7.1f (%.1f-%.1f)   %.3f (%.3f-%.3f); the whole mpirun job %.3f\n", "pfsbench", P[1], P[2], P[3], PC[1], PC[2], PC[3], PJ[1]
		printf "  rate %.2fx the faster of dd and fio (target >= 0.95); CPU per byte %.2fx dd'"'"'s (target <= 1.1)\n", P[1] / best, PC[1] / DC[1]
	}'
}
report write
report read
echo "every round (MiB/s / CPU ns per byte), write then read:"
for side in dd fio pfs; do
	for op in write read; do
		per "$op" "$work/$side.rates"
		printf '  %-3s %-5s %s\n' "$side" "$op" "$(awk '{ printf "%.0f/%.2f ", $1, $2 }' "$work/per")"
	done
done
