# shellcheck shell=bash
# scale-model.sh: docs/scale.md's model of the results file, and the
# check of a figure against a model's, for tests/engine/scale.sh and
# tests/engine/synth-feed.sh. Sourced after tests/mpi/lib.sh (check);
# expects TOLERANCE (per cent) and, for tables_bytes, SCALE_ROWS,
# SCALE_CELLS, SCALE_TICKS and SCALE_FSSTATS (scale_said's, or the feed's).

# The packed records of the results file (bytes): a row, a latency cell, a
# tick, a filesystem counter, a node; and each table's chunk, fitted to the
# planned rows (src/outputs/hdf5.c: fit_chunk, records per planned row,
# largest chunk).
REC_ROW=220 REC_CELL=20 REC_TICK=44 REC_FSSTAT=76 REC_NODE=445
# table_bytes PLANNED PER_ROW MAX RECORD N: the bytes of a table of N
# records, its chunks stored whole.
table_bytes() {
	local chunk=$(($1 * $2))
	[ "$chunk" -gt "$3" ] && chunk=$3
	[ "$chunk" -lt 1 ] && chunk=1
	echo $((($5 + chunk - 1) / chunk * chunk * $4))
}
# tables_bytes NODES PLANNED: the nodes and the four tables of the run
# whose counts scale_said read.
tables_bytes() {
	echo $(($1 * REC_NODE + $(table_bytes "$2" 1 4096 $REC_ROW "$SCALE_ROWS") +
		$(table_bytes "$2" 64 16384 $REC_CELL "$SCALE_CELLS") +
		$(table_bytes "$2" 16 8192 $REC_TICK "$SCALE_TICKS") +
		$(table_bytes "$2" 16 4096 $REC_FSSTAT "$SCALE_FSSTATS")))
}
# within WHAT MEASURED MODEL: MEASURED within TOLERANCE % of MODEL.
within() {
	check "$1: $2 within $TOLERANCE % of the model's $3" \
		test $((100 * $2)) -ge $(((100 - TOLERANCE) * $3)) -a $((100 * $2)) -le $(((100 + TOLERANCE) * $3))
}
