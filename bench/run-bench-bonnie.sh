#!/bin/bash
# run-bench-bonnie.sh: pfsbench bonnie with 1 rank against Debian's bonnie++
# on the same tmpfs and on the same ext4 loop device, with the same sizes.
# Method (bench/lib.sh): both on one CPU (BENCH_CPU), a warm-up run of
# each side thrown away, then REPS rounds (default 9) of the four sides
# (tmpfs and ext4, each tool), in bench/lib.sh's balanced order; for each
# test the median and p25-p75 of the rate bonnie++'s CSV line shows (its
# %CPU too), the ratio of the medians (target >= 0.95, docs/bonnie.md says
# where it is not met and why), the median and p25-p75 of each round's
# own ratio with the rounds pfsbench was ahead (a round's two runs are
# minutes apart, so what drifts over the bench moves both), and CPU time
# per unit, %CPU / 100 / rate. A test more than 5 % slower or faster than
# bonnie++ gets a line that says so: faster must be shown to do the same
# system calls on the same bytes (bench/run-bench-bonnie-calls.sh, which
# this bench's own per-item counts below summarise).
# The sizes make every test last more than bonnie++'s 0.5 s, below which
# it prints +++++ instead of a rate: on the tmpfs -s 4g:8k:200000 -r 2048
# -n 256, on the ext4 -s 2g:8k:200000 -r 1024 -n 256 (200000 seeks instead
# of 8192, which take 0.05 s). Then what each tool does per item, counted
# rather than timed, from small runs that differ only in their number of
# items: user-space instructions (callgrind) and system calls (strace).
# Root only (a tmpfs and an ext4 loop device of its own; bonnie++ -u root).
# Environment: PFSBENCH, MPIRUN, BONNIE (default bonnie++), REPS, BENCH_CPU;
# BENCH_TMPFS_ARGS and BENCH_EXT4_ARGS replace the sizes, BENCH_FS=tmpfs or
# ext4 runs the sides of that filesystem only (an ext4 round takes 4 times
# a tmpfs one), BENCH_CALLGRIND=0 and BENCH_STRACE=0 skip the counts (a
# quick try). BENCH_SELF=1 runs bonnie++ on both sides, the pfsbench
# column being a second bonnie++: how far apart the bench puts one tool
# and itself, which is as close as it can tell two tools apart.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bonnie_bench_init || exit
REPS=${REPS:-9}
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
	if [ "${BENCH_SELF:-0}" = 1 ]; then
		# shellcheck disable=SC2086
		on_cpu "$BONNIE" -q -d "$work/$1" ${ARGS[$1]} -u root -m bench 2>"$work/err" >>"$out" ||
			{ echo "bonnie++ (as the second side) failed on $1:"; cat "$work/err"; return 1; }
		return 0
	fi
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
[ "${BENCH_SELF:-0}" = 1 ] && echo "BENCH_SELF=1: the pfsbench column is bonnie++ again"
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
	echo "$fs (${ARGS[$fs]}): median (p25-p75) of the rates in each tool's CSV line;"
	echo "paired: median (p25-p75) of each round's pfsbench / bonnie++, and the rounds pfsbench was ahead;"
	echo "CPU us per unit (KiB, seek, file) = %CPU / 100 / rate; for putc and getc, per 1-byte call"
	printf '  %-10s %-8s %24s %24s %7s %22s %6s %10s %10s\n' test unit bonnie++ pfsbench ratio paired ahead \
		"bonnie CPU" "pfs CPU"
	for t in "${!TESTS[@]}"; do
		column "$work/bonnie-$fs.csv" "$t" >"$work/b-all"
		column "$work/pfs-$fs.csv" "$t" >"$work/p-all"
		grep -v NA "$work/b-all" >"$work/b"
		grep -v NA "$work/p-all" >"$work/p"
		# Line i of each file is round i: the rounds where both have a rate.
		paste -d' ' "$work/b-all" "$work/p-all" |
			awk '$1 != "NA" && $3 != "NA" { print $3 / $1 }' >"$work/pair"
		unit="files/s"
		[ "$t" -lt 5 ] && unit="KiB/s"
		[ "$t" -eq 5 ] && unit="seeks/s"
		read -r bm b25 b75 <<<"$(stats "$work/b" 1)"
		read -r pm p25 p75 <<<"$(stats "$work/p" 1)"
		read -r bc _ <<<"$(stats "$work/b" 2)"
		read -r pc _ <<<"$(stats "$work/p" 2)"
		read -r qm q25 q75 <<<"$(stats "$work/pair" 1)"
		awk -v t="${TESTS[t]}" -v u="$unit" -v bm="$bm" -v b25="$b25" -v b75="$b75" -v pm="$pm" \
			-v p25="$p25" -v p75="$p75" -v bc="$bc" -v pc="$pc" -v nb="$(wc -l <"$work/b")" \
			-v np="$(wc -l <"$work/p")" -v qm="$qm" -v q25="$q25" -v q75="$q75" \
			-v ahead="$(awk '$1 >= 1' "$work/pair" | wc -l)/$(wc -l <"$work/pair")" 'BEGIN {
			printf "  %-10s %-8s %10.0f (%.0f-%.0f) %10.0f (%.0f-%.0f) %7s %22s %6s %10.3f %10.3f%s\n", t, u,
				bm, b25, b75, pm, p25, p75, (bm > 0 ? sprintf("%.2fx", pm / bm) : "-"),
				(qm > 0 ? sprintf("%.2fx (%.2f-%.2f)", qm, q25, q75) : "-"), ahead, bc, pc,
				(nb < 1 || np < 1) ? "  (too fast: +++++)" : (nb != np ? sprintf("  (%d/%d rounds with a rate)", nb, np) : "")
			# Either way past 5 %: slower misses the target; faster
			# must be shown to do the same work (issue 33)
			if (bm > 0 && pm / bm < 0.95)
				printf "  %-10s SLOWER than bonnie++ by more than 5 %%\n", ""
			else if (bm > 0 && pm / bm > 1.05)
				printf "  %-10s FASTER than bonnie++ by more than 5 %%: check like for like (make bench-bonnie-calls)\n", ""
		}'
	done
