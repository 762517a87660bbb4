#!/bin/sh
# tree-run.sh: pfsbench tree under mpirun with 1 rank, 2 ranks and 2
# simulated nodes. Protects: after -C the trees on disk are exactly the plan
# (directories, files, names, sizes) and stay; -R then leaves nothing; a
# full run leaves nothing; the report has fdtree's four phases.
. "${SRCDIR:-.}/tests/mpi/tree-lib.sh"

# -l 2 -d 3 -f 4 -s 2: 13 directories and 52 files of 8 KiB a tree.
PLAN="-l 2 -d 3 -f 4 -s 2 --no-drop-caches"
kept=$scratch/pfsbench.tree.l2.d3.f4.s2

check_kept() { # LAYOUT WORKERS
	layout=$1 want=$2
	[ -d "$kept" ] || fail "$layout: -C left no '$kept'"
	[ "$(ls "$scratch")" = "pfsbench.tree.l2.d3.f4.s2" ] || fail "$layout: more than the tree in '$scratch'"
	set -- $(ls "$kept")
	[ $# -eq "$want" ] || fail "$layout: worker directories $*"
	n=$#
	for w in "$@"; do
		t=$kept/$w
		[ "$(ls "$t")" = LEVEL0 ] || fail "$layout: '$t' holds $(ls "$t")"
		[ "$(find "$t/LEVEL0" -type d | wc -l)" -eq 13 ] || fail "$layout: directories in '$t'"
		[ "$(find "$t/LEVEL0" -type f | wc -l)" -eq 52 ] || fail "$layout: files in '$t'"
		[ -d "$t/LEVEL0/d2/d0" ] && [ -f "$t/LEVEL0/d2/d0/f3" ] && [ -f "$t/LEVEL0/f0" ] ||
			fail "$layout: names in '$t'"
	done
	[ "$(find "$kept" -type f -size 8192c | wc -l)" -eq $((52 * n)) ] || fail "$layout: file sizes"
	[ "$(find "$kept" ! -type f ! -type d | wc -l)" -eq 0 ] || fail "$layout: other kinds of file"
	[ "$(find "$kept" -type d | wc -l)" -eq $((1 + 14 * n)) ] || fail "$layout: extra directories"
}

for layout in 1 2 2x1; do
	nworkers=${layout%x1}
	run "$layout" tree -o "$scratch" $PLAN -C || fail "$layout: -C exited $?"
	check_kept "$layout" "$nworkers"
	[ "$layout" != 2x1 ] || [ "$(ls "$kept" | tr '\n' ' ')" = "nA.1 nB.1 " ] ||
		fail "2x1: worker directories are not nA.1 and nB.1"
	grep -q "^DIRECTORY CREATE TIME IN, OUT, TOTAL = " "$out" || fail "$layout: no directory create phase"
	grep -q "^FILE CREATE TIME IN, OUT, TOTAL      = " "$out" || fail "$layout: no file create phase"
	! grep -q "REMOVE TIME" "$out" || fail "$layout: -C removed"
	grep -q "^The trees stay in $kept/" "$out" || fail "$layout: -C does not say where the trees are"

	run "$layout" tree -o "$scratch" $PLAN -R || fail "$layout: -R exited $?"
	expect_empty "$scratch" "-R ($layout)"
	grep -q "^FILE REMOVE TIME IN, OUT, TOTAL      = " "$out" || fail "$layout: no file remove phase"
	grep -q "^DIRECTORY REMOVE TIME IN, OUT, TOTAL = " "$out" || fail "$layout: no directory remove phase"

	run "$layout" tree -o "$scratch" $PLAN -i 2 || fail "$layout: a full run exited $?"
	expect_empty "$scratch" "a full run ($layout)"
	[ "$(grep -c "TIME IN, OUT, TOTAL" "$out")" -eq 8 ] || fail "$layout: not 4 phases x 2 iterations"
	[ "$(grep -c "^tree " "$out")" -eq $((8 * nworkers)) ] ||
		fail "$layout: not one table row per phase, iteration and worker"
	grep -q "^Done.$" "$out" || fail "$layout: no Done."
done
echo "PASS: tree -C, -R and full runs with 1 rank, 2 ranks and 2 nodes"
