# lib.sh: what the picture tests share, on top of tests/mpi/lib.sh (and
# tests/lib.sh's need_deb, for gnuplot): the checks of a picture file, and
# a small real run to draw.
. "$(dirname "${BASH_SOURCE[0]}")/../mpi/lib.sh"
PLOT_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || skip "Debian's $PY is missing: the pictures are read with it"

# svg_ok FILE: an SVG document that parses as XML, of 2 KB to 2 MB.
svg_ok() {
	local size
	size=$(stat -c %s "$1" 2>/dev/null) || return 1
	[ "$size" -ge 2048 ] && [ "$size" -le 2097152 ] || { echo "# $1: $size bytes"; return 1; }
	"$PY" -c 'import sys, xml.etree.ElementTree as E
sys.exit(0 if E.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' "$1"
}

# png_ok FILE [MIN_WIDTH MIN_HEIGHT]: a PNG of 2 KB to 2 MB, at least 300
# x 200 (or the size given: a picture of one op on 2 lanes is smaller),
# whose middle (the plot area) has data drawn in it: at least 0.1 % of it
# in colour, where an empty plot area of axes, grid and labels (black and
# grey) has none (tests/plot/pngcheck.py).
png_ok() {
	local size minw=${2:-300} minh=${3:-200}
	size=$(stat -c %s "$1" 2>/dev/null) || return 1
	[ "$size" -ge 2048 ] && [ "$size" -le 2097152 ] || { echo "# $1: $size bytes"; return 1; }
	set -- "$1" $("$PY" "$PLOT_LIB/pngcheck.py" "$1") || return 1
	echo "# $(basename "$1"): ${2}x$3, $4 colours, in the middle: ink $6, data $7"
	[ "$2" -ge "$minw" ] && [ "$3" -ge "$minh" ] && awk -v d="$7" 'BEGIN { exit !(d >= 0.001) }'
}

# plot_run RESULTS DIR: pfsbench plot RESULTS -o DIR exits 0, and each of
# the 4 kinds of picture of a run is a good SVG and PNG; stdout in
# $SCRATCH/out, stderr in $SCRATCH/err.
plot_run() {
	local rc kind
	"$PFSBENCH" plot "$1" -o "$2" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	[ $rc -eq 0 ] || cat "$SCRATCH/err"
	check "plot $(basename "$1"): exit 0" test $rc -eq 0
	for kind in rates timeline progress-files latency; do
		check "$kind.svg is an SVG document" svg_ok "$2/$kind.svg"
		check "$kind.png is a PNG with a plot area that is not empty" png_ok "$2/$kind.png"
	done
}

# real_run NAME ARGS...: create-unlink on 3 simulated nodes of 1 worker in
# a directory of its own, results in $SCRATCH/NAME.h5; checks it ran.
real_run() {
	local name=$1
	shift
	mkdir -p "$SCRATCH/$name.d"
	snapshot "$SCRATCH/$name.d"
	pfs_nodes 3 1 create-unlink -m "$SCRATCH/$name.d" --no-drop-caches --latency \
		--results "$SCRATCH/$name.h5" "$@"
	[ "$RC" -eq 0 ] || show_run
	check "the $name run: exit 0" test "$RC" -eq 0
	check "the $name run leaves nothing" dir_unchanged "$SCRATCH/$name.d"
}

# measured NAME CMD...: runs CMD under /usr/bin/time -v with a hang guard of
# HANG_GUARD s (300), its output in $SCRATCH/NAME.out and .err; its exit status in RC,
# its peak resident size (KiB) in RSS. The time is printed, never judged.
measured() {
	local name=$1
	shift
	timeout "${HANG_GUARD:-300}" /usr/bin/time -v -o "$SCRATCH/$name.time" "$@" >"$SCRATCH/$name.out" \
		2>"$SCRATCH/$name.err"
	RC=$?
	RSS=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$SCRATCH/$name.time")
	echo "# $name: exit $RC, peak RSS ${RSS:-?} KiB, $(grep -h 'Elapsed' "$SCRATCH/$name.time")"
}

# svg_texts FILE: the text of each <text> element of an SVG, one a line,
# in document order (entities decoded).
svg_texts() {
	"$PY" -c 'import sys, xml.etree.ElementTree as E
for t in E.parse(sys.argv[1]).iter():
    if t.tag.endswith("}text") or t.tag == "text":
        print("".join(t.itertext()))' "$1"
}

# heading_ok PNG LINES: the PNG's heading, the top LINES lines of text
# (19 pixels each, and 8 more), is drawn: LINES runs of ink rows or more
# between blank rows, the first in the top line, all black on white.
heading_ok() {
	set -- "$1" "$2" $("$PY" "$PLOT_LIB/pngcheck.py" --band 0 $(($2 * 19 + 8)) "$1") || return 1
	[ $# -eq 7 ] || return 1
	echo "# $(basename "$1"): top $(($2 * 19 + 8)) rows: $3 with ink ($4 of the pixels), $5 lines, the first at row $6, $7 in colour"
	[ "$5" -ge "$2" ] && [ "$6" -ge 0 ] && [ "$6" -lt 19 ] && awk -v c="$7" 'BEGIN { exit !(c == 0) }'
}
