#!/bin/bash
# run-bench-bonnie.sh: pfsbench bonnie with 1 rank against Debian's bonnie++
# on the same tmpfs and on the same ext4 loop device, with the same sizes.
# Method (bench/lib.sh): both on one CPU (BENCH_CPU), a warm-up run of
# each side thrown away, then REPS rounds (default 9) of the four sides
# (tmpfs and ext4, each tool), in bench/lib.sh's balanced order; for each
# test the median and p25-p75 of the rate bonnie++'s CSV line shows (its
# %CPU too), the ratio of the medians (target >= 0.95, README says where
# it is not met and why), and CPU time per unit, %CPU / 100 / rate.
# The sizes make every test last more than bonnie++'s 0.5 s, below which
# it prints +++++ instead of a rate: on the tmpfs -s 4g:8k:200000 -r 2048
# -n 256, on the ext4 -s 2g:8k:200000 -r 1024 -n 256 (200000 seeks instead
# of 8192, which take 0.05 s). Then, under callgrind, user-space
# instructions per 1-byte call of the per-char tests, from two runs of each
# tool with and without them (-s 3 -n 0, 1 seek): the difference over the
# 2 x 3 MiB calls.
# Root only (a tmpfs and an ext4 loop device of its own; bonnie++ -u root).
# Environment: PFSBENCH, MPIRUN, BONNIE (default bonnie++), REPS, BENCH_CPU;
# BENCH_TMPFS_ARGS and BENCH_EXT4_ARGS replace the sizes, BENCH_FS=tmpfs or
# ext4 runs the sides of that filesystem only (an ext4 round takes 4 times
# a tmpfs one), BENCH_CALLGRIND=0 skips the instruction counts (a quick
# try).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
MPIRUN=${MPIRUN:-mpirun}
BONNIE=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
REPS=${REPS:-9}
BENCH_FS=${BENCH_FS:-tmpfs ext4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a tmpfs and a loop device)"; exit 77; }
[ -x "$BONNIE" ] || { echo "SKIP: no bonnie++ (apt-get install bonnie++)"; exit 77; }
case $BENCH_FS in
"tmpfs ext4" | tmpfs | ext4) ;;
*) echo "BENCH_FS: give tmpfs, ext4 or both ('tmpfs ext4'), not '$BENCH_FS'" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/pfsbench-bench-bonnie.XXXXXX) || exit 1
dev=
cleanup() {
	cd /
	mountpoint -q "$work/tmpfs" && umount "$work/tmpfs"
	mountpoint -q "$work/ext4" && umount "$work/ext4"
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$work/tmpfs" "$work/ext4" "$work/r"
mount -t tmpfs -o size=8g,nr_inodes=2m pfsbench-bench "$work/tmpfs" || exit 1
truncate -s 12G "$work/ext4.img"
dev=$(losetup --find --show "$work/ext4.img") || exit 1
mkfs.ext4 -q -F "$dev" && mount "$dev" "$work/ext4" || exit 1
cd "$work/r" || exit 1

declare -A ARGS=(
	[tmpfs]=${BENCH_TMPFS_ARGS:-"-s 4g:8k:200000 -r 2048 -n 256"}
	[ext4]=${BENCH_EXT4_ARGS:-"-s 2g:8k:200000 -r 1024 -n 256"}
)
TESTS=(putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del)

# A pause before each run lets the kernel finish the last run's work.
settle() {
	sync
	sleep 1
}
# Each side appends its CSV line (format 1.98) to SIDE.csv.
bonnie_side() { # FS ROUND
	local out=$work/bonnie-$1.csv
	[ "$2" = warm ] && out=/dev/null
	settle
	# shellcheck disable=SC2086
	on_cpu "$BONNIE" -q -d "$work/$1" ${ARGS[$1]} -u root -m bench 2>"$work/err" >>"$out" ||
		{ echo "bonnie++ failed on $1:"; cat "$work/err"; return 1; }
}
pfs_side() { # FS ROUND
	local out=$work/pfs-$1.csv
	[ "$2" = warm ] && out=/dev/null
	settle
	rm -f "$work/r/r.h5"
	# shellcheck disable=SC2086
	on_cpu "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" bonnie -d "$work/$1" ${ARGS[$1]} -m bench -q \
		--bonnie-version 1.98 --progress=never --results "$work/r/r.h5" 2>"$work/err" |
		head -1 >>"$out"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$work/err"; return 1; }
}
pfs_tmpfs() { pfs_side tmpfs "$1"; }
bonnie_tmpfs() { bonnie_side tmpfs "$1"; }
pfs_ext4() { pfs_side ext4 "$1"; }
bonnie_ext4() { bonnie_side ext4 "$1"; }
echo "pfsbench bonnie (1 rank) against $("$BONNIE" 2>&1 | sed -n 's/^Version: /bonnie++ /p'), CPU $BENCH_CPU, $REPS rounds after a warm-up; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
sides=()
for fs in $BENCH_FS; do
	sides+=("bonnie_$fs" "pfs_$fs")
done
rounds "$REPS" "${sides[@]}" || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# column FILE T: "rate cpu_us_per_unit" of test T (index into TESTS) in each
# 1.98 CSV line, NA when bonnie++'s line has no rate (+++++ or blank).
column() {
	awk -F, -v t="$2" '{
		f = t < 6 ? 10 + 2 * t : 27 + 2 * (t - 6)
		per = t == 0 || t == 3 ? 1024 : 1
		if ($f ~ /^[0-9.]+$/ && $f > 0) print $f, $(f + 1) / 100 * 1e6 / $f / per
		else print "NA NA"
	}' "$1"
}

