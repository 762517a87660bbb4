#!/bin/bash
# A block's ticks in rounds (gather.c; docs/scale.md): rank 0 takes at most
# GATHER_TICKS_ROUND ticks of a block at once, more in rounds of whole
# ranks, each written to the results file before the next is gathered.
# PFSBENCH_DEBUG_GATHER_TICKS=3 makes a round 3 ticks here: 6 ranks on 3
# simulated nodes, every open 1 ms late, so that each rank's Create and
# Unlink last several 100-ms ticks and a round holds one rank or few. The
# rounds rank 0 says it took and the records it held at once must be what
# the rule makes of each rank's ticks in the file (the rounds are greedy,
# in rank order: a rank starts a new round when its ticks would take the
# round past 3), the file must keep every tick rank 0 gathered, every
# rank's, in rank order, and the report and rows be whole. The same run
# without the variable takes the ticks in one round.
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
slow=$(faulty "delay openat 1ms")
NODES=3 WORKERS=2 RANKS=6 ROUND=3

# run NAME [VAR=VALUE...]: the job, with rank 0 saying what it gathered.
run() {
	local name=$1 debug
	shift
	debug=$(PFSBENCH=$slow debug_env PFSBENCH_DEBUG_SCALE=1 "$@")
	PFSBENCH=$debug pfs_nodes $NODES $WORKERS create-unlink -m "$D" -F 1 -s 4k -t pa \
		--no-drop-caches -f 400 --results "$SCRATCH/$name.h5"
}

# expect NAME ROUND: reads NAME.h5's ticks; EXP_ROUNDS and EXP_HELD (the
# largest round's ticks) as the greedy rule makes them with ROUND ticks a
# round at most, FILE_TICKS, FILE_RANKS and DISORDER (a rank before the
# one above it).
expect() {
	"$PFSBENCH" export "$SCRATCH/$1.h5" --csv --progress | tr -d '\r' >"$SCRATCH/$1.csv"
	read -r EXP_ROUNDS EXP_HELD FILE_TICKS FILE_RANKS DISORDER < <(awk -F, -v round="$2" -v n=$RANKS '
		NR > 1 { count[$4]++; total++; if ($4 < last) disorder++; last = $4 }
		END {
			rounds = 1; held = 0; in_round = 0
			for (r = 0; r < n; r++) {
				c = count[r] + 0
				if (in_round && in_round + c > round) { rounds++; in_round = 0 }
				in_round += c
				if (in_round > held) held = in_round
				if (c) ranks++
			}
			print rounds, held, total + 0, ranks + 0, disorder + 0
		}' "$SCRATCH/$1.csv")
}

run rounds PFSBENCH_DEBUG_GATHER_TICKS=$ROUND
check "rounds of $ROUND ticks: exit 0" test "$RC" -eq 0
check "rank 0 says what it gathered and held" scale_said
expect rounds $ROUND
check "every rank's ticks are in the file ($FILE_RANKS of $RANKS ranks, $FILE_TICKS ticks)" \
	test "$FILE_RANKS" -eq $RANKS
check "the file keeps every tick rank 0 gathered ($FILE_TICKS of ${SCALE_TICKS:-?})" \
	test "$FILE_TICKS" -eq "${SCALE_TICKS:--1}"
check "the ticks are in rank order ($DISORDER out of it)" test "$DISORDER" -eq 0
check "more ticks than one round holds" test "$EXP_HELD" -lt "$FILE_TICKS"
check "rank 0 took them in the rule's $EXP_ROUNDS rounds (${SCALE_ROUNDS:-?})" \
	test "${SCALE_ROUNDS:-0}" -eq "$EXP_ROUNDS" -a "$EXP_ROUNDS" -gt 1
# What rank 0 held at once: the block's rows, cells and counters, and the
# largest round's ticks (224, 24, 80 and 48 bytes each in memory).
held=$((224 * SCALE_ROWS + 24 * SCALE_CELLS + 80 * SCALE_FSSTATS + 48 * EXP_HELD))
check "rank 0 held one round's ticks at once ($held bytes: ${SCALE_BLOCK:-?})" \
	test "${SCALE_BLOCK:-0}" -eq $held
check "the report has a Create line" grep -q '^ *pa .*Create' "$OUT"
rows=$("$PFSBENCH" export "$SCRATCH/rounds.h5" --csv | awk -F, 'NR > 1' | wc -l)
check "the results: 4 rows of each of the $RANKS ranks ($rows)" test "$rows" -eq $((4 * RANKS))

run whole
check "one round: exit 0" test "$RC" -eq 0
check "one round: rank 0 says what it gathered and held" scale_said
expect whole 1000000
check "one round: the file keeps every tick ($FILE_TICKS of ${SCALE_TICKS:-?}), every rank's" \
	test "$FILE_TICKS" -eq "${SCALE_TICKS:--1}" -a "$FILE_RANKS" -eq $RANKS
held=$((224 * SCALE_ROWS + 24 * SCALE_CELLS + 80 * SCALE_FSSTATS + 48 * FILE_TICKS))
check "one round (${SCALE_ROUNDS:-?}), all ticks held at once ($held bytes: ${SCALE_BLOCK:-?})" \
	test "${SCALE_ROUNDS:-0}" -eq 1 -a "${SCALE_BLOCK:-0}" -eq $held
check "nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