done

# What each tool does per item, counted rather than timed: pairs of small
# runs on the tmpfs that differ only in how many items they have, the
# difference divided by the items. Per 1-byte call (putc and getc): 3 MiB
# with and without the per-char tests (-f), 2 x 3 MiB calls. Per 8 KiB
# block (put_block, rewrite and get_block together): -s 6 against -s 3
# with -f, 3 x 384 blocks. Per file (all six file tests together): -n 2
# against -n 1, 1024 files. All with 1 seek by 1 seeker.
PER_KINDS=(char block file)
declare -A PER_BIG=([char]="-s 3:8k:1:1 -r 1 -n 0" [block]="-s 6:8k:1:1 -r 1 -n 0 -f" [file]="-s 0 -n 2")
declare -A PER_SMALL=([char]="-s 3:8k:1:1 -r 1 -n 0 -f" [block]="-s 3:8k:1:1 -r 1 -n 0 -f" [file]="-s 0 -n 1")
declare -A PER_N=([char]=6291456 [block]=1152 [file]=1024)
declare -A PER_WHAT=([char]="1-byte call (putc, getc)" [block]="8 KiB block (put_block, rewrite, get_block)"
	[file]="file (seq and ran create, stat, del)")
# per_run WRAPPER TOOL KIND SIZE: runs TOOL (b or p) under WRAPPER (an array
# name) with KIND's arguments of SIZE (big or small).
per_run() {
	local -n wrap=$1
	local args
	if [ "$4" = big ]; then args=${PER_BIG[$3]}; else args=${PER_SMALL[$3]}; fi
	rm -f "$work/r/per.h5"
	# shellcheck disable=SC2086
	if [ "$2" = b ]; then
		"${wrap[@]}" "$BONNIE" -q -d "$work/tmpfs" $args -u root -m bench
	else
		"${wrap[@]}" "$PFSBENCH" bonnie -d "$work/tmpfs" $args -q --progress=never --results "$work/r/per.h5"
	fi >/dev/null 2>&1
}

