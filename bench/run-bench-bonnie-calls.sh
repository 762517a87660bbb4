#!/bin/bash
# run-bench-bonnie-calls.sh: like for like, counted rather than timed. For
# each of bonnie++'s 12 columns, the system calls (and the bytes read and
# written) per item of pfsbench bonnie and of Debian's bonnie++ with the
# same arguments on the same filesystem: a tmpfs and an ext4 loop device
# (bench/lib.sh's ext4_on_shm: its image in /dev/shm, or BENCH_IMG_DIR;
# the counts do not depend on the disk). Each tool runs twice under
# `strace -ff` (a thread a file), once with more items than the other;
# per item = (the bigger run's calls - the smaller's) / (its items - the
# smaller's), which leaves out what each test does once (open, fsync,
# close). bench/bonnie-calls.py splits the calls by column: bonnie++'s at
# the lines it writes before each test, its seekers' apart; pfsbench's by
# the test's threads, so that MPI's calls (the main thread's, MPI's own
# threads') are never counted. A row says DIFFERENT where the two tools
# differ by more than 0.01 calls per item (0.03 for seeks, whose 1 in 10
# rewrites both draw at random) or 1 % of the bytes; the exit status is 1
# when any row does. Runs of a few seconds each, but the per-char tests'
# 2 x 1 MiB of 1-byte calls take a minute or two a tool under strace
# (BENCH_CHAR=0 leaves them out).
# Root only (a tmpfs and a loop device of its own; bonnie++ -u root).
# Environment: PFSBENCH, MPIRUN, BONNIE (default bonnie++), BENCH_FS
# (tmpfs, ext4 or both, the default), BENCH_CHAR, BENCH_IMG_DIR.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bonnie_bench_init || exit
BENCH_CHAR=${BENCH_CHAR:-1}
command -v strace >/dev/null || { echo "SKIP: no strace (apt-get install strace)"; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here (ptrace not allowed)"; exit 77; }
trap undo_all EXIT
trap 'exit 1' INT TERM
work=$(mktemp -d /tmp/pfsbench-bench-bonnie-calls.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
mkdir "$work/tmpfs"
mount -t tmpfs -o size=1g pfsbench-bench "$work/tmpfs" || exit 1
undo+=("umount '$work/tmpfs'")
ext4_on_shm bonnie-calls 2048 || exit
ln -s "$EXT4_DIR" "$work/ext4"

# The two runs: 512 and 1024 blocks of 8 KiB, 20000 and 40000 seeks by 5
# seekers, 1024 and 2048 files; the per-char tests in the bigger run only
# (1 MiB: bonnie++'s -f1, pfsbench's --char-size 1m).
SMALL="-s 4:8k:20000:5 -r 1 -n 1 -f"
BIG="-s 8:8k:40000:5 -r 1 -n 2"
CHAR_B="-f1" CHAR_P="--char-size 1m" CHARS=1048576
[ "$BENCH_CHAR" = 1 ] || CHAR_B="-f" CHAR_P="-f" CHARS=0
ITEMS_SMALL="put_block=512,rewrite=512,get_block=512,seeks=20000"
ITEMS_SMALL+=",seq_create=1024,seq_stat=1024,seq_del=1024,ran_create=1024,ran_stat=1024,ran_del=1024"
ITEMS_BIG="putc=$CHARS,getc=$CHARS,put_block=1024,rewrite=1024,get_block=1024,seeks=40000"
ITEMS_BIG+=",seq_create=2048,seq_stat=2048,seq_del=2048,ran_create=2048,ran_stat=2048,ran_del=2048"

# traced TOOL FS SIZE ARGS...: TOOL (b or p) under strace -ff, one file a
# thread in $work/st-TOOL-FS-SIZE, counted into $work/TOOL-FS-SIZE.counts.
# bonnie++ without -q: its lines before each test split its calls.
traced() {
	local tool=$1 fs=$2 size=$3 d=$work/st-$1-$2-$3
	shift 3
	mkdir "$d"
	if [ "$tool" = b ]; then
		strace -ff -ttt -s 128 -o "$d/t" "$BONNIE" -d "$work/$fs" "$@" -u root -m bench \
			>/dev/null 2>"$d.err"
	else
		"$MPIRUN" --bind-to none -np 1 strace -ff -ttt -s 128 -o "$d/t" "$PFSBENCH" bonnie \
			-d "$work/$fs" "$@" -q --progress=never --results "$work/r-$fs-$size.h5" \
			>/dev/null 2>"$d.err"
	fi || { echo "$tool on $fs ($*) failed:"; cat "$d.err"; return 1; }
	python3 "$here/bonnie-calls.py" count "$tool" "$d" >"$work/$tool-$fs-$size.counts" || return 1
	rm -rf "$d"
}

echo "system calls per item: pfsbench bonnie (1 rank) against" \
	"$("$BONNIE" 2>&1 | sed -n 's/^Version: /bonnie++ /p'), kernel $(uname -r)"
echo "runs: $SMALL, and $BIG with per-char tests of $CHARS bytes (bonnie++ $CHAR_B, pfsbench $CHAR_P)"
status=0
for fs in $BENCH_FS; do
	# shellcheck disable=SC2086
	traced b "$fs" small $SMALL && traced b "$fs" big $BIG $CHAR_B &&
		traced p "$fs" small $SMALL && traced p "$fs" big $BIG $CHAR_P || exit 1
	echo
	echo "$fs:"
	python3 "$here/bonnie-calls.py" compare "$work/b-$fs-small.counts" "$work/b-$fs-big.counts" \
		"$work/p-$fs-small.counts" "$work/p-$fs-big.counts" "$ITEMS_SMALL" "$ITEMS_BIG" || status=1
done
exit "$status"
