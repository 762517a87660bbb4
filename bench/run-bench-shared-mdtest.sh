#!/bin/bash
# run-bench-shared-mdtest.sh: create-unlink --shared-dir --stat against
# mdtest (built from IOR's source; MDTEST names the binary) in its default
# mode, one directory shared by all ranks (no -u): make bench-shared
# MDTEST=/path/to/mdtest runs it. Issue 30's targets: pfsbench's Create,
# Stat and Unlink rates >= 0.95x mdtest's file creation, stat and removal.
#
# The same system calls per file on both sides (strace: make bench-calls
# MDTEST=...; docs/benchmarks.md):
#   Create   pfsbench openat(dirfd, name, O_CREAT|O_EXCL|O_NOFOLLOW|O_WRONLY)
#            + close; mdtest -w 0: openat(AT_FDCWD, full path, O_RDWR|O_CREAT)
#            + close
#   Stat     pfsbench fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW); mdtest
#            newfstatat(AT_FDCWD, full path, 0)
#   Unlink   pfsbench unlinkat(dirfd, name); mdtest unlink(full path)
# mdtest's read phase (with -e 0 an open and a close of each file) is left
# out (-C -T -r select the other three): create-unlink's ub has no Read,
# and its Read of se and pa reads data, which mdtest's does not.
# pfsbench: create-unlink -t ub --shared-dir --stat (one node: Create, Stat,
# Unlink of every worker at once, names f<10 digits>.0.<worker>); mdtest
# -F -C -T -r -n FILES -d DIR (names file.mdtest.<rank>.<i> in
# DIR/test-dir.0-0/mdtest_tree.0).
#
# Where: a tmpfs, and an ext4 on a loop device whose image lives on the
# machine's disk (BENCH_IMG_DIR, default /var/tmp); at 1 rank (on
# BENCH_CPU, as every bench) and 2 ranks (mpirun --bind-to none, both
# CPUs). Method (bench/lib.sh): a warm-up of each side, then ROUNDS (9)
# rounds interleaved in a Williams order; median and p25-p75.
# What is measured, per op:
#   rate     files of all ranks / time of the op: pfsbench's earliest start
#            to latest end of the op's rows (export --csv); mdtest's own
#            "File creation/stat/removal" rate (barrier to barrier), of a
#            run of mdtest as is
#   CPU      user + system time per file, summed over the ranks: pfsbench's
#            cpu_us of each row (getrusage around the op loop); mdtest's
#            main thread's run time (/proc/PID/schedstat) read by
#            --run-cmd-before-phase and --run-cmd-after-phase, in a third
#            side of each round (mdtest runs the "after" command inside its
#            timed phase, so these runs give no rate to compare)
#   wait     time per file waiting for a CPU (schedstat's run_delay), all
#            ranks: pfsbench's wait_us, mdtest's from the same hooks
#   load     /proc/loadavg before and after each configuration
# Then user-space instructions per op from callgrind on the tmpfs, 1 rank,
# IR_FILES files, counted inside the op loops only: pfsbench (its run_op),
# mdtest (create_remove_items, mdtest_stat) and the C loop
# (bench/baseline_create_unlink: issue 30's "within 1.25x of a bare loop").
# Environment: MDTEST (required), PFSBENCH, BASELINE, MPIRUN, FILES (50000
# per rank), ROUNDS (9), IR_FILES (20000), BENCH_FS (tmpfs ext4), RANKS
# ("1 2"), BENCH_IMG_DIR, BENCH_CPU. Needs root (mount, losetup).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${MDTEST:?MDTEST names the mdtest binary}"
MDTEST=$(realpath "$MDTEST")
PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
BASELINE=$(realpath "${BASELINE:-bench/baseline_create_unlink}")
MPIRUN=${MPIRUN:-mpirun}
FILES=${FILES:-50000}
ROUNDS=${ROUNDS:-9}
IR_FILES=${IR_FILES:-20000}
BENCH_FS=${BENCH_FS:-tmpfs ext4}
RANKS=${RANKS:-1 2}
export BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a tmpfs and a loop device)"; exit 77; }
[ -x "$MDTEST" ] || { echo "bench-shared: MDTEST='$MDTEST' is not an executable" >&2; exit 2; }
for fs in $BENCH_FS; do
	case $fs in
	tmpfs | ext4) ;;
	*) echo "bench-shared: BENCH_FS: give tmpfs, ext4 or both, not '$fs'" >&2; exit 2 ;;
	esac
done
for np in $RANKS; do
	[[ $np =~ ^[1-9][0-9]*$ ]] || { echo "bench-shared: RANKS: give rank counts (\"1 2\"), not '$np'" >&2; exit 2; }
done

