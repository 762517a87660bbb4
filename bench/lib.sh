# lib.sh: what every benchmark script shares (sourced): the statistics of
# rounds, the order they run in, the CPU they run on and the CPU time they
# take (timed). A benchmark warms both sides with a round it throws away,
# then runs ROUNDS rounds (at least 9) in which the two sides alternate and
# the one that goes first alternates too, so that drift, caches and turbo
# hit both alike; it reports the median and the spread p25-p75 of each
# side, and the ratio of the medians.

# stats FILE COLUMN: "median p25 p75" of a column of numbers (nearest rank).
stats() {
	awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '
		{ v[NR] = $1 }
		function at(p) { i = int(p * NR + 0.999999); if (i < 1) i = 1; return v[i] }
		END { if (NR) printf "%s %s %s\n", at(0.5), at(0.25), at(0.75); else print "0 0 0" }'
}

# rounds N SIDE...: runs each side's function N times, interleaved, after
# one round of each that is thrown away (the warm-up). Each function gets
# the round's number, or "warm". The orders form a Williams design: every
# side runs first once per cycle, and every side runs right after each
# other side equally often (4 sides: A B D C, B C A D, C D B A, D A C B;
# an odd number of sides needs each order reversed as well). A plain
# rotation (A B C D, B C D A, ...) keeps each side behind the same
# neighbour in every round, so whatever a side leaves behind (memory to
# reclaim, a filesystem's freed blocks) always falls on the same next side:
# in bench-bonnie it made bonnie++'s ext4 block write 3.3x slower than
# pfsbench's, when run in an order that varies the two were even. With an
# even number of sides, over a whole cycle (as many rounds as sides) side
# 2i runs before side 2i+1 in exactly half the rounds. Each function runs
# with ROUND_SEAT set to its place in the round (0 first), so that a
# report can judge each order apart (bench/table.py).
rounds() {
	local n=$1 r k
	shift
	local sides=("$@") m=$# seq=() rows
	for k in "${sides[@]}"; do
		"$k" warm || return 1
	done
	# The first order: 0, 1, m-1, 2, m-2, ...; order r adds r to each.
	for ((k = 0; k < m; k++)); do
		if ((k == 0)); then seq+=(0)
		elif ((k % 2)); then seq+=($(((k + 1) / 2)))
		else seq+=($((m - k / 2)))
		fi
	done
	rows=$((m % 2 ? 2 * m : m))
	for ((r = 0; r < n; r++)); do
		local row=$((r % rows)) j
		for ((k = 0; k < m; k++)); do
			j=$((row < m ? k : m - 1 - k))
			ROUND_SEAT=$k "${sides[(seq[j] + row) % m]}" "$r" || return 1
		done
	done
}

# more_rounds FROM TO LIST: after rounds' (FROM of them), more rounds,
# FROM, FROM + 1, ... while fewer than TO: each runs the sides the
# command LIST prints (a word each) in the order given, then turned in
# the next, and so on (ROUND_SEAT as in rounds); none once LIST prints
# nothing. No warm-up: the sides ran just before.
more_rounds() {
	local r=$1 to=$2 list=$3 names k n
	while ((r < to)); do
		names=$($list) || return 1
		read -ra names <<<"$names"
		n=${#names[@]}
		((n)) || return 0
		for ((k = 0; k < n; k++)); do
			ROUND_SEAT=$k "${names[(r - $1) % 2 ? n - 1 - k : k]}" "$r" || return 1
		done
		r=$((r + 1))
	done
}

# bench_env: what most benchmarks take from the environment: PFSBENCH
# (default this tree's), MPIRUN, REPS (default 9), and Open MPI's leave
# to run as root.
bench_env() {
	PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
	MPIRUN=${MPIRUN:-mpirun}
	REPS=${REPS:-9}
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

# bench_need WHAT...: status 77 (exit), with the reason on stdout, unless
# each is here: fio, time (/usr/bin/time, for timed), drop (a writable
# drop_caches: root).
bench_need() {
	local w
	for w; do
		case $w in
		fio) command -v fio >/dev/null || { echo "SKIP: no fio (Debian: apt-get install fio)"; exit 77; } ;;
		time) [ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (Debian: apt-get install time)"; exit 77; } ;;
		drop) [ -w /proc/sys/vm/drop_caches ] || { echo "SKIP: dropping caches needs root"; exit 77; } ;;
		*) echo "bench_need: unknown '$w'" >&2; exit 2 ;;
		esac
	done
}

