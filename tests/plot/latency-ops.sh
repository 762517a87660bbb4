#!/bin/bash
# Bounded work for latency (docs/security.md, "Bounded work"): a results
# file of 100000 rows, each its own (test, op) that recorded latency
# (tests/plot/latency_ops_results.c: 100000 ops in 25000 tests), is
# plotted and reported with the latency picture of the first 16 tests'
# first 64 ops, its caption saying so, the picture a small SVG and the
# peak resident size of each under 512 MiB (one 36 KB histogram a group,
# as before, would be 3.6 GB); show --latency prints a line for each of
# the 100000 groups within the same bound. Sizes only; timeout is a hang
# guard.
. "$(dirname "$0")/lib.sh"
: "${LATENCY_OPS_RESULTS:?run me from make check}"
[ -x /usr/bin/time ] || skip "/usr/bin/time is missing (apt-get install time)"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"
MIB512_KIB=524288

"$LATENCY_OPS_RESULTS" "$SCRATCH/l.h5" 100000 || { not_ok "the file of 100000 latency ops written"; finish; }

measured plot "$PFSBENCH" plot "$SCRATCH/l.h5" -o "$SCRATCH/p"
[ "$RC" -eq 0 ] || cat "$SCRATCH/plot.err"
check "plot: exit 0" test "$RC" -eq 0
check "plot: peak RSS under 512 MiB (gnuplot's included)" test "${RSS:-$MIB512_KIB}" -lt $MIB512_KIB
check "latency.svg: an SVG of 2 KB to 2 MB" svg_ok "$SCRATCH/p/latency.svg"
check "latency.svg: the first 64 ops drawn, no more" \
	test "$(grep -o '>op[0-9]*<' "$SCRATCH/p/latency.svg" | sort -u | wc -l)" -eq 64 -a \
	-z "$(grep -o '>op64<' "$SCRATCH/p/latency.svg")"

measured report "$PFSBENCH" report "$SCRATCH/l.h5" -o "$SCRATCH/r.html"
check "report: exit 0" test "$RC" -eq 0
check "report: peak RSS under 512 MiB (gnuplot's included)" test "${RSS:-$MIB512_KIB}" -lt $MIB512_KIB
check "report: the latency picture's caption says what was left out" \
	grep -q 'the first 16 of 25000 tests; the first 64 of 100000 ops. Latency of each op' "$SCRATCH/r.html"

measured show "$PFSBENCH" show --latency "$SCRATCH/l.h5"
check "show --latency: exit 0" test "$RC" -eq 0
check "show --latency: peak RSS under 512 MiB" test "${RSS:-$MIB512_KIB}" -lt $MIB512_KIB
check "show --latency: a line for each of the 100000 groups" \
	test "$(grep -c '^ *t[0-9]*  *1 op[0-9]* ' "$SCRATCH/show.out")" -eq 100000
finish
