#!/bin/bash
# install.sh: make install into a DESTDIR puts pfsbench, the three
# launchers, the four man pages, the documentation and the job scripts
# where the man pages say; everything installed runs from there with small
# cases (pfsbench and each launcher with the seeds' own lines, under mpirun
# where the tool is run so), PFSBENCH unset, so the launchers find the
# pfsbench installed beside them (their baked-in $BINDIR/pfsbench is not
# there under a DESTDIR); man -l reads every page; make uninstall leaves
# no file and no directory of pfsbench's own.
. "$(dirname "$0")/../mpi/lib.sh"
: "${TOP_BUILDDIR:?TOP_BUILDDIR: the build tree (set by make check)}"
: "${BINDIR:?}" "${DOCDIR:?}" "${MANDIR:?}"
command -v man >/dev/null || skip "no man (Debian: apt-get install man-db): the pages cannot be read"

DEST=$SCRATCH/dest
B=$DEST$BINDIR
# make as a command of its own, not a part of the make check that runs this
# test (its jobserver, its TESTS=...).
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP_BUILDDIR" "$@" DESTDIR="$DEST" \
		>"$SCRATCH/make.out" 2>&1
}
t0=$(date +%s%N)
submake install
RC=$?
echo "# make install took $((($(date +%s%N) - t0) / 1000000)) ms"
check "make install DESTDIR=...: exit 0" test "$RC" -eq 0
[ "$RC" -eq 0 ] || { cat "$SCRATCH/make.out"; finish; }

# ---- what is installed, where ------------------------------------------------
for p in pfsbench create_unlink_perf dm perf_matrix; do
	check "$BINDIR/$p is installed, executable" test -x "$B/$p"
	check "$MANDIR/man1/$p.1 is installed" test -s "$DEST$MANDIR/man1/$p.1"
done
for d in README.md methodology.md cluster.md stream.md matrix.md tree.md bonnie.md security.md; do
	check "$DOCDIR/$d is installed" test -s "$DEST$DOCDIR/$d"
done
for j in slurm/pfsbench.sbatch pbs/pfsbench.pbs lsf/pfsbench.lsf; do
	check "the job script $DOCDIR/jobs/$j is installed" cmp -s "$SRCDIR/jobs/$j" "$DEST$DOCDIR/jobs/$j"
done
check "the launchers name the installed pfsbench, not the build tree" \
	eval '! grep -l "$TOP_BUILDDIR" "$B/create_unlink_perf" "$B/dm" "$B/perf_matrix"'

# ---- man -l of every page: it reads, and every file it names is installed ---------
for p in pfsbench create_unlink_perf dm perf_matrix; do
	page=$DEST$MANDIR/man1/$p.1
	MANWIDTH=80 man -l "$page" >"$SCRATCH/man.out" 2>"$SCRATCH/man.err"
	RC=$?
	check "man -l $p.1: exit 0, nothing on stderr" test "$RC" -eq 0 -a ! -s "$SCRATCH/man.err"
	check "man -l $p.1: the page of $p" grep -qE "^NAME|^N.?NA.?AM.?ME" "$SCRATCH/man.out"
	check "man -l $p.1: its name line" grep -qE "^ +$p " "$SCRATCH/man.out"
	check "$p.1: no @placeholder@ left" eval '! grep -q "@[a-zA-Z_]*@" "$page"'
	missing=
	for f in $(grep -oE "$DOCDIR/[A-Za-z0-9_./-]+[A-Za-z0-9]" "$page" | sort -u); do
		[ -e "$DEST$f" ] || missing+=" $f"
	done
	check "$p.1: every file of $DOCDIR it names is installed${missing:+ (missing:$missing)}" test -z "$missing"
done

