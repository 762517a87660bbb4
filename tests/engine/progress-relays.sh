#!/bin/bash
# Progress through relays (progress.c; docs/scale.md): above 256 nodes each
# node's aggregator sends its node's message to its group's relay, which
# sends rank 0 the group's news in one message a tick.
# PFSBENCH_DEBUG_PROGRESS_GROUP=2 makes the groups of 2 nodes here: 12
# ranks on 6 simulated nodes of 2 (rank 0 and rank 1 on node1), so rank 0
# takes group 1's two aggregators (ranks 1 and 2) itself and one relay each
# of the groups {node3, node4} and {node5, node6} (ranks 4 and 8): 4
# senders, not 6. Every open takes 1 ms, 4 ms on node6, whose ranks go
# through a relay: the live line must name node6 the slowest (its figures
# came through the relay), rank 0 hears at most one message per sender per
# tick, the results file keeps every rank's own ticks, and the job ends
# (each relay's last message waits for its group's). The watchdog's words
# on a relayed node (who, how far, heard how long ago) are checked in
# progress-nodes.sh, whose watchdog job runs with groups of one node.
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
slow=$(faulty "delay openat 1ms; delay openat 3ms node=node6")
debug=$(PFSBENCH=$slow debug_env PFSBENCH_DEBUG_PROGRESS=1 PFSBENCH_DEBUG_PROGRESS_GROUP=2)
NODES=6 WORKERS=2 SENDERS=4
PFSBENCH=$debug pfs_nodes $NODES $WORKERS create-unlink -m "$D" -F 1 -s 4k -t pa --no-drop-caches \
	-f 800 --progress=always --results "$SCRATCH/relays.h5"
check "12 ranks on 6 nodes: exit 0" test "$RC" -eq 0
check "rank 0 says what it heard" progress_heard
msgs=${HEARD_MSGS:-0} senders=${HEARD_SENDERS:-99} ticks=${HEARD_TICKS:-0} stored=${HEARD_STORED:-0}
check "the run has $NODES nodes and 12 ranks" test "${HEARD_NODES:-0}" -eq $NODES -a "${HEARD_RANKS:-0}" -eq 12
check "rank 0 heard from $SENDERS senders: 2 aggregators and 2 relays ($senders)" test "$senders" -eq $SENDERS
check "rank 0 took at most one message per sender per tick ($msgs <= $SENDERS x ($ticks + 2))" \
	test "$msgs" -le $((SENDERS * (ticks + 2)))
check "the phase lasted several ticks" test "$ticks" -ge 10
check "--progress=always: the line names node6, behind a relay, the slowest" \
	grep -qE '^pfsbench: pa 1/1 Create: [0-9]+ files/s, [0-9.]+ s, about [0-9]+ s to go, slowest node6 \(' "$ERR"
check "no line names another node the slowest" \
	test "$(grep -cE 'slowest node[1-5] ' "$ERR")" -eq 0
"$PFSBENCH" export "$SCRATCH/relays.h5" --csv --progress | tr -d '\r' >"$SCRATCH/ticks.csv"
ranks=$(awk -F, '$1 == "pa" && $3 == 0 {print $4}' "$SCRATCH/ticks.csv" | sort -u | wc -l)
check "/progress: each of the 12 ranks has its own Create ticks" test "$ranks" -eq 12
check "/progress: as many ticks as rank 0 stored" \
	test "$(($(wc -l <"$SCRATCH/ticks.csv") - 1))" -eq "$stored"
rows=$("$PFSBENCH" export "$SCRATCH/relays.h5" --csv | awk -F, 'NR > 1 && $0 ~ /Create/' | wc -l)
check "the results: a Create row for each of the 12 ranks ($rows)" test "$rows" -eq 12
check "nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
