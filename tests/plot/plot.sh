#!/bin/bash
# pfsbench plot and report on real runs (3 simulated nodes on this host):
# every kind of picture as SVG (XML with an <svg> root) and PNG (a plot
# area that is not empty), the files listed on stdout; the same of the
# real runs kept in docs/runs, and docs/pictures are the files the
# commands docs/plot.md lists make; a second run and
# the comparison; perf_matrix's seed as a heatmap; the report, one page
# with every picture inline and nothing left in TMPDIR. Refusals: gnuplot
# missing (exit 2, the package named, nothing made), pictures that exist
# (exit 2, untouched; --force overwrites), a file that is neither input
# (exit 1, nothing made), no -o (exit 2, one message).
. "$(dirname "$0")/lib.sh"

P=$SCRATCH/pics
# gnuplot missing: said, exit 2, nothing made. Runs without gnuplot too.
real_run a -f 300 -F 6 -s 64k -i 2 -t se,pa,ua
PFSBENCH_GNUPLOT=$SCRATCH/no-gnuplot "$PFSBENCH" plot "$SCRATCH/a.h5" -o "$SCRATCH/none" \
	>"$SCRATCH/out" 2>"$SCRATCH/err"
check "gnuplot missing: exit 2" test $? -eq 2
check "gnuplot missing: the message names the package" grep -qx \
	"pfsbench: plot needs gnuplot, which is not installed: install Debian's gnuplot-nox (apt-get install gnuplot-nox)" \
	"$SCRATCH/err"
check "gnuplot missing: nothing made" test ! -e "$SCRATCH/none"
PFSBENCH_GNUPLOT=$SCRATCH/no-gnuplot "$PFSBENCH" report "$SCRATCH/a.h5" -o "$SCRATCH/nog.html" \
	>"$SCRATCH/out" 2>"$SCRATCH/err"
check "report without gnuplot: exit 0, the page without pictures, and why" \
	test $? -eq 0 -a -s "$SCRATCH/nog.html"
check "report without gnuplot: a warning names the package" grep -q "gnuplot-nox" "$SCRATCH/err"
check "report without gnuplot: the page says so" grep -q 'No pictures: gnuplot was not installed' "$SCRATCH/nog.html"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY: only gnuplot's absence was tested"

plot_run "$SCRATCH/a.h5" "$P"
check "plot lists on stdout the 8 files it wrote, and there are no others" \
	test "$(sort "$SCRATCH/out")" = "$(find "$P" -type f | sort)" -a "$(wc -l <"$SCRATCH/out")" -eq 8
check "the timeline has a lane per node and worker, in each test's panel" \
	test "$(grep -o -E '>node[123] w1<' "$P/timeline.svg" | sort | uniq -c | awk '$1 == 3' | wc -l)" -eq 3
check "the timeline shades the barrier waits" grep -q '>barrier wait<' "$P/timeline.svg"
check "the timeline has a panel per test" \
	test "$(grep -c -E '>test (se|pa|ua)<' "$P/timeline.svg")" -eq 3
check "the rates have a panel per test and op" \
	test "$(grep -c -E '>(se|pa|ua) (Create|Write|Read|Unlink)<' "$P/rates.svg")" -eq 10
check "the latency CDFs are on a log axis" grep -q 'latency (us, log scale)' "$P/latency.svg"

# The real runs kept in docs/runs (tmpfs, ext3 on a loop device, GlusterFS,
# tmpfs with a slow node; a matrix and a stream run on tmpfs), drawn as
# docs/plot.md shows them.
for f in tmpfs ext3 glusterfs tmpfs-slow; do
	plot_run "$SRCDIR/docs/runs/$f.h5" "$SCRATCH/docs-$f"
