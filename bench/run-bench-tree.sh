#!/bin/bash
# run-bench-tree.sh: pfsbench tree's Mkdir and Create phases against
# bench/baseline_tree, a minimal C loop of mkdirat/openat/write/close on the
# same names, 1 rank on a tmpfs, -l 4 -d 10 -f 10 -s 1 (11111 directories,
# 111110 files of 4 KiB). Method (bench/lib.sh): every side on one CPU, a
# warm-up round each, then REPS rounds (default 9) of three sides, the loop,
# the loop with an idle thread (as every MPI process has one) and pfsbench,
# interleaved and rotated; median and p25-p75 of items/s and of CPU time
# (user + system) per item. Then user-space instructions per item under
# callgrind (-l 3, 1111 directories and 11110 files), counted inside the
# phases. Targets: rate >= 0.95x the loop's, instructions <= 1.25x.
# Environment: PFSBENCH, BASELINE, MPIRUN; BENCH_DIR (a tmpfs directory,
# default /dev/shm), REPS, BENCH_CPU.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
BASELINE=$(realpath "${BASELINE:-bench/baseline_tree}")

shm_work tree
mkdir "$work/run" "$work/cg"

PLAN=(-l 4 -d 10 -f 10 -s 1)
ARGS=(4 10 10 1)
# A pause before each run lets the kernel finish freeing the last run's
# tree (deferred work that would otherwise land in the next run's phases).
settle() {
	sync
	sleep 1
}
# Each side appends "OP items us cpu_us" lines.
pfs_side() {
	local out=$work/pfs.rates
	[ "$1" = warm ] && out=/dev/null
	settle
	rm -f "$work/r.h5"
	on_cpu "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" tree -o "$work/run" "${PLAN[@]}" \
		--no-drop-caches --progress=never --results "$work/r.h5" >"$work/out" 2>&1 ||
		{ cat "$work/out"; return 1; }
	"$PFSBENCH" export "$work/r.h5" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["op"] == "Mkdir" || $c["op"] == "Create" { print $c["op"], $c["items"], $c["elapsed_us"], $c["cpu_us"] }' >>"$out"
}
base_side() {
	local out=$work/base.rates
	[ "$1" = warm ] && out=/dev/null
	settle
	on_cpu "$BASELINE" "$work/run" "${ARGS[@]}" >>"$out"
}
thr_side() {
	local out=$work/thr.rates
	[ "$1" = warm ] && out=/dev/null
	settle
	on_cpu "$BASELINE" "$work/run" "${ARGS[@]}" threaded >>"$out"
}
rounds "$REPS" base_side thr_side pfs_side || exit 1

# per OP FILE: "rate_per_s cpu_us_per_item" lines of OP.
per() { awk -v op="$1" '$1 == op { print $2 * 1e6 / $3, $4 / $2 }' "$2" >"$work/per"; }

# Instructions: -l 3 -d 10 -f 10 -s 1. pfsbench: one callgrind dump per op
# (the engine calls tree_run_op once a phase); the loop: inside each phase.
cg_pfs() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg/pfs" --dump-before=tree_run_op \
		--dump-after=tree_run_op "$PFSBENCH" tree -o "$work/run" -l 3 -d 10 -f 10 -s 1 -C \
		--no-drop-caches --progress=never --results "$work/cg.h5" >/dev/null 2>&1 || exit 1
	"$MPIRUN" -np 1 "$PFSBENCH" tree -o "$work/run" -l 3 -d 10 -f 10 -s 1 -R \
		--no-drop-caches --results "$work/cg2.h5" >/dev/null 2>&1 || exit 1
	# Parts 2 and 4 are Mkdir and Create (1: start-up, 3: between them).
	for part in 2 4; do
		awk '/^totals:/ { print $2 }' "$work/cg/pfs.$part"
	done
}
cg_base() { # FUNCTION [threaded]
	WARM_MS=0 valgrind --tool=callgrind --callgrind-out-file="$work/cg/base" --collect-atstart=no \
		--toggle-collect="$1" --separate-threads=yes "$BASELINE" "$work/run" 3 10 10 1 ${2:-} \
		>/dev/null 2>&1 || exit 1
	awk '/^totals:/ { print $2 }' "$work/cg/base-01"
	rm -f "$work/cg/base"*
}
if command -v valgrind >/dev/null; then
	read -r pfs_mkdir pfs_create <<<"$(cg_pfs | xargs)"
	base_mkdir=$(cg_base phase_mkdir) base_create=$(cg_base phase_create)
	thr_mkdir=$(cg_base phase_mkdir threaded) thr_create=$(cg_base phase_create threaded)
else
	echo "(no valgrind: instruction counts skipped)"
fi

report() { # OP ITEMS PFS-INSTR BASE-INSTR THREADED-INSTR
	local op=$1 b bc t tc p pc
	per "$op" "$work/base.rates"; b=$(stats "$work/per" 1); bc=$(stats "$work/per" 2)
	per "$op" "$work/thr.rates"; t=$(stats "$work/per" 1); tc=$(stats "$work/per" 2)
	per "$op" "$work/pfs.rates"; p=$(stats "$work/per" 1); pc=$(stats "$work/per" 2)
	awk -v op="$op" -v b="$b" -v bc="$bc" -v t="$t" -v tc="$tc" -v p="$p" -v pc="$pc" -v n="$2" \
		-v pi="${3:-0}" -v bi="${4:-0}" -v ti="${5:-0}" 'BEGIN {
		split(b, B, " "); split(bc, BC, " "); split(t, T, " "); split(tc, TC, " ")
		split(p, P, " "); split(pc, PC, " ")
		printf "%s: median (p25-p75) items/s; CPU us per item\n", op
		printf "  %-22s %9.0f (%.0f-%.0f)   %.2f (%.2f-%.2f)\n", "loop", B[1], B[2], B[3], BC[1], BC[2], BC[3]
		printf "  %-22s %9.0f (%.0f-%.0f)   %.2f (%.2f-%.2f)\n", "loop, an idle thread", T[1], T[2], T[3], TC[1], TC[2], TC[3]
		printf "  %-22s %9.0f (%.0f-%.0f)   %.2f (%.2f-%.2f)\n", "pfsbench", P[1], P[2], P[3], PC[1], PC[2], PC[3]
		printf "  rate %.2fx the loop (target >= 0.95), %.2fx the loop with a thread; CPU %.2fx\n", \
			P[1] / B[1], P[1] / T[1], PC[1] / BC[1]
		if (pi > 0)
			printf "  instructions/item: pfsbench %.1f, loop %.1f (%.2fx, target <= 1.25), loop with a thread %.1f (%.2fx)\n", \
				pi / n, bi / n, pi / bi, ti / n, pi / ti
	}'
}
echo "pfsbench tree against a minimal C loop, 1 rank on tmpfs ($base), CPU $BENCH_CPU, $REPS rounds after a warm-up"
report Mkdir 1111 "${pfs_mkdir:-}" "${base_mkdir:-}" "${thr_mkdir:-}"
report Create 11110 "${pfs_create:-}" "${base_create:-}" "${thr_create:-}"
