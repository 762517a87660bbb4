#!/bin/bash
# The answers of show --analyze and compare in the pictures and the page,
# from real runs of 3 simulated nodes on this host, checked against what
# those commands print (tests/plot/answers.py reads the numbers in the
# script plot hands gnuplot, kept by a wrapper):
# - a run with node2 slowed by the fault injector (every open 3 ms late,
#   on top of 0.2 ms on every node: 16x, so that a busy machine's noise
#   cannot hide it; 1 ms, 6x, until issue 24): show --analyze names node2, and the
#   rates picture flags exactly the (test, op)s it names, each bar labelled
#   with its factor; the timeline marks '(late)' the nodes it says leave
#   barriers late; a run without the delay on node2 likewise (whatever the
#   analysis says of it, the picture says the same);
# - the report's Analysis is show --analyze's text;
# - the comparison of the two: each bar (a run's rate), whisker (the
#   interval of the ratio, on the first run's rate) and call-out is what
#   compare --csv prints for that line and run, and the slowdown is called
#   out in the picture where compare calls it out, and drawn below the
#   first run's rate;
# - a pfsbench matrix run: its heatmap's cells are the matrix show prints,
#   the report shows it, and two matrix runs get no comparison table.
. "$(dirname "$0")/lib.sh"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so: run me from make check}"

# A gnuplot that keeps a copy of the script it is given.
GNUPLOT_TEE=$SCRATCH/gnuplot-tee
printf '#!/bin/bash\ntee "$SCRIPT_COPY" | exec %q "$@"\n' "$(command -v gnuplot)" >"$GNUPLOT_TEE"
chmod +x "$GNUPLOT_TEE"
# plot_kept NAME FILES...: plot FILES into $SCRATCH/NAME, the script in
# $SCRATCH/NAME.gp; checks the exit status.
plot_kept() {
	local name=$1 rc
	shift
	SCRIPT_COPY=$SCRATCH/$name.gp PFSBENCH_GNUPLOT=$GNUPLOT_TEE \
		"$PFSBENCH" plot "$@" -o "$SCRATCH/$name" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	[ $rc -eq 0 ] || cat "$SCRATCH/err"
	check "plot $name: exit 0" test $rc -eq 0
}

# Every open 0.2 ms late, so that each op's steps last the 10 ms the
# analysis needs to judge them (60 files written and read, 150 created).
ARGS=(-f 150 -F 60 -s 16k -i 3 -t pa)
PFSBENCH=$(faulty "delay openat 200us") real_run even "${ARGS[@]}"
PFSBENCH=$(faulty "delay openat 200us; delay openat 3ms node=node2") real_run slow "${ARGS[@]}"

for r in even slow; do
	"$PFSBENCH" show --analyze "$SCRATCH/$r.h5" >"$SCRATCH/$r.analyze"
	check "$r: show --analyze: exit 0" test $? -eq 0
	plot_kept "$r" "$SCRATCH/$r.h5"
	"$PY" "$PLOT_LIB/answers.py" flags "$SCRATCH/$r.gp" "$SCRATCH/$r.analyze" \
		"$SCRATCH/$r/rates.svg" "$SCRATCH/$r/timeline.svg" >"$SCRATCH/flags" 2>&1
	rc=$?
	sed 's/^/# /' "$SCRATCH/flags"
	check "$r: the rates and timeline flag the nodes show --analyze names, by its factors" test $rc -eq 0
	check "$r: rates and timeline are good pictures" png_ok "$SCRATCH/$r/rates.png"
done
sed -n '/^Slow nodes/,/^$/p' "$SCRATCH/slow.analyze" | sed 's/^/# /'
check "slow: show --analyze names node2" grep -q '^ node2: ' "$SCRATCH/slow.analyze"
check "slow: the rates picture labels node2's slow bars" \
	test "$(grep -c -E '>[0-9.]+x slower<' "$SCRATCH/slow/rates.svg")" -ge 2

# The page: its Analysis is show --analyze's.
"$PFSBENCH" report "$SCRATCH/slow.h5" -o "$SCRATCH/slow.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "report of slow: exit 0" test $? -eq 0
check "report: the Analysis is show --analyze's text" \
	"$PY" "$PLOT_LIB/answers.py" analysis "$SCRATCH/slow.html" "$SCRATCH/slow.analyze"
