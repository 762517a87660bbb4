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
# and step (timeline.h).
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
slow=$(faulty "delay openat 1ms")
debug=$SCRATCH/pfsbench-debug
printf '#!/bin/bash\nPFSBENCH_DEBUG_PROGRESS=1 exec %q "$@"\n' "$slow" >"$debug"
chmod +x "$debug"
NODES=2 WORKERS=4
PFSBENCH=$debug pfs_nodes $NODES $WORKERS create-unlink -m "$D" -F 1 -s 4k -t pa --no-drop-caches \
	-f 3000 --progress=always --results "$SCRATCH/nodes.h5"
check "8 ranks on 2 nodes: exit 0" test "$RC" -eq 0
heard=$(grep '^pfsbench: progress: rank 0 received' "$ERR")
echo "# $heard"
read -r msgs senders nodes ticks stored < <(sed -nE \
	's/^pfsbench: progress: rank 0 received ([0-9]+) messages from ([0-9]+) senders of ([0-9]+) nodes \(8 ranks\) over ([0-9]+) ticks; ([0-9]+) ticks stored$/\1 \2 \3 \4 \5/p' \
	<<<"$heard")
check "rank 0 says what it heard" test -n "${msgs:-}"
msgs=${msgs:-0} senders=${senders:-99} nodes=${nodes:-0} ticks=${ticks:-0} stored=${stored:-0}
check "the run has $NODES nodes" test "$nodes" -eq $NODES
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
finish
