#!/bin/bash
# pfsbench tree refuses bad input before it creates anything: each case
# exits 2, says why on stderr, leaves the target as it was and writes no
# results file. --dry-run prints the plan and creates nothing; a second -C
# changes nothing.
. "$(dirname "$0")/lib.sh"

refusals_of tree

S=(-o "$D" --no-drop-caches)
# The refusals of values, each with its message, are
# tests/unit/test_refusals.c's; here, the whole path of two (one of 2
# ranks) and the refusals that need the filesystem or the ranks.
refused 1 "unknown option '--bogus'" "${S[@]}" --bogus
refused 2 "cannot use '$D/missing': No such file or directory" -o "$D/missing"
refused 2 "-C and -R exclude each other" "${S[@]}" -C -R
refused 2 "nothing to resume: no earlier run with these options left '$D/pfsbench.tree.l4.d10.f10.s10'" "${S[@]}" -R
refused 1 "this run needs" "${S[@]}" -l 6 -d 10 -s 1000000
refused 1 "this run needs" "${S[@]}" -l 6 -d 10 -s 1000000 --dry-run
[ "$T_FAILED" -eq 0 ] || show_run

pfs 2 tree "${S[@]}" -l 10 -d 3 -f 4 -s 1 --dry-run
check "--dry-run: exit 0" test "$RC" -eq 0
check "--dry-run: nothing created" dir_unchanged "$D"
check "--dry-run: the seed's directories" grep -q "for a total of 88573 directories" "$OUT"
check "--dry-run: the seed's files and KiB" grep -q "for a total of 354292 files and 1417168KiB" "$OUT"
check "--dry-run: what 2 ranks need" grep -q "the run needs 3542920 KiB and 885730 inodes" "$OUT"
check "--dry-run: the plan fits" grep -q "the plan fits" "$OUT"
[ "$T_FAILED" -eq 0 ] || show_run

pfs 1 tree "${S[@]}" -l 1 -d 2 -f 1 -s 1 -C
check "-C: exit 0" test "$RC" -eq 0
(cd "$D" && find . | sort) >"$SCRATCH/kept"
pfs 1 tree "${S[@]}" -l 1 -d 2 -f 1 -s 1 -C
check "a second -C: exit 2" test "$RC" -eq 2
check "a second -C: says why" grep -q "exists: an earlier run with these options left it" "$ERR"
check "a second -C: the trees are as they were" diff <(cd "$D" && find . | sort) "$SCRATCH/kept"
pfs 1 tree "${S[@]}" -l 1 -d 2 -f 1 -s 1 -R
check "-R after it: exit 0, nothing left" test "$RC" -eq 0 -a -z "$(ls "$D")"
[ "$T_FAILED" -eq 0 ] || show_run

# -R works each worker's own tree: on fewer ranks than -C it left the
# others' trees (and said exit 0), on more it failed on the missing ones.
# Refused before anything is made; the same ranks then remove everything.
pfs 2 tree "${S[@]}" -l 1 -d 2 -f 1 -s 1 -C
check "-C on 2 ranks: exit 0" test "$RC" -eq 0
snapshot "$D"
kept=$D/pfsbench.tree.l1.d2.f1.s1
host=$(ls "$kept" | sed -n 's/\.1$//p')
results=$(find "$SCRATCH" -maxdepth 1 -name 'pfsbench-tree-*.h5' | wc -l)
refused 1 "'$kept' holds '$host.2', the directory of a worker this run does not have: run on the nodes and ranks of the run that left it" \
	"${S[@]}" -l 1 -d 2 -f 1 -s 1 -R
refused 3 "'$kept' holds no directory for node $host worker 3: run on the nodes and ranks of the run that left it" \
	"${S[@]}" -l 1 -d 2 -f 1 -s 1 -R
check "a refused -R makes no results file" test "$(find "$SCRATCH" -maxdepth 1 -name 'pfsbench-tree-*.h5' | wc -l)" -eq "$results"
pfs 2 tree "${S[@]}" -l 1 -d 2 -f 1 -s 1 -R
check "-R on the ranks of -C: exit 0, nothing left" test "$RC" -eq 0 -a -z "$(ls "$D")"
[ "$T_FAILED" -eq 0 ] || show_run
finish