check "report: the analysis names node2" grep -q '^ node2: ' "$SCRATCH/slow.html"
check "report: the rates picture's caption says what red is" \
	grep -q 'red: a slow node, by how much slower than the median node' "$SCRATCH/slow.html"

# The comparison: the numbers compare prints.
"$PFSBENCH" compare --csv "$SCRATCH/even.h5" "$SCRATCH/slow.h5" >"$SCRATCH/cmp.csv"
check "compare --csv: exit 0" test $? -eq 0
plot_kept two "$SCRATCH/even.h5" "$SCRATCH/slow.h5"
"$PY" "$PLOT_LIB/answers.py" compare "$SCRATCH/two.gp" "$SCRATCH/cmp.csv" >"$SCRATCH/cmp" 2>&1
rc=$?
sed 's/^/# /' "$SCRATCH/cmp"
check "the comparison draws compare's rates, intervals and call-outs" test $rc -eq 0
# Whether compare calls them out depends on the noise the load puts in
# the runs; where it does, the picture's '*' was checked above.
check "the slower Create and Read: run 2's rate drawn below run 1's (a ratio under 1)" \
	test "$(grep -c -E '^ok pa (Create|Read) run 2: drawn 0\.' "$SCRATCH/cmp")" -eq 2
check "the comparison is a good picture" png_ok "$SCRATCH/two/compare.png"
"$PFSBENCH" compare "$SCRATCH/even.h5" "$SCRATCH/slow.h5" >"$SCRATCH/cmp.txt"
"$PFSBENCH" report "$SCRATCH/even.h5" "$SCRATCH/slow.h5" -o "$SCRATCH/two.html" >"$SCRATCH/out" 2>&1
check "report of two: exit 0" test $? -eq 0
check "report of two: the comparison's text is compare's" "$PY" -c '
import html, re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<h2>Comparison</h2>\n<pre>(.*?)</pre>", page, re.S)
sys.exit(0 if m and html.unescape(m.group(1)) == open(sys.argv[2]).read() else 1)' \
	"$SCRATCH/two.html" "$SCRATCH/cmp.txt"

# A pfsbench matrix run: a heatmap of what show prints.
D=$(mktemp -d /dev/shm/pfsbench-plot-matrix.XXXXXX) || skip "no /dev/shm"
T_CLEANUP+=("rm -rf '$D'")
pfs 2 matrix --write "$D" --req 4k..64k --xfer 1m..2m -i 2 --no-drop-caches \
	--results "$SCRATCH/m.h5"
[ "$RC" -eq 0 ] || cat "$ERR"
check "the matrix run: exit 0" test "$RC" -eq 0
"$PFSBENCH" show "$SCRATCH/m.h5" >"$SCRATCH/m.txt"
plot_kept m "$SCRATCH/m.h5"
check "a matrix run: its heatmap, and nothing else" \
	test "$(sort "$SCRATCH/out" | tr '\n' ' ')" = "$SCRATCH/m/matrix.png $SCRATCH/m/matrix.svg "
check "the heatmap is an SVG document" svg_ok "$SCRATCH/m/matrix.svg"
# 2 transfer sizes of 5 requests: a picture 188 px high.
check "the heatmap is a PNG with a plot area that is not empty" png_ok "$SCRATCH/m/matrix.png" 400 150
check "the heatmap's cells are the matrix show prints" \
	"$PY" "$PLOT_LIB/answers.py" heatmap "$SCRATCH/m.gp" "$SCRATCH/m.txt"
check "the heatmap labels the run's sizes" grep -q '>64KiB<' "$SCRATCH/m/matrix.svg"
"$PFSBENCH" plot "$SCRATCH/m.h5" "$SCRATCH/m.h5" -o "$SCRATCH/m2" >"$SCRATCH/out" 2>&1
check "two matrix runs: a heatmap each, no comparison of one line" \
	test "$(sort "$SCRATCH/out" | xargs -n1 basename | tr '\n' ' ')" = \
	"r1-matrix.png r1-matrix.svg r2-matrix.png r2-matrix.svg "
"$PFSBENCH" report "$SCRATCH/m.h5" -o "$SCRATCH/m.html" >"$SCRATCH/out" 2>&1
check "report of the matrix run: exit 0, its heatmap inline" \
	test "$(grep -o '<img src="data:image/svg+xml;base64,' "$SCRATCH/m.html" | wc -l)" -eq 1
finish
