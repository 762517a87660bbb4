#!/bin/bash
# run-bench-matrix.sh: one row of pfsbench matrix's cells against GNU dd
# with the same request and transfer size, 1 rank, on tmpfs (/dev/shm) and
# on a disk: by default ext4 on a loop device whose image is in /dev/shm
# (bench/lib.sh's ext4_on_shm: the tools' costs decide, not a shared
# machine's disk; BENCH_IMG_DIR=/var/tmp puts the image on the machine's
# disk), or the filesystem of BENCH_DIR:
#   dd if=/dev/zero of=F bs=REQ count=XFER/REQ conv=fsync         each cell's write
#   dd if=F of=/dev/null bs=REQ count=XFER/REQ                     each cell's read
#   pfsbench matrix --write DIR --req 1k..4m --xfer XFER           the row's 13 writes
#   pfsbench matrix --read DIR --req 1k..4m --xfer XFER            the row's 13 reads
# Method (bench/lib.sh): every side on one CPU, a warm-up round each, then
# REPS rounds (default 9) interleaved and rotated. On the disk the cache is
# dropped before every cell on both sides (pfsbench drops it itself, as its
# plan does; the script before each dd); on tmpfs there is nothing to drop
# and pfsbench runs with --no-drop-caches. Rates are each tool's own: dd's
# bytes over the seconds it prints (copying, fsync and close), pfsbench's
# row (bytes over elapsed_us: the requests and the fsync). CPU per request:
# the dd process's user + system time (its start and its reads of
# /dev/zero included) / requests; the rank's CPU over the cell (the row's
# cpu_us) / requests. Median and p25-p75 per cell.
# Target: pfsbench's rate >= 0.95x dd's in every cell.
# Environment: PFSBENCH, MPIRUN, BENCH_DIR, BENCH_IMG_DIR, REPS, XFER_TMPFS (default 64m),
# XFER_EXT4 (the disk's, default 16m), REQS (default 1k..4m), BENCH_CPU.
# Needs root (drop_caches, losetup, mount).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
XFER_TMPFS=${XFER_TMPFS:-64m}
XFER_EXT4=${XFER_EXT4:-16m}
REQS=${REQS:-1k..4m}

bench_need time drop
trap undo_all EXIT
work=$(mktemp -d /tmp/pfsbench-bench-matrix.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
shm=$(mktemp -d /dev/shm/pfsbench-bench-matrix.XXXXXX) || exit 1
undo+=("rm -rf '$shm'")
if [ -n "${BENCH_DIR:-}" ]; then
	disk=$(mktemp -d "$BENCH_DIR/pfsbench-bench-matrix.XXXXXX") || exit 1
	undo+=("rm -rf '$disk'")
	disk_name="$BENCH_DIR ($(stat -f -c %T "$BENCH_DIR"))"
else
	ext4_on_shm bench-matrix 512 || exit
	img_dir=${BENCH_IMG_DIR:-/dev/shm}
	disk=$EXT4_DIR disk_name="ext4 on a loop device whose image is in $img_dir ($(stat -f -c %T "$img_dir"))"
fi
cd "$work" || exit 1

# bytes SIZE: 64m as bytes
bytes() {
	local s=$1
	case $s in
	*k) echo $((${s%k} << 10)) ;;
	*m) echo $((${s%m} << 20)) ;;
	*g) echo $((${s%g} << 30)) ;;
	*) echo "$s" ;;
	esac
}
# the request sizes of REQS (A..B doubling, or a comma list) in bytes
reqs=()
for item in ${REQS//,/ }; do
	if [[ $item == *..* ]]; then
		lo=$(bytes "${item%..*}") hi=$(bytes "${item#*..}")
		for ((r = lo; r <= hi; r *= 2)); do reqs+=("$r"); done
	else
		reqs+=("$(bytes "$item")")
	fi
done

drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# Each side appends "OP REQ bytes seconds cpu_seconds requests" lines to
# $work/<side>.<fs>.rates. FS, DIR, XFER and COLD (drop caches) say where.
dd_line() { # OP REQ CPU: dd's output in $work/o as a rates line
	awk -v op="$1" -v req="$2" -v c="$3" '/copied/ {
		for (i = 1; i <= NF; i++) if ($i == "s,") print op, req, $1, $(i-1), c, $1 / req }' "$work/o"
}
dd_side() {
	local out=$work/dd.$FS.rates req n cpu f=$DIR/dd.file
	[ "$1" = warm ] && out=/dev/null
	for req in "${reqs[@]}"; do
		n=$((XFER / req))
		[ "$COLD" = 1 ] && drop
		cpu=$(timed "$work/o" dd if=/dev/zero of="$f" bs="$req" count="$n" conv=fsync) || return 1
		dd_line write "$req" "$cpu" >>"$out"
		[ "$COLD" = 1 ] && drop
		cpu=$(timed "$work/o" dd if="$f" of=/dev/null bs="$req" count="$n") || return 1
		dd_line read "$req" "$cpu" >>"$out"
		rm -f "$f"
	done
}

