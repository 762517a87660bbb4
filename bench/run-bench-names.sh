#!/bin/bash
# run-bench-names.sh: what the names alone cost ext4's directory. One C loop
# (bench/baseline_names.c: openat O_CREAT|O_EXCL|O_NOFOLLOW + close, then
# unlinkat, FILES files in one new directory) with four styles of name:
# f (f0000000000: pfsbench create-unlink's), mdtest (file.mdtest.0.N),
# short (fN) and tagged (f0000000000.0.1: create-unlink --shared-dir's, as
# long as mdtest's). On an ext4 made on a loop device whose image lives on the
# machine's disk (BENCH_IMG_DIR, default /var/tmp), and on a tmpfs for
# contrast. Method (bench/lib.sh): one CPU, a warm-up round each, then
# ROUNDS (default 9) interleaved rounds in a Williams order; sync before
# every round. Per style the median and p25-p75 of CPU time (user + system)
# per file, which is steadier than wall time on a shared machine, and of
# files/s; the ratio of each style's median to mdtest's.
# Environment: BASELINE (bench/baseline_names), FILES (default 50000),
# ROUNDS, BENCH_IMG_DIR, BENCH_CPU. Needs root (losetup, mount).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
BASELINE=$(realpath "${BASELINE:-bench/baseline_names}")
FILES=${FILES:-50000}
ROUNDS=${ROUNDS:-9}
export BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp}

trap undo_all EXIT
# An inode per 16 KiB: 1 GiB holds 65536, 2 GiB room for 100k files and more.
ext4_on_shm bench-names $(((FILES / 50000 + 1) * 1024)) || exit
work=$(mktemp -d /tmp/pfsbench-bench-names.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
shm=$(mktemp -d /dev/shm/pfsbench-bench-names.XXXXXX) || exit 1
undo+=("rm -rf '$shm'")

# side STYLE ROUND: one run of the loop in a new directory of $FS_DIR,
# its line appended to $work/$FS.STYLE.
side() {
	local out=$work/$FS.$1
	[ "$2" = warm ] && out=/dev/null
	sync
	mkdir "$FS_DIR/$1" || return 1
	on_cpu "$BASELINE" "$FS_DIR/$1" "$FILES" "$1" >>"$out" || return 1
	rmdir "$FS_DIR/$1"
}
f_side() { side f "$1"; }
mdtest_side() { side mdtest "$1"; }
short_side() { side short "$1"; }
tagged_side() { side tagged "$1"; }

report() { # FS LABEL
	local s
	echo "$2: $FILES files, $ROUNDS rounds; median (p25-p75)"
	printf '  %-7s %-22s %-22s %-22s %-22s %s\n' style "Create CPU us/file" "Unlink CPU us/file" \
		"Create files/s" "Unlink files/s" "CPU vs mdtest's (create, unlink)"
	read -r mc _ <<<"$(stats "$work/$1.mdtest" 3)"
	read -r mu _ <<<"$(stats "$work/$1.mdtest" 4)"
	for s in f mdtest short tagged; do
		awk -v n="$FILES" -v s="$s" -v mc="$mc" -v mu="$mu" \
			-v cc="$(stats "$work/$1.$s" 3)" -v uc="$(stats "$work/$1.$s" 4)" \
			-v cw="$(stats "$work/$1.$s" 1)" -v uw="$(stats "$work/$1.$s" 2)" 'BEGIN {
			split(cc, C, " "); split(uc, U, " "); split(cw, CW, " "); split(uw, UW, " ")
			printf "  %-7s %-22s %-22s %-22s %-22s %.3fx, %.3fx\n", s,
				sprintf("%.2f (%.2f-%.2f)", C[1] / n, C[2] / n, C[3] / n),
				sprintf("%.2f (%.2f-%.2f)", U[1] / n, U[2] / n, U[3] / n),
				sprintf("%.0f (%.0f-%.0f)", n * 1e6 / CW[1], n * 1e6 / CW[3], n * 1e6 / CW[2]),
				sprintf("%.0f (%.0f-%.0f)", n * 1e6 / UW[1], n * 1e6 / UW[3], n * 1e6 / UW[2]),
				C[1] / mc, U[1] / mu
		}'
	done
}

echo "names on ext4 and tmpfs: bench/baseline_names, 1 process on CPU $BENCH_CPU"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
FS=ext4 FS_DIR=$EXT4_DIR
rounds "$ROUNDS" f_side mdtest_side short_side tagged_side || exit 1
echo "load after ext4: $(cut -d' ' -f1-3 /proc/loadavg)"
FS=tmpfs FS_DIR=$shm
rounds "$ROUNDS" f_side mdtest_side short_side tagged_side || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
report ext4 "ext4 on a loop device, image in $BENCH_IMG_DIR ($(stat -f -c %T "$BENCH_IMG_DIR"))"
report tmpfs tmpfs
echo "CPU vs mdtest's: a style's median CPU per file over the mdtest style's (above 1: slower)"