# Both sides run on one CPU, BENCH_CPU (default the last): on a virtual
# machine cores differ (here each CPU runs a loop of system calls either
# at one speed or about 1.5x slower, and which changes from minute to minute:
# docs/benchmarks.md, "A machine that changes speed"), and mpirun binds
# rank 0 to core 0 while a plain program lands where the scheduler likes.
# on_cpu CMD... runs CMD there; with mpirun, pass --bind-to none so that
# mpirun keeps the mask.
BENCH_CPU=${BENCH_CPU:-$(($(nproc) - 1))}
on_cpu() {
	taskset -c "$BENCH_CPU" "$@"
}

# timed OUT CMD...: runs CMD on BENCH_CPU, its stdout and stderr in OUT;
# prints the user + system seconds of CMD and of the children it waited
# for (GNU time's, kept in OUT.time). On failure: OUT, and status 1.
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S' -o "$out.time" taskset -c "$BENCH_CPU" "$@" >"$out" 2>&1 ||
		{ cat "$out"; return 1; }
	awk '{ print $1 + $2 }' "$out.time"
}

# settle: sync, then 1 s for the kernel's deferred work (freeing a removed
# file, the journal), before a side's run; a side that drops the page cache
# drops it after this, right before its command.
settle() {
	sync
	sleep 1
}

