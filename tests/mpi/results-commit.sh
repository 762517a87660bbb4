#!/bin/bash
# A disk that fails part way through any of the results file's writes
# loses only the block it was writing, never the blocks before, and never
# the file. HDF5 rewrites its metadata in place, so a flush cut short used
# to leave a file whose latency cells named rows that never arrived (the
# reader refused it whole, with every earlier block), or whose superblock
# recorded an end the file never reached (HDF5 refused it as truncated).
# The writer now says in the root's "committed" which records reached the
# file whole, after each block's flush; the reader takes only those, and
# pads a file that ends short of its recorded end with zeros.
#
# A run of 2 test iterations (2 blocks of 4 rows, with latency cells) is
# made once whole, counting its writes to the results file (W), then once
# for each N from 0 to W with every pwrite(2) to its file after the first
# N failing with ENOSPC, as a full disk does. Each must exit 1 (or 0 when
# its own writes were fewer, a run's ticks vary), and its file must either
# not exist (nothing measured when its head could not be written: the
# empty file is removed) or read, its rows the whole run's first 0, 4 or
# 8 rows, test, iteration, op and step alike: whole blocks only.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
RUN=(create-unlink -m "$D" -f 20 -F 4 -s 4k -t se -i 2 --no-drop-caches --latency)
# keys FILE: each row's test, iteration, node, worker, rank, op and step
keys() {
	csv_rows "$1" | tr -d '\r' | sed 1d | cut -d, -f1-8
}

WHOLE=$SCRATCH/whole.h5
PFSBENCH=$(PFSBENCH=$(faulty "fail pwrite ENOSPC path=$WHOLE after=1000000") \
	debug_env PFSBENCH_FAULT_LOG=1) pfs 1 "${RUN[@]}" --results "$WHOLE"
check "the whole run: exit 0" test "$RC" -eq 0
W=$(grep -c "^pfsfault: .*: pwrite #" "$ERR")
keys "$WHOLE" >"$SCRATCH/whole.keys"
check "the whole run wrote its file in more than 20 writes ($W)" test "$W" -gt 20
check "the whole run has 8 rows" test "$(wc -l <"$SCRATCH/whole.keys")" -eq 8
check "the whole run has latency cells" \
	test "$("$PFSBENCH" export "$WHOLE" --csv --latency | sed 1d | wc -l)" -gt 0

# HDF5 keeps its file's record when its close fails (tests/mpi/results-
# close.sh): the faulted runs go without the sanitizer build's leak check.
absent=0 read0=0 read4=0 read8=0 padded=0 bad=0 missing_late=0 seen_file=0
for ((n = 0; n <= W; n++)); do
	R=$SCRATCH/cut$n.h5
	PFSBENCH=$(PFSBENCH=$(faulty "fail pwrite ENOSPC path=$R after=$n") \
		debug_env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0") \
		pfs 1 "${RUN[@]}" --results "$R"
	if [ "$RC" -ne 1 ] && { [ "$RC" -ne 0 ] || [ "$n" -lt $((W - 3)) ]; }; then
		echo "# N=$n: exit $RC"
		bad=$((bad + 1))
		continue
	fi
	if [ ! -e "$R" ]; then
		absent=$((absent + 1))
		[ "$seen_file" -eq 1 ] && missing_late=$((missing_late + 1))
		continue
	fi
	seen_file=1
	if ! "$PFSBENCH" export "$R" --csv >"$SCRATCH/cut.csv" 2>"$SCRATCH/cut.err"; then
		echo "# N=$n: unreadable: $(head -n 1 "$SCRATCH/cut.err")"
		bad=$((bad + 1))
		continue
	fi
	grep -q "ends [0-9]* bytes before the end HDF5 recorded" "$SCRATCH/cut.err" && padded=$((padded + 1))
	tr -d '\r' <"$SCRATCH/cut.csv" | sed 1d | cut -d, -f1-8 >"$SCRATCH/cut.keys"
	got=$(wc -l <"$SCRATCH/cut.keys")
	if { [ "$got" -ne 0 ] && [ "$got" -ne 4 ] && [ "$got" -ne 8 ]; } ||
		! head -n "$got" "$SCRATCH/whole.keys" | cmp -s - "$SCRATCH/cut.keys"; then
		echo "# N=$n: $got rows, not the whole run's first 0, 4 or 8"
		bad=$((bad + 1))
		continue
	fi
	case $got in
	0) read0=$((read0 + 1)) ;;
	4) read4=$((read4 + 1)) ;;
	8) read8=$((read8 + 1)) ;;
	esac
	rm -f "$R"
done
echo "# of $((W + 1)) runs: $absent without a file, $read0 read with 0 rows, $read4 with 4, $read8 with 8; $padded padded"
check "every run cut short exited 1 and left a file that reads whole blocks, or none ($bad did not)" \
	test "$bad" -eq 0
check "a file is missing only while its head was being written" test "$missing_late" -eq 0
check "failures met before the first block, in the second and after it" \
	test "$read0" -gt 0 -a "$read4" -gt 0 -a "$read8" -gt 0
check "some files ended short of their recorded end and still read ($padded)" test "$padded" -gt 0
check "nothing left behind in the directory under test" dir_unchanged "$D"
finish
