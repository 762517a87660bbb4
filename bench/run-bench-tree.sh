#!/bin/sh
# run-bench-tree.sh: pfsbench tree's Mkdir and Create phases against
# bench/baseline_tree, a minimal C loop of mkdirat/openat/write/close on the
# same names, with 1 rank on tmpfs. Prints, for each phase:
# - items/sec of pfsbench over the loop's (target >= 0.95), from REPS
#   alternating runs of each: the best runs' ratio (the least disturbed on a
#   shared machine, where run to run varies by 2x) and the medians' ratio;
# - user-space instructions per item under callgrind, pfsbench over the
#   loop's (target <= 1.25), against the single-threaded loop and against
#   the loop with one idle thread, as every MPI process has.
# Environment: PFSBENCH, BASELINE, MPIRUN; optional BENCH_DIR (a tmpfs
# directory, default /dev/shm), REPS (default 9).
set -u
PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
BASELINE=$(realpath "${BASELINE:-bench/baseline_tree}")
MPIRUN=${MPIRUN:-mpirun}
REPS=${REPS:-9}
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

base=${BENCH_DIR:-/dev/shm}
if [ "$(stat -f -c %T "$base" 2>/dev/null)" != tmpfs ]; then
	echo "SKIP: '$base' is not tmpfs; set BENCH_DIR to a tmpfs directory"
	exit 77
fi
work=$(mktemp -d "$base/pfsbench-bench-tree.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/run" "$work/cg"
cd "$work" || exit 1 # pfsbench's default results files land here, and go with it

# Rates: -l 4 -d 10 -f 10 -s 1, 11111 directories and 111110 files of 4 KiB.
PLAN="-l 4 -d 10 -f 10 -s 1"
ARGS="4 10 10 1"
# A pause before each run lets the kernel finish freeing the last run's
# tree (deferred work that would otherwise land in the next run's phases).
settle() {
	sync
	sleep 1
}
for i in $(seq "$REPS"); do
	settle
	"$MPIRUN" -np 1 "$PFSBENCH" tree -o "$work/run" $PLAN --no-drop-caches >"$work/out" ||
		{ cat "$work/out"; exit 1; }
	# Table rows: tree It Node Work Op Microsecs Files ...
	awk '$1 == "tree" && ($5 == "Mkdir" || $5 == "Create") { print $5, $7, $6 }' \
		"$work/out" >>"$work/pfs.rates"
	settle
	"$BASELINE" "$work/run" $ARGS >>"$work/base.rates" || exit 1
	settle
	"$BASELINE" "$work/run" $ARGS threaded >>"$work/thr.rates" || exit 1
done

# median|best OP FILE: the median or the best items/sec of OP's lines
# "OP items us".
rates() {
	awk -v op="$1" '$1 == op { print $2 * 1e6 / $3 }' "$2" | sort -g
}
median() {
	rates "$1" "$2" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
best() {
	rates "$1" "$2" | tail -n 1
}

# Instructions: -l 3 -d 10 -f 10 -s 1, 1111 directories and 11110 files.
# pfsbench: one callgrind dump per op (the engine calls tree_run_op once a
# phase); the loop: counted inside each phase function.
cg_pfs() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg/pfs" --dump-before=tree_run_op \
		--dump-after=tree_run_op "$PFSBENCH" tree -o "$work/run" -l 3 -d 10 -f 10 -s 1 -C \
		--no-drop-caches >/dev/null 2>&1 || exit 1
	"$MPIRUN" -np 1 "$PFSBENCH" tree -o "$work/run" -l 3 -d 10 -f 10 -s 1 -R \
		--no-drop-caches >/dev/null || exit 1
	# Parts 2 and 4 are Mkdir and Create (1: start-up, 3: between them).
	for part in 2 4; do
		awk '/^totals:/ { print $2 }' "$work/cg/pfs.$part"
	done
}
cg_base() { # FUNCTION [threaded]
	valgrind --tool=callgrind --callgrind-out-file="$work/cg/base" --collect-atstart=no \
		--toggle-collect="$1" --separate-threads=yes "$BASELINE" "$work/run" 3 10 10 1 ${2:-} \
		>/dev/null 2>&1 || exit 1
	awk '/^totals:/ { print $2 }' "$work/cg/base-01"
	rm -f "$work/cg/base"*
}

if command -v valgrind >/dev/null; then
	set -- $(cg_pfs)
	pfs_mkdir=$1 pfs_create=$2
	base_mkdir=$(cg_base phase_mkdir) base_create=$(cg_base phase_create)
	thr_mkdir=$(cg_base phase_mkdir threaded) thr_create=$(cg_base phase_create threaded)
else
	echo "(no valgrind: instruction counts skipped)"
fi

report() { # OP ITEMS PFS-INSTR BASE-INSTR THREADED-INSTR
	p=$(best "$1" "$work/pfs.rates")
	b=$(best "$1" "$work/base.rates")
	pm=$(median "$1" "$work/pfs.rates")
	bm=$(median "$1" "$work/base.rates")
	t=$(best "$1" "$work/thr.rates")
	tm=$(median "$1" "$work/thr.rates")
	awk -v op="$1" -v p="$p" -v b="$b" -v pm="$pm" -v bm="$bm" -v t="$t" -v tm="$tm" -v n="$2" -v pi="${3:-0}" \
		-v bi="${4:-0}" -v ti="${5:-0}" 'BEGIN {
		printf "%-6s rate: best pfsbench %.0f/s, loop %.0f/s, ratio %.3f; median %.0f/s, %.0f/s, ratio %.3f (target >= 0.95)\n", \
			op, p, b, p / b, pm, bm, pm / bm
		printf "%-6s rate of the loop with an idle thread: best %.0f/s, median %.0f/s\n", op, t, tm
		if (pi > 0)
			printf "%-6s instructions/item: pfsbench %.1f, loop %.1f (ratio %.2f), loop with an idle thread %.1f (ratio %.2f) (target <= 1.25)\n", \
				op, pi / n, bi / n, pi / bi, ti / n, pi / ti
	}'
}
echo "pfsbench tree against a minimal C loop, 1 rank on tmpfs ($base), $REPS runs each"
report Mkdir 1111 "${pfs_mkdir:-}" "${base_mkdir:-}" "${thr_mkdir:-}"
report Create 11110 "${pfs_create:-}" "${base_create:-}" "${thr_create:-}"
