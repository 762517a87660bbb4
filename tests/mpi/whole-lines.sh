#!/bin/bash
# Every write a rank makes to its stdout or stderr ends at a newline. Under
# mpirun a rank's two streams are two pipes that the launcher relays
# separately: where a user sends both to one file (`> log 2>&1`, Slurm's
# default slurm-%j.out), a write that ends inside a line lets the other
# stream's next chunk land in the middle of that line. bonnie -q prints its
# tables on stderr figure by figure and its CSV lines on stdout; before
# this test, 2 of 12 two-node runs into one file had a CSV line glued to the
# end of a table line, so `grep '^1.98,'` found 2 CSV lines of 3.
#
# Each run is made under strace -ff (every write of every process, its
# first 4096 bytes: a report's line is far shorter), and each write to fd
# 1 or 2 must end with "\n": a count, never a time. One run of each
# report: bonnie -q (tables on stderr, CSV on stdout) on 2 nodes, and
# create-unlink's Red Hat report on stdout. Then the bonnie run once more
# into one file, as a user makes it: its 3 CSV lines whole. Skips without
# strace.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || skip "no strace (apt-get install strace)"
strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not allowed)"
D=$SCRATCH/target
mkdir "$D"
# only the writes stop under the tracer where strace can filter them in
# the kernel: the sanitizer build under a full trace on a busy CI machine
# took over 300 s
SECCOMP=()
strace -f --seccomp-bpf -e trace=write -o /dev/null true 2>/dev/null && SECCOMP=(--seccomp-bpf)
# LeakSanitizer cannot work under ptrace (tests/mpi/bonnie-calls.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# two_nodes NAME CMD...: mpirun of CMD on 2 simulated nodes of one rank
# (an MPMD line, as pfs_nodes makes), results in $SCRATCH/NAME.h5; its
# output goes where the caller sends it
two_nodes() {
	local name=$1 n cmd=()
	shift
	for n in 1 2; do
		[ "$n" -gt 1 ] && cmd+=(:)
		mpi_env "PFSBENCH_NODENAME=node$n"
		cmd+=(-np 1 "${MPI_ENV[@]}" "$@" --results "$SCRATCH/$name.h5")
	done
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}")
}
# traced NAME ARGS...: pfsbench ARGS on 2 nodes, each rank under strace
# -ff into $SCRATCH/NAME/t.PID; its stdout in $SCRATCH/NAME.out, stderr
# in .err
traced() {
	local name=$1
	shift
	mkdir "$SCRATCH/$name"
	two_nodes "$name" strace -ff -qq "${SECCOMP[@]}" -e trace=write -e signal=none -s 4096 \
		-o "$SCRATCH/$name/t" "$PFSBENCH" "$@" >"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err"
}
# writes NAME FD: the writes to FD in NAME's traces, one a line as strace
# prints them: write(FD, "...", N) = N
writes() {
	cat "$SCRATCH/$1"/t.* | grep -E "^write\\($2, \"" || true
}
# cut_writes NAME FD: those whose text does not end with \n
cut_writes() {
	writes "$1" "$2" | grep -vE '\\n", [0-9]+\) += [0-9]+$' || true
}

# -f: no per-char tests (a write to the tracer per 4 KiB of data, for
# nothing the test looks at); the I/O and file tables are still printed
BONNIE=(bonnie -d "$D" -s 2:8k:200 -r 1 -n 1 -f -m t -q --progress=never --no-drop-caches)
CU=(create-unlink -m "$D" -f 50 -F 10 -s 4k -t "se,pa" --progress=never --no-drop-caches)
traced bonnie "${BONNIE[@]}" || { cat "$SCRATCH/bonnie.err"; fail "bonnie under strace failed"; }
traced cu "${CU[@]}" || { cat "$SCRATCH/cu.err"; fail "create-unlink under strace failed"; }

# not vacuous: the reports were written, through the traced writes
check "bonnie -q: its tables on stderr (Latency lines), in traced writes" \
	test "$(grep -c '^Latency' "$SCRATCH/bonnie.err")" -ge 4 -a "$(writes bonnie 2 | grep -c 'Latency')" -ge 1
check "bonnie -q: 3 CSV lines on stdout (all ranks, node1, node2)" \
	test "$(grep -cE '^1\.9[0-9]*,' "$SCRATCH/bonnie.out")" -eq 3
check "create-unlink: its report on stdout, in traced writes" \
	test "$(writes cu 1 | wc -l)" -ge 1 -a -s "$SCRATCH/cu.out"
for name in bonnie cu; do
	for fd in 1 2; do
		cut=$(cut_writes $name $fd)
		check "$name: every write to fd $fd ends with a newline ($(writes $name $fd | wc -l) writes)" \
			test -z "$cut"
		[ -z "$cut" ] || head -n 5 <<<"$cut"
	done
done

# As a user makes it: both streams of the run into one file.
two_nodes merged "$PFSBENCH" "${BONNIE[@]}" >"$SCRATCH/merged" 2>&1
check "bonnie -q, stdout and stderr in one file: 3 whole CSV lines" \
	test "$(grep -cE '^1\.9[0-9]*,' "$SCRATCH/merged")" -eq 3
finish
