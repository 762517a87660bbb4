#!/bin/bash
# run-bench-table.sh: the one table of issue 33 (make bench-table, the
# first part of make bench-all): every column of every workload against
# its peer on the same filesystem with the same sizes, on a tmpfs and on
# an ext4 whose image lives on the machine's disk (/var/tmp), at 1 rank and
# at 2 ranks, in one interleaved series of rounds per filesystem and rank
# count:
#   create-unlink Create Stat Unlink   mdtest -F -C -T -r -n N (one shared directory)
#   tree Mkdir Create Unlink Rmdir     mdtest -F -C -r -u -z L -b D -I F -w 4096
#   stream Write Read                  dd bs=1M conv=fsync, dd of=/dev/null
#   matrix Write Read at 4k 64k 1m     dd with the same request and transfer sizes
#   bonnie's 12 tests                  bonnie++ (1.98 and later) with the same -s, -r, -n: its
#                                      I/O tests (-n 0) and its file tests (-s 0) as
#                                      two jobs, each sized to last over bonnie++'s 0.5 s
# 2 ranks are 2 workers on 2 simulated nodes (PFSBENCH_NODENAME n1, n2:
# stream times one worker a node; create-unlink's on one node, where its
# ub creates with both at once), and each peer is 2 processes side by
# side: mpirun -np 2 for mdtest, two dd or two bonnie++ started together
# by bonnie++'s own semaphore, -p 2 and -y s). 1 rank runs on BENCH_CPU
# (bench/lib.sh); at 2 ranks rank or process i runs on CPU i - 1, on both
# sides (BENCH_PIN2=0: unbound, as before 2026-12-07).
# A round runs every side once; the rounds (bench/lib.sh: a warm-up, then
# REPS, default 10, in balanced orders) interleave the workloads and the
# two tools. 10 rounds are a whole cycle of the orders of the full table's
# 10 sides (and 5 of one workload's 2): pfsbench runs before its peer in 5
# of them and after it in 5 (with 2 or 3 workloads, 4 to 6), and the
# report takes the two orders apart (bench/table.py's by_order).
# Per column and round: pfsbench's rate over the peer's, each
# tool's own rate, aggregated over the ranks as the peer aggregates its
# processes: against mdtest (which times a phase from barrier to barrier)
# the items of all ranks over the span from the earliest start to the
# latest end of pfsbench's rows; against dd the bytes of all ranks over the
# longest rank's own time, as dd's bytes of all copies over the longest
# copy's seconds; against bonnie++ the sum of each rank's rate (pfsbench's
# node lines, a rank a node) as the sum of each bonnie++'s. Per workload and round:
# the whole processes' wall time and CPU time (mpirun and everything it
# started, or the peer's processes: wait4's rusage), summed over the
# workload's jobs. On the ext4 the page cache is dropped before every
# stream and matrix phase on both sides: pfsbench's own drop, and a sync
# and drop inside the peer's measured command (so both jobs' wall and CPU
# include one); create-unlink, tree and bonnie run without drops, as
# mdtest and bonnie++ do.
# The report (bench/table.py): one table, median [p25-p75] of the per-round
# ratios (the geometric mean of each order's), flagged SLOWER below 0.95
# and FASTER above 1.05 ("check like for like": docs/benchmarks.md and
# bench-calls say whether the calls are the same), and the calls on the
# files per item of each side from bench-calls' output when
# BENCH_CALLS_OUT names it.
# Environment: PFSBENCH, MPIRUN, MDTEST (create-unlink and tree are skipped
# without it: Debian has no mdtest; docs/benchmarks.md says how to build
# it), BONNIE (default bonnie++), REPS, BENCH_CPU, BENCH_FS ("tmpfs ext4"),
# NPS ("1 2"), WORKLOADS ("cu tree stream matrix bonnie"), FILES (create-
# unlink files per rank, 50000), TREE ("3 10 10": levels, dirs, files),
# MIB (stream MiB per rank, 256), REQS ("4k 64k 1m"), XFER (matrix, 64m),
# BONNIE_TMPFS and BONNIE_EXT4 (the I/O tests' -s, -r, -n 0),
# BONNIE_TMPFS_FILES and BONNIE_EXT4_FILES (the file tests' -s 0 -n; any
# of the four set empty leaves that part out),
# BENCH_IMG_DIR (/var/tmp), BENCH_PIN2 (default 1: at 2 ranks or more,
# rank or process i of either side bound to CPU i - 1; 0: unbound),
# PROBE (bench/baseline_create_unlink, make bench-table's; empty: no
# probes, every round counts) and PROBE_FILES (5000): the machine's speed
# before and after every job (probe, below), STEADY_MIN (default 7 of 10:
# REPS x 0.7, rounded up) and TOPUP (default REPS): a workload with fewer
# than STEADY_MIN rounds in which the machine kept its speed, or fewer
# than half its rounds, gets more rounds of its own, TOPUP at most
# (topup, below; 0: none),
# TABLE_OUT (where the raw lines go; the report reads them).
# Root only (mounts, a loop device, drop_caches).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
REPS=${REPS:-10}
bench_env
MDTEST=${MDTEST:-}
BONNIE=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
BENCH_FS=${BENCH_FS:-tmpfs ext4}
NPS=${NPS:-1 2}
WORKLOADS=${WORKLOADS:-cu tree stream matrix bonnie}
FILES=${FILES:-50000}
read -r T_L T_D T_F <<<"${TREE:-3 10 10}"
MIB=${MIB:-256}
REQS=${REQS:-4k 64k 1m}
XFER=${XFER:-64m}
BONNIE_TMPFS=${BONNIE_TMPFS--s 2g:8k:200000 -r 1024 -n 0}
BONNIE_EXT4=${BONNIE_EXT4--s 2g:8k:100000 -r 1024 -n 0}
BONNIE_TMPFS_FILES=${BONNIE_TMPFS_FILES--s 0 -n 512}
BONNIE_EXT4_FILES=${BONNIE_EXT4_FILES--s 0 -n 128}
export BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp}
BENCH_PIN2=${BENCH_PIN2:-1}
# mpirun's binding at 2 ranks or more, for pfsbench and mdtest alike
BIND2=$([ "$BENCH_PIN2" = 1 ] && echo "--bind-to core" || echo "--bind-to none")
PROBE=${PROBE-}
PROBE_FILES=${PROBE_FILES:-5000}
STEADY_MIN=${STEADY_MIN:-$(((REPS * 7 + 9) / 10))}
TOPUP=${TOPUP:-$REPS}
NCPU=$(nproc)

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a tmpfs, a loop device, drop_caches)"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
if [ -n "$MDTEST" ]; then
	MDTEST=$(realpath "$MDTEST")
	[ -x "$MDTEST" ] || { echo "bench-table: MDTEST='$MDTEST' is not an executable" >&2; exit 2; }
