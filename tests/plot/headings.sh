#!/bin/bash
# Every picture says, inside itself, what it shows and of which run
# (issue 29): on the real runs kept in docs/runs, each SVG's first texts
# are its title (the workload, what, the unit) and its subtitle (the run's
# label, filesystem on mount point, nodes x workers, start), then a line
# for each mark the picture uses; each PNG has that heading drawn in its
# top rows (tests/plot/pngcheck.py --band). In the run with node2 slowed,
# the rates picture hatches and labels "not judged" exactly the (test,
# op)s show --analyze marks '!' (steps too short to judge), and colours
# red those it names; a run of 2 nodes says no node was judged in every
# panel. The comparison explains its whiskers, the triangle
# of a whisker cut at the axis and its "*"; the heatmap's cells are vector
# polygons, in the SVG and in the report's page, never a bitmap a browser
# smooths.
. "$(dirname "$0")/lib.sh"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"
RUNS=$SRCDIR/docs/runs
P=$SCRATCH/p
mkdir -p "$P"

# head_is SVG LINE...: the SVG's first texts are the LINEs, in order.
head_is() {
	local svg=$1
	shift
	diff <(printf '%s\n' "$@") <(svg_texts "$svg" | head -n $#) >"$SCRATCH/diff" ||
		{ cat "$SCRATCH/diff"; return 1; }
}

"$PFSBENCH" plot "$RUNS/tmpfs-slow.h5" -o "$P/slow" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "plot tmpfs-slow.h5: exit 0" test $? -eq 0
SUB='tmpfs-slow.h5: TMPFS on /dev/shm, 3 nodes x 1 worker, 2026-11-30T23:30:21Z'
RED='red, Nx slower (or stalled): a node show --analyze names slow in that op, by the rate of the median node / its rate'
SHORT='hatched, not judged: steps < 10 ms: too short to time, no node judged slow or even there'
UNLIKE='hatched, not judged: no like steps of 3 nodes or more to set side by side, no node judged there'
check "rates.svg: title, subtitle, the red and both hatched marks explained" head_is "$P/slow/rates.svg" \
	'create-unlink: the rate of each op per node and worker (files/s)' "$SUB" "$RED" "$SHORT" "$UNLIKE"
check "rates.png: its 5 heading lines drawn" heading_ok "$P/slow/rates.png" 5
check "timeline.svg: title, subtitle, the grey wait explained" head_is "$P/slow/timeline.svg" \
	'create-unlink: the steps of each test, a lane per node and worker (seconds)' "$SUB" \
	'grey: the wait of a rank at the barrier until the last rank of the step was done'
check "timeline.png: its 3 heading lines drawn" heading_ok "$P/slow/timeline.png" 3
check "progress-files.svg: title, subtitle" head_is "$P/slow/progress-files.svg" \
	'create-unlink: files/s over time, a line per node, a panel per test' "$SUB"
check "progress-files.png: its 2 heading lines drawn" heading_ok "$P/slow/progress-files.png" 2
check "latency.svg: title, subtitle" head_is "$P/slow/latency.svg" \
	'create-unlink: latency of each op, all iterations and ranks (CDF, us), a panel per test' "$SUB"
check "latency.png: its 2 heading lines drawn" heading_ok "$P/slow/latency.png" 2

# The withheld judgements, at their place: each panel's marks come just
# before its title ("se Write") in the SVG.
svg_texts "$P/slow/rates.svg" | awk '
	/^not judged: steps < 10 ms$/ { short = 1 } /^[0-9.]+x slower$/ { red = 1 }
	/^(se|pa|ua|ub|uc) [A-Z][a-z]+$/ { if (short) print "short", $0; if (red) print "red", $0; short = red = 0 }' \
	>"$SCRATCH/marks"
"$PFSBENCH" show --analyze "$RUNS/tmpfs-slow.h5" >"$SCRATCH/analyze"
awk '{ for (i = 3; i <= NF; i++) if ($i == "!") { print "short", $1, $2; next } }' "$SCRATCH/analyze" >"$SCRATCH/want"
sed -n 's/^ node2: \(.*\) slower than the median node$/\1/p' "$SCRATCH/analyze" | tr ',' '\n' |
	awk 'NF { print "red", $1, $2 }' >>"$SCRATCH/want"
echo "# not judged and red in the picture: $(grep -c short "$SCRATCH/marks") and $(grep -c red "$SCRATCH/marks"); show --analyze: $(grep -c short "$SCRATCH/want") and $(grep -c red "$SCRATCH/want")"
check "rates.svg: 'not judged: steps < 10 ms' on the (test, op)s show --analyze marks '!', red on those it names" \
	test "$(sort "$SCRATCH/marks")" = "$(sort "$SCRATCH/want")" -a -s "$SCRATCH/want"
check "rates.svg: se Write and se Read, where node2 is 6x slower, say not judged" \
	grep -qx 'short se Write' "$SCRATCH/marks"
grep -qx 'short se Read' "$SCRATCH/marks"
check "rates.svg: se Read says not judged" test $? -eq 0

# A real run of 2 nodes: no node is judged anywhere, and every panel says so.
mkdir -p "$SCRATCH/two.d"
pfs_nodes 2 1 create-unlink -m "$SCRATCH/two.d" --no-drop-caches -f 50 -F 2 -s 4k -i 1 -t se,pa \
	--results "$SCRATCH/two.h5"
[ "$RC" -eq 0 ] || show_run
check "the 2-node run: exit 0" test "$RC" -eq 0
"$PFSBENCH" plot "$SCRATCH/two.h5" -o "$P/two" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "plot of the 2-node run: exit 0" test $? -eq 0
svg_texts "$P/two/rates.svg" >"$SCRATCH/two.texts"
panels=$(grep -c -E '^(se|pa) [A-Z][a-z]+$' "$SCRATCH/two.texts")
echo "# the 2-node run: $panels panels, $(grep -cx 'not judged: < 3 nodes' "$SCRATCH/two.texts") say not judged"
check "2 nodes: every panel of rates.svg says not judged: < 3 nodes" \
	test "$panels" -ge 4 -a "$(grep -cx 'not judged: < 3 nodes' "$SCRATCH/two.texts")" -eq "$panels"
check "2 nodes: the heading explains it" \
	grep -qx 'hatched, not judged: < 3 nodes: it takes 3 nodes or more to tell a slow one' "$SCRATCH/two.texts"

# The comparison: its marks explained in it.
"$PFSBENCH" plot "$RUNS/tmpfs.h5" "$RUNS/tmpfs-slow.h5" "$RUNS/ext3.h5" -o "$P/cmp" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "plot of three runs: exit 0" test $? -eq 0
check "compare.svg: title, subtitle (the base run), whiskers, cut whiskers and * explained" \
	head_is "$P/cmp/compare.svg" \
	'create-unlink: the rate of each op in 3 runs, against tmpfs.h5 (files/s, log scale)' \
	'tmpfs.h5: TMPFS on /tmp/plotdocs/mnt-tmpfs, 3 nodes x 1 worker, 2026-11-30T19:14:59Z' \
	'whiskers: the interval compare gives the ratio to tmpfs.h5, times the rate of tmpfs.h5' \
	'triangle at the edge of the axis: a whisker cut there, going on beyond (the axis spans the rates 4x each way)' \
	'*: a change compare calls out'
check "compare.png: its 5 heading lines drawn" heading_ok "$P/cmp/compare.png" 5
check "compare.svg: the * it explains is drawn" test "$(svg_texts "$P/cmp/compare.svg" | grep -cx '\*')" -ge 1

# The heatmaps: vector cells, a title and the blank cells explained.
"$PFSBENCH" plot "$RUNS/matrix-tmpfs.h5" -o "$P/m" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "plot matrix-tmpfs.h5: exit 0" test $? -eq 0
check "matrix.svg: title, subtitle, blank cells explained" head_is "$P/m/matrix.svg" \
	'matrix Write: MiB/s of each transfer and request size' \
	'matrix-tmpfs.h5: TMPFS on /dev/shm, 1 node x 2 workers, 2026-11-30T23:30:35Z' \
	'blank cell: a request larger than its transfer, not run'
check "matrix.png: its 3 heading lines drawn" heading_ok "$P/m/matrix.png" 3
cells=$(grep -c "<polygon fill = 'rgb(" "$P/m/matrix.svg")
echo "# matrix.svg: $cells filled polygons for its 5 x 9 cells (and the colour box)"
check "matrix.svg: no bitmap, a filled polygon a cell or more" \
	test -z "$(grep '<image' "$P/m/matrix.svg")" -a "$cells" -ge 45
"$PFSBENCH" plot "$SRCDIR/tests/data/perf_matrix/read.txt" -o "$P/pm" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "a perf_matrix output's heatmap: its subtitle names it, no bitmap" \
	head_is "$P/pm/matrix.svg" 'MiB/s of each transfer and request size' 'perf_matrix output read.txt'
check "a perf_matrix output's heatmap: no bitmap" test -z "$(grep '<image' "$P/pm/matrix.svg")"
"$PFSBENCH" report "$RUNS/matrix-tmpfs.h5" -o "$SCRATCH/m.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "report of the matrix run: exit 0" test $? -eq 0
"$PY" -c 'import base64, re, sys
svgs = [base64.b64decode(s).decode() for s in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", open(sys.argv[1]).read())]
sys.exit(0 if svgs and all("<image" not in s and s.count("<polygon fill") >= 45 for s in svgs) else 1)' "$SCRATCH/m.html"
check "report: the heatmap it holds is vector cells, no bitmap to smooth" test $? -eq 0
finish
