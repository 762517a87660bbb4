#!/bin/bash
# A results file swapped by rename while root reads it (issue 26, attack
# 4): root runs show on D/run.h5, D owned by a real unprivileged user, who
# keeps renaming fresh copies of a good results file and of one on which
# HDF5 1.10.8 itself dies (tests/fuzz/known) onto run.h5 for 150 runs of
# show. Before, the reader child checked the file by name and the parent
# opened it again by name: a swap between the two handed the parent a
# file never checked, and 47 of 150 runs died of SIGSEGV. Now both parse
# the same bytes, read once from one descriptor: no run may end by a
# signal (status 128 and up, or 124 for the hang guard); each prints the
# good report or refuses in one line naming the file.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/lib.sh"

TRIES=${TRIES:-150}
SYNTH=$(dirname "$(dirname "$PFSBENCH")")/tests/archive/synth_results
[ -x "$SYNTH" ] || skip "$SYNTH is not built (make check builds it)"
D=$SCRATCH/shared
mkdir "$D"
"$SYNTH" "$D/good.h5" 4 2 1 1.0 0.0 1 >/dev/null || skip "synth_results could not write a file"
cp "$(dirname "$0")/../fuzz/known/h5dopen-chunk-info-fpe.h5" "$D/bad.h5"
chown -R "$ATTACKER" "$D"
"$PFSBENCH" show "$D/bad.h5" >/dev/null 2>&1
check "the bad file alone is refused (exit 1)" test $? -eq 1
t=$D/run.h5
runuser -u "$ATTACKER" -- cp "$D/good.h5" "$t"

as_attacker "$SWAP" files "$D" run.h5 "$D/good.h5" "$D/bad.h5" "$SCRATCH/stop"
good_runs=0 refused=0 signalled=0 other=0
for ((i = 1; i <= TRIES; i++)); do
	timeout 20 "$PFSBENCH" show "$t" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	# The sanitizer build's runtime prints this line when HDF5 dies of a
	# signal in the reader's child (its report goes to the harness's log).
	sed -i '/^AddressSanitizer:DEADLYSIGNAL$/d' "$SCRATCH/err"
	if [ "$rc" -eq 0 ] && grep -q "^Done\.$" "$SCRATCH/out" && [ ! -s "$SCRATCH/err" ]; then
		good_runs=$((good_runs + 1))
	elif [ "$rc" -eq 1 ] && [ ! -s "$SCRATCH/out" ] && [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] &&
		grep -qF "pfsbench: cannot read '$t': " "$SCRATCH/err"; then
		refused=$((refused + 1))
	else
		if [ "$rc" -ge 124 ]; then signalled=$((signalled + 1)); else other=$((other + 1)); fi
		echo "# try $i: show exited $rc (128 and up: a signal; 124: it hung): $(head -c 300 "$SCRATCH/err")"
	fi
done
stop_attacker "$SCRATCH/stop"
echo "# $TRIES runs while the user swapped the file: $good_runs read the good file," \
	"$refused refused the bad one, $signalled died or hung, $other ended otherwise"

check "no run of show died of a signal or hung ($signalled of $TRIES)" test "$signalled" -eq 0
check "every run printed the report or refused in one line ($other did not)" test "$other" -eq 0
check "the user swapped both files in: some runs read the good one, some refused ($good_runs, $refused)" \
	test "$good_runs" -gt 0 -a "$refused" -gt 0
finish
