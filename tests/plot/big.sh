#!/bin/bash
# Bounded work for any input (docs/security.md, "Bounded work"): a results
# file of 980000 rows (4900 ranks on 49 nodes x 5 tests x 4 ops x 10
# iterations, written by the real writer through tests/archive/synth_results,
# then gzipped by h5repack as the attack's file was) is shown, compared,
# plotted and reported with a peak resident size under 1 GiB each, show's
# text, the pictures and the page under 10 MB each, show saying how many
# row lines it left out and show --all printing every row, the pictures
# saying what they thinned; a file over the row cap (1100000 rows) is
# refused by show and plot in one line, nothing made. Sizes only: the
# time bounds are bench/run-bench-big.sh's (make bench-big); timeout is a
# hang guard, far past any real time: 300 s was not, compare of the two
# files in the sanitizer build took longer than that on a fresh machine
# whose other lanes dropped the page cache every 2 s (plot 178 s there).
. "$(dirname "$0")/lib.sh"
HANG_GUARD=1800
SYNTH=$(dirname "$(dirname "$PFSBENCH")")/tests/archive/synth_results
[ -x "$SYNTH" ] || skip "tests/archive/synth_results is not built"
[ -x /usr/bin/time ] || skip "/usr/bin/time is missing (apt-get install time)"
need_deb hdf5-tools h5repack || skip "$NEED_WHY"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"
GIB_KIB=1048576
MB10=10000000

"$SYNTH" "$SCRATCH/raw.h5" 4900 49 10 1 0.05 1 || { not_ok "the 980000-row file written"; finish; }
h5repack -f GZIP=1 "$SCRATCH/raw.h5" "$SCRATCH/big.h5" || { not_ok "the file gzipped"; finish; }
rm -f "$SCRATCH/raw.h5"
cp "$SCRATCH/big.h5" "$SCRATCH/big2.h5"

measured show "$PFSBENCH" show "$SCRATCH/big.h5"
check "show: exit 0" test "$RC" -eq 0
check "show: the first 10000 rows listed (and the 49 nodes)" \
	test "$(grep -c ' node0' "$SCRATCH/show.out")" -eq 10049
check "show: its text under 10 MB ($(stat -c %s "$SCRATCH/show.out") bytes)" \
	test "$(stat -c %s "$SCRATCH/show.out")" -lt $MB10
check "show: says how many row lines it left out, and what prints them" \
	grep -qx "\.\.\. 970000 more row lines not printed (show prints the first 10000): pfsbench show --all '$SCRATCH/big.h5' prints them all, pfsbench export '$SCRATCH/big.h5' --csv every row's fields" "$SCRATCH/show.out"
check "show: its summary in full (Done.)" test "$(tail -n 1 "$SCRATCH/show.out")" = Done.
check "show: peak RSS under 1 GiB" test "${RSS:-$GIB_KIB}" -lt $GIB_KIB
check "show --all: every row listed (980000)" \
	test "$(timeout "$HANG_GUARD" "$PFSBENCH" show --all "$SCRATCH/big.h5" | grep -c ' node0')" -eq 980049

measured compare "$PFSBENCH" compare "$SCRATCH/big.h5" "$SCRATCH/big2.h5"
check "compare: exit 0" test "$RC" -eq 0
check "compare: its table of 20 lines" test "$(grep -c 'Create\|Write\|Read\|Unlink' "$SCRATCH/compare.out")" -ge 20
check "compare: peak RSS under 1 GiB" test "${RSS:-$GIB_KIB}" -lt $GIB_KIB

measured plot "$PFSBENCH" plot "$SCRATCH/big.h5" -o "$SCRATCH/p"
[ "$RC" -eq 0 ] || cat "$SCRATCH/plot.err"
check "plot: exit 0" test "$RC" -eq 0
check "plot: peak RSS under 1 GiB (gnuplot's included)" test "${RSS:-$GIB_KIB}" -lt $GIB_KIB
for kind in rates timeline progress-files; do
	for ext in svg png; do
		f=$SCRATCH/p/$kind.$ext
		check "plot: $kind.$ext made, under 10 MB ($(stat -c %s "$f" 2>/dev/null) bytes)" \
			test -s "$f" -a "$(stat -c %s "$f" 2>/dev/null || echo $MB10)" -lt $MB10
	done
done
check "timeline.svg: a lane per node (49), not per worker" \
	test "$(grep -o '>node00[0-9][0-9] (all)<' "$SCRATCH/p/timeline.svg" | sort -u | wc -l)" -eq 49
check "timeline.svg is an SVG document" "$PY" -c 'import sys, xml.etree.ElementTree as E
sys.exit(0 if E.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' "$SCRATCH/p/timeline.svg"

measured report "$PFSBENCH" report "$SCRATCH/big.h5" -o "$SCRATCH/r.html"
[ "$RC" -eq 0 ] || cat "$SCRATCH/report.err"
check "report: exit 0" test "$RC" -eq 0
check "report: peak RSS under 1 GiB" test "${RSS:-$GIB_KIB}" -lt $GIB_KIB
check "report: the page under 10 MB ($(stat -c %s "$SCRATCH/r.html") bytes)" \
	test "$(stat -c %s "$SCRATCH/r.html")" -lt $MB10
check "report: says how many row lines its text report left out, and what prints them" \
	grep -q '970000 more row lines not printed (show prints the first 10000): pfsbench show --all' \
	"$SCRATCH/r.html"
check "report: the pictures say what they thinned" \
	grep -q '980000 rows thinned to a lane per node' "$SCRATCH/r.html"

# Over the cap: one line, exit 1, nothing made.
"$SYNTH" "$SCRATCH/over.h5" 5000 50 11 1 0.05 1 || { not_ok "the 1100000-row file written"; finish; }
rm -f "$SCRATCH/big.h5" "$SCRATCH/big2.h5"
measured over "$PFSBENCH" show "$SCRATCH/over.h5"
check "show of 1100000 rows: exit 1" test "$RC" -eq 1
check "show of 1100000 rows: one line naming the cap" \
	test "$(cat "$SCRATCH/over.err")" = "pfsbench: cannot read '$SCRATCH/over.h5': its /rows table has 1100000 records, more than pfsbench reads (1048576)"
check "show of 1100000 rows: nothing on stdout" test ! -s "$SCRATCH/over.out"
measured overplot "$PFSBENCH" plot "$SCRATCH/over.h5" -o "$SCRATCH/q"
check "plot of 1100000 rows: exit 1, nothing made" test "$RC" -eq 1 -a ! -e "$SCRATCH/q"
finish
