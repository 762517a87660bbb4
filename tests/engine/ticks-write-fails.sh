#!/bin/bash
# The results file's disk fails while a block's ticks come in rounds
# (gather.c, the output's `ticks` op; docs/scale.md): the block's rows and
# the rounds written before stay in the file, readable; the round that
# failed is taken back whole and no later one is written; the file never
# says complete, and the message names the file and the reason.
#
# Rank 0's side of a block in one process (tests/engine/synth_feed, the
# engine's gather and the results file's output, made-up records), so
# that the file's writes come in the same order every time: 6 ranks on 3
# nodes, 4 steps, 3 ticks a rank and step, rounds of 12 ticks
# (PFSBENCH_DEBUG_GATHER_TICKS), one rank's each: 6 rounds, the first
# written with the block. The fault injector (tests/fault) fails every
# pwrite(2) to the results file after the first N. The complete job's
# writes are counted (PFSBENCH_FAULT_LOG), the first N whose failure falls
# in the rounds found by bisection, and every N from there on whose
# failure says "cannot write progress ticks" is run: between them they
# must fail in each of the 5 later rounds.
. "$(dirname "$0")/../mpi/lib.sh"

: "${SYNTH_FEED:?run me from make check}" "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
RANKS=6 NODES=3 PER_RANK=12 ROUNDS=6
F=$SCRATCH/feed.h5

# feed RULE [LOG]: the feed under the injector with RULE; its status in
# RC, stderr in $SCRATCH/err (and the injector's lines with LOG=1).
feed() {
	local w
	w=$(PFSBENCH=$(T_PFSBENCH=$SYNTH_FEED faulty "$1") \
		debug_env PFSBENCH_DEBUG_GATHER_TICKS=$PER_RANK PFSBENCH_FAULT_LOG="${2:-0}")
	rm -f "$F"
	(cd "$SCRATCH" && timeout 120 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "$w" "$F" $RANKS $NODES 2 3 1) \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
}
# fail_after N: every write to the file after the first N fails; PHASE
# says where the first failure fell: "ticks", "before" (the start, the
# block) or "after" (the file's close, or none).
fail_after() {
	feed "fail pwrite ENOSPC path=$F after=$1"
	if grep -q "cannot write progress ticks to '$F'" "$SCRATCH/err"; then
		PHASE=ticks
	elif grep -q "cannot write" "$SCRATCH/err"; then
		PHASE=before
	else
		PHASE=after
	fi
}
csv() { "$PFSBENCH" export "$F" --csv "$@" 2>&1 | tr -d '\r'; }
# said_aborted: the file's status says aborted; or, as every write after
# the first N fails here (a real full disk still lets HDF5 rewrite what
# it has written), it still says running and stderr says that it may.
said_aborted() {
	local status
	status=$(csv --provenance | sed -n 's/^status,//p')
	[ "$status" = aborted ] || { [ "$status" = running ] &&
		grep -q "cannot close '$F': its status says aborted, but the last of what was written may not have reached it" \
			"$SCRATCH/err"; }
}

# The complete job, its writes counted.
feed "delay pwrite 0ns path=$F" 1
WRITES=$(grep -c "^pfsfault: .* pwrite #[0-9]* '$F'" "$SCRATCH/err")
check "the complete job: exit 0, $WRITES writes to the file" test "$RC" -eq 0 -a "$WRITES" -gt 0
grep -q "(ticks in $ROUNDS rounds)" "$SCRATCH/out" ||
	fail "the feed did not take its ticks in $ROUNDS rounds: $(cat "$SCRATCH/out")"
csv >"$SCRATCH/rows.csv"
csv --progress >"$SCRATCH/ticks.csv"
check "the complete file: $((RANKS * 4)) rows, $((RANKS * PER_RANK)) ticks" \
	test "$(sed 1d "$SCRATCH/rows.csv" | wc -l)" -eq $((RANKS * 4)) \
	-a "$(sed 1d "$SCRATCH/ticks.csv" | wc -l)" -eq $((RANKS * PER_RANK))

# The first N whose failure is in the rounds: "before" below it, never after.
lo=0 hi=$WRITES
while [ "$lo" -lt "$hi" ]; do
	mid=$(((lo + hi) / 2))
	fail_after "$mid"
	if [ "$PHASE" = before ]; then lo=$((mid + 1)); else hi=$mid; fi
done
kept_seen=" "
n=$lo
while [ "$n" -lt "$WRITES" ]; do
	fail_after "$n"
	[ "$PHASE" = ticks ] || break
	csv >"$SCRATCH/rows-$n.csv"
	csv --progress >"$SCRATCH/ticks-$n.csv"
	kept=$(sed 1d "$SCRATCH/ticks-$n.csv" | wc -l)
	echo "# writes after $n fail: $kept ticks kept; $(head -n 1 "$SCRATCH/err")"
	check "after $n: exit 1" test "$RC" -eq 1
	check "after $n: the message names the file and the disk's reason" \
		grep -q "cannot write progress ticks to '$F': No space left on device" "$SCRATCH/err"
	check "after $n: the file is readable, its rows all there and as the complete job's" \
		cmp -s "$SCRATCH/rows.csv" "$SCRATCH/rows-$n.csv"
	check "after $n: whole rounds kept ($kept ticks: a multiple of $PER_RANK, 1 to $((ROUNDS - 1)) rounds)" \
		test $((kept % PER_RANK)) -eq 0 -a "$kept" -ge $PER_RANK -a "$kept" -lt $((RANKS * PER_RANK))
	check "after $n: the ticks kept are the complete job's first, in rank order" \
		cmp -s <(head -n $((kept + 1)) "$SCRATCH/ticks.csv") "$SCRATCH/ticks-$n.csv"
	check "after $n: the file never says complete: aborted, or running and stderr says so" \
		said_aborted
	case $kept_seen in *" $kept "*) ;; *) kept_seen+="$kept " ;; esac
	n=$((n + 1))
done
echo "# the first failure in the rounds after $lo writes; the rounds kept: $kept_seen"
want=" "
for ((r = 1; r < ROUNDS; r++)); do want+="$((r * PER_RANK)) "; done
check "a failure in each of the $((ROUNDS - 1)) later rounds was met (kept:$kept_seen)" \
	test "$kept_seen" = "$want"
finish
