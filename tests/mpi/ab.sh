#!/bin/bash
# pfsbench ab: two configurations of create-unlink in alternating rounds in
# one job (docs/ab.md). Each run is a whole engine run in the same process
# with its own results file, label and options; the runs go A B B A; bad
# input on either side, or of ab's own, is refused before any round with
# exit 2 and nothing created.
. "$(dirname "$0")/lib.sh"

# The directories under test on a tmpfs; the results files beside them.
D=$(mktemp -d /dev/shm/pfsbench-ab.XXXXXX)
T_CLEANUP+=("rm -rf '$D'")
mkdir "$D/a" "$D/b"
snapshot "$D/a"
snapshot "$D/b"
R=$SCRATCH/res
mkdir "$R"


# ab's success: exit 0 after compare of the A runs against the B runs,
# whose table (two sides of ROUNDS runs) is on standard output.
compared() {
	local runs="${1:-2} run$([ "${1:-2}" = 1 ] || echo s):"

	[ "$RC" -eq 0 ] && grep -qx "\[1\] $runs" "$OUT" && grep -qx "\[2\] $runs" "$OUT" &&
		grep -Eq '^se +Create +files/s ' "$OUT"
}

pfs 2 ab --rounds 2 --results "$R/cu" -A "-m $D/a -f 200" -B "-m $D/b  -f 300 " \
	create-unlink -F 2 -s 4k -t se,pa
check "2 rounds: every run completed, then compare" compared
check "2 rounds: 4 results files and no other" \
	test "$(cd "$R" && echo *)" = "cu-A1.h5 cu-A2.h5 cu-B1.h5 cu-B2.h5"
for f in A1 A2 B1 B2; do
	side=${f%?}
	files=$([ "$side" = A ] && echo 200 || echo 300)
	check "$f: label $side" test "$(provenance "$R/cu-$f.h5" label)" = "$side"
	check "$f: its side's directory" test "$(provenance "$R/cu-$f.h5" target_dir)" = "$D/${side,}"
	check "$f: its side's -f $files" test "$(provenance "$R/cu-$f.h5" parameters.files)" = "$files"
	check "$f: the shared -F 2" test "$(provenance "$R/cu-$f.h5" parameters.write-files)" = 2
	check "$f: complete" test "$(provenance "$R/cu-$f.h5" status)" = complete
	check "$f: 16 rows (se and pa, 4 ops, 2 workers)" \
		test "$("$PFSBENCH" export "$R/cu-$f.h5" --csv | tail -n +2 | wc -l)" -eq 16
done
got=$(sed -n 's/^pfsbench ab: round \([0-9]*\) of 2, \([AB]\): .*/\2\1/p' "$OUT" | tr '\n' ' ')
check "the runs' headings say A1 B1 B2 A2, in that order" test "$got" = "A1 B1 B2 A2 "
check "each heading gives the run's whole command line" \
	grep -qxF "pfsbench ab: round 2 of 2, B: pfsbench create-unlink -F 2 -s 4k -t se,pa -m $D/b -f 300 --results $R/cu-B2.h5 --label B" "$OUT"
# The order on disk: each file is last written when its run ends, and
# every start is no earlier than the end of the run before.
order=$(for f in A1 B1 B2 A2; do stat -c '%.9Y' "$R/cu-$f.h5"; done)
check "the files were finished in the order A1 B1 B2 A2" \
	test "$order" = "$(sort -n <<<"$order")" -a "$(uniq <<<"$order" | wc -l)" -eq 4
starts=$(for f in A1 B1 B2 A2; do prov "$R/cu-$f.h5" start_time; done)
check "start times do not go back: A1 B1 B2 A2" test "$starts" = "$(sort <<<"$starts")"
check "compare is called with A's runs, --, B's" \
	grep -qxF "pfsbench ab: A against B: pfsbench compare $R/cu-A1.h5 $R/cu-A2.h5 -- $R/cu-B1.h5 $R/cu-B2.h5" "$OUT"
check "every report ends Done." test "$(grep -cx 'Done.' "$OUT")" -eq 4
check "nothing left in A's directory" dir_unchanged "$D/a"
check "nothing left in B's directory" dir_unchanged "$D/b"
[ "$T_FAILED" -eq 0 ] || show_run

