#!/bin/bash
# Progress messages are summed per node (progress.c): at 8 ranks on 2
# simulated nodes, in a Create phase of a few seconds (every open slowed by
# 1 ms), rank 0 hears from at most one sender per node (each node's
# aggregator; before, from each of the 7 other ranks), and at most one
# message per node per tick: PFSBENCH_DEBUG_PROGRESS makes rank 0 say how
# many messages it took over how many ticks of its run (each sender sends
# at most one a tick, and one last message at the end). The live line
# (--progress=always) still sums every rank of every node, and the results
# file's /progress still has each rank's own ticks, at most 256 per rank
# and step (timeline.h). The watchdog reads the nodes' sums too: with 2 of
# node2's 3 ranks stopped in Create (its aggregator, rank 3, done),
# --phase-timeout names one of them, the one heard from longest ago, and
# says that 1 more of node2 is not done; the heading counts both. The
# watchdog's job runs with relays, in groups of one node
# (PFSBENCH_DEBUG_PROGRESS_GROUP=1): node2's aggregator sends rank 0 its
# node's message as its own group's relay, so what the watchdog says of
# node2 (who, how far, heard how long ago) came through a relay
# (tests/mpi/watchdog.sh names workers of nodes without relays).
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
slow=$(faulty "delay openat 1ms")
debug=$(PFSBENCH=$slow debug_env PFSBENCH_DEBUG_PROGRESS=1)
NODES=2 WORKERS=4
PFSBENCH=$debug pfs_nodes $NODES $WORKERS create-unlink -m "$D" -F 1 -s 4k -t pa --no-drop-caches \
	-f 3000 --progress=always --results "$SCRATCH/nodes.h5"
check "8 ranks on 2 nodes: exit 0" test "$RC" -eq 0
check "rank 0 says what it heard" progress_heard
msgs=${HEARD_MSGS:-0} senders=${HEARD_SENDERS:-99} nodes=${HEARD_NODES:-0} ticks=${HEARD_TICKS:-0}
stored=${HEARD_STORED:-0}
check "the run has $NODES nodes and 8 ranks" test "$nodes" -eq $NODES -a "${HEARD_RANKS:-0}" -eq 8
check "rank 0 heard from one sender per node at most ($senders <= $NODES), not from each rank" \
	test "$senders" -le $NODES
check "rank 0 heard at least one node" test "$senders" -ge 1
check "rank 0 took at most one message per node per tick ($msgs <= $NODES x ($ticks + 2))" \
	test "$msgs" -le $((NODES * (ticks + 2)))
check "the phase lasted several ticks" test "$ticks" -ge 10
check "--progress=always: the line names a node as the slowest" \
	grep -qE '^pfsbench: pa 1/1 Create: [0-9]+ files/s, [0-9.]+ s, about [0-9]+ s to go, slowest node[12] \(' "$ERR"
"$PFSBENCH" export "$SCRATCH/nodes.h5" --csv --progress | tr -d '\r' >"$SCRATCH/ticks.csv"
ranks=$(awk -F, '$1 == "pa" && $3 == 0 {print $4}' "$SCRATCH/ticks.csv" | sort -u | wc -l)
check "/progress: each of the 8 ranks has its own Create ticks" test "$ranks" -eq 8
most=$(awk -F, 'NR > 1 {n[$1 " " $2 " " $3 " " $4]++} END {m = 0; for (k in n) if (n[k] > m) m = n[k]; print m}' \
	"$SCRATCH/ticks.csv")
check "/progress: at most 256 ticks per rank and step ($most)" test "$most" -le 256
check "/progress: as many ticks as rank 0 stored" \
	test "$(($(wc -l <"$SCRATCH/ticks.csv") - 1))" -eq "$stored"
