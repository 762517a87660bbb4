#!/bin/bash
# --phase-timeout ends a job that a stopped or stuck rank would hang: with
# one rank slowed (the fault injector: a delay on each file), so that the
# other is done and waits, then SIGSTOPped in Create, and --phase-timeout
# (15 s, or 3 times a reference run's time on a slow machine),
#  - rank 1 stopped: rank 0 ends the job, naming the worker not done, its
#    op, its directory and its count, on stderr and in the results file
#    (aborted), and names the clean command; while it waits it uses
#    little CPU (from /proc, its second second of waiting);
#  - rank 0 stopped: rank 1 ends the job itself, after the timeout and its
#    2 s of grace.
#  - a node's leader stuck in the first step's cache drop: rank 0 names
#    both ranks as not begun, and no "last heard" time.
# The job must end by itself (exit 1 with the message, not the harness's
# timeout, which a job that hangs runs into), and pfsbench's own
# figure of how long the step ran ("ran N s") must be past the timeout: it
# did not fire early. How soon after the timeout the job ends is not
# judged here: Open MPI's end of a job with a stopped rank took 0.05 s on
# an idle machine and 8.8 s on a busy one (this test had bounds of 13 and
# 15 s until issue 24); the stop notice's own promptness is
# tests/mpi/interrupt.sh's.
# Without the option a step may run as long as it takes (the other tests).
. "$(dirname "$0")/lib.sh"

T=$SCRATCH/target
mkdir "$T"
# The victim's Create (1000 files, a delay on each) outlasts the timeout
# twice, and the timeout leaves the test time to see the other rank done
# and stop the victim. A fixed 15 s was not always that time: with 5 s and
# 10 ms a file, a busy machine once ended the job by the timeout before the
# test had found the ranks (issue 24), and the other rank's 1000 files
# depend on the machine. So the same job is run first without the fault,
# and the timeout is 3 times what that whole run took (15 s at least: on
# an idle machine it takes about 1 s); the delay a file makes the victim's
# Create last twice the timeout.
BASE=(create-unlink -m "$T" -t pa -f 1000 -F 1 -s 1k --no-drop-caches --no-fsync)
t0=$EPOCHREALTIME
pfs 2 "${BASE[@]}" --results "$SCRATCH/reference.h5"
REF_S=$(awk -v a="$EPOCHREALTIME" -v s="$t0" 'BEGIN {printf "%d", a - s + 0.999}')
[ "$RC" -eq 0 ] && [ -z "$(ls -A "$T")" ] || { not_ok "the reference run without a fault"; cat "$ERR"; finish; }
TIMEOUT=$((3 * REF_S > 15 ? 3 * REF_S : 15))
DELAY_MS=$((2 * TIMEOUT))
echo "# reference run: $REF_S s; --phase-timeout $TIMEOUT, the victim $DELAY_MS ms a file"
PLAN=("${BASE[@]}" --phase-timeout "$TIMEOUT")
# Percent of a core for the waiting rank over 1 s: 1 to 6 here, but 13 in
# the sanitizer build on a fresh machine, beside another test (make check
# -j2). A rank that spins takes what a busy loop beside it takes
# (MPI_Barrier's busy wait used 92 %, docs/methodology.md), so the rank is
# judged against one measured over the same second (lib.sh's
# cpu_beside_spinner, as in idle-cpu.sh): under half of it. A fixed bound
# (10 %, then 25 %) judged how busy the machine was.

# rank_pid R: the pid of MPI rank R of the run on $T.
rank_pid() {
	pid_with_env "^$T_PFSBENCH create-unlink -m $T" "$RANK_VAR=$1"
}