# One side with no options of its own, and a --label of the user's kept.
pfs 1 ab -r 1 --results "$R/own" -A '' -B '--label fast --no-fsync' create-unlink -m "$D/a" -f 20 -F 2 -s 1k -t se
check "-A '': a run of the shared options alone" compared 1
check "-A '': labelled A" test "$(provenance "$R/own-A1.h5" label)" = A
check "-B's own --label kept" test "$(provenance "$R/own-B1.h5" label)" = fast
check "-B's --no-fsync in B's run only" \
	test "$(provenance "$R/own-A1.h5" parameters.no-fsync),$(provenance "$R/own-B1.h5" parameters.no-fsync)" = false,true
[ "$T_FAILED" -eq 0 ] || show_run

# bad ARGS... -- MESSAGE: exit 2, the message once, nothing on stdout, no
# results file and nothing in the directories under test.
bad() {
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	local what="ab ${args[*]:0:8}"
	ls "$R" >"$SCRATCH/res.before"
	pfs 2 ab "${args[@]}"
	check "$what: exit 2" test "$RC" -eq 2
	check "$what: says '$2'" grep -qF -- "$2" "$ERR"
	check "$what: says it once" test "$(grep -cF -- "$2" "$ERR")" -eq 1
	check "$what: nothing on stdout, no run began" test ! -s "$OUT"
	check "$what: no results file" diff <(ls "$R") "$SCRATCH/res.before"
	check "$what: nothing in the directories" dir_unchanged "$D/a"
	dir_unchanged "$D/b" || not_ok "$what: something left in B's directory"
	[ "$T_FAILED" -eq 0 ] || show_run
}

W=(create-unlink -f 20 -F 2 -s 1k -t se)
bad --results "$R/x" -A "-m $D/a" -B "-m $D/b --bogus" "${W[@]}" -- \
	"pfsbench ab: side B: unknown option '--bogus'"
bad --results "$R/x" -A "-m $D/a -i 0" -B "-m $D/b" "${W[@]}" -- \
	"pfsbench ab: side A: -i/--iterations must be at least 1"
bad --rounds 0 --results "$R/x" -A "-m $D/a" -B "-m $D/b" "${W[@]}" -- \
	"pfsbench ab: -r/--rounds must be at least 1"
bad --results "$R/x" -A "-m $D/a" "${W[@]}" -- \
	"pfsbench ab: give -B 'OPTIONS', what side B adds to the workload's options ('' for none)"
bad -A "-m $D/a" -B "-m $D/b" "${W[@]}" -- "pfsbench ab: give --results PREFIX"
bad --results "$R/x" -A "-m $D/a" -B "-m $D/b" -- "name the workload to run after ab's options"
bad --results "$R/x" -A "-m $D/a" -B "-m $D/b" frobnicate -f 2 -- "unknown workload 'frobnicate'"
bad --results "$R/x" -A "-m $D/a" -B "-m $D/b -f 30" "${W[@]}" -- "side B: -f/--files is given twice"
bad --results "$R/x" -A "-m $D/a" -B "-m $D/b" "${W[@]}" --results "$R/y.h5" -- \
	"side A: --results belongs to ab"
bad --results "$R/x" -A "-m $D/a" -B "-m $D/missing" "${W[@]}" -- \
	"pfsbench ab: side B: cannot use '$D/missing': No such file or directory"
# A results file of an earlier job is never overwritten: B's of round 2.
: >"$R/old-B2.h5"
bad --results "$R/old" -A "-m $D/a" -B "-m $D/b" "${W[@]}" -- "$R/old-B2.h5"
check "the existing file is left as it was" test ! -s "$R/old-B2.h5"
bad --results "$D/b/x" -A "-m $D/a" -B "-m $D/b" "${W[@]}" -- "$D/b/x-A1.h5"

pfs 1 ab --help
check "ab --help: exit 0" test "$RC" -eq 0
check "ab --help: the usage" grep -q '^Usage: pfsbench ab \[--rounds N\] --results PREFIX' "$OUT"
pfs 1 --help
check "pfsbench --help lists ab" grep -q '^  ab  ' "$OUT"
finish