fi
[ -z "$PROBE" ] || [ -x "$PROBE" ] || { echo "bench-table: PROBE='$PROBE' is not an executable" >&2; exit 2; }
[ "$PROBE_FILES" -ge 1 ] 2>/dev/null || { echo "bench-table: PROBE_FILES must be a positive number, not '$PROBE_FILES'" >&2; exit 2; }
[ "$REPS" -ge 1 ] 2>/dev/null || { echo "bench-table: REPS must be a positive number, not '$REPS'" >&2; exit 2; }
[ "$STEADY_MIN" -ge 0 ] 2>/dev/null || { echo "bench-table: STEADY_MIN must be a number, not '$STEADY_MIN'" >&2; exit 2; }
[ "$TOPUP" -ge 0 ] 2>/dev/null || { echo "bench-table: TOPUP must be a number, not '$TOPUP'" >&2; exit 2; }
wanted=()
for w in $WORKLOADS; do
	case $w in
	cu | tree) [ -n "$MDTEST" ] && wanted+=("$w") || echo "SKIP $w: no peer (MDTEST unset: docs/benchmarks.md, Getting mdtest)" ;;
	bonnie) [ -x "$BONNIE" ] && wanted+=("$w") || echo "SKIP $w: no bonnie++ (apt-get install bonnie++)" ;;
	stream | matrix) wanted+=("$w") ;;
	*) echo "bench-table: WORKLOADS: unknown '$w' (cu tree stream matrix bonnie)" >&2; exit 2 ;;
	esac
