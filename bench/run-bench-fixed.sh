#!/bin/bash
# run-bench-fixed.sh: what pfsbench adds to mpirun and MPI_Init, measured
# on a tiny run (issue 33, "Fixed cost"). At N = 1 and 2 ranks, four sides:
#   true     mpirun -np N /bin/true                  mpirun alone
#   hello    mpirun -np N bench/mpi_hello            + MPI_Init, a barrier, MPI_Finalize
#   pfs      mpirun -np N pfsbench create-unlink -m DIR -f 1 -F 1 -s 4k -t se -i 1 --results F
#   pfs-nd   the same with --no-drop-caches          the run without its cache drops
# DIR is a directory in BENCH_DIR (default /dev/shm, a tmpfs), so the
# filesystem's own work is next to nothing: one file created, written (4
# KiB, fsync), read, unlinked per worker. -F 1 because Write's 2500 files
# cannot exceed -f; -s 4k so the write is tiny too. pfs drops the page
# cache (sync, then drop_caches) before each of se's four phases, as a
# user's run does by default; that cost belongs to the method (the user
# chooses it), not to pfsbench's start and end, so pfs-nd shows the rest.
# Method (bench/lib.sh): a warm-up round of every side, then ROUNDS rounds
# (default 11) of the eight sides interleaved in rotated orders. Each run
# is timed whole: wall, from the launch to mpirun's exit, and CPU, user +
# system of mpirun and every process it waited for (the ranks), from
# wait4's rusage. N = 1 runs on one CPU (BENCH_CPU); N = 2 on all of them.
# Reported: median [p25-p75] of each side's wall and CPU, and of the
# differences pfs - hello and pfs - true within each round (the sides of a
# round ran back to back, so the machine's load drifts less between them).
# Target: pfs-nd - hello <= 0.1 s of wall (what pfsbench adds to mpirun
# and MPI_Init, its drops apart). CPU varies less than wall on a shared
# machine; judge by it when the load is high (uptime is printed).
# BEFORE=PATH names another pfsbench (say main's build) whose pfs-nd side,
# "before", runs in the same rounds: a change measured against the same
# load, with its difference to hello beside.
# Environment: PFSBENCH, HELLO, MPIRUN, BENCH_DIR, ROUNDS, BENCH_CPU, BEFORE.
# Minutes: about 0.75 at the default 11 rounds on a quiet 2-core machine
# (the sides take 0.05-0.5 s each), 1.5 at 21 rounds with BEFORE; 2-2.5
# at load 15-30, when the sides take up to 1-2 s.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
ROUNDS=${ROUNDS:-11}
[ -z "${BEFORE:-}" ] || BEFORE=$(realpath "$BEFORE")
mpi_bench_init fixed
mkdir "$work/run"

# Open MPI's mpirun places ranks by cores; --oversubscribe lets 2 ranks run
# on a one-CPU mask too. --bind-to none keeps the CPU mask taskset set.
launch=("$MPIRUN" --bind-to none)
"$MPIRUN" --version 2>&1 | grep -q 'Open MPI' && launch+=(--oversubscribe)
drops=1
[ -w /proc/sys/vm/drop_caches ] || drops=0
ALL_CPUS=0-$(($(nproc) - 1))

