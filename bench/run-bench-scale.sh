#!/bin/bash
# run-bench-scale.sh: what a tiny pfsbench run costs as the ranks grow
# (issue 32, docs/scale.md), against MPI's own start and end at the same N.
# For each N of RANKS (default 1 2 4 8 16 32 64 128 256; oversubscribed on
# this machine), two sides:
#   hello   mpirun -np N bench/mpi_hello      MPI_Init, a barrier, MPI_Finalize
#   pfs     mpirun ... pfsbench create-unlink -t pa -f 2 -F 1 -s 1 --no-drop-caches
#           on min(N, 8) simulated nodes (PFSBENCH_NODENAME, as
#           tests/mpi/lib.sh's pfs_nodes), PFSBENCH_DEBUG_SCALE set
# in a directory of BENCH_DIR (default /dev/shm, a tmpfs). Method
# (bench/lib.sh): a warm-up round of every side, then ROUNDS rounds
# (default 9) of all sides interleaved in varied orders. Each run is timed
# whole: wall, from the launch to mpirun's exit, and CPU, user + system of
# mpirun and the ranks it waited for (wait4's rusage). Reported per N:
# median [p25-p75] of each side's wall and CPU, of pfs - hello within each
# round (pfsbench's fixed cost at N), and of what rank 0 says
# (PFSBENCH_DEBUG_SCALE): its peak memory, the shared memory in it (Open
# MPI's transport), the time from the last op's end to the results file
# closed (the last gather and the writing); and the results file's size.
# Memory and bytes do not depend on the load; times do: uptime is printed,
# and CPU varies less than wall on a shared machine.
# Then, with SYNTH_FEED (tests/engine/synth_feed, built by make check's
# programs; the bench target builds it), rank 0's side of one block of
# SYNTH_RANKS made-up ranks (default 10000) on SYNTH_NODES nodes (100),
# SYNTH_CELLS latency cells a row (70), SYNTH_TICKS ticks per rank and step
# (32; 256 is an hour-long step's) and SYNTH_FSSTATS counters per node and
# step (16), in one process (tests/engine/synth-feed.sh), beside a plain
# write of the same bytes (dd, 1 MiB writes) into the same directory, in
# the same rounds: median [p25-p75] of the feed's time from the records'
# arrival to the results file closed, of dd's wall time, of the feed's
# whole wall and CPU time, its peak memory and the file's size.
# Environment: PFSBENCH, HELLO, MPIRUN, BENCH_DIR, ROUNDS, RANKS,
# SYNTH_FEED, SYNTH_RANKS, SYNTH_NODES, SYNTH_CELLS, SYNTH_TICKS, SYNTH_FSSTATS.
# Minutes at load 40-200 on 2 cores: about 1 for RANKS up to 64 at 9
# rounds; a run at 128 ranks takes 15-25 s, at 256 ranks 60-80 s (of
# which 2 minutes of CPU): RANKS="128 256" ROUNDS=9 is half an hour.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
ROUNDS=${ROUNDS:-9}
RANKS=${RANKS:-1 2 4 8 16 32 64 128 256}
NODES_MAX=8
mpi_bench_init scale
"$MPIRUN" --version 2>&1 | grep -q 'Open MPI' ||
	{ echo "SKIP: '$MPIRUN' is not Open MPI's (the MPMD line sets each node's name with -x)"; exit 77; }
mkdir "$work/run"
launch=("$MPIRUN" --oversubscribe)

# run SIDE N ROUND CMD...: one timed run; appends "wall_s cpu_s" to
# SIDE.N, and for pfs what rank 0 said and the file's size to pfs.N.scale.
run() {
	local side=$1 n=$2 round=$3 out
	shift 3
	out=$work/$side.$n
	[ "$round" = warm ] && out=/dev/null
	rm -rf "$work/r.h5" "${work:?}/run/"*
	wait4_run /dev/null "$work/err" "${launch[@]}" "$@" >>"$out" || { cat "$work/err"; return 1; }
	[ "$side" = pfs ] && [ "$round" != warm ] || return 0
	# peak kB, shared kB, close s, file bytes
	sed -nE "s/^pfsbench: scale: .*peak memory ([0-9]+) kB \\(at the end: -?[0-9]+ anonymous, -?[0-9]+ files, (-?[0-9]+) shared\\); last op's end to the results file closed: ([0-9.]+) s$/\\1 \\2 \\3 $(stat -c %s "$work/r.h5")/p" \
		"$work/err" >>"$work/pfs.$n.scale"
}

# The MPMD line of N ranks on min(N, NODES_MAX) nodes, as even as can be.
pfs_line() {
	local n=$1 m=$(($1 < NODES_MAX ? $1 : NODES_MAX)) k w
	PFS_LINE=()
	for ((k = 1; k <= m; k++)); do
		w=$((n / m + (k <= n % m ? 1 : 0)))
		[ "$k" -gt 1 ] && PFS_LINE+=(:)
		PFS_LINE+=(-np "$w" -x "PFSBENCH_NODENAME=node$k" -x PFSBENCH_DEBUG_SCALE=1 "$PFSBENCH"
			create-unlink -m "$work/run" -t pa -f 2 -F 1 -s 1 --no-drop-caches
			--results "$work/r.h5")
	done
}
sides=()
for n in $RANKS; do
	eval "hello_$n() { run hello $n \"\$1\" -np $n \"\$HELLO\"; }"
	eval "pfs_$n() { pfs_line $n; run pfs $n \"\$1\" \"\${PFS_LINE[@]}\"; }"
	sides+=("hello_$n" "pfs_$n")