done
[ ${#wanted[@]} -gt 0 ] || { echo "SKIP: no workload has its peer here"; exit 77; }

trap undo_all EXIT
trap 'exit 1' INT TERM
work=$(mktemp -d /tmp/pfsbench-bench-table.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
raw=${TABLE_OUT:-$work/raw}
: >"$raw" || exit 1
mkdir "$work/tmpfs" "$work/h5"
mount -t tmpfs -o size=6g,nr_inodes=4m pfsbench-bench-table "$work/tmpfs" || exit 1
undo+=("umount '$work/tmpfs'")
mkdir "$work/tmpfs/probe"

# bytes SIZE: 64m, 4k as bytes
bytes() {
	local s=$1
	case $s in
	*k) echo $((${s%k} << 10)) ;;
	*m) echo $((${s%m} << 20)) ;;
	*g) echo $((${s%g} << 30)) ;;
	*) echo "$s" ;;
	esac
}

# What every side knows of its configuration: FS, NP, DIR (a fresh
# directory on FS for the job), NODROP (pfsbench's option on the tmpfs).
DROP_SH='sync; echo 3 >/proc/sys/vm/drop_caches;'
fresh() { rm -rf "$DIR"; mkdir "$DIR"; }

# probe ROUND WL: the machine's speed now, a "probe US CPU" line for each
# CPU the jobs use (BENCH_CPU at 1 rank, CPU 0 to NP - 1 at more): the CPU
# microseconds a plain C loop (PROBE, bench/baseline_create_unlink) takes
# there to create and remove PROBE_FILES empty files in a directory of its
# own on the bench's tmpfs. The same work every time, so a figure that
# moves is the machine moving (docs/benchmarks.md, "A machine that changes
# speed"); table.py leaves out a round whose probes of a CPU disagree.
probe() {
	[ -n "$PROBE" ] || return 0
	local c v cpus=$BENCH_CPU
	[ "$NP" = 1 ] || cpus=$(seq 0 $((NP > NCPU ? NCPU - 1 : NP - 1)))
	for c in $cpus; do
		v=$(WARM_MS=20 taskset -c "$c" "$PROBE" "$work/tmpfs/probe" "$PROBE_FILES" | awk 'NF == 4 { print $3 + $4 }')
		[ -n "$v" ] || { echo "bench-table: the probe failed: $PROBE $work/tmpfs/probe $PROBE_FILES"; return 1; }
		echo "$1 $SIDE $2 probe $v $c" >>"$work/cur"
	done
}
# job ROUND WL CMD...: runs CMD as one whole job (on BENCH_CPU at 1 rank),
# its output in $work/out, between two probes; adds "job" with its wall
# and CPU to the round.
job() {
	local r=$1 wl=$2 t
	shift 2
	if [ "$NP" = 1 ]; then set -- taskset -c "$BENCH_CPU" "$@"; fi
	probe "$r" "$wl" || return 1
	t=$(wait4_run "$work/out" "$work/out" "$@") || { echo "bench-table: failed on $FS, $NP ranks: $*"; cat "$work/out"; return 1; }
	echo "$r $SIDE $wl job $t" >>"$work/cur"
	probe "$r" "$wl"
}
# pfs ROUND WL ARGS...: pfsbench ARGS as one job, at NP ranks: NP workers
# on NP simulated nodes, or on one with ONE_NODE=1 (create-unlink's ub
# creates node by node: on 2 nodes its Create would run one rank at a
# time against mdtest's two at once)
pfs() {
	local r=$1 wl=$2 second=n2
	shift 2
	rm -f "$work/h5/r.h5"
	[ "${ONE_NODE:-0}" = 1 ] && second=n1
	if [ "$NP" = 1 ]; then
		job "$r" "$wl" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" "$@" --progress=never --results "$work/h5/r.h5"
	else
		# shellcheck disable=SC2086
		job "$r" "$wl" "$MPIRUN" --oversubscribe $BIND2 -np 1 -x PFSBENCH_NODENAME=n1 "$PFSBENCH" "$@" \
			--progress=never --results "$work/h5/r.h5" : -np 1 -x PFSBENCH_NODENAME=$second "$PFSBENCH" "$@" \
			--progress=never --results "$work/h5/r.h5"
	fi
}
# rows ROUND WL KEY: a rate line per op of the results file: the items (or
# bytes, in MiB) of all ranks over the span from the earliest start to the
# latest end; KEY "op" or "op req" (matrix: a column per request size).
# Against dd, whose copies each time themselves, the time is the longest
# rank's own elapsed time instead (dd_rate's rule): the span would add the
# ranks' skew at the start, up to the 2 ms a long wait sleeps between looks
# (docs/methodology.md), which dd's figure never holds.
rows() {
	"$PFSBENCH" export "$work/h5/r.h5" --csv | tr -d '\r' | awk -F, -v r="$1" -v wl="$2" -v key="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $c["op"]; if (key == "op req") k = k "_" $c["bytes"] / $c["items"]
		  s = $c["start_us"]; e = s + $c["elapsed_us"]
		  if (!(k in lo) || s < lo[k]) lo[k] = s
		  if (e > hi[k]) hi[k] = e
		  if ($c["elapsed_us"] > most[k]) most[k] = $c["elapsed_us"]
		  n[k] += (wl == "stream" || wl == "matrix") ? $c["bytes"] / 1048576 : $c["items"] }
		END { for (k in n) printf "%s pfsbench %s %s %.6g\n", r, wl, k,
			n[k] * 1e6 / ((wl == "stream" || wl == "matrix") ? most[k] : hi[k] - lo[k]) }' >>"$work/cur"
}
# peer_np CMD: NP copies of the shell command CMD side by side, {} in it
# the copy's number; waits for all.
peer_np() {
	local i s=""
	for ((i = 1; i <= NP; i++)); do
		[ "$BENCH_PIN2" = 1 ] && s+="taskset -c $((i - 1)) "
		s+="${1//\{\}/$i} & "
	done
	printf '%s wait' "$s"
}
mpi_np() { # mpirun for an MPI peer at NP ranks
	if [ "$NP" = 1 ]; then echo "$MPIRUN --bind-to none -np 1"; else echo "$MPIRUN --oversubscribe $BIND2 -np $NP"; fi
}