check "nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# The watchdog: 2 nodes of 3 ranks. Ranks 4 and 5 (node2's workers 2 and
# 3) make their first 10 files 20 ms apart (so they tick and say their
# counts: 200 ms of sleep at least, past the 100 ms tick however fast the
# machine), then hang in the 11th create (a mount gone dead) and are
# stopped; the 4 others have 20 files to make and are done. Nothing here
# bets that the machine is fast enough: the test waits for every sign
# that the job stands where it should (the 4 others' 20 files, ranks 4
# and 5's 10, both stopped) before judging the watchdog's words, and a
# job that ended first (too slow a machine for --phase-timeout) is run
# again with a 3 times longer one. A job counts only when the signs came
# within the first half of its timeout: the other half leaves rank 0
# time to hear what the test saw.
W=$SCRATCH/wd
F=20
mkdir "$W"
wslow=$(faulty "delay openat 20ms path=/node2.2/; delay openat 20ms path=/node2.3/;
delay openat 600s path=/node2.2/ after=10; delay openat 600s path=/node2.3/ after=10")
# made: whether the worker directory of node N worker K holds at least M files.
made() {
	[ "$(find "$W" -mindepth 3 -path "*/node$1.$2/*" 2>/dev/null | head -n "$3" | wc -l)" -ge "$3" ]
}
# ready: every sign, in the order they come.
ready() {
	made 1 1 $F && made 1 2 $F && made 1 3 $F && made 2 1 $F && made 2 2 10 && made 2 3 10
}
set_up=false
for timeout in 10 30 90; do
	cmd=()
	for n in 1 2; do
		[ "$n" -gt 1 ] && cmd+=(:)
		mpi_env "PFSBENCH_NODENAME=node$n" PFSBENCH_DEBUG_PROGRESS_GROUP=1
		cmd+=(-np 3 "${MPI_ENV[@]}" "$wslow" create-unlink -m "$W" -t pa -f $F -F 1 -s 1k
			--no-drop-caches --phase-timeout $timeout --results "$SCRATCH/wd.h5")
	done
	began=$EPOCHSECONDS
	(cd "$SCRATCH" && exec timeout $((timeout + 110)) "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") \
		>"$SCRATCH/wd.out" 2>"$SCRATCH/wd.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ! ready; do
		sleep 0.1
	done
	stopped=()
	if kill -0 "$pid" 2>/dev/null; then
		for r in 4 5; do
			p=$(pid_with_env "^$T_PFSBENCH create-unlink -m $W" "$RANK_VAR=$r") || continue
			T_CLEANUP+=("kill -CONT $p 2>/dev/null")
			kill -STOP "$p" && stopped+=("$p")
		done
	fi
	seen=$((EPOCHSECONDS - began))
	wait "$pid"
	rc=$?
	for p in "${stopped[@]}"; do kill -CONT "$p" 2>/dev/null; done
	if [ "${#stopped[@]}" -eq 2 ] && [ $((2 * seen)) -lt "$timeout" ]; then
		set_up=true
		break
	fi
	echo "# the watchdog: the job with --phase-timeout $timeout ended before it was set up" \
		"(signs seen after ${seen} s, ${#stopped[@]} ranks stopped); again with a longer one"
	sed 's/^/#   /' "$SCRATCH/wd.err"
	"$PFSBENCH" clean "$W" >/dev/null 2>&1
	rm -f "$SCRATCH/wd.h5"
done
check "the watchdog: the others done, ranks 4 and 5 hung and stopped, within half the timeout" $set_up
check "the watchdog: the job ends by itself: exit 1 (a hang is the harness's 124)" test "$rc" -eq 1
check "the watchdog: 2 workers not done" \
	grep -Eq "^pfsbench: phase timeout: pa 1/1 step 1 ran [0-9.]+ s, past --phase-timeout $timeout; 2 workers not done:\$" \
	"$SCRATCH/wd.err"
check "the watchdog: one of node2's stopped ranks named, and 1 more of node2" \
	grep -Eq "^pfsbench:   node node2 worker [23] \\(rank [45]\\): Create in '$W/pfsbench\\.[^']*/node2\\.[23]', ([1-9]|10) of $F files, last heard [0-9.]+ s ago; 1 more of node node2 not done\$" \
	"$SCRATCH/wd.err"
check "the watchdog: no worker of node1 named" test "$(grep -c '^pfsbench:   node node1' "$SCRATCH/wd.err")" -eq 0
[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH/wd.err"
check "the watchdog: pfsbench clean removes what the job left" "$PFSBENCH" clean "$W"
finish
