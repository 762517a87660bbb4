#!/bin/bash
# run-bench-plot.sh: the pictures' time budget (make bench-plot). Every
# picture (SVG and PNG) of a 3-node, 5-test, 3-iteration create-unlink run
# must take under 5 s of wall time, pfsbench and its gnuplot together
# (docs/plot.md). Until issue 24 a test judged this (tests/plot/budget.sh);
# a busy machine could fail it, so it is a benchmark now, and the test keeps
# what does not depend on the machine's speed (the 8 files made).
# Two sides, interleaved and alternating first (bench/lib.sh), after a
# warm-up round: `pfsbench plot` (every picture) and `pfsbench show` of the
# same file (reading it alone: what of plot's time is not drawing). Reports
# each side's median wall and CPU time (user + system, gnuplot included)
# with p25-p75 over ROUNDS (default 9) rounds, CPU time per picture, and
# the verdict against the budget on the median wall time.
set -u
: "${PFSBENCH:?run me from make bench-plot}"
MPIRUN=${MPIRUN:-mpirun}
ROUNDS=${ROUNDS:-9}
BUDGET_S=5
. "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
command -v gnuplot >/dev/null || { echo "SKIP: bench-plot: no gnuplot (apt-get install gnuplot-nox)"; exit 0; }

work=$(mktemp -d /tmp/pfsbench-bench-plot.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
trap undo_all EXIT
mkdir "$work/t"
cmd=()
for n in 1 2 3; do
	[ "$n" -gt 1 ] && cmd+=(:)
	cmd+=(-np 1 -x "PFSBENCH_NODENAME=node$n" "$PFSBENCH" create-unlink -m "$work/t" --no-drop-caches
		--latency --results "$work/r.h5" -f 200 -F 4 -s 16k -i 3 -t se,pa,ua,ub,uc)
done
"$MPIRUN" --oversubscribe "${cmd[@]}" >"$work/run.out" 2>&1 || { cat "$work/run.out"; exit 1; }

# side ROUND: one round of a side, "wall cpu" appended to its file.
side() {
	local name=$1 round=$2 t0 cpu
	shift 2
	rm -rf "$work/p"
	t0=$EPOCHREALTIME
	cpu=$(timed "$work/$name.out" "$@") || return 1
	[ "$round" = warm ] && return 0
	echo "$(awk -v a="$EPOCHREALTIME" -v s="$t0" 'BEGIN { printf "%.3f", a - s }') $cpu" >>"$work/$name.times"
}
plot() { side plot "$1" "$PFSBENCH" plot "$work/r.h5" -o "$work/p"; }
show() { side show "$1" "$PFSBENCH" show "$work/r.h5"; }
rounds "$ROUNDS" plot show || exit 1
pictures=$(find "$work/p" -type f | wc -l)

echo "bench-plot: every picture of 3 nodes x 5 tests x 3 iterations ($pictures files), $ROUNDS rounds" \
	"on CPU $BENCH_CPU, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-26s %-26s %s\n' side "wall s: median (p25-p75)" "CPU s: median (p25-p75)" "CPU ms per picture"
for s in plot show; do
	read -r wm w25 w75 < <(stats "$work/$s.times" 1)
	read -r cm c25 c75 < <(stats "$work/$s.times" 2)
	per=$([ "$s" = plot ] && awk -v c="$cm" -v n="$pictures" 'BEGIN { printf "%.0f", c * 1000 / n }' || echo -)
	printf '%-6s %-26s %-26s %s\n' "$s" "$wm ($w25-$w75)" "$cm ($c25-$c75)" "$per"
done
read -r wm _ _ < <(stats "$work/plot.times" 1)
if awk -v w="$wm" -v b="$BUDGET_S" 'BEGIN { exit !(w < b) }'; then
	echo "bench-plot: within the budget: $wm s of wall time (median) < $BUDGET_S s"
else
	echo "bench-plot: OVER the budget: $wm s of wall time (median) >= $BUDGET_S s"
	exit 1
fi
