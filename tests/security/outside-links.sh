#!/bin/bash
# Results files that lead out of themselves (issue 26, attack 5), made by
# a real unprivileged user in a directory of theirs and read by root: an
# HDF5 external link to a FIFO of theirs, to /dev/zero or to a results
# file of root's the user cannot read, external storage, a virtual
# dataset. show, export, compare, plot and report each refuse them with
# one line naming the file, exit 1, and open nothing they name: a FIFO
# opened would block (show blocked 300 s on one before), so `timeout 20`
# stands guard and 124 is a failure. A symbolic link of the user's to
# root's file, given as the file, is refused too.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
"$PY" -c 'import h5py' 2>/dev/null || skip "h5py does not import (Debian's python3-h5py)"
SYNTH=$(dirname "$(dirname "$PFSBENCH")")/tests/archive/synth_results
[ -x "$SYNTH" ] || skip "$SYNTH is not built (make check builds it)"
# root's: a results file in a directory only root can enter
R=$SCRATCH/root
mkdir -m 700 "$R"
"$SYNTH" "$R/other.h5" 2 1 1 2.0 0.0 1 >/dev/null || skip "synth_results could not write a file"
# the user's: a directory, a results file and a FIFO of theirs, and the
# crafted files, which they write with h5py
U=$SCRATCH/user
mkdir "$U"
"$SYNTH" "$U/good.h5" 4 2 1 1.0 0.0 1 >/dev/null || skip "synth_results could not write a file"
chown -R "$ATTACKER" "$U"
runuser -u "$ATTACKER" -- mkfifo "$U/fifo" || skip "cannot make a FIFO here"
cp "$(dirname "$0")/craft_outside.py" "$SCRATCH/craft_outside.py"
runuser -u "$ATTACKER" -- "$PY" "$SCRATCH/craft_outside.py" "$U/good.h5" "$R/other.h5" "$U" 2>"$SCRATCH/craft.err"
rc=$?
check "the user wrote the crafted files ($(tail -n 1 "$SCRATCH/craft.err"))" test "$rc" -eq 0

# refused FILE WHY CMD...: exit 1, nothing on stdout, one line on stderr
# naming FILE and saying WHY; says what it found otherwise.
refused() {
	local f=$1 why=$2 rc
	shift 2
	timeout 20 "$PFSBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ ! -s "$SCRATCH/out" ] && [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] &&
		grep -qF "pfsbench: cannot read '$f': not a pfsbench results file: " "$SCRATCH/err" &&
		grep -qF "$why" "$SCRATCH/err" && return 0
	echo "# '$*' exited $rc (124 means it blocked); stdout $(wc -c <"$SCRATCH/out") bytes;" \
		"stderr: $(head -c 300 "$SCRATCH/err")"
	return 1
}

for c in elink-fifo:"'rows' is an external link" elink-zero:"'rows' is an external link" \
	elink-other:"'provenance' is an external link" extstore:"'rows' is a dataset stored in external files" \
	vds:"'rows' is a virtual dataset"; do
	f=$U/${c%%:*}.h5 why=${c#*:}
	n=${c%%:*}
	check "$n: show refuses it" refused "$f" "$why" show "$f"
	check "$n: export --csv refuses it" refused "$f" "$why" export "$f" --csv
	check "$n: export --json --provenance refuses it" refused "$f" "$why" export "$f" --json --provenance
	check "$n: compare refuses it" refused "$f" "$why" compare "$U/good.h5" "$f"
	check "$n: plot refuses it" refused "$f" "$why" plot "$f" -o "$SCRATCH/pics"
	check "$n: report refuses it" refused "$f" "$why" report "$f" -o "$SCRATCH/report.html"
	check "$n: plot and report wrote no output" test ! -e "$SCRATCH/pics" -a ! -e "$SCRATCH/report.html"
	rm -rf "$SCRATCH/pics" "$SCRATCH/report.html"
done
# Nothing ever opened the FIFO: a writer opening it without blocking finds
# no reader (ENXIO).
check "nobody holds the user's FIFO open" "$PY" -c 'import os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
except OSError as e:
    sys.exit(0 if e.errno == 6 else 1)
sys.exit(1)' "$U/fifo"

# The user's symbolic link to root's file, given as the file: not followed.
runuser -u "$ATTACKER" -- ln -s "$R/other.h5" "$U/link.h5"
timeout 20 "$PFSBENCH" show "$U/link.h5" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "show through the user's link to root's file: exit 1 ($rc), one line" \
	test "$rc" -eq 1 -a ! -s "$SCRATCH/out" -a "$(wc -l <"$SCRATCH/err")" -eq 1
check "show through the user's link: says it follows no link" grep -qF \
	"cannot open '$U/link.h5': a symbolic link (pfsbench reads no results file through a link)" \
	"$SCRATCH/err"
# and the user's good file still reads
"$PFSBENCH" show "$U/good.h5" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "the user's good file reads (exit $?)" grep -q "^Done\.$" "$SCRATCH/out"
finish