# create-unlink against mdtest: empty files in one shared directory, each
# rank FILES of them, created, stated and removed (-t ub skips Write and
# Read, so -s is not used). Metadata on both sides without cache drops:
# mdtest drops none between its phases.
pfs_cu() {
	fresh
	ONE_NODE=1 pfs "$1" cu create-unlink -m "$DIR" -f "$FILES" -F 1 -s 1 -t ub --shared-dir --stat --no-drop-caches &&
		rows "$1" cu op
}
peer_cu() {
	fresh
	# shellcheck disable=SC2046
	job "$1" cu $(mpi_np) "$MDTEST" -F -C -T -r -n "$FILES" -d "$DIR/md" || return 1
	awk -v r="$1" '/^ *File creation / { c = $3 } /^ *File stat / { s = $3 } /^ *File removal / { u = $3 }
		END { printf "%s peer cu Create %s\n%s peer cu Stat %s\n%s peer cu Unlink %s\n", r, c, r, s, r, u }' "$work/out" >>"$work/cur"
}
# tree against mdtest's tree: each rank its own tree (mdtest -u) of the
# same directories (L levels below the top, D a directory) and files (F in
# every directory, the top one too), 4 KiB a file.
pfs_tree() {
	fresh
	pfs "$1" tree tree -o "$DIR" -l "$T_L" -d "$T_D" -f "$T_F" -s 1 --no-drop-caches && rows "$1" tree op
}
peer_tree() {
	fresh
	# mdtest's tree: -z levels below the top, -b branches, -I items in each.
	# shellcheck disable=SC2046
	job "$1" tree $(mpi_np) "$MDTEST" -F -C -r -u -z "$T_L" -b "$T_D" -I "$T_F" -w 4096 -d "$DIR/md" || return 1
	# mdtest's tree rates count one tree's directories (num_dirs_in_tree
	# over the phase) though under -u every rank makes its own: NP trees.
	awk -v r="$1" -v np="$NP" '/^ *Tree creation / { m = $3 * np } /^ *File creation / { c = $3 } /^ *File removal / { u = $3 } /^ *Tree removal / { d = $3 * np }
		END { printf "%s peer tree Mkdir %s\n%s peer tree Create %s\n%s peer tree Unlink %s\n%s peer tree Rmdir %s\n", r, m, r, c, r, u, r, d }' "$work/out" >>"$work/cur"
}
# dd_rate OP: dd's lines in $work/out as one rate line: the bytes of all
# copies over the longest copy's seconds, MiB/s.
dd_rate() {
	awk -v r="$2" -v k="$1" '/ bytes .* copied, / { b += $1; s = $(NF - 3); if (s > m) m = s }
		END { printf "%s peer %s %s %.6g\n", r, wl, k, b / 1048576 / m }' wl="$3" "$work/out" >>"$work/cur"
}
# stream against dd: each rank its own file of MIB MiB in 1 MiB requests,
# written with an fsync before the clock stops, then read.
pfs_stream() {
	fresh
	pfs "$1" stream stream -o "$DIR" -b 1M -s "${MIB}M" -y --keep "${NODROP[@]}" && rows "$1" stream op || return 1
	pfs "$1" stream stream -i "$DIR" -b 1M -s "${MIB}M" "${NODROP[@]}" && rows "$1" stream op
}
peer_stream() {
	local d
	fresh
	d=$([ "$FS" = ext4 ] && echo "$DROP_SH")
	job "$1" stream bash -c "$d $(peer_np "dd if=/dev/zero of=$DIR/s{} bs=1M count=$MIB conv=fsync 2>>$work/dd")" || return 1
	mv "$work/dd" "$work/out"; dd_rate Write "$1" stream
	job "$1" stream bash -c "$d $(peer_np "dd if=$DIR/s{} of=/dev/null bs=1M 2>>$work/dd")" || return 1
	mv "$work/dd" "$work/out"; dd_rate Read "$1" stream
}
# matrix against dd: one row of cells (transfer XFER, each request size of
# REQS), written with an fsync, then read; each rank its own file.
pfs_matrix() {
	fresh
	pfs "$1" matrix matrix --write "$DIR" --req "$(tr ' ' , <<<"$REQS")" --xfer "$XFER" "${NODROP[@]}" &&
		rows "$1" matrix "op req" || return 1
	pfs "$1" matrix matrix --read "$DIR" --req "$(tr ' ' , <<<"$REQS")" --xfer "$XFER" "${NODROP[@]}" &&
		rows "$1" matrix "op req"
}
peer_matrix() {
	local d req b n
	fresh
	d=$([ "$FS" = ext4 ] && echo "$DROP_SH")
	for req in $REQS; do
		b=$(bytes "$req") n=$(($(bytes "$XFER") / $(bytes "$req")))
		job "$1" matrix bash -c "$d $(peer_np "dd if=/dev/zero of=$DIR/m{} bs=$b count=$n conv=fsync 2>>$work/dd")" || return 1
		mv "$work/dd" "$work/out"; dd_rate "Write_$b" "$1" matrix
		job "$1" matrix bash -c "$d $(peer_np "dd if=$DIR/m{} of=/dev/null bs=$b count=$n 2>>$work/dd")" || return 1
		mv "$work/dd" "$work/out"; dd_rate "Read_$b" "$1" matrix
	done
}
# bonnie against bonnie++: the same -s, -r and -n, each rank (each
# bonnie++) its own directory; rates from the CSV lines (1.98), bonnie++'s
# summed over its processes, pfsbench's over its ranks (pfs_bonnie, below:
# at 1 rank its all-ranks line, at 2 its node lines); +++++ (a test
# under 0.5 s) is kept as such. Beside each rate, "cpu:TEST": the CPU
# seconds an item (a KiB, a seek, a file), each line's %CP / 100 over its
# rate, averaged over the lines (each rank or process does the same
# items): both tools take %CP as the test's CPU time over its wall time,
# cut to a whole percent.
BONNIE_TESTS="putc:9 put_block:11 rewrite:13 getc:15 get_block:17 seeks:19 seq_create:26 seq_stat:28 seq_del:30 ran_create:32 ran_stat:34 ran_del:36"
csv_rates() { # ROUND SIDE: the CSV lines in $work/csv summed per test
	awk -F, -v r="$1" -v side="$2" -v tests="$BONNIE_TESTS" -f "$here/bonnie_csv_rates.awk" "$work/csv" >>"$work/cur"
}
# csv_lines N: the job's output ($work/out) holds N whole CSV lines, or
# says so and fails (a line split by the other stream is lost to grep)
csv_lines() {
	local n
	n=$(grep -cE '^1\.9[0-9]*,' "$work/out")
	[ "$n" -eq "$1" ] && return 0
	echo "bench-table: $SIDE's bonnie printed $n CSV lines, not $1, on $FS at $NP ranks:"
	cat "$work/out"
	return 1
}
bonnie_args() { # PART: io or files, on FS
	case $FS/$1 in
	tmpfs/io) echo "$BONNIE_TMPFS" ;;
	tmpfs/files) echo "$BONNIE_TMPFS_FILES" ;;
	ext4/io) echo "$BONNIE_EXT4" ;;
	ext4/files) echo "$BONNIE_EXT4_FILES" ;;
	esac
}
# Each rank's own rate, summed, as for bonnie++'s processes: pfsbench's
# node lines (a node a rank at 2 ranks) rather than its all-ranks line,
# whose time is the span of all ranks' rows.
pfs_bonnie() {
	local part
	for part in io files; do
		[ -n "$(bonnie_args $part)" ] || continue # a part left out (empty)
		fresh
		# shellcheck disable=SC2046
		pfs "$1" bonnie bonnie -d "$DIR" $(bonnie_args $part) -m bench -q --bonnie-version 1.98 \
			--no-drop-caches || return 1
		# the all-ranks line and a node's each: a line lost would sum fewer ranks
		csv_lines $((NP + 1)) || return 1
		grep -E '^1\.9[0-9]*,' "$work/out" | { [ "$NP" = 1 ] && head -n 1 || tail -n +2; } >"$work/csv"
		csv_rates "$1" pfsbench
	done
}
peer_bonnie() {
	local part sem=""
	for part in io files; do
		[ -n "$(bonnie_args $part)" ] || continue
		fresh
		if [ "$NP" -gt 1 ]; then
			"$BONNIE" -p "$NP" -u root >/dev/null 2>&1 || { echo "bench-table: bonnie++ -p $NP failed"; return 1; }
			sem=-ys
		fi
		mkdir -p "$DIR"/b{1..2}
		job "$1" bonnie bash -c "$(peer_np "$BONNIE -q -d $DIR/b{} $(bonnie_args $part) -u root -m bench $sem 2>/dev/null")" ||
			return 1
		[ "$NP" -gt 1 ] && "$BONNIE" -p -1 -u root >/dev/null 2>&1
		csv_lines "$NP" || return 1
		grep -E '^1\.9[0-9]*,' "$work/out" >"$work/csv"
		csv_rates "$1" peer
	done
}