for fs in $BENCH_FS; do
	echo
	echo "$fs (${ARGS[$fs]}): median (p25-p75) of the rates in each tool's CSV line, and"
	echo "CPU us per unit (KiB, seek, file) = %CPU / 100 / rate; for putc and getc, per 1-byte call"
	printf '  %-10s %-8s %24s %24s %7s %10s %10s\n' test unit bonnie++ pfsbench ratio "bonnie CPU" "pfs CPU"
	for t in "${!TESTS[@]}"; do
		column "$work/bonnie-$fs.csv" "$t" | grep -v NA >"$work/b"
		column "$work/pfs-$fs.csv" "$t" | grep -v NA >"$work/p"
		unit="files/s"
		[ "$t" -lt 5 ] && unit="KiB/s"
		[ "$t" -eq 5 ] && unit="seeks/s"
		read -r bm b25 b75 <<<"$(stats "$work/b" 1)"
		read -r pm p25 p75 <<<"$(stats "$work/p" 1)"
		read -r bc _ <<<"$(stats "$work/b" 2)"
		read -r pc _ <<<"$(stats "$work/p" 2)"
		awk -v t="${TESTS[t]}" -v u="$unit" -v bm="$bm" -v b25="$b25" -v b75="$b75" -v pm="$pm" \
			-v p25="$p25" -v p75="$p75" -v bc="$bc" -v pc="$pc" -v nb="$(wc -l <"$work/b")" \
			-v np="$(wc -l <"$work/p")" 'BEGIN {
			printf "  %-10s %-8s %10.0f (%.0f-%.0f) %10.0f (%.0f-%.0f) %7s %10.3f %10.3f%s\n", t, u,
				bm, b25, b75, pm, p25, p75, (bm > 0 ? sprintf("%.2fx", pm / bm) : "-"), bc, pc,
				(nb < 1 || np < 1) ? "  (too fast: +++++)" : (nb != np ? sprintf("  (%d/%d rounds with a rate)", nb, np) : "")
		}'
	done
done

# User-space instructions per 1-byte call (putc and getc together): the
# whole run with the per-char tests minus the run without (-f), over
# 2 x 3 MiB calls; 1 seek by 1 seeker, no file tests.
if [ "${BENCH_CALLGRIND:-1}" = 1 ] && command -v valgrind >/dev/null; then
	cg() { # OUT CMD...
		local out=$1
		shift
		valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1 || return 1
		awk '/^totals:/ { print $2 }' "$out"*
	}
	b1=$(cg "$work/cg-b1" "$BONNIE" -q -d "$work/tmpfs" -s 3:8k:1:1 -r 1 -n 0 -u root -m bench)
	b0=$(cg "$work/cg-b0" "$BONNIE" -q -d "$work/tmpfs" -s 3:8k:1:1 -r 1 -n 0 -f -u root -m bench)
	# pfsbench: inside its ops only, and the I/O tests' thread
	# (helper_main), where the 1-byte calls are; MPI's start-up spins a
	# varying number of times.
	in_ops=(--collect-atstart=no --toggle-collect=bonnie_run_op --toggle-collect=helper_main)
	p1=$(cg "$work/cg-p1" "${in_ops[@]}" "$PFSBENCH" bonnie \
		-d "$work/tmpfs" -s 3:8k:1:1 -r 1 -n 0 -q --progress=never --results "$work/r/cg1.h5")
	p0=$(cg "$work/cg-p0" "${in_ops[@]}" "$PFSBENCH" bonnie \
		-d "$work/tmpfs" -s 3:8k:1:1 -r 1 -n 0 -f -q --progress=never --results "$work/r/cg0.h5")
	awk -v b1="$b1" -v b0="$b0" -v p1="$p1" -v p0="$p0" 'BEGIN {
		n = 2 * 3 * 1048576
		printf "\nuser-space instructions per 1-byte call (putc and getc, callgrind): bonnie++ %.1f, pfsbench %.1f\n", \
			(b1 - b0) / n, (p1 - p0) / n
	}'
else
	echo "(no valgrind: instruction counts skipped)"
fi
