#!/bin/bash
# SIGINT or SIGTERM to mpirun mid-run: the results file stays readable, says
# aborted and why, and keeps the rows measured so far; show prints the
# partial report with its status; the target is cleaned up.
. "$SRCDIR/tests/archive/lib.sh"
mkdir -p "$SCRATCH/target"
# mpirun gives the ranks odls_base_sigkill_timeout seconds (default 1)
# between its SIGTERM and its SIGKILL (and waits as long before the
# SIGTERM); removing 2000 files on a loaded machine can take longer, and
# what is checked here is the clean-up. 10 s: removing them takes about
# 0.1 s under ASan; the 30 s that 20000 files had here made each case wait
# a minute (issue 24).
export OMPI_MCA_odls_base_sigkill_timeout=10
for sig in INT TERM; do
	h5="$SCRATCH/$sig.h5"
	"$MPIRUN" --oversubscribe -np 2 "$PFSBENCH" create-unlink -m "$SCRATCH/target" -f 2000 -F 5 \
		-s 4k -t se,pa -i 1000 --no-drop-caches --results "$h5" >"$SCRATCH/$sig.txt" 2>"$SCRATCH/$sig.err" &
	pid=$!
	# Wait for the first block of rows in the report, then interrupt.
	for _ in $(seq 1 300); do
		grep -q ' Unlink ' "$SCRATCH/$sig.txt" 2>/dev/null && break
		sleep 0.1
	done
	grep -q ' Unlink ' "$SCRATCH/$sig.txt" || { kill -KILL $pid; fail "the run never printed a row"; }
	t0=$SECONDS
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	# A CI of stop 38 (sanitizers, beside a fresh machine's other lanes)
	# once found status running, exit 1 and nothing on stderr: the ranks
	# killed before they wrote a word; how long mpirun took says whether
	# odls_base_sigkill_timeout ran out.
	echo "# SIG$sig: mpirun ended $((SECONDS - t0)) s after the signal, status $rc"
	[ $rc != 0 ] || fail "SIG$sig: the run exited 0"
	"$PFSBENCH" export "$h5" --csv --provenance >"$SCRATCH/prov.csv" || fail "SIG$sig: the file is not readable"
	grep -q '^status,aborted' "$SCRATCH/prov.csv" ||
		fail "SIG$sig: status is not aborted: $(grep ^status "$SCRATCH/prov.csv"); exit $rc; the run's stderr: $(tail -15 "$SCRATCH/$sig.err"); its stdout's end: $(tail -5 "$SCRATCH/$sig.txt")"
	# mpirun passes SIGINT and SIGTERM on to the ranks as SIGTERM.
	grep -q '^status_reason,"node [^,]* worker [0-9]*: interrupted by SIGTERM from mpirun (pid [0-9]*' \
		"$SCRATCH/prov.csv" || fail "SIG$sig: $(grep ^status_reason "$SCRATCH/prov.csv")"
	"$PFSBENCH" show "$h5" >"$SCRATCH/show.txt" || fail "SIG$sig: show failed"
	grep -q '^Status: aborted: node .*: interrupted by SIGTERM from mpirun' "$SCRATCH/show.txt" ||
		fail "SIG$sig: show gives no status"
	[ "$("$PFSBENCH" export "$h5" --csv | wc -l)" -gt 8 ] || fail "SIG$sig: the rows measured were lost"
	[ -z "$(ls -A "$SCRATCH/target")" ] || fail "SIG$sig: the run left files in the target"
	grep -qxF "pfsbench: results: $h5 (read it with: pfsbench show $h5)" "$SCRATCH/$sig.err" ||
		fail "SIG$sig: stderr does not say where the results are: $(tail -3 "$SCRATCH/$sig.err")"
done
ok "every step above"
finish