pfs_lines() { # the rows of results file $work/r.h5 as rates lines
	"$PFSBENCH" export "$work/r.h5" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print tolower($c["op"]), $c["bytes"] / $c["items"], $c["bytes"], $c["elapsed_us"] / 1e6,
			$c["cpu_us"] / 1e6, $c["items"] }'
	rm -f "$work/r.h5"
}
pfs_side() {
	local out=$work/pfs.$FS.rates op drop_opt=()
	[ "$1" = warm ] && out=/dev/null
	[ "$COLD" = 1 ] || drop_opt=(--no-drop-caches)
	for op in write read; do
		timed "$work/o" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" matrix --"$op" "$DIR" \
			--req "$REQS" --xfer "$XFER" --progress=never "${drop_opt[@]}" \
			--results "$work/r.h5" >/dev/null || return 1
		pfs_lines >>"$out"
	done
}

report() { # FS LABEL
	local fs=$1 op req
	echo "$2, one row of $XFER_LABEL: median (p25-p75) MiB/s; CPU ns per request (dd's includes its start)"
	for op in write read; do
		for req in "${reqs[@]}"; do
			for side in dd pfs; do
				awk -v op="$op" -v req="$req" '$1 == op && $2 == req {
					print $3 / 1048576 / $4, $5 * 1e9 / $6 }' "$work/$side.$fs.rates" >"$work/per.$side"
			done
			awk -v op="$op" -v req="$req" -v d="$(stats "$work/per.dd" 1)" -v dc="$(stats "$work/per.dd" 2)" \
				-v p="$(stats "$work/per.pfs" 1)" -v pc="$(stats "$work/per.pfs" 2)" 'BEGIN {
				split(d, D, " "); split(dc, DC, " "); split(p, P, " "); split(pc, PC, " ")
				r = D[1] > 0 ? P[1] / D[1] : 0
				printf "  %-5s %7s  dd %8.1f (%.1f-%.1f)  pfsbench %8.1f (%.1f-%.1f)  ratio %.2f%s  CPU/req dd %.0f pfsbench %.0f\n",
					op, (req >= 1048576 ? req / 1048576 "MiB" : req / 1024 "KiB"), D[1], D[2], D[3],
					P[1], P[2], P[3], r, (r >= 0.95 ? "" : " (< 0.95)"), DC[1], PC[1]
			}'
		done
	done
}

echo "pfsbench matrix against dd: 1 rank, requests $REQS, on tmpfs ($XFER_TMPFS a cell) and on $disk_name ($XFER_EXT4 a cell), CPU $BENCH_CPU, $REPS rounds after a warm-up"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# tmpfs: nothing to drop.
FS=tmpfs DIR=$shm XFER=$(bytes "$XFER_TMPFS") XFER_LABEL=$XFER_TMPFS COLD=0
rounds "$REPS" dd_side pfs_side || exit 1
report tmpfs tmpfs
echo "load after tmpfs: $(cut -d' ' -f1-3 /proc/loadavg)"

# The disk, caches dropped before every cell.
FS=disk DIR=$disk XFER=$(bytes "$XFER_EXT4") XFER_LABEL=$XFER_EXT4 COLD=1
rounds "$REPS" dd_side pfs_side || exit 1
report disk "$disk_name"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
