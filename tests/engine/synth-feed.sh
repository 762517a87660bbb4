#!/bin/bash
# 10,000 ranks without 10,000 processes: rank 0's side of a block (the
# engine's pfs_gather_room and pfs_gather_deliver, the results file's
# output) fed made-up records of 10,000 ranks on 100 nodes in one process
# (tests/engine/synth_feed.c): one test iteration of S = 4 steps, a row per
# rank and step, 70 latency cells a row (docs/runs), 32 ticks per rank and
# step (a step of 3.2 s), 16 filesystem counters per node and step. As
# tests/engine/scale.sh, the machine's constants come from the same feed at
# 1 rank; the rest is docs/scale.md's model for these counts:
#   the results file = its size at 1 rank, plus each node's record, plus
#     each table's chunks (tests/engine/scale-model.sh);
#   rank 0's peak memory = its peak before the block, plus what the block
#     took at 1 rank (the output's own), plus 56 N for the gathers'
#     counts, 464 bytes a row (gathered, in report order, the order),
#     24 a latency cell, 48 a tick of the largest round (ticks come in
#     rounds of whole ranks, at most ROUND_TICKS each: 2,048 ranks' 128
#     here, 5 rounds), 80 a counter, plus HDF5's buffers at
#     their most (a chunk of each table cached, 1.9 MB, and the conversion
#     and background buffers, 2 MiB): 4 MiB.
# Each within 20 %; the memory is not judged in the sanitizer build (its
# allocator is not the model's). The time from the records' arrival to the
# file closed is said, never judged. `pfsbench show` reads the file.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/scale-model.sh"

: "${SYNTH_FEED:?run me from make check}"
N=10000 NODES=100 CELLS=70 TICKS=32 FSSTATS=16 STEPS=4
# shellcheck disable=SC2034 # scale-model.sh's within reads it
TOLERANCE=20   # per cent
HDF5_KB=4096   # HDF5's buffers at their most (above)
OUT=$SCRATCH/out ERR=$SCRATCH/err
ROUND_TICKS=262144 # GATHER_TICKS_ROUND (src/engine/internal.h)
PER_RANK=$((STEPS * TICKS))
ROUND_RANKS=$((ROUND_TICKS / PER_RANK))

# block_kb N: the model's bytes (kB) of a block of the counts in SCALE_*
# at N ranks, in rank 0's memory, and HDF5's buffers at their most beyond
# those of the 1-rank run.
block_kb() {
	local hdf5=$HDF5_KB held=$1
	[ "$1" -eq 1 ] && hdf5=0
	[ "$held" -gt "$ROUND_RANKS" ] && held=$ROUND_RANKS
	echo $(((56 * $1 + 464 * SCALE_ROWS + 24 * SCALE_CELLS + 48 * held * PER_RANK +
		80 * SCALE_FSSTATS) / 1024 + hdf5))
}

# feed FILE N NODES: the feed's run; its line read into FEED_* and SCALE_*.
feed() {
	(cd "$SCRATCH" && timeout 120 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "$SYNTH_FEED" "$1" "$2" "$3" \
		$CELLS $TICKS $FSSTATS) >"$OUT" 2>"$ERR"
	RC=$?
	local re='^synth_feed: ([0-9]+) ranks on ([0-9]+) nodes; ([0-9]+) rows, ([0-9]+) latency cells, '
	re+='([0-9]+) ticks, ([0-9]+) fsstats, ([0-9]+) bytes in the block \(ticks in ([0-9]+) rounds\); '
	re+="peak memory ([0-9]+) kB before it, ([0-9]+) kB after; records' arrival to the results "
	re+='file closed: ([0-9.]+) s$'
	local line
	line=$(grep '^synth_feed: ' "$OUT")
	echo "# $line"
	[ "$RC" -eq 0 ] || cat "$ERR"
	[[ $line =~ $re ]] || return 1
	read -r FEED_RANKS FEED_NODES SCALE_ROWS SCALE_CELLS SCALE_TICKS SCALE_FSSTATS FEED_BLOCK \
		FEED_ROUNDS FEED_BEFORE_KB FEED_PEAK_KB FEED_WRITE_S <<<"${BASH_REMATCH[*]:1}"
}