# stop_one RANK NAME: runs the plan with RANK slowed, SIGSTOPs RANK once
# the other has made its files, waits for the end; sets RC, TOOK_S (seconds
# from the stop to mpirun's exit), WAIT_CPU (percent of a core the other
# rank used from 1.1 s to 2.1 s after the stop: a long wait's rate; 999
# when it was gone before the second look) and SPIN_CPU (a busy loop's
# beside it over the same second).
stop_one() {
	local victim=$1 name=$2 i vp other t0 slow
	slow=$(faulty "delay openat ${DELAY_MS}ms rank=$victim")
	(cd "$SCRATCH" && exec timeout $((4 * TIMEOUT + 60)) "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 2 "$slow" "${PLAN[@]}" \
		--results "$SCRATCH/$name.h5") >"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err" &
	local pid=$!
	# The other rank's worker directory is <node>.<worker>, worker = rank + 1.
	for ((i = 0; i < 20 * TIMEOUT; i++)); do
		[ "$(find "$T" -mindepth 3 -path "*.$((2 - victim))/*" 2>/dev/null | wc -l)" -ge 1000 ] &&
			break
		sleep 0.1
	done
	vp=$(rank_pid "$victim") && other=$(rank_pid $((1 - victim))) ||
		{ not_ok "$name: find the ranks' pids"; wait "$pid"; return; }
	T_CLEANUP+=("kill -CONT $vp 2>/dev/null")
	kill -STOP "$vp"
	t0=$EPOCHREALTIME
	sleep 1.1
	read -r WAIT_CPU SPIN_CPU < <(cpu_beside_spinner "$other" 1)
	WAIT_CPU=${WAIT_CPU/none/999}
	wait "$pid"
	RC=$?
	TOOK_S=$(awk -v a="$EPOCHREALTIME" -v s="$t0" 'BEGIN {printf "%.1f", a - s}')
	kill -CONT "$vp" 2>/dev/null
}

# ran_past ERR S: the phase timeout's message in ERR says the step ran S
# seconds or more.
ran_past() {
	sed -n 's/.*phase timeout: .* ran \([0-9.]*\) s, past --phase-timeout.*/\1/p' "$1" | head -n 1 |
		awk -v s="$2" '{ ok = ($1 + 0 >= s) } END { exit !ok }'
}

# ended_by_abort ERR R: the job's status is pfsbench's 1. Under MPICH,
# Hydra's mpiexec may instead return 9: rank R's MPI_Abort(1) ends the
# job, the SIGSTOPped (or sleeping) rank dies of Hydra's SIGKILL, and
# which status mpiexec returns is a race (a fresh-machine CI run of
# e705513 got 9 with rank 1 stopped, with rank 0's abort and its code in
# Hydra's own line; check-mpich of ddbf8e7 got it with rank 1 asleep in
# the cache drop).
# Then that line must show pfsbench's 1, from rank R.
ended_by_abort() {
	[ "$RC" -eq 1 ] && return 0
	[ "$MPI_IMPL" = mpich ] && [ "$RC" -eq 9 ] &&
		grep -Eq "application called MPI_Abort\\(comm=[^,]*, 1\\) - process $2\$" "$1"
}

stop_one 1 rank1
echo "# rank 1 stopped: the job ended after $TOOK_S s, exit $RC; rank 0 used $WAIT_CPU% of a core waiting, a busy loop beside it $SPIN_CPU%"
check "rank 1 stopped: the job ends by itself: exit 1, or Hydra's 9 for rank 0's MPI_Abort(1) (a hang is the harness's 124)" \
	ended_by_abort "$SCRATCH/rank1.err" 0
check "rank 1 stopped: the step ran past the timeout before it fired" \
	eval 'ran_past "$SCRATCH/rank1.err" $TIMEOUT'
check "rank 1 stopped: stderr says phase timeout and the step" \
	grep -Eq '^pfsbench: phase timeout: pa 1/1 step 1 ran [0-9.]+ s, past --phase-timeout '"$TIMEOUT"'; 1 worker not done:$' "$SCRATCH/rank1.err"
check "rank 1 stopped: stderr names the worker, its op, directory and count" \
	grep -Eq "^pfsbench:   node [^ ]+ worker 2 \\(rank 1\\): Create in '$T/pfsbench\\.[^']*/[^']*\\.2', [0-9]+ of [0-9]+ files, last heard [0-9.]+ s ago\$" \
	"$SCRATCH/rank1.err"
check "rank 1 stopped: stderr names the clean command" \
	grep -q "remove them with: pfsbench clean $T\$" "$SCRATCH/rank1.err"
check "rank 1 stopped: the results file says aborted, phase timeout, and the worker" \
	grep -Eq '^Status: aborted: phase timeout: pa 1/1 step 1 .*node [^ ]+ worker 2 \(rank 1\): Create' \
	<("$PFSBENCH" show "$SCRATCH/rank1.h5" 2>&1 |
		sed 's/.*: it holds no measured rows (the run was \(aborted: .*\))$/Status: \1/' |
		sed -n '/^Status:/,$p' | tr '\n' ' ')
check "rank 1 stopped: rank 0 waited with under half of what a busy loop got beside it ($WAIT_CPU% against $SPIN_CPU%)" \
	test "$((2 * WAIT_CPU))" -lt "$SPIN_CPU"
[ "$T_FAILED" -eq 0 ] || { cat "$SCRATCH/rank1.err"; "$PFSBENCH" show "$SCRATCH/rank1.h5" | tail; }
check "rank 1 stopped: pfsbench clean removes what the job left" "$PFSBENCH" clean "$T"
check "rank 1 stopped: nothing is left" test -z "$(ls -A "$T")"

stop_one 0 rank0
echo "# rank 0 stopped: the job ended after $TOOK_S s, exit $RC"
check "rank 0 stopped: the job ends by itself: exit 1, or Hydra's 9 for rank 1's MPI_Abort(1) (a hang is the harness's 124)" \
	ended_by_abort "$SCRATCH/rank0.err" 1
check "rank 0 stopped: rank 1's step ran past the timeout and its grace before it ended the job" \
	eval 'ran_past "$SCRATCH/rank0.err" $((TIMEOUT + 2))'
check "rank 0 stopped: rank 1 says it ends the job" \
	grep -Eq '^pfsbench: node [^ ]+ worker 2: phase timeout: pa 1/1 step 1 ran [0-9.]+ s, past --phase-timeout '"$TIMEOUT"', and rank 0 has not ended the job' \
	"$SCRATCH/rank0.err"
[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH/rank0.err"
check "rank 0 stopped: pfsbench clean removes what the job left" "$PFSBENCH" clean "$T"
check "rank 0 stopped: nothing is left" test -z "$(ls -A "$T")"

# Stuck before the first step has begun: node2's leader hangs in its cache
# drop (node1's fails at once, so nothing is really dropped) and rank 0
# waits in the drop's agreement until the watchdog fires. Neither rank has
# begun Create, and rank 0 has heard from nobody: it said rank 0 was in
# Create, "0 of 0 files, last heard 52466.8 s ago" (its clock minus 0, the
# time since boot), before it knew that no step had begun yet. The hang
# has no end of its own, so the timeout can be short.
PFSBENCH=$(faulty "fail open EACCES path=drop_caches node=node1; delay open 600s path=drop_caches node=node2") \
	pfs_nodes 2 1 create-unlink -m "$T" -t pa -f 10 -F 1 -s 1k --phase-timeout 3 \
	--results "$SCRATCH/drop.h5"
check "stuck in the first cache drop: the job ends by itself: exit 1, or Hydra's 9 for rank 0's MPI_Abort(1) (exit $RC)" \
	ended_by_abort "$ERR" 0
check "stuck in the first cache drop: 2 workers not done" \
	grep -Eq '^pfsbench: phase timeout: pa 1/1 step 1 ran [0-9.]+ s, past --phase-timeout 3; 2 workers not done:$' "$ERR"
for r in 0 1; do
	check "stuck in the first cache drop: rank $r has not begun Create" \
		grep -Eq "^pfsbench:   node node$((r + 1)) worker 1 \\(rank $r\\): has not begun Create \\(still in the cache drop or the barrier before it\\)\$" "$ERR"
done
check "stuck in the first cache drop: no time since boot passed off as last heard" \
	test "$(grep -c 'last heard' "$ERR")" -eq 0
[ "$T_FAILED" -eq 0 ] || cat "$ERR"
check "stuck in the first cache drop: pfsbench clean removes what the job left" "$PFSBENCH" clean "$T"
check "stuck in the first cache drop: nothing is left" test -z "$(ls -A "$T")"

pfs 1 create-unlink -m "$T" --phase-timeout x
check "--phase-timeout x: exit 2" test "$RC" -eq 2
check "--phase-timeout x: one clear message" grep -q "phase-timeout" "$ERR"
finish
