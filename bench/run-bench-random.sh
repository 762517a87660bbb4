#!/bin/bash
# run-bench-random.sh: pfsbench stream --pattern random against fio, 1
# rank, random 4 KiB writes then reads of one file, each block once, at
# depth 1 (pread/pwrite; fio's psync engine) and depth 16 (io_uring; fio's
# io_uring engine), on a tmpfs and on an ext4 whose loop-file image is on
# the machine's disk (BENCH_IMG_DIR, default /var/tmp). The commands, for
# DEPTH 1 (ENGINE psync) and 16 (ENGINE io_uring):
#   fio --rw=randwrite --bs=4k --size=S --ioengine=ENGINE --iodepth=DEPTH --fallocate=none --invalidate=0
#   fio --rw=randread  --bs=4k --size=S --ioengine=ENGINE --iodepth=DEPTH --invalidate=0
#   pfsbench stream --pattern random --iodepth DEPTH -b 4k -s S -o DIR --keep --no-drop-caches
#   pfsbench stream --pattern random --iodepth DEPTH -b 4k -s S -i DIR --no-drop-caches
# Both visit every block once (fio's random map, pfsbench's permutation),
# buffered, no fsync, the page cache left as the write left it (the read
# finds the file cached: the tools' own costs decide, not the disk's), and
# the file removed after each read; fio lays out no blocks first
# (--fallocate=none), as pfsbench's write starts from an empty file, and
# keeps the cache (--invalidate=0, as pfsbench's --no-drop-caches). On a
# shared machine another program's drop_caches can still empty the cache
# between a write and its read: an ext4 read round far below the others is
# that (tmpfs cannot be dropped). With
# BENCH_DIRECT=1 both use O_DIRECT (fio --direct=1, pfsbench -x).
# Method (bench/lib.sh): both sides on one CPU, a warm-up round each, then
# REPS rounds (default 9) interleaved and rotated. IOPS are each tool's
# own: fio's iops (requests over its runtime), pfsbench's row (requests
# over elapsed_us). CPU per request, over the loop: fio's job CPU (usr_cpu
# + sys_cpu of job_runtime) / its requests; the rank's CPU over the stream
# (the row's cpu_us) / its requests. Beside them the whole process's (fio:
# user + system time of the fio processes; pfsbench: of the mpirun job),
# start-up included. Median and p25-p75. At depth 16 the loop's figures
# differ in what they count: fio's is its job thread's (RUSAGE_THREAD), so
# the io_uring worker threads (io-wq) that do requests the kernel cannot do
# inline are left out; pfsbench's row is the whole process's (RUSAGE_SELF),
# them included. The whole-process figures count both alike. Target: IOPS >= 0.95x fio's at depth 1 and 16, on both.
# Environment: PFSBENCH, MPIRUN, REPS, SIZE_MIB (default 128), BENCH_CPU,
# BENCH_IMG_DIR, BENCH_DIRECT, BENCH_FS ("tmpfs ext4", either or both).
# Needs root (the loop device) and fio (Debian: apt-get install fio).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
MIB=${SIZE_MIB:-128}
FSES=${BENCH_FS:-tmpfs ext4}

bench_need fio time
fio_direct=() pfs_direct=()
[ "${BENCH_DIRECT:-0}" = 1 ] && fio_direct=(--direct=1) pfs_direct=(-x)
trap undo_all EXIT

# OP CPU: fio's JSON in $work/o as "op iops requests cpu_s process_cpu_s": the
# job's CPU over its run (usr_cpu + sys_cpu, percentages of job_runtime),
# and the whole process's, start-up and layout included.
fio_line() {
	/usr/bin/python3 -c 'import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
j = job[sys.argv[2]]
cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100 * job["job_runtime"] / 1000
print(sys.argv[2], j["iops"], j["total_ios"], cpu, sys.argv[3])' "$work/o" "$1" "$2"
}
fio_side() {
	local out=$work/fio.rates cpu engine=psync
	[ "$1" = warm ] && out=/dev/null
	[ "$DEPTH" -gt 1 ] && engine=io_uring
	cpu=$(timed "$work/o" fio --name=w --filename="$F" --rw=randwrite --bs=4k --size="${MIB}M" \
		--ioengine=$engine --iodepth="$DEPTH" --fallocate=none --invalidate=0 "${fio_direct[@]}" \
		--output-format=json) || return 1
	fio_line write "$cpu" >>"$out" || return 1
	cpu=$(timed "$work/o" fio --name=r --filename="$F" --rw=randread --bs=4k --size="${MIB}M" \
		--ioengine=$engine --iodepth="$DEPTH" --invalidate=0 "${fio_direct[@]}" --output-format=json) || return 1
	fio_line read "$cpu" >>"$out" || return 1
	rm -f "$F"
}

