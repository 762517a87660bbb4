#!/bin/bash
# Bad input: one clear message on stderr from rank 0, a usage hint, exit
# status 2, nothing created on disk, no rank left hanging (each run has a
# time limit in pfs()).
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
touch "$SCRATCH/plainfile"
snapshot "$D"

# bad ARGS... -- EXPECTED-MESSAGE
bad() {
	local args=() msg
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	msg=$2
	pfs 2 "${args[@]}"
	# option errors end with a usage hint; a refused target needs none
	if [ "${3:-}" = hint ]; then
		check "'${args[*]}' gives a usage hint" grep -q "^Try 'pfsbench.* --help'\.$" "$ERR"
	fi
	local what="'${args[*]}'"
	check "$what exits 2" test "$RC" -eq 2
	check "$what says: $msg" grep -qF -- "$msg" "$ERR"
	# rank 0 alone speaks: the message appears once
	check "$what says it once" test "$(grep -cF -- "$msg" "$ERR")" -eq 1
	check "$what prints nothing on stdout" test ! -s "$OUT"
	check "$what creates nothing" dir_unchanged "$D"
	[ "$T_FAILED" -eq 0 ] || show_run
}

bad create-unlink -m "$D" --bogus -- "pfsbench create-unlink: unknown option '--bogus'" hint
# The other refusals of values, each with its message, are
# tests/unit/test_refusals.c's, through the function rank 0 calls: here,
# the whole path of a few (2 ranks, one message, the hint, nothing made)
# and the refusals that need the filesystem or the ranks.
bad create-unlink -f 10 -- "pfsbench create-unlink: -m DIR is required: the directory to test in" hint
bad create-unlink -m "$D/missing" -f 5 -F 1 -s 1k -- "cannot use '$D/missing': No such file or directory"
bad create-unlink -m "$SCRATCH/plainfile" -f 5 -F 1 -s 1k -- "'$SCRATCH/plainfile' is not a directory"
bad frobnicate -- "pfsbench: unknown command 'frobnicate'" hint
bad -m "$D" -t nope -- "unknown test 'nope'" hint
bad create-unlink -m "$D" -F 1000 -s 1t -f 1000 -- "this run needs"
# A need past 64 bits is not 0 MiB (rounding UINT64_MAX up wrapped around).
bad create-unlink -m "$D" -f 100000000 -F 100000000 -s 1000000000000000 -- \
	"this run needs 16 EiB or more (use --force"

# Through the launcher, a refusal is pfsbench's line, first: mpirun's 8-11
# lines of boilerplate after a non-zero exit follow it (the launcher no
# longer runs mpirun quiet, which hid a rank that could not start), and
# the launcher adds none of its own below status 3.
if [ -x "${CREATE_UNLINK_PERF:-}" ]; then
	(cd "$SCRATCH" && PFSBENCH=$PFSBENCH timeout 300 "$CREATE_UNLINK_PERF" -m "$D/missing" localhost) \
		>"$SCRATCH/out.$$" 2>"$SCRATCH/err.$$"
	RC=$?
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	check "create_unlink_perf, a missing -m: exit 2" test "$RC" -eq 2
	check "create_unlink_perf, a missing -m: pfsbench's line first" \
		test "$(head -1 "$ERR")" = "pfsbench: cannot use '$D/missing': No such file or directory"
	check "create_unlink_perf, a missing -m: no line of the launcher's" \
		test "$(grep -c '^create_unlink_perf' "$ERR")" -eq 0
	[ "$T_FAILED" -eq 0 ] || show_run
fi

# A -m path that leaves too little room for the run's own paths: refused up
# front (it failed on every rank once the run had begun). Node 2's long name
# makes its workers' directories the longest paths; the run directory, named
# after node 1, fits.
LONG=$D
while [ ${#LONG} -lt 4030 ]; do LONG=$LONG/$(printf 'a%.0s' {1..90}); done
LONG=${LONG:0:4030}
mkdir -p "$LONG"
snapshot "$D"
node2=$(printf 'n%.0s' {1..40})
OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
mpi_env PFSBENCH_NODENAME=node1; env1=("${MPI_ENV[@]}")
mpi_env "PFSBENCH_NODENAME=$node2"; env2=("${MPI_ENV[@]}")
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "${env1[@]}" "$PFSBENCH" \
	create-unlink -m "$LONG" -f 5 -F 1 -s 1k : -np 1 "${env2[@]}" "$PFSBENCH" \
	create-unlink -m "$LONG" -f 5 -F 1 -s 1k) >"$OUT" 2>"$ERR"
RC=$?
msg="'${LONG:0:40}...' is too long a directory to work in: the paths in node $node2 worker 1's directory"
check "a -m too long for the run's paths: exit 2" test "$RC" -eq 2
check "a -m too long for the run's paths: says so once" test "$(grep -cF -- "$msg" "$ERR")" -eq 1
check "a -m too long for the run's paths: nothing else on stderr" test "$(grep -c '^pfsbench' "$ERR")" -eq 1
check "a -m too long for the run's paths: creates nothing" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
rm -r "${D:?}"/*
snapshot "$D"

# A directory we may not write in: a read-only bind mount, where root too is refused.
RO=$SCRATCH/ro
mkdir "$RO"
if mount --bind "$D" "$RO" 2>/dev/null && mount -o remount,bind,ro "$RO" 2>/dev/null; then
	T_CLEANUP+=("umount '$RO'")
	bad create-unlink -m "$RO" -f 5 -F 1 -s 1k -- "cannot write in '$RO': Read-only file system"
else
	echo "# read-only case skipped: bind mounts are not permitted here"
fi
finish