# Cleaning up: a script pushes the command that undoes each step it takes
# on undo (undo+=("rm -f '$img'")); undo_all, its EXIT trap, runs them in
# reverse order.
undo=()
undo_all() {
	local i
	cd / || return
	for ((i = ${#undo[@]} - 1; i >= 0; i--)); do eval "${undo[i]}"; done
}

# hold_page_reporting: a virtual machine's kernel may report the pages it
# has free to its host (virtio-balloon's free page reporting), which takes
# them back; a page the guest then allocates again is faulted in from the
# host. On the development machine (a Firecracker guest) a cold 256 MiB
# read of an ext4 ran at 470-1,300 MiB/s instead of 3,000-4,100 when its
# page cache came from such pages, and which side of a round got them was
# a lottery (docs/benchmarks.md, "Free page reporting"). Where the kernel
# has the knob /sys/module/page_reporting/parameters/min_free_ms (how long
# a page stays free before it is reported, by its name and its effect;
# Firecracker's guest kernels), sets it to BENCH_REPORT_HOLD_MS (default
# 300000, five minutes: that kernel refused 600000) and puts the old value
# back on undo; BENCH_HOLD_REPORTING=0 leaves it. Says which on stdout.
hold_page_reporting() {
	local knob=/sys/module/page_reporting/parameters/min_free_ms old
	if [ "${BENCH_HOLD_REPORTING:-1}" = 0 ]; then
		echo "bench: free page reporting left as it is (BENCH_HOLD_REPORTING=0)"
	elif [ -w "$knob" ] && old=$(cat "$knob") && echo "${BENCH_REPORT_HOLD_MS:-300000}" >"$knob" 2>/dev/null; then
		undo+=("echo '$old' >'$knob'")
		echo "bench: free page reporting held off for the bench (min_free_ms $old -> $(cat "$knob"))"
	elif [ -d /sys/module/page_reporting ]; then
		echo "bench: this kernel reports free pages to its host and cannot be told to wait: cold reads may swing with it"
	fi
}

# ext4_on_shm NAME MIB: an ext4 of MIB MiB on a loop device whose image is
# in /dev/shm, mounted on a new directory in /tmp, its path in EXT4_DIR: a
# disk that always answers at memory speed, so that the tools' own costs
# decide, not a shared machine's disk (on a virtual machine the host's
# cache and its neighbours make a real disk's rate swing 3x between runs of
# the same command). BENCH_IMG_DIR puts the image elsewhere (e.g. /var/tmp,
# on the machine's disk: the loop's writes then reach a real device). Every
# step goes on undo. Status 77, with the reason on stdout, where none can
# be made.
ext4_on_shm() {
	local name=$1 mib=$2 img dev
	command -v mkfs.ext4 >/dev/null || { echo "SKIP: no mkfs.ext4; set BENCH_DIR"; return 77; }
	img=$(mktemp "${BENCH_IMG_DIR:-/dev/shm}/pfsbench-$name.XXXXXX") || return 1
	undo+=("rm -f '$img'")
	truncate -s "${mib}M" "$img" || return 1
	dev=$(losetup --find --show "$img") || { echo "SKIP: no loop device; set BENCH_DIR"; return 77; }
	undo+=("losetup -d '$dev' 2>/dev/null")
	mkfs.ext4 -q -F "$dev" || return 1
	EXT4_DIR=$(mktemp -d "/tmp/pfsbench-$name-mnt.XXXXXX") || return 1
	undo+=("rmdir '$EXT4_DIR'")
	mount -t ext4 "$dev" "$EXT4_DIR" || return 1
	undo+=("umount '$EXT4_DIR'")
}

# shm_work NAME: work, a new directory in BENCH_DIR (default /dev/shm,
# which must be a tmpfs, or status 77 with the reason on stdout), removed
# by an EXIT trap; changes into it.
shm_work() {
	base=${BENCH_DIR:-/dev/shm}
	if [ "$(stat -f -c %T "$base" 2>/dev/null)" != tmpfs ]; then
		echo "SKIP: '$base' is not tmpfs; set BENCH_DIR to a tmpfs directory"
		exit 77
	fi
	work=$(mktemp -d "$base/pfsbench-bench-$1.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT
	cd "$work" || exit 1
}

# mpi_bench_init NAME: what the benches of pfsbench against bench/mpi_hello
# share: PFSBENCH, HELLO and MPIRUN from the environment (or the build's),
# python3 and HELLO there, or status 77 with the reason on stdout; work
# (shm_work NAME).
mpi_bench_init() {
	PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
	HELLO=$(realpath "${HELLO:-bench/mpi_hello}")
	MPIRUN=${MPIRUN:-mpirun}
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	[ -x /usr/bin/python3 ] || { echo "SKIP: no /usr/bin/python3 (Debian: apt-get install python3)"; exit 77; }
	[ -x "$HELLO" ] || { echo "SKIP: no '$HELLO' (make bench/mpi_hello)"; exit 77; }
	shm_work "$1"
}

# wait4_run OUT ERR CMD...: runs CMD (its stdout to OUT, its stderr to
# ERR, which may be OUT) and prints "wall_s cpu_s": the wall time of the launch alone and
# the user + system CPU of CMD and every process it waited for (wait4's
# rusage, to the microsecond; GNU time's is to 10 ms). Status 1 when CMD
# failed.
wait4_run() {
	/usr/bin/python3 -c '
import os, subprocess, sys, time
t0 = time.monotonic()
out = open(sys.argv[1], "w")
err = subprocess.STDOUT if sys.argv[2] == sys.argv[1] else open(sys.argv[2], "w")
p = subprocess.Popen(sys.argv[3:], stdout=out, stderr=err)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
if status:
    sys.exit(1)
print("%.6f %.6f" % (wall, ru.ru_utime + ru.ru_stime))' "$@"
}

# tmpfs_work: a new directory, its path in work, with a tmpfs of 512 MiB
# mounted on work/fs (else a directory in /dev/shm), its path in fs; an
# EXIT trap removes both. Changes into work.
tmpfs_work() {
	work=$(mktemp -d /tmp/pfsbench-bench.XXXXXX)
	trap 'umount "$work/fs" 2>/dev/null || true; rm -rf "$work" "/dev/shm/pfsbench-bench.$$"' EXIT
	mkdir "$work/fs"
	if ! mount -t tmpfs -o size=512m pfsbench-bench "$work/fs" 2>/dev/null; then
		echo "bench: cannot mount a tmpfs; using /dev/shm" >&2
		rmdir "$work/fs"
		mkdir -p "/dev/shm/pfsbench-bench.$$"
		ln -s "/dev/shm/pfsbench-bench.$$" "$work/fs"
	fi
	fs=$work/fs/
	cd "$work" || return 1
}

# bonnie_bench_init: what the benches against bonnie++ share: PFSBENCH,
# MPIRUN and BONNIE (default bonnie++), BENCH_FS (tmpfs, ext4 or both,
# the default) checked; root (a tmpfs and a loop device of their own) and
# bonnie++, or status 77 with the reason on stdout; 2 for a bad BENCH_FS.
bonnie_bench_init() {
	PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
	MPIRUN=${MPIRUN:-mpirun}
	BONNIE=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
	BENCH_FS=${BENCH_FS:-tmpfs ext4}
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a tmpfs and a loop device)"; return 77; }
	[ -x "$BONNIE" ] || { echo "SKIP: no bonnie++ (apt-get install bonnie++)"; return 77; }
	case $BENCH_FS in
	"tmpfs ext4" | tmpfs | ext4) ;;
	*) echo "BENCH_FS: give tmpfs, ext4 or both ('tmpfs ext4'), not '$BENCH_FS'" >&2; return 2 ;;
	esac
}

# baseline_bench_init: what the benches against baseline_create_unlink
# share: PFSBENCH, BASELINE and MPIRUN; FILES (50000), ROUNDS (9) and
# IR_FILES (20000, under callgrind) unless given; a tmpfs (tmpfs_work).
baseline_bench_init() {
	: "${PFSBENCH:?}" "${BASELINE:?}" "${MPIRUN:=mpirun}"
	FILES=${FILES:-50000}
	ROUNDS=${ROUNDS:-9}
	IR_FILES=${IR_FILES:-20000}
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	tmpfs_work
}

# part_total FILE: the instructions a callgrind dump counted.
part_total() { awk '/^totals:/ { print $2 }' "$1"; }

# shared_ir DIR OUT N: user-space instructions of create-unlink -t ub
# --shared-dir --stat (1 rank, N files) and of the C loop (BASELINE DIR N
# shared) in DIR, counted inside the op loops only (pfsbench: a dump before
# and after each run_op, parts 2, 4, 6 are Create, Stat, Unlink; the loop:
# its three loop functions). SHARED_IR gets "loop's Create Stat Unlink,
# pfsbench's Create Stat Unlink"; callgrind's files go in OUT.
shared_ir() {
	local dir=$1 out=$2 n=$3
	"$MPIRUN" -np 1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.pfs" \
		--dump-before=cu_run_op --dump-after=cu_run_op "$PFSBENCH" create-unlink -m "$dir" \
		-f "$n" -F 1 -s 1 -t ub --shared-dir --stat --no-drop-caches --progress=never \
		--results "$out/cg.h5" >/dev/null 2>"$out/cg.pfs.err" || { cat "$out/cg.pfs.err"; return 1; }
	mkdir "$dir/b" || return 1
	WARM_MS=0 valgrind --tool=callgrind --callgrind-out-file="$out/cg.base" --collect-atstart=no \
		--toggle-collect=create_all --dump-after=create_all --toggle-collect=stat_all \
		--dump-after=stat_all --toggle-collect=unlink_all \
		"$BASELINE" "$dir/b" "$n" shared >/dev/null 2>"$out/vg.base" || { cat "$out/vg.base"; return 1; }
	rmdir "$dir/b" || return 1
	SHARED_IR="$(part_total "$out/cg.base.1") $(part_total "$out/cg.base.2") $(part_total "$out/cg.base")"
	SHARED_IR="$SHARED_IR $(part_total "$out/cg.pfs.2") $(part_total "$out/cg.pfs.4") $(part_total "$out/cg.pfs.6")"
}