# The machine's constants: 1 rank.
check "1 rank: the feed says what rank 0 took and held" feed "$SCRATCH/one.h5" 1 1
check "1 rank: exit 0" test "$RC" -eq 0
check "1 rank: $STEPS rows" test "${SCALE_ROWS:-0}" -eq $STEPS
ONE_OWN=$((FEED_PEAK_KB - FEED_BEFORE_KB - $(block_kb 1)))
FILE_BASE=$(($(stat -c %s "$SCRATCH/one.h5") - $(tables_bytes 1 $STEPS)))
echo "# 1 rank: the block's output took $ONE_OWN kB more than its records; the file's own $FILE_BASE bytes"

check "$N ranks on $NODES nodes: the feed says what rank 0 took and held" feed "$SCRATCH/synth.h5" $N $NODES
check "$N ranks: exit 0" test "$RC" -eq 0
check "$N ranks: rank 0 took $N ranks on $NODES nodes" test "${FEED_RANKS:-0}/${FEED_NODES:-0}" = "$N/$NODES"
check "$N ranks: N x S = $((N * STEPS)) rows" test "${SCALE_ROWS:-0}" -eq $((N * STEPS))
check "$N ranks: $CELLS cells a row" test "${SCALE_CELLS:-0}" -eq $((N * STEPS * CELLS))
check "$N ranks: $TICKS ticks per rank and step" test "${SCALE_TICKS:-0}" -eq $((N * STEPS * TICKS))
check "$N ranks: $FSSTATS counters per node and step" test "${SCALE_FSSTATS:-0}" -eq $((NODES * STEPS * FSSTATS))
rounds=$(((N + ROUND_RANKS - 1) / ROUND_RANKS))
check "$N ranks: the ticks came in $rounds rounds of $ROUND_RANKS ranks at most" test "${FEED_ROUNDS:-0}" -eq $rounds
check "$N ranks: rank 0 held one round of ticks at once ($FEED_BLOCK bytes)" \
	test "${FEED_BLOCK:-0}" -eq $((224 * SCALE_ROWS + 24 * SCALE_CELLS + 48 * ROUND_TICKS + 80 * SCALE_FSSTATS))
size=$(stat -c %s "$SCRATCH/synth.h5")
model_size=$((FILE_BASE + $(tables_bytes $NODES $((N * STEPS)))))
within "the results file's size" "$size" $model_size
model_kb=$((FEED_BEFORE_KB + ONE_OWN + $(block_kb $N)))
if [ -n "${ASAN_OPTIONS:-}" ]; then
	echo "# skip: rank 0's memory is not judged in the sanitizer build (its allocator is not the model's)"
else
	within "rank 0's peak memory (kB)" "${FEED_PEAK_KB:-0}" $model_kb
fi
echo "# bench: $N synthetic ranks on $NODES nodes, a block of $FEED_BLOCK bytes: rank 0's peak ${FEED_PEAK_KB} kB (model $model_kb);" \
	"file $size bytes (model $model_size); records' arrival to the file closed ${FEED_WRITE_S} s"

# Every rank's ticks reached the file, whatever their round, in rank order.
"$PFSBENCH" export "$SCRATCH/synth.h5" --csv --progress 2>"$ERR" | tr -d '\r' |
	awk -F, 'NR > 1 { n++; if ($4 < last) disorder++; last = $4; if (!seen[$4]++) ranks++ }
		END { print n + 0, ranks + 0, disorder + 0 }' >"$OUT"
read -r file_ticks file_ranks disorder <"$OUT"
check "/progress: all $((N * PER_RANK)) ticks ($file_ticks)" test "${file_ticks:-0}" -eq $((N * PER_RANK))
check "/progress: every rank's ($file_ranks of $N), in rank order ($disorder out of it)" \
	test "${file_ranks:-0}" -eq $N -a "${disorder:-1}" -eq 0

# The file reads back: every row, every node.
timeout 120 "$PFSBENCH" show "$SCRATCH/synth.h5" >"$OUT" 2>"$ERR"
check "pfsbench show reads it: exit 0" test $? -eq 0
check "pfsbench show: $NODES nodes of $((N / NODES)) workers" \
	grep -qx "Testing with $NODES nodes, $((N / NODES)) workers per node: " "$OUT"
shown=$(grep -c '^ pa ' "$OUT")
left=$(sed -n 's/^\.\.\. \([0-9]*\) more row lines not printed.*/\1/p' "$OUT")
check "pfsbench show: all $((N * STEPS)) rows ($shown printed, ${left:-0} counted)" \
	test $((shown + ${left:-0})) -eq $((N * STEPS))
finish