# ---- everything installed runs ---------------------------------------------------
unset PFSBENCH
D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
run() { # NAME CMD...: in $SCRATCH, PFSBENCH unset; $OUT $ERR $RC
	local name=$1
	shift
	OUT=$SCRATCH/$name.out ERR=$SCRATCH/$name.err
	(cd "$SCRATCH" && timeout 300 "$@") >"$OUT" 2>"$ERR"
	RC=$?
	[ "$RC" -eq 0 ] || show_run
}
run pfsbench "$MPIRUN" --oversubscribe -np 2 "$B/pfsbench" create-unlink -m "$D" -f 20 -F 2 -s 4k \
	--results "$SCRATCH/cu.h5"
check "installed pfsbench, 2 ranks: exit 0" test "$RC" -eq 0
check "installed pfsbench: the report" grep -qx "Done." "$OUT"
check "installed pfsbench: its last line names the installed-path-free command" \
	grep -q "(read it with: pfsbench show $SCRATCH/cu.h5)" "$ERR"
run show "$B/pfsbench" show "$SCRATCH/cu.h5"
check "installed pfsbench show reads it back" grep -qx "Done." "$OUT"

# Red Hat's line, 2 workers on this host (the launcher runs mpirun itself)
run cup "$B/create_unlink_perf" -i 1 -w 2 -m "$D" localhost -- -f 20 -F 2 -s 4k \
	--results "$SCRATCH/cup.h5"
check "installed create_unlink_perf -w 2 localhost: exit 0" test "$RC" -eq 0
check "installed create_unlink_perf: its report, 1 node of 2 workers" \
	grep -qx "Testing with 1 nodes, 2 workers per node: " "$OUT"
check "installed create_unlink_perf: run by the pfsbench beside it" \
	test "$(env -u PFSBENCH "$B/create_unlink_perf" -n -m "$D" localhost | awk '{print $(NF - 5)}')" = "$B/pfsbench"

# DRBD's dm lines: a write to a new file (made, no --force), a read of it
run dm "$B/dm" -a 0 -b 1M -s 2M -y -m -p -o "$D/dummy-out"
check "installed dm, the seed's write line to a new file: exit 0" test "$RC" -eq 0
check "installed dm: the file is made, 2 MiB of zeros, and stays" \
	cmp -s "$D/dummy-out" <(head -c 2097152 /dev/zero)
run dm-read "$B/dm" -o /dev/null -b 1M -s 2M -m -p -i "$D/dummy-out" --force
check "installed dm, the seed's read line: exit 0" test "$RC" -eq 0
check "installed dm: dm's marks and throughput line" \
	eval 'test "$(head -1 "$OUT")" = RR && sed -n 2p "$OUT" | grep -qE "^[0-9.]+ MB/sec \(2097152 B / "'
rm "$D/dummy-out"
run dm-mpi "$MPIRUN" --oversubscribe -np 2 "$B/dm" -a 0 -b 64k -s 256k -m -p -o "$D"
check "installed dm under mpirun, 2 ranks, a directory: exit 0" test "$RC" -eq 0

# perf_matrix's of= line, every rank under mpirun, a small matrix
run pm "$MPIRUN" --oversubscribe -np 2 "$B/perf_matrix" of="$D" iter=1 --req 4k,64k --xfer 1m \
	--results "$SCRATCH/pm.h5"
check "installed perf_matrix of=DIR under mpirun: exit 0" test "$RC" -eq 0
run pm-diff "$B/perf_matrix" diff "$SCRATCH/pm.h5" "$SCRATCH/pm.h5"
check "installed perf_matrix diff: exit 0" test "$RC" -eq 0
check "nothing left in the target by the runs" dir_unchanged "$D"

# ---- make uninstall: nothing left --------------------------------------------------
submake uninstall
RC=$?
check "make uninstall: exit 0" test "$RC" -eq 0
left=$(find "$DEST" ! -type d | head -5)
check "make uninstall: no file nor link left${left:+ (left: $left)}" test -z "$left"
check "make uninstall: $DOCDIR, pfsbench's own directory, is gone" test ! -e "$DEST$DOCDIR"
finish