trap undo_all EXIT
work=$(mktemp -d /tmp/pfsbench-bench-shared.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
mkdir "$work/tmpfs" || exit 1
mount -t tmpfs -o size=1g pfsbench-bench "$work/tmpfs" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
undo+=("umount '$work/tmpfs'")
# An inode per 16 KiB: room for the files of the most ranks, and some.
max_ranks=$(echo "$RANKS" | tr ' ' '\n' | sort -n | tail -1)
if [[ " $BENCH_FS " = *" ext4 "* ]]; then
	ext4_on_shm bench-shared $((max_ranks * FILES * 16 * 3 / 2048 + 512)) || exit
fi

# run NP CMD...: CMD under mpirun at NP ranks; 1 rank on BENCH_CPU.
run() {
	local np=$1
	shift
	if [ "$np" = 1 ]; then
		on_cpu "$MPIRUN" --bind-to none -np 1 "$@"
	else
		"$MPIRUN" --bind-to none -np "$np" "$@"
	fi
}

# Each side appends to $work/$CONF.SIDE one line per round, in groups of
# "create stat unlink": rates (files/s), CPU us per file, us per file
# waiting for a CPU (all ranks); md, mdtest run as is, has the rates only.
pfs_side() {
	local out=$work/$CONF.pfs h5=$work/r.h5
	[ "$1" = warm ] && out=/dev/null
	rm -f "$h5"
	run "$NP" "$PFSBENCH" create-unlink -m "$DIR" -f "$FILES" -F 1 -s 1 -t ub --shared-dir --stat \
		--no-drop-caches --progress=never --results "$h5" >"$work/pfs.out" 2>&1 ||
		{ cat "$work/pfs.out"; return 1; }
	# The op's time is its rows' span: earliest start to latest end.
	"$PFSBENCH" export "$h5" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ op = $c["op"]; s = $c["start_us"]; e = s + $c["elapsed_us"]
		  if (!(op in lo) || s < lo[op]) lo[op] = s
		  if (e > hi[op]) hi[op] = e
		  n[op] += $c["items"]; cpu[op] += $c["cpu_us"]; w[op] += $c["wait_us"] }
		END { split("Create Stat Unlink", ops, " ")
			for (k = 1; k <= 3; k++) span[k] = hi[ops[k]] - lo[ops[k]]
			for (k = 1; k <= 3; k++) printf "%.1f ", n[ops[k]] * 1e6 / span[k]
			for (k = 1; k <= 3; k++) printf "%.3f ", cpu[ops[k]] / n[ops[k]]
			for (k = 1; k <= 3; k++) printf "%.3f ", w[ops[k]] / n[ops[k]]
			print "" }' >>"$out"
}
# mdtest's hooks run as sh -c CMD: $PPID is the mdtest rank, its
# schedstat's first field the nanoseconds its main thread has run, the
# second those it waited for a CPU (pfsbench's wait_us reads the same).
# The "after" hook runs inside mdtest's timed phase, and under load its sh
# can wait long for a CPU (a round at load 40 gave 3353 stats/s against
# 300000 without): so mdtest's rate comes from runs without hooks (md), its
# CPU and wait from runs with them (mdp), both sides of the same rounds.
probe() { # MARK: the hook command
	# shellcheck disable=SC2016 # expanded by mdtest's sh
	printf 'read t w x < /proc/$PPID/schedstat; echo "$PPID %s $t $w" >> %s' "$1" "$work/probe"
}
# md_run OUT ARGS...: mdtest with ARGS; "create stat removal" rates to OUT.
md_run() {
	local out=$1
	shift
	run "$NP" "$MDTEST" -F -C -T -r -n "$FILES" -d "$DIR/md" "$@" >"$work/md.out" 2>&1 ||
		{ cat "$work/md.out"; return 1; }
	awk '/^ *File creation / { c = $3 } /^ *File stat / { s = $3 } /^ *File removal / { r = $3 }
		END { printf "%s %s %s", c, s, r }' "$work/md.out" >>"$out"
}
md_side() {
	local out=$work/$CONF.md
	[ "$1" = warm ] && out=/dev/null
	md_run "$out" && echo >>"$out"
}
mdp_side() {
	local out=$work/$CONF.mdp
	[ "$1" = warm ] && out=/dev/null
	rm -f "$work/probe"
	md_run "$out" --run-cmd-before-phase="$(probe b)" --run-cmd-after-phase="$(probe e)" || return 1
	# Phase k of a rank: its k-th "b" to its k-th "e".
	awk -v n=$((NP * FILES)) '
		$2 == "b" { k = nb[$1]++; b[$1, k] = $3; bw[$1, k] = $4 }
		$2 == "e" { k = ne[$1]++; cpu[k] += $3 - b[$1, k]; w[k] += $4 - bw[$1, k] }
		END { for (k = 0; k < 3; k++) printf " %.3f", cpu[k] / 1e3 / n
			for (k = 0; k < 3; k++) printf " %.3f", w[k] / 1e3 / n
			print "" }' "$work/probe" >>"$out"
}