done
check "docs' slow run: node2's bars are flagged" grep -q '>[0-9.]*x slower<' "$SCRATCH/docs-tmpfs-slow/rates.svg"
"$PFSBENCH" plot "$SRCDIR/docs/runs/matrix-tmpfs.h5" -o "$SCRATCH/docs-matrix" >"$SCRATCH/out" 2>&1
check "docs' matrix run: its heatmap" png_ok "$SCRATCH/docs-matrix/matrix.png"
"$PFSBENCH" plot "$SRCDIR/docs/runs/stream-tmpfs.h5" -o "$SCRATCH/docs-stream" >"$SCRATCH/out" 2>&1
check "docs' stream run: its MiB/s over time" png_ok "$SCRATCH/docs-stream/progress-bytes.png"

# docs/pictures holds what the commands docs/plot.md lists make: each
# picture there is named in its table with the file it is, and is that
# file, byte for byte where this gnuplot is the one docs/plot.md names (the
# pixels of another version's fonts and antialiasing differ), else the
# same size in pixels.
DOC=$SRCDIR/docs/plot.md
MADE=$SCRATCH/docs-made
mkdir -p "$MADE" && ln -s "$SRCDIR/docs" "$MADE/docs"
made=0
while read -r cmd; do
	(cd "$MADE" && "$PFSBENCH" ${cmd#pfsbench }) >"$SCRATCH/out" 2>"$SCRATCH/err" || { cat "$SCRATCH/err"; made=-1000; }
	made=$((made + 1))
done < <(awk '/^Made with/ { w = 1 } w && /^```$/ { f++ } w && f == 1 && /^pfsbench plot /' "$DOC")
check "docs/plot.md's $made commands run, exit 0" test "$made" -ge 7
drawn_by=$(grep -o -m1 'gnuplot [0-9.]* patchlevel [0-9]*' "$DOC")
here=$(gnuplot --version)
[ "$drawn_by" = "$here" ] || echo "# docs/pictures drawn by $drawn_by, here $here: compared by size in pixels only"
same_png() {
	[ -f "$2" ] || { echo "# $2 was not made"; return 1; }
	if [ "$drawn_by" = "$here" ]; then
		cmp -s "$1" "$2" || { echo "# $1 is not $2"; return 1; }
	else
		test "$("$PY" "$PLOT_LIB/pngcheck.py" "$1" | cut -d' ' -f1-2)" = \
			"$("$PY" "$PLOT_LIB/pngcheck.py" "$2" | cut -d' ' -f1-2)"
	fi
}
for pic in "$SRCDIR"/docs/pictures/*.png; do
	name=$(basename "$pic")
	file=$(sed -n "s/^| \`$name\` | \`\([a-z0-9/-]*\.png\)\` |\$/\1/p" "$DOC")
	check "docs/pictures/$name is named in docs/plot.md's table" test -n "$file"
	[ -n "$file" ] && check "docs/pictures/$name is $file, as docs/plot.md's command makes it" \
		same_png "$pic" "$MADE/$file"
done

# Pictures that exist are not overwritten without --force.
sum=$(cat "$P"/* | cksum)
"$PFSBENCH" plot "$SCRATCH/a.h5" -o "$P" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "existing pictures: exit 2" test $? -eq 2
check "existing pictures: said" grep -q "^pfsbench: '$P/rates.svg' exists: remove it, choose another -o, or overwrite with --force" "$SCRATCH/err"
check "existing pictures: untouched" test "$(cat "$P"/* | cksum)" = "$sum"
"$PFSBENCH" plot "$SCRATCH/a.h5" -o "$P" --force --png >"$SCRATCH/out" 2>&1
check "--force --png: exit 0, 4 PNG files" test $? -eq 0 -a "$(grep -c '\.png$' "$SCRATCH/out")" -eq 4

# Bad input: one message, nothing made.
printf 'not a results file\n' >"$SCRATCH/junk.txt"
"$PFSBENCH" plot "$SCRATCH/junk.txt" -o "$SCRATCH/bad" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "a file that is neither: exit 1" test $? -eq 1
check "a file that is neither: one line that says so" \
	test "$(wc -l <"$SCRATCH/err")" -eq 1 -a -n "$(grep "is neither a results file nor a perf_matrix output" "$SCRATCH/err")"
"$PFSBENCH" plot "$SCRATCH/missing.h5" -o "$SCRATCH/bad" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "a missing file: exit 1" test $? -eq 1
check "bad input: nothing made" test ! -e "$SCRATCH/bad"
"$PFSBENCH" plot "$SCRATCH/a.h5" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "no -o: exit 2, one message asking for it and the hint" test $? -eq 2 -a \
	"$(grep -c '^pfsbench plot: give -o' "$SCRATCH/err")" -eq 1 -a -n "$(grep "^Try 'pfsbench plot --help'" "$SCRATCH/err")"
touch "$SCRATCH/afile"
"$PFSBENCH" plot "$SCRATCH/a.h5" -o "$SCRATCH/afile" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "-o naming a file: exit 2" test $? -eq 2

# perf_matrix's own output: a heatmap.
"$PFSBENCH" plot "$SRCDIR/tests/data/perf_matrix/read.txt" -o "$SCRATCH/m" >"$SCRATCH/out" 2>&1
check "a perf_matrix output: exit 0" test $? -eq 0
check "the heatmap is an SVG document" svg_ok "$SCRATCH/m/matrix.svg"
check "the heatmap is a PNG with a plot area that is not empty" png_ok "$SCRATCH/m/matrix.png"
check "the heatmap labels the sizes" grep -q '>4MiB<' "$SCRATCH/m/matrix.svg"
check "the heatmap leaves the seed's empty cells blank" test -z "$(grep '>NaN<' "$SCRATCH/m/matrix.svg")"

# Two runs: each one's pictures, and the comparison.
real_run b -f 300 -F 6 -s 16k -i 1 -t se,pa,ua
"$PFSBENCH" plot "$SCRATCH/a.h5" "$SCRATCH/b.h5" -o "$SCRATCH/two" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "two runs: exit 0" test $? -eq 0
check "two runs: each run's pictures, prefixed" \
	test -f "$SCRATCH/two/r1-timeline.svg" -a -f "$SCRATCH/two/r2-timeline.png"
check "two runs: the comparison is an SVG document" svg_ok "$SCRATCH/two/compare.svg"
check "two runs: the comparison is a PNG with a plot area that is not empty" png_ok "$SCRATCH/two/compare.png"
check "two runs: the comparison names the second run" grep -q '>b.h5<' "$SCRATCH/two/compare.svg"

# The report of both: one page, every picture inline, nothing left behind.
"$PFSBENCH" report "$SCRATCH/a.h5" "$SCRATCH/b.h5" -o "$SCRATCH/r.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "report: exit 0, the page named on stdout" test $? -eq 0 -a "$(cat "$SCRATCH/out")" = "$SCRATCH/r.html"
check "report: 9 pictures inline as SVG data" \
	test "$(grep -o '<img src="data:image/svg+xml;base64,' "$SCRATCH/r.html" | wc -l)" -eq 9
check "report: a section per run and the comparison" \
	test "$(grep -c -E '<section id="(run1|run2|compare)">' "$SCRATCH/r.html")" -eq 3
check "report: the text report of each run" test "$(grep -c 'Done\.' "$SCRATCH/r.html")" -eq 2
check "report: nothing from the network" test -z "$(grep -o -E '(src|href)="(https?:)?//' "$SCRATCH/r.html")"
check "report: no temporary pictures left in TMPDIR" test -z "$(ls "$TMPDIR" | grep pfsbench-report)"
"$PFSBENCH" report "$SCRATCH/a.h5" -o "$SCRATCH/r.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "report onto an existing page: exit 2" test $? -eq 2
check "report --force: exit 0" "$PFSBENCH" report "$SCRATCH/a.h5" -o "$SCRATCH/r.html" --force
finish
