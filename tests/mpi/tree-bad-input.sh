#!/bin/sh
# tree-bad-input.sh: pfsbench tree refuses bad input before creating
# anything. Protects: each case exits with status 2, says why on stderr, and
# leaves the scratch directory as it was; --dry-run creates nothing.
. "${SRCDIR:-.}/tests/mpi/tree-lib.sh"

# refused LAYOUT PATTERN ARGS...: the run must exit 2 with PATTERN on stderr
# and leave the scratch directory empty.
refused() {
	layout=$1 pattern=$2
	shift 2
	run "$layout" tree "$@"
	rc=$?
	[ $rc -eq 2 ] || fail "'tree $*' exited $rc, not 2"
	grep -qF -- "$pattern" "$err" || fail "'tree $*' did not say '$pattern'"
	expect_empty "$scratch" "'tree $*'"
}

S="-o $scratch --no-drop-caches"
refused 1 "unknown option '--bogus'" $S --bogus
refused 1 "unknown option '-x'" $S -x
refused 2 "-d/--dirs must be at least 1" $S -d 0
refused 1 "-f/--files must be at least 1" $S -f 0
refused 1 "-s/--size must be at least 1" $S -s 0
refused 1 "-l/--levels wants a whole number, not '-1'" $S -l -1
refused 1 "-f/--files wants a whole number, not '-5'" $S -f -5
refused 1 "-l/--levels '300' is too large" $S -l 300
refused 1 "too large to count" $S -l 30 -d 10
refused 1 "unexpected argument 'extra'" $S extra
refused 2x1 "cannot use '$scratch/missing': No such file or directory" -o "$scratch/missing"
refused 1 "-C and -R exclude each other" $S -C -R
refused 1 "-C and -R run once" $S -C -i 2
refused 2x1 "nothing to resume: no earlier run with these options left '$scratch/pfsbench.tree.l4.d10.f10.s10'" $S -R
refused 1 "this run needs" $S -l 6 -d 10 -s 1000000
refused 1 "this run needs" $S -l 6 -d 10 -s 1000000 --dry-run

# --dry-run prints the seed's totals and creates nothing.
run 2 tree $S -l 10 -d 3 -f 4 -s 1 --dry-run || fail "--dry-run exited $?"
expect_empty "$scratch" "--dry-run"
grep -q "for a total of 88573 directories" "$out" &&
	grep -q "for a total of 354292 files and 1417168KiB" "$out" &&
	grep -q "the run needs 3542920 KiB and 885730 inodes" "$out" &&
	grep -q "the plan fits" "$out" || fail "--dry-run did not print the plan"

# A second -C with the same options finds the first's trees and refuses;
# they stay as they were, and -R removes them.
run 1 tree $S -l 1 -d 2 -f 1 -s 1 -C || fail "-C exited $?"
before=$(find "$scratch" | sort)
run 1 tree $S -l 1 -d 2 -f 1 -s 1 -C
[ $? -eq 2 ] || fail "a second -C did not exit 2"
grep -q "exists: an earlier run with these options left it" "$err" || fail "a second -C did not say why"
[ "$(find "$scratch" | sort)" = "$before" ] || fail "a refused -C changed the trees"
run 1 tree $S -l 1 -d 2 -f 1 -s 1 -R || fail "-R exited $?"
expect_empty "$scratch" "-R"
echo "PASS: bad input refused with status 2, nothing created"