pfs_line() { # OP JOB-CPU: the row of $work/r.h5 as "op iops requests cpu_s job_cpu_s"
	"$PFSBENCH" export "$work/r.h5" --csv | tr -d '\r' | awk -F, -v op="$1" -v job="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print op, $c["items"] / ($c["elapsed_us"] / 1e6), $c["items"], $c["cpu_us"] / 1e6, job }'
	rm -f "$work/r.h5"
}
pfs_side() {
	local out=$work/pfs.rates cpu
	local args=(--pattern random --iodepth "$DEPTH" -b 4k -s "${MIB}M" --no-drop-caches
		--progress=never --results "$work/r.h5" "${pfs_direct[@]}")
	[ "$1" = warm ] && out=/dev/null
	cpu=$(timed "$work/o" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream -o "$work/run" --keep \
		"${args[@]}") || return 1
	pfs_line write "$cpu" >>"$out"
	cpu=$(timed "$work/o" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream -i "$work/run" \
		"${args[@]}") || return 1
	pfs_line read "$cpu" >>"$out"
}

# per OP FILE: "iops cpu_us_per_request job_cpu_us_per_request" lines of OP
per() {
	awk -v op="$1" '$1 == op { print $2, $4 * 1e6 / $3, ($5 == "" ? 0 : $5) * 1e6 / $3 }' "$2" >"$work/per"
}
report() { # OP
	local op=$1 f fc fj p pc pj
	per "$op" "$work/fio.rates"; f=$(stats "$work/per" 1); fc=$(stats "$work/per" 2); fj=$(stats "$work/per" 3)
	per "$op" "$work/pfs.rates"; p=$(stats "$work/per" 1); pc=$(stats "$work/per" 2); pj=$(stats "$work/per" 3)
	awk -v op="$op" -v f="$f" -v fc="$fc" -v fj="$fj" -v p="$p" -v pc="$pc" -v pj="$pj" -v fs="$FS" -v d="$DEPTH" 'BEGIN {
		split(f, F, " "); split(fc, FC, " "); split(fj, FJ, " "); split(p, P, " "); split(pc, PC, " "); split(pj, PJ, " ")
		printf "%s depth %s rand%s: median [p25-p75] IOPS; CPU us per request\n", fs, d, op
		printf "  %-9s %9.0f [%.0f-%.0f]   %.2f [%.2f-%.2f]; whole process %.2f\n", "fio", F[1], F[2], F[3], FC[1], FC[2], FC[3], FJ[1]
		printf "  %-9s %9.0f [%.0f-%.0f]   %.2f [%.2f-%.2f]; whole mpirun job %.2f\n", "pfsbench", P[1], P[2], P[3], PC[1], PC[2], PC[3], PJ[1]
		printf "  IOPS %.2fx fio'"'"'s (target >= 0.95); CPU per request %.2fx fio'"'"'s\n", P[1] / F[1], PC[1] / FC[1]
	}'
}

for FS in $FSES; do
	if [ "$FS" = tmpfs ]; then
		base=$(mktemp -d /tmp/pfsbench-bench-random.XXXXXX) || exit 1
		undo+=("rmdir '$base'")
		mount -t tmpfs -o size=$((MIB * 3))m pfsbench-bench "$base" || exit 1
		undo+=("umount '$base'")
	else
		BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp} ext4_on_shm bench-random $((MIB * 3 + 64)) || exit
		base=$EXT4_DIR
	fi
	work=$(mktemp -d "$base/pfsbench-bench-random.XXXXXX") || exit 1
	undo+=("rm -rf '$work'")
	mkdir "$work/run"
	cd "$work" || exit 1
	F=$work/file
	for DEPTH in 1 16; do
		rm -f "$work"/*.rates
		echo "== $FS ($(findmnt -n -o FSTYPE,SOURCE --target "$base")), depth $DEPTH, $MIB MiB in 4 KiB requests, CPU $BENCH_CPU, $REPS rounds after a warm-up${fio_direct[*]:+, O_DIRECT}"
		echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
		rounds "$REPS" fio_side pfs_side || exit 1
		echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
		report write
		report read
		for side in fio pfs; do
			for op in write read; do
				per "$op" "$work/$side.rates"
				printf '  %-3s %-5s IOPS/CPU us: %s\n' "$side" "$op" "$(awk '{ printf "%.0f/%.2f ", $1, $2 }' "$work/per")"
			done
		done
	done
	cd / || exit 1
done