# Each side's function NAME ROUND: the round's lines go to $work/cur,
# tagged with the side, the filesystem and the rank count, then to raw,
# with a line "ROUND SIDE WORKLOAD seat N": the side's place in the round
# (bench/lib.sh's ROUND_SEAT), from which table.py tells the rounds where
# pfsbench ran before its peer from those where it ran after.
side() {
	local r=$2
	SIDE=$([ "${1%%_*}" = pfs ] && echo pfsbench || echo peer)
	echo "$r $SIDE ${1#*_} seat ${ROUND_SEAT:-0}" >"$work/cur"
	"$1" "$r" || return 1
	[ "$r" = warm ] || sed "s/^/$FS $NP /" "$work/cur" >>"$raw"
}
sides=()
for w in "${wanted[@]}"; do
	eval "s_pfs_$w() { side pfs_$w \"\$1\"; }; s_peer_$w() { side peer_$w \"\$1\"; }"
	sides+=("s_pfs_$w" "s_peer_$w")
done

# topup: after the REPS rounds of this filesystem and rank count, more
# rounds for the workloads with fewer than STEADY_MIN rounds in which the
# machine kept its speed, or fewer than half their rounds (which table.py
# would then count all of: table.py --short), until each has them or TOPUP
# more rounds have run. A round of the top-up runs those workloads alone,
# both tools each, pfsbench first in every other one and the workloads in
# turned order, with no warm-up (they ran minutes before). Leaving the
# unsteady rounds out alone left the ext4's bonnie cells of stop 56 with 3
# steady rounds of 10, too few to be left out (table.py's steady).
topup() {
	[ -n "$PROBE" ] || return 0
	local short
	more_rounds "$REPS" $((REPS + TOPUP)) short_sides || return 1
	short=$(/usr/bin/python3 "$here/table.py" --short "$raw" "$FS" "$NP" "$STEADY_MIN") || return 1
	[ -z "$short" ] || echo "$FS, $NP ranks: after $TOPUP more rounds, still fewer than $STEADY_MIN steady rounds: $short"
}
# short_sides: the sides of the workloads short of steady rounds now.
short_sides() {
	local w short
	short=$(/usr/bin/python3 "$here/table.py" --short "$raw" "$FS" "$NP" "$STEADY_MIN") || return 1
	[ -z "$short" ] || echo "$FS, $NP ranks: a round more for $short (fewer than $STEADY_MIN steady rounds)" >&2
	for w in $short; do printf 's_pfs_%s s_peer_%s ' "$w" "$w"; done
}

