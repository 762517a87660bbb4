# lib.sh: shared by the integration tests, on tests/lib.sh's checks and
# scratch directory: runs the real binary under mpirun there and reads
# what it wrote (pfs, pfs_nodes, faulty, rows, provenance, snapshot,
# dir_unchanged, refused, ...). Sourced; expects PFSBENCH and MPIRUN from
# the test environment.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

: "${PFSBENCH:?PFSBENCH must point at the built binary}"
: "${MPIRUN:=mpirun}"
t_scratch

# pfs NP ARGS...: runs pfsbench on NP ranks; stdout in $OUT, stderr in $ERR,
# exit status in $RC. A hang is a failure: every run has a time limit.
pfs() {
	local np=$1
	shift
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	# in SCRATCH: the default results file lands in the current directory
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np "$np" "$PFSBENCH" "$@") >"$OUT" 2>"$ERR"
	RC=$?
}

# pfs_nodes NODES WORKERS ARGS...: simulates NODES nodes of WORKERS ranks
# each on this host, naming them node1, node2, ... by PFSBENCH_NODENAME.
pfs_nodes() {
	local nodes=$1 workers=$2 n cmd=()
	shift 2
	for ((n = 1; n <= nodes; n++)); do
		[ "$n" -gt 1 ] && cmd+=(:)
		cmd+=(-np "$workers" -x "PFSBENCH_NODENAME=node$n" "$PFSBENCH" "$@")
	done
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe "${cmd[@]}") >"$OUT" 2>"$ERR"
	RC=$?
}

# faulty RULES: the path of a pfsbench that runs under the test-only fault
# injector (tests/fault, $PFSFAULT) with RULES in PFSBENCH_FAULT, for pfs
# and pfs_nodes:  PFSBENCH=$(faulty "delay openat 2ms node=node2") pfs_nodes ...
T_PFSBENCH=$PFSBENCH
faulty() {
	local f
	f=$(mktemp "$SCRATCH/pfsbench-faulty.XXXXXX")
	printf '#!/bin/bash\nLD_PRELOAD=%q PFSBENCH_FAULT=%q exec %q "$@"\n' \
		"${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}" "$1" "$T_PFSBENCH" >"$f"
	chmod +x "$f"
	echo "$f"
}

# pid_with_env PATTERN NAME=VALUE: the pid of the process whose command
# line matches PATTERN (pgrep -f) and whose environment holds NAME=VALUE:
# one rank of a run (OMPI_COMM_WORLD_RANK=1, PFSBENCH_NODENAME=node1).
pid_with_env() {
	local p
	for p in $(pgrep -f "$1"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "$2" && { echo "$p"; return 0; }
	done
	return 1
}

# cpu_ticks PID: user + system time of PID so far, in clock ticks.
cpu_ticks() {
	awk '{print $14 + $15}' "/proc/$1/stat"
}

# csv_rows FILE: the rows of results FILE as CSV (export --csv).
csv_rows() {
	"$T_PFSBENCH" export "$1" --csv
}

# provenance FILE KEY: one provenance value or parameter (parameters.NAME)
# of results FILE (export --csv --provenance).
provenance() {
	"$T_PFSBENCH" export "$1" --csv --provenance | tr -d '\r' |
		awk -F, -v k="$2" '$1 == k { print $2 }'
}

# The table rows of the report in $OUT, one per line, fields split by blanks.
rows() {
	sed -n '/^---- --/,/^$/p' "$OUT" | sed '1d;$d'
}

# Every derived column agrees with Microsecs and Files: us/fil is the
# integer quotient and files/sec is 1000000 over it.
columns_consistent() {
	rows | awk '{
		us = int($6 / $7); fps = (us > 0) ? int(1000000 / us) : -1
		if ($8 != us || (fps >= 0 && $9 != fps)) { print "bad row: " $0; bad = 1 }
	} END { exit bad || NR == 0 }'
}

# Nothing of a run may remain in DIR but what was there before (listed in
# DIR.before).
dir_unchanged() {
	diff <(cd "$1" && find . | sort) "$1.before" >/dev/null
}

snapshot() {
	(cd "$1" && find . | sort) >"$1.before"
}

# results_said FILE: pfsbench's last line on the run's stderr ($ERR; after
# a failure mpirun's own lines follow it) says where its results file is,
# FILE, and how to read it, and the file is there.
results_said() {
	test "$(grep '^pfsbench: ' "$ERR" | tail -1)" = \
		"pfsbench: results: $1 (read it with: pfsbench show $1)" && test -f "$1"
}

# refusals_of WORKLOAD: the start of a bad-input test: $D, an empty target
# directory, snapshotted; then each `refused NP MESSAGE ARGS...` runs
# pfsbench WORKLOAD ARGS on NP ranks and checks exit 2, MESSAGE (fixed
# text) on stderr, nothing created in $D and no new results file of
# WORKLOAD where a run's default one lands ($SCRATCH).
refusals_of() {
	T_REFUSING=$1
	D=$SCRATCH/target
	mkdir "$D"
	snapshot "$D"
}

refused() {
	local np=$1 msg=$2 before
	shift 2
	before=$(results_files "$T_REFUSING")
	pfs "$np" "$T_REFUSING" "$@"
	check "'$*': exit 2" test "$RC" -eq 2
	check "'$*': says '$msg'" grep -qF -- "$msg" "$ERR"
	check "'$*': nothing created" dir_unchanged "$D"
	check "'$*': no results file" test "$(results_files "$T_REFUSING")" = "$before"
}

# results_files WORKLOAD: the default-named results files of WORKLOAD's
# runs in $SCRATCH, one a line.
results_files() {
	find "$SCRATCH" -maxdepth 1 -name "pfsbench-$1-*.h5" | sort
}

# small_fs OPTIONS: mounts a tmpfs with OPTIONS (size=..., nr_inodes=...)
# at $SCRATCH/small as $M, unmounted at exit, holding one file of someone
# else's, and snapshots it; skips the test where mounting is not allowed.
small_fs() {
	M=$SCRATCH/small
	mkdir "$M"
	mount -t tmpfs -o "$1" pfsbench-test "$M" 2>/dev/null ||
		skip "cannot mount a tmpfs here (not root, or no mount permission)"
	T_CLEANUP+=("umount '$M'")
	echo keep >"$M/foreign"
	snapshot "$M"
}

# show_run: prints the last run's output and status, for the log of a failed check.
show_run() {
	echo "--- exit status $RC; stdout:"
	cat "$OUT"
	echo "--- stderr:"
	cat "$ERR"
}
