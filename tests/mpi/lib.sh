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

# What differs between the MPIs the tests run under: configure's MPI_IMPL
# (make check), or $MPIRUN asked when a test runs by hand. Open MPI's mpirun
# starts no more ranks than cores without --oversubscribe; MPICH's Hydra
# (mpiexec.mpich) oversubscribes anyway and has no such option. A rank's
# number is OMPI_COMM_WORLD_RANK under Open MPI, PMI_RANK under Hydra.
if [ -z "${MPI_IMPL:-}" ]; then
	case $("$MPIRUN" --version 2>&1) in
	*HYDRA*) MPI_IMPL=mpich ;;
	*) MPI_IMPL=openmpi ;;
	esac
fi
case $MPI_IMPL in
mpich) MPIRUN_FLAGS=() RANK_VAR=PMI_RANK ;;
*) MPIRUN_FLAGS=(--oversubscribe) RANK_VAR=OMPI_COMM_WORLD_RANK ;;
esac

# mpi_env NAME=VALUE...: sets MPI_ENV to the launcher options that give the
# ranks of one executable section (of an MPMD line: A : B) NAME=VALUE:
# Open MPI's -x NAME=VALUE, Hydra's -env NAME VALUE.
mpi_env() {
	local kv
	MPI_ENV=()
	for kv; do
		case $MPI_IMPL in
		mpich) MPI_ENV+=(-env "${kv%%=*}" "${kv#*=}") ;;
		*) MPI_ENV+=(-x "$kv") ;;
		esac
	done
}

# RANK_OF: the shell text a wrapper script run as a rank expands to its
# rank's number, under either MPI.
RANK_OF='${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}'

# pfs NP ARGS...: runs pfsbench on NP ranks; stdout in $OUT, stderr in $ERR,
# exit status in $RC. A hang is a failure: every run has a time limit.
pfs() {
	local np=$1
	shift
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	# in SCRATCH: the default results file lands in the current directory
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np "$np" "$PFSBENCH" "$@") >"$OUT" 2>"$ERR"
	RC=$?
}