echo "the one table: pfsbench against its peers (${wanted[*]}), $REPS rounds after a warm-up, on ${BENCH_FS} at ${NPS} ranks"
hold_page_reporting
[ -n "$PROBE" ] && echo "the machine's speed: $PROBE_FILES files created and removed by $PROBE before and after every job; up to $TOPUP more rounds for a workload with fewer than $STEADY_MIN steady ones" ||
	echo "no probe (PROBE empty): every round counts, whatever the machine's speed did"
echo "pfsbench $("$PFSBENCH" --version 2>&1 | head -1); mdtest ${MDTEST:-none}; $("$BONNIE" 2>&1 | sed -n 's/^Version: /bonnie++ /p'); $(dd --version | head -1); CPU $BENCH_CPU at 1 rank; $([ "$BENCH_PIN2" = 1 ] && echo "at 2 ranks, rank or process i on CPU i - 1" || echo "unbound at 2 ranks")"
start=$SECONDS
for FS in $BENCH_FS; do
	case $FS in
	tmpfs) base=$work/tmpfs NODROP=(--no-drop-caches) ;;
	ext4)
		ext4_on_shm bench-table 16384 || exit
		base=$EXT4_DIR NODROP=()
		;;
	*) echo "bench-table: BENCH_FS: tmpfs or ext4, not '$FS'" >&2; exit 2 ;;
	esac
	DIR=$base/w
	for NP in $NPS; do
		echo "$FS, $NP ranks: load before $(cut -d' ' -f1-3 /proc/loadavg)"
		t=$SECONDS
		rounds "$REPS" "${sides[@]}" || exit 1
		topup || exit 1
		echo "$FS, $NP ranks: load after $(cut -d' ' -f1-3 /proc/loadavg); $((SECONDS - t)) s"
	done
	rm -rf "$DIR"
done
echo "all: $((SECONDS - start)) s"
/usr/bin/python3 "$here/table.py" "$raw" ${BENCH_CALLS_OUT:+"$BENCH_CALLS_OUT"}
