#!/bin/sh
# A results file swapped by rename while show reads it (issue 26, attack
# 4): the child that checks a file and the reader after it read the same
# bytes, read once from one descriptor, so a swap between them cannot hand
# the reader a file the child never checked. Before, 47 of 150 runs died
# (SIGSEGV). Here a good file and one on which HDF5 1.10.8 itself dies
# (tests/fuzz/known) take turns at one name for 150 runs of show: none
# may end by a signal (status 128 and up, or 124 for the hang guard);
# each prints the good report or refuses in one line.
. "$SRCDIR/tests/archive/lib.sh"
[ -x "$SYNTH" ] || fail "$SYNTH is not built"
"$SYNTH" "$scratch/good.h5" 4 2 1 1.0 0.0 1 || fail "synth"
bad=$SRCDIR/tests/fuzz/known/h5dopen-chunk-info-fpe.h5
"$PFSBENCH" show "$bad" >/dev/null 2>&1
[ $? = 1 ] || fail "$bad is no longer refused"
t=$scratch/run.h5
cp "$scratch/good.h5" "$t"
(
	while [ -e "$scratch/swapping" ]; do
		cp "$scratch/good.h5" "$scratch/g.tmp" && mv -f "$scratch/g.tmp" "$t"
		cp "$bad" "$scratch/b.tmp" && mv -f "$scratch/b.tmp" "$t"
	done
) &
: >"$scratch/swapping"
good_runs=0 refused=0 i=0
while [ $i -lt 150 ]; do
	i=$((i + 1))
	timeout 20 "$PFSBENCH" show "$t" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	# The sanitizer build's runtime prints this line when HDF5 dies of a
	# signal in the reader's child (its report goes to the harness's log).
	sed -i '/^AddressSanitizer:DEADLYSIGNAL$/d' "$scratch/err"
	if [ "$rc" = 0 ] && grep -q "^Done\.$" "$scratch/out" && [ ! -s "$scratch/err" ]; then
		good_runs=$((good_runs + 1))
	elif [ "$rc" = 1 ] && [ ! -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" = 1 ] &&
		grep -qF "pfsbench: cannot read '$t': " "$scratch/err"; then
		refused=$((refused + 1))
	else
		rm -f "$scratch/swapping"
		wait
		fail "run $i: show exited $rc (128 and up: a signal; 124: it hung): $(head -c 500 "$scratch/err")"
	fi
done
rm -f "$scratch/swapping"
wait
echo "# 150 runs while the file was swapped: $good_runs read the good file, $refused refused the bad one"
echo "PASS"