loads=()
for fs in $BENCH_FS; do
	DIR=$work/tmpfs
	[ "$fs" = ext4 ] && DIR=$EXT4_DIR
	for NP in $RANKS; do
		CONF=$fs.$NP
		: >"$work/$CONF.pfs"
		: >"$work/$CONF.md"
		: >"$work/$CONF.mdp"
		l0=$(cut -d' ' -f1 /proc/loadavg)
		rounds "$ROUNDS" md_side mdp_side pfs_side || exit 1
		loads+=("$CONF $l0 $(cut -d' ' -f1 /proc/loadavg)")
	done
done

echo "shared-dir benchmark against mdtest ($MDTEST): $FILES files per rank in one directory,"
echo "$ROUNDS interleaved rounds after a warm-up; 1 rank on CPU $BENCH_CPU, 2 ranks unpinned"
echo "median (p25-p75) of: rate, files/s of all ranks; CPU, us of user + system per file;"
echo "wait, us per file waiting for a CPU (schedstat). mdtest's rate: runs as is; its CPU and wait:"
echo "runs with probes in its phase hooks (their rate, for what the hooks cost: mdtest+p)"
# cell FILE COLUMN FORMAT: "median (p25-p75)" of a column.
cell() {
	local m a b
	read -r m a b <<<"$(stats "$1" "$2")"
	# shellcheck disable=SC2059 # the format is the caller's
	printf '%-30s' "$(printf "$3 ($3-$3)" "$m" "$a" "$b")"
}
# row LABEL SIDE FIRST-COLUMN FORMAT: a line of the three ops.
row() {
	printf '%-21s %s %s %s\n' "$1" "$(cell "$work/$CONF.$2" "$3" "$4")" \
		"$(cell "$work/$CONF.$2" $(($3 + 1)) "$4")" "$(cell "$work/$CONF.$2" $(($3 + 2)) "$4")"
}
# ratio SIDE COLUMN: pfsbench's median over SIDE's.
ratio() {
	local mp mm
	read -r mp _ <<<"$(stats "$work/$CONF.pfs" "$2")"
	read -r mm _ <<<"$(stats "$work/$CONF.$1" "$2")"
	printf '%-30s' "$(awk -v a="$mp" -v b="$mm" 'BEGIN { printf "%.2fx", a / b }')"
}
printf '%-21s %-30s %-30s %-30s\n' "" Create Stat Unlink
for c in "${loads[@]}"; do
	read -r CONF l0 l1 <<<"$c"
	echo "${CONF%.*}, ${CONF#*.} rank(s); load average (1 min) $l0 at the start, $l1 at the end"
	row "mdtest rate" md 1 %.0f
	row "mdtest+p rate" mdp 1 %.0f
	row "  CPU" mdp 4 %.2f
	row "  wait" mdp 7 %.2f
	row "pfsbench rate" pfs 1 %.0f
	row "  CPU" pfs 4 %.2f
	row "  wait" pfs 7 %.2f
	printf '%-21s %s %s %s\n' "pfsbench/mdtest rate" "$(ratio md 1)" "$(ratio md 2)" "$(ratio md 3)"
	printf '%-21s %s %s %s\n' "  CPU" "$(ratio mdp 4)" "$(ratio mdp 5)" "$(ratio mdp 6)"
done
echo "target (issue 30): pfsbench's rate >= 0.95x mdtest's on every op"

# Instructions per op, on the tmpfs at 1 rank.
shared_ir "$work/tmpfs" "$work" "$IR_FILES" || exit 1
mkdir "$work/tmpfs/cg" || exit 1
"$MPIRUN" -np 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.md" --collect-atstart=no \
	--toggle-collect=create_remove_items --dump-after=create_remove_items \
	--toggle-collect=mdtest_stat --dump-after=mdtest_stat \
	"$MDTEST" -F -C -T -r -n "$IR_FILES" -d "$work/tmpfs/cg/md" >"$work/cg.md.out" 2>&1 ||
	{ cat "$work/cg.md.out"; exit 1; }
rmdir "$work/tmpfs/cg"
md_ir="$(part_total "$work/cg.md.1") $(part_total "$work/cg.md.2") $(part_total "$work/cg.md.3")"
echo "$SHARED_IR $md_ir" | awk -v n="$IR_FILES" '{
	printf "\ninstructions per op (callgrind, user space, inside the op loops, %d files, tmpfs, 1 rank):\n", n
	printf "%-9s %10s %10s %10s\n", "", "Create", "Stat", "Unlink"
	printf "%-9s %10.1f %10.1f %10.1f\n", "C loop", $1 / n, $2 / n, $3 / n
	printf "%-9s %10.1f %10.1f %10.1f\n", "mdtest", $7 / n, $8 / n, $9 / n
	printf "%-9s %10.1f %10.1f %10.1f\n", "pfsbench", $4 / n, $5 / n, $6 / n
	printf "pfsbench / C loop: %.2fx, %.2fx, %.2fx (<= 1.25); pfsbench / mdtest: %.2fx, %.2fx, %.2fx\n",
		$4 / $1, $5 / $2, $6 / $3, $4 / $7, $5 / $8, $6 / $9 }'