# pfs_nodes NODES WORKERS ARGS...: simulates NODES nodes of WORKERS ranks
# each on this host, naming them node1, node2, ... by PFSBENCH_NODENAME.
pfs_nodes() {
	local nodes=$1 workers=$2 n cmd=()
	shift 2
	for ((n = 1; n <= nodes; n++)); do
		[ "$n" -gt 1 ] && cmd+=(:)
		mpi_env "PFSBENCH_NODENAME=node$n"
		cmd+=(-np "$workers" "${MPI_ENV[@]}" "$PFSBENCH" "$@")
	done
	OUT=$SCRATCH/out.$$ ERR=$SCRATCH/err.$$
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") >"$OUT" 2>"$ERR"
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

# debug_env NAME=VALUE...: the path of a pfsbench ($PFSBENCH as it is
# now, the fault injector's too) run with NAME=VALUE set on every rank, for
# pfs and pfs_nodes: PFSBENCH=$(debug_env PFSBENCH_DEBUG_SCALE=1) pfs ...
debug_env() {
	local f
	f=$(mktemp "$SCRATCH/pfsbench-env.XXXXXX")
	{
		printf '#!/bin/bash\nexec env'
		printf ' %q' "$@"
		printf ' %q "$@"\n' "$PFSBENCH"
	} >"$f"
	chmod +x "$f"
	echo "$f"
}

# progress_heard: what rank 0 said it heard (PFSBENCH_DEBUG_PROGRESS set)
# on the run's stderr ($ERR), in HEARD_MSGS, HEARD_SENDERS, HEARD_NODES,
# HEARD_RANKS, HEARD_TICKS and HEARD_STORED; false when it said nothing.
progress_heard() {
	local line
	line=$(grep '^pfsbench: progress: rank 0 received' "$ERR")
	echo "# $line"
	read -r HEARD_MSGS HEARD_SENDERS HEARD_NODES HEARD_RANKS HEARD_TICKS HEARD_STORED < <(sed -nE \
		's/^pfsbench: progress: rank 0 received ([0-9]+) messages from ([0-9]+) senders of ([0-9]+) nodes \(([0-9]+) ranks\) over ([0-9]+) ticks; ([0-9]+) ticks stored$/\1 \2 \3 \4 \5 \6/p' \
		<<<"$line")
	[ -n "${HEARD_MSGS:-}" ]
}

# scale_said: what rank 0 said it gathered and held (PFSBENCH_DEBUG_SCALE
# set; docs/scale.md) on the run's stderr ($ERR), in SCALE_RANKS,
# SCALE_NODES, SCALE_ROWS, SCALE_CELLS, SCALE_TICKS, SCALE_FSSTATS,
# SCALE_BLOCK (bytes), SCALE_ROUNDS (of ticks, in the block of most),
# SCALE_PEAK_KB, SCALE_ANON_KB, SCALE_FILE_KB, SCALE_SHMEM_KB and
# SCALE_CLOSE_S; false when it said nothing.
scale_said() {
	local line re
	line=$(grep '^pfsbench: scale: ' "$ERR")
	echo "# $line"
	re='^pfsbench: scale: ([0-9]+) ranks on ([0-9]+) nodes; rank 0 gathered ([0-9]+) rows, '
	re+='([0-9]+) latency cells, ([0-9]+) ticks, ([0-9]+) fsstats, at most ([0-9]+) bytes in one '
	re+='block \(ticks in ([0-9]+) rounds\); peak memory ([0-9]+) kB \(at the end: (-?[0-9]+) '
	re+="anonymous, (-?[0-9]+) files, (-?[0-9]+) shared\\); last op's end to the results file "
	re+='closed: ([0-9.]+) s$'
	[[ $line =~ $re ]] || return 1
	read -r SCALE_RANKS SCALE_NODES SCALE_ROWS SCALE_CELLS SCALE_TICKS SCALE_FSSTATS SCALE_BLOCK \
		SCALE_ROUNDS SCALE_PEAK_KB SCALE_ANON_KB SCALE_FILE_KB SCALE_SHMEM_KB SCALE_CLOSE_S \
		<<<"${BASH_REMATCH[*]:1}"
}

# target_dir: D, a fresh target directory with a file of someone else's
# in it, snapshot for dir_unchanged.
target_dir() {
	D=$SCRATCH/target
	mkdir "$D"
	echo keep >"$D/foreign"
	snapshot "$D"
}

# logging RULES: a pfsbench under the fault injector with RULES that logs
# what the rules count into one file a rank ($SCRATCH/log.RANK): mpirun
# forwards the ranks' stderr in pieces, and lines of two ranks can mix.
logging() {
	local f
	: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
	f=$(mktemp "$SCRATCH/pfsbench-logging.XXXXXX")
	printf '#!/bin/bash\nexec 2>>%q/log.%s\nPFSBENCH_FAULT_LOG=1 LD_PRELOAD=%q PFSBENCH_FAULT=%q exec %q "$@"\n' \
		"$SCRATCH" "$RANK_OF" "$PFSFAULT" "$1" "$T_PFSBENCH" >"$f"
	chmod +x "$f"
	echo "$f"
}
# The log of the last run, and its ranks' own messages.
LOG=$SCRATCH/log
logs() {
	cat "$SCRATCH"/log.* >"$LOG"
	rm -f "$SCRATCH"/log.*
}

# count_reaches MIN FIND-ARGS...: waits up to 60 s until find FIND-ARGS
# lists MIN paths or more; N is how many it listed last (at most MIN).
count_reaches() {
	local min=$1 i
	shift
	for ((i = 0; i < 1200; i++)); do
		N=$(find "$@" 2>/dev/null | head -n "$min" | wc -l)
		[ "$N" -ge "$min" ] && return 0
		sleep 0.05
	done
	return 1
}

# kill_ranks PATTERN BG: kills with SIGKILL the ranks whose command line
# matches PATTERN (pgrep -f), checks that some did, and waits for BG, the
# background job that ran them.
kill_ranks() {
	local pids
	pids=$(pgrep -f "$1")
	check "its ranks found" test -n "$pids"
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -KILL $pids
	wait "$2"
}

# pid_with_env PATTERN NAME=VALUE: the pid of the process whose command
# line matches PATTERN (pgrep -f) and whose environment holds NAME=VALUE:
# one rank of a run ("$RANK_VAR=1", PFSBENCH_NODENAME=node1).
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

# cpu_beside_spinner PID SECONDS: "RANK SPIN": the percent of a core PID
# used over SECONDS, and that a busy loop started beside it used over the
# same SECONDS: the reference a waiting rank is judged against, for what a
# core can give depends on the machine's load (a fixed bound is not a test:
# a process that spins gets about what the loop gets, one that sleeps a
# small part of it). "none" for RANK when PID ended within the window.
# Both run at nice -10 over the window (PID's main thread, which is the one
# that waits; its own nice after): the machine's other work at nice 0 then
# takes less from either. At nice 0, in a CI of stop 42 whose other lanes
# held the cores, the loop got 3 % of a core and the sleeping rank 2 %: a
# loaded machine gives a spinning process as little as a sleeping one
# uses, and the two could not be told apart.
cpu_beside_spinner() {
	local pid=$1 s=$2 spin r0 r1 s0 s1 ni
	ni=$(ps -o ni= -p "$pid" 2>/dev/null | tr -d ' ')
	renice -n -10 -p "$pid" >/dev/null 2>&1
	(renice -n -10 -p "$BASHPID" >/dev/null 2>&1; while :; do :; done) &
	spin=$!
	sleep 0.1 # the loop at its nice
	r0=$(cpu_ticks "$pid" 2>/dev/null) s0=$(cpu_ticks "$spin")
	sleep "$s"
	r1=$(cpu_ticks "$pid" 2>/dev/null) s1=$(cpu_ticks "$spin")
	kill "$spin" 2>/dev/null
	wait "$spin" 2>/dev/null
	renice -n "${ni:-0}" -p "$pid" >/dev/null 2>&1
	awk -v a="${r0:--1}" -v b="${r1:--1}" -v c="$s0" -v d="$s1" -v s="$s" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { if (a < 0 || b < 0) printf "none"; else printf "%.0f", (b - a) / hz / s * 100
			printf " %.0f\n", (d - c) / hz / s * 100 }'
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
