#!/bin/bash
# A real stream run's pictures: 2 simulated nodes of 1 worker write 48 MiB
# each to tmpfs (/dev/shm), capped by -w at 64 MiB/s a rank so the run
# lasts long enough (about 0.75 s) for progress ticks; plot draws its
# MiB/s over time (progress-bytes) with a line per node, and its rates,
# timeline and latency, every one a good SVG and PNG; and the PNG check
# refuses a frame with an empty plot area.
. "$(dirname "$0")/lib.sh"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"

D=$(mktemp -d /dev/shm/pfsbench-plot-stream.XXXXXX) || skip "no /dev/shm"
T_CLEANUP+=("rm -rf '$D'")
pfs_nodes 2 1 stream -o "$D" -s 48m -w 64m --latency --results "$SCRATCH/s.h5"
[ "$RC" -eq 0 ] || cat "$ERR"
check "the stream run: exit 0" test "$RC" -eq 0
"$PFSBENCH" plot "$SCRATCH/s.h5" -o "$SCRATCH/p" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
[ $rc -eq 0 ] || cat "$SCRATCH/err"
check "plot: exit 0" test $rc -eq 0
# One op on 2 lanes: the rates are one panel 260 px wide, the timeline one
# lane pair 154 px high.
for kind in rates timeline progress-bytes latency; do
	check "$kind.svg is an SVG document" svg_ok "$SCRATCH/p/$kind.svg"
	if png_ok "$SCRATCH/p/$kind.png" 250 150; then
		ok "$kind.png is a PNG with a plot area that is not empty"
	else
		not_ok "$kind.png is a PNG with a plot area that is not empty"
		# What it was drawn from (a CI at load 17 drew progress-bytes empty
		# once; 4 runs beside 8 busy loops did not): the ticks, the rows.
		"$PFSBENCH" export "$SCRATCH/s.h5" --csv --progress | sed 's/^/#   /' | head -40
		"$PFSBENCH" export "$SCRATCH/s.h5" --csv | sed 's/^/#   /'
	fi
done
# The picture check itself: the same frame with nothing drawn in it (axes,
# grid, title, a key) is refused.
gnuplot -e "set terminal pngcairo size 1000,280; set output '$SCRATCH/empty.png'; set grid; \
set key outside right top; set title 'test seq'; set xrange [0:1]; set yrange [0:1]; plot NaN title 'Write'"
check "an empty plot area is refused" test -s "$SCRATCH/empty.png" -a -n "$(png_ok "$SCRATCH/empty.png" || echo refused)"
check "the rate over time is in MiB/s" grep -q '>MiB/s<' "$SCRATCH/p/progress-bytes.svg"
check "the rate over time has a line per node" \
	test "$(grep -c -E '>node[12]<' "$SCRATCH/p/progress-bytes.svg")" -eq 2
finish