# run SIDE N ROUND CMD...: one timed run; appends "wall_s cpu_s" to SIDE.N.
# GNU time (lib.sh's timed) prints CPU to 10 ms, as much as pfsbench adds
# at 1 rank: Python's os.wait4 gives the same rusage (mpirun and the ranks
# it waited for) to the microsecond, and the wall time of the launch alone.
run() {
	local side=$1 n=$2 round=$3 out cpus=$BENCH_CPU
	shift 3
	out=$work/$side.$n
	[ "$round" = warm ] && out=/dev/null
	[ "$n" = 1 ] || cpus=$ALL_CPUS
	rm -rf "$work/r.h5" "${work:?}/run/"*
	wait4_run "$work/o" "$work/o" taskset -c "$cpus" "${launch[@]}" -np "$n" "$@" >>"$out" ||
		{ cat "$work/o"; return 1; }
}
TINY=(create-unlink -m "$work/run" -f 1 -F 1 -s 4k -t se -i 1 --results "$work/r.h5")
# side NAME N ROUND: one run of side NAME at N ranks.
side() {
	case $1 in
	true) run true "$2" "$3" /bin/true ;;
	hello) run hello "$2" "$3" "$HELLO" ;;
	pfs-nd) run pfs-nd "$2" "$3" "$PFSBENCH" "${TINY[@]}" --no-drop-caches ;;
	pfs) run pfs "$2" "$3" "$PFSBENCH" "${TINY[@]}" ;;
	before) run before "$2" "$3" "$BEFORE" "${TINY[@]}" --no-drop-caches ;;
	esac
}
true_1() { side true 1 "$1"; }
true_2() { side true 2 "$1"; }
hello_1() { side hello 1 "$1"; }
hello_2() { side hello 2 "$1"; }
nd_1() { side pfs-nd 1 "$1"; }
nd_2() { side pfs-nd 2 "$1"; }
pfs_1() { side pfs 1 "$1"; }
pfs_2() { side pfs 2 "$1"; }
before_1() { side before 1 "$1"; }
before_2() { side before 2 "$1"; }
sides=(true_1 hello_1 nd_1 true_2 hello_2 nd_2)
((drops)) && sides+=(pfs_1 pfs_2)
[ -n "${BEFORE:-}" ] && sides+=(before_1 before_2)

start=$SECONDS
echo "bench-fixed: a tiny pfsbench run against mpirun /bin/true and bench/mpi_hello, on $base; $ROUNDS rounds after a warm-up; load: $(uptime | sed 's/.*load average: //')"
rounds "$ROUNDS" "${sides[@]}" || exit 1

# fmt FILE COLUMN: "median [p25-p75]" in ms.
fmt() { stats "$1" "$2" | awk '{ printf "%6.0f [%.0f-%.0f]", $1 * 1e3, $2 * 1e3, $3 * 1e3 }'; }
# diff A B: per round, A - B of both columns.
diff_of() { paste -d ' ' "$1" "$2" | awk '{ print $1 - $3, $2 - $4 }' >"$work/diff"; }
for n in 1 2; do
	printf '\n%d rank(s), CPU %s: median [p25-p75] ms\n' "$n" "$([ "$n" = 1 ] && echo "$BENCH_CPU" || echo "$ALL_CPUS")"
	printf '  %-22s %-22s %s\n' side wall "CPU (user+sys, whole job)"
	for s in true hello before pfs-nd pfs; do
		[ -s "$work/$s.$n" ] || continue
		printf '  %-22s %-22s %s\n' "$s" "$(fmt "$work/$s.$n" 1)" "$(fmt "$work/$s.$n" 2)"
	done
	for s in before pfs-nd pfs; do
		[ -s "$work/$s.$n" ] || continue
		for b in hello true; do
			diff_of "$work/$s.$n" "$work/$b.$n"
			printf '  %-22s %-22s %s\n' "$s - $b" "$(fmt "$work/diff" 1)" "$(fmt "$work/diff" 2)"
		done
	done
	diff_of "$work/pfs-nd.$n" "$work/hello.$n"
	stats "$work/diff" 1 | awk -v n="$n" '{ printf "  pfsbench adds %.0f ms of wall to mpirun and MPI_Init at %d rank(s), cache drops apart (target <= 100): %s\n", $1 * 1e3, n, $1 <= 0.1 ? "met" : "NOT MET" }'
done
((drops)) || echo "(not root: the side with cache drops was skipped)"
[ -z "${BEFORE:-}" ] || echo "(before: $BEFORE, run as pfs-nd)"
echo "bench-fixed took $((SECONDS - start)) s; load now: $(uptime | sed 's/.*load average: //')"
