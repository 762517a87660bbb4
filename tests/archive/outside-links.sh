#!/bin/sh
# Results files that lead out of themselves (issue 26, attack 5): an HDF5
# external link to a FIFO, to /dev/zero or to another results file,
# external storage, a virtual dataset. show, export, compare, plot and
# report each refuse them with one line naming the file, exit 1, and open
# nothing they name: a FIFO opened would block (show blocked 300 s on one
# before), so `timeout 20` stands guard and 124 is a failure. A symbolic
# link given as the file is refused too.
. "$SRCDIR/tests/archive/lib.sh"
[ -x "$SYNTH" ] || fail "$SYNTH is not built"
need_h5py
"$SYNTH" "$scratch/good.h5" 4 2 1 1.0 0.0 1 || fail "synth"
"$SYNTH" "$scratch/other.h5" 2 1 1 2.0 0.0 1 || fail "synth"
mkfifo "$scratch/fifo" || skip "cannot make a FIFO here"
"$PY" "$SRCDIR/tests/archive/craft_outside.py" "$scratch/good.h5" "$scratch/other.h5" "$scratch" ||
	fail "h5py could not write the crafted files"

# refused FILE WHY CMD...: exit 1, nothing on stdout, one line on stderr
# naming FILE and saying WHY.
refused() {
	f=$1 why=$2
	shift 2
	timeout 20 "$PFSBENCH" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	[ "$rc" = 1 ] || fail "'$*' exited $rc, not 1 (124: it blocked): $(cat "$scratch/err")"
	[ ! -s "$scratch/out" ] || fail "'$*' wrote to stdout: $(head -c 300 "$scratch/out")"
	[ "$(wc -l <"$scratch/err")" = 1 ] || fail "'$*' did not print one line: $(cat "$scratch/err")"
	grep -qF "pfsbench: cannot read '$f': not a pfsbench results file: " "$scratch/err" &&
		grep -qF "$why" "$scratch/err" || fail "'$*': $(cat "$scratch/err")"
}

for c in elink-fifo:"'rows' is an external link" elink-zero:"'rows' is an external link" \
	elink-other:"'provenance' is an external link" extstore:"'rows' is a dataset stored in external files" \
	vds:"'rows' is a virtual dataset"; do
	f=$scratch/${c%%:*}.h5 why=${c#*:}
	refused "$f" "$why" show "$f"
	refused "$f" "$why" export "$f" --csv
	refused "$f" "$why" export "$f" --json --provenance
	refused "$f" "$why" compare "$scratch/good.h5" "$f"
	refused "$f" "$why" plot "$f" -o "$scratch/pics"
	refused "$f" "$why" report "$f" -o "$scratch/report.html"
	[ ! -e "$scratch/pics" ] && [ ! -e "$scratch/report.html" ] || fail "$f: plot or report wrote output"
done
# Nothing ever opened the FIFO: a writer opening it without blocking finds
# no reader (ENXIO).
/usr/bin/python3 -c 'import os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
except OSError as e:
    sys.exit(0 if e.errno == 6 else 1)
sys.exit(1)' "$scratch/fifo" || fail "someone holds the FIFO open"

# The file itself given through a symbolic link: not followed.
ln -s good.h5 "$scratch/link.h5"
timeout 20 "$PFSBENCH" show "$scratch/link.h5" >"$scratch/out" 2>"$scratch/err"
[ $? = 1 ] && [ "$(wc -l <"$scratch/err")" = 1 ] && grep -qF \
	"cannot open '$scratch/link.h5': a symbolic link (pfsbench reads no results file through a link)" \
	"$scratch/err" || fail "show through a symlink: $(cat "$scratch/err")"
# and the good file still reads
"$PFSBENCH" show "$scratch/good.h5" >"$scratch/out" 2>"$scratch/err" || fail "good.h5: $(cat "$scratch/err")"
grep -q "^Done\.$" "$scratch/out" || fail "good.h5: no report"
echo "PASS"