done

start=$SECONDS
echo "bench-scale: a tiny pfsbench run (create-unlink -t pa -f 2 -F 1 -s 1) at N = $RANKS ranks on min(N, $NODES_MAX) nodes, against mpi_hello, on $base; $ROUNDS rounds after a warm-up; load: $(uptime | sed 's/.*load average: //')"
rounds "$ROUNDS" "${sides[@]}" || exit 1

# fmt FILE COLUMN SCALE DIGITS: "median [p25-p75]" times SCALE.
fmt() {
	stats "$1" "$2" | awk -v s="$3" -v d="$4" '{ printf "%.*f [%.*f-%.*f]", d, $1 * s, d, $2 * s, d, $3 * s }'
}
printf '\nmedian [p25-p75] of %s rounds\n' "$ROUNDS"
printf '%5s %-20s %-20s %-20s %-20s %-20s %-20s %-18s %s\n' N "hello wall s" "pfs wall s" \
	"pfs - hello wall s" "pfs - hello CPU s" "rank 0 peak MB" "... shared MB" "end to closed ms" \
	"file bytes"
for n in $RANKS; do
	paste -d ' ' "$work/pfs.$n" "$work/hello.$n" | awk '{ print $1 - $3, $2 - $4 }' >"$work/diff"
	printf '%5s %-20s %-20s %-20s %-20s %-20s %-20s %-18s %s\n' "$n" \
		"$(fmt "$work/hello.$n" 1 1 2)" "$(fmt "$work/pfs.$n" 1 1 2)" \
		"$(fmt "$work/diff" 1 1 2)" "$(fmt "$work/diff" 2 1 2)" \
		"$(fmt "$work/pfs.$n.scale" 1 0.001 1)" "$(fmt "$work/pfs.$n.scale" 2 0.001 1)" \
		"$(fmt "$work/pfs.$n.scale" 3 1000 0)" "$(stats "$work/pfs.$n.scale" 4 | cut -d' ' -f1)"
done

if [ -n "${SYNTH_FEED:-}" ]; then
	SN=${SYNTH_RANKS:-10000} SM=${SYNTH_NODES:-100}
	synth_args=("$SN" "$SM" "${SYNTH_CELLS:-70}" "${SYNTH_TICKS:-32}" "${SYNTH_FSSTATS:-16}")
	# feed ROUND: the feed's run; "wall cpu" to feed, and "write_s
	# peak_kb bytes" to feed.scale.
	feed() {
		local out=$work/feed
		[ "$1" = warm ] && out=/dev/null
		rm -f "$work/s.h5"
		wait4_run "$work/feed.out" "$work/err" "${launch[@]}" -np 1 "$SYNTH_FEED" "$work/s.h5" \
			"${synth_args[@]}" >>"$out" || { cat "$work/err"; return 1; }
		[ "$1" = warm ] && return 0
		sed -nE "s/^synth_feed: .* kB before it, ([0-9]+) kB after; records' arrival to the results file closed: ([0-9.]+) s$/\2 \1 $(stat -c %s "$work/s.h5")/p" \
			"$work/feed.out" >>"$work/feed.scale"
	}
	# plain ROUND: the same bytes by dd, 1 MiB a write; "wall cpu" to plain.
	plain() {
		local out=$work/plain mib
		[ "$1" = warm ] && out=/dev/null
		mib=$((($(stat -c %s "$work/s.h5" 2>/dev/null || echo 122000000) + 1048575) / 1048576))
		rm -f "$work/p.bin"
		wait4_run /dev/null "$work/err" dd if=/dev/zero of="$work/p.bin" bs=1M count="$mib" >>"$out" ||
			{ cat "$work/err"; return 1; }
	}
	echo "bench-scale: rank 0's side of one block of ${synth_args[*]} (ranks, nodes, cells a row, ticks a rank and step, counters a node and step), synthetic, in one process, beside dd of the same bytes; $ROUNDS rounds after a warm-up; load: $(uptime | sed 's/.*load average: //')"
	rounds "$ROUNDS" feed plain || exit 1
	printf '%-22s %-22s %-22s %-22s %-22s %s\n' "arrival to closed s" "dd wall s" "feed wall s" \
		"feed CPU s" "rank 0 peak MB" "file bytes"
	printf '%-22s %-22s %-22s %-22s %-22s %s\n' "$(fmt "$work/feed.scale" 1 1 3)" \
		"$(fmt "$work/plain" 1 1 3)" "$(fmt "$work/feed" 1 1 2)" "$(fmt "$work/feed" 2 1 2)" \
		"$(fmt "$work/feed.scale" 2 0.001 1)" "$(stats "$work/feed.scale" 3 | cut -d' ' -f1)"
fi
echo "bench-scale took $((SECONDS - start)) s; load now: $(uptime | sed 's/.*load average: //')"