# User-space instructions (callgrind). pfsbench is counted inside its ops
# only, and in the tests' threads (helper_main, ftest_main): MPI's start-up
# spins a varying number of times.
if [ "${BENCH_CALLGRIND:-1}" = 1 ] && command -v valgrind >/dev/null; then
	echo
	echo "user-space instructions per item (callgrind; a run with more items minus one with fewer):"
	cg_b=(valgrind --tool=callgrind --callgrind-out-file="$work/cg.out")
	# shellcheck disable=SC2034 # per_run's WRAPPER
	cg_p=("${cg_b[@]}" --collect-atstart=no --toggle-collect=bonnie_run_op --toggle-collect=helper_main
		--toggle-collect=ftest_main)
	cg() { # TOOL KIND SIZE: the run's instructions
		rm -f "$work/cg.out"*
		per_run "cg_$1" "$@" || return 1
		awk '/^totals:/ { s += $2 } END { print s }' "$work/cg.out"*
	}
	for k in "${PER_KINDS[@]}"; do
		awk -v b1="$(cg b "$k" big)" -v b0="$(cg b "$k" small)" -v p1="$(cg p "$k" big)" \
			-v p0="$(cg p "$k" small)" -v n="${PER_N[$k]}" -v w="${PER_WHAT[$k]}" 'BEGIN {
			if (b1 == "" || b0 == "" || p1 == "" || p0 == "")
				printf "  per %-45s a run under valgrind failed\n", w
			else
				printf "  per %-45s bonnie++ %7.1f   pfsbench %7.1f\n", w, (b1 - b0) / n, (p1 - p0) / n
		}'
	done
else
	echo "(instruction counts skipped: BENCH_CALLGRIND=0, or no valgrind)"
fi

# System calls (strace -c), the same pairs but for the per-char one (6
# million calls under strace): each call made at least once per 10 items.
if [ "${BENCH_STRACE:-1}" = 1 ] && command -v strace >/dev/null; then
	echo
	echo "system calls per item (strace -c -f; a run with more items minus one with fewer):"
	st_b=(strace -f -c -o "$work/st.out")
	# shellcheck disable=SC2034 # per_run's WRAPPER
	st_p=("${st_b[@]}")
	st() { # TOOL KIND SIZE: "call count" lines of the run, in st-SIZE
		per_run "st_$1" "$@" || return 1
		awk 'NR > 2 && $1 !~ /^-/ && $NF != "total" { print $NF, $4 }' "$work/st.out" | sort >"$work/st-$3"
	}
	for k in block file; do
		for tool in b p; do
			# One after the other: both runs write st.out.
			st "$tool" "$k" small && st "$tool" "$k" big &&
				join -a1 -a2 -e0 -o 0,1.2,2.2 "$work/st-small" "$work/st-big" |
				awk -v n="${PER_N[$k]}" '($3 - $2) / n >= 0.1 || ($3 - $2) / n <= -0.1 {
					printf " %s %.2f", $1, ($3 - $2) / n }' >"$work/calls-$tool" ||
				echo " a run under strace failed" >"$work/calls-$tool"
		done
		printf '  per %s\n    bonnie++:%s\n    pfsbench:%s\n' "${PER_WHAT[$k]}" \
			"$(cat "$work/calls-b")" "$(cat "$work/calls-p")"
	done
	echo "  per 1-byte call: one write(2) (putc) or read(2) (getc) in both (docs/bonnie.md)"
else
	echo "(system call counts skipped: BENCH_STRACE=0, or no strace)"
fi
