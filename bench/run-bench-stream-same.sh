#!/bin/bash
# run-bench-stream-same.sh: pfsbench stream against dd on one and the same
# file of an ext4 whose image is on the machine's disk, 1 rank: what the
# bench table's ext4 stream cells measure (a fresh file on each side, in a
# fresh directory) with the file's place on the disk taken out. Five sides
# in each round:
#   pfsbench stream -o W -b 1M -s MIB -y (after pfsbench's own sync and
#     cache drop, in its plan);
#   sync; drop; dd if=/dev/zero of=W bs=1M count=MIB conv=fsync (the drop
#     inside the job, as the bench table's peer);
#   each writes W anew: W is removed, and the removal synced, before
#     either starts, so both allocate from the same free blocks (a
#     truncate synced before the write, as pfsbench's Open step and Write
#     step's drop do to a named file, puts the file back on the blocks
#     it had; dd's O_TRUNC, written at once, puts it elsewhere; on this
#     machine's disk that alone moved dd's own read of the file from a
#     median of 2,970 MiB/s to 2,300);
#   pfsbench stream -i F --force -b 1M -s MIB, and
#   sync; drop; dd if=F of=/dev/null bs=1M: both read F, written once
#     before the rounds, so its blocks never move;
#   sync; drop; sleep LATE; dd if=F of=/dev/null bs=1M: the same read,
#     LATE seconds (1.5) after the drop.
# The last says what the machine does to a cold read, whoever reads: on a
# virtual machine whose guest reports freed memory to its host (Linux's
# free page reporting, virtio-balloon), the pages a drop frees go back to
# the host within about a second, and a read that refills them runs at a
# fraction of the rate of one that starts at once (docs/benchmarks.md,
# "stream on the ext4"). Method (bench/lib.sh): a warm-up round, then REPS
# rounds (default 9) in a Williams order; before each side, sync and 1 s
# for the kernel's deferred work. Rates are each tool's own (pfsbench's
# row, dd's printed seconds); CPU is each whole job's (wait4's rusage: the
# drop's and mpirun's included). Reported: each side's median [p25-p75]
# MiB/s and CPU ms per MiB, and the median [p25-p75] of the rounds'
# ratios pfsbench/dd and late/dd.
# Environment: PFSBENCH, MPIRUN, REPS, SIZE_MIB (256), LATE (1.5),
# BENCH_CPU, BENCH_IMG_DIR (/var/tmp: where the ext4's image lives). Root
# only (a loop device, drop_caches).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_env
MIB=${SIZE_MIB:-256}
LATE=${LATE:-1.5}
export BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp}

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a loop device, drop_caches)"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "SKIP: no /usr/bin/python3 (Debian: apt-get install python3)"; exit 77; }
trap undo_all EXIT
trap 'exit 1' INT TERM
hold_page_reporting
ext4_on_shm bench-stream-same $((MIB * 3)) || exit
work=$(mktemp -d /tmp/pfsbench-bench-stream-same.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
F=$EXT4_DIR/read W=$EXT4_DIR/write
DROP='sync; echo 3 >/proc/sys/vm/drop_caches;'

# job SIDE ROUND OP CMD...: CMD on BENCH_CPU, its output in $work/out; adds
# "ROUND SIDE OP cpu SECONDS" to the raw lines.
job() {
	local side=$1 r=$2 op=$3 t
	shift 3
	t=$(wait4_run "$work/out" "$work/out" taskset -c "$BENCH_CPU" "$@") ||
		{ echo "bench-stream-same: failed: $*"; cat "$work/out"; return 1; }
	echo "$r $side $op cpu ${t#* }" >>"$work/raw"
}
# dd's rate from $work/out: "ROUND SIDE OP rate MIB_PER_S"
dd_rate() {
	awk -v r="$1" -v s="$2" -v op="$3" '/ bytes .* copied, / { printf "%s %s %s rate %.6g\n", r, s, op, $1 / 1048576 / $(NF - 3) }' \
		"$work/out" >>"$work/raw"
}

# pfs OP ROUND: pfsbench's write of W or read of F
pfs() {
	local op=$1 r=$2
	if [ "$op" = write ]; then
		rm -f "$W"
		set -- -o "$W" -y
	else
		set -- -i "$F" --force
	fi
	settle
	rm -f "$work/r.h5"
	job pfsbench "$r" "$op" "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" stream "$@" -b 1M \
		-s "${MIB}M" --progress=never --results "$work/r.h5" || return 1
	"$PFSBENCH" export "$work/r.h5" --csv | tr -d '\r' | awk -F, -v r="$r" -v op="$op" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s pfsbench %s rate %.6g\n", r, op, $c["bytes"] / 1048576 * 1e6 / $c["elapsed_us"] }' >>"$work/raw"
}
pfs_write() { pfs write "$1"; }
pfs_read() { pfs read "$1"; }
dd_write() {
	rm -f "$W"
	settle
	job dd "$1" write bash -c "$DROP dd if=/dev/zero of='$W' bs=1M count=$MIB conv=fsync" || return 1
	dd_rate "$1" dd write
}
dd_read() {
	settle
	job dd "$1" read bash -c "$DROP dd if='$F' of=/dev/null bs=1M" || return 1
	dd_rate "$1" dd read
}
late_read() {
	settle
	job late "$1" read bash -c "$DROP sleep $LATE; dd if='$F' of=/dev/null bs=1M" || return 1
	dd_rate "$1" late read
}

echo "pfsbench stream against dd on one file: 1 rank, $MIB MiB in 1 MiB requests, an ext4 on $(findmnt -n -o SOURCE --target "$EXT4_DIR") (image in $BENCH_IMG_DIR), CPU $BENCH_CPU, $REPS rounds after a warm-up"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/raw"
dd if=/dev/zero of="$F" bs=1M count="$MIB" conv=fsync 2>/dev/null || exit 1
rounds "$REPS" pfs_write dd_write pfs_read dd_read late_read || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -v '^warm ' "$work/raw" >"$work/rounds"

# col SIDE OP KIND [per-MiB]: the rounds' values, one a line, in $work/col
col() {
	awk -v s="$1" -v op="$2" -v k="$3" -v mib="${4:-0}" '$2 == s && $3 == op && $4 == k { print (mib ? $5 * 1000 / mib : $5) }' \
		"$work/rounds" >"$work/col"
}
# ratio A B OP: each round's rate of A over B's, in $work/col
ratio() {
	awk -v a="$1" -v b="$2" -v op="$3" '$3 == op && $4 == "rate" { v[$1, $2] = $5; r[$1] = 1 }
		END { for (i in r) if (v[i, b] > 0 && v[i, a] != "") print v[i, a] / v[i, b] }' "$work/rounds" >"$work/col"
}
show() { # LABEL: the median [p25-p75] of $work/col
	stats "$work/col" 1 | awk -v l="$1" '{ printf "  %-34s %.3g [%.3g-%.3g]\n", l, $1, $2, $3 }'
}
for op in write read; do
	echo "$op: median [p25-p75] of $REPS rounds"
	for s in pfsbench dd late; do
		[ "$s" = late ] && [ "$op" = write ] && continue
		col "$s" "$op" rate; show "$s MiB/s"
		col "$s" "$op" cpu "$MIB"; show "$s CPU ms per MiB (whole job)"
	done
	ratio pfsbench dd "$op"; show "pfsbench/dd, the rounds' ratios"
	[ "$op" = read ] && { ratio late dd read; show "late/dd (read ${LATE} s after the drop)"; }
done
verdict() { # OP: the median of the rounds' ratios of OP, flagged as in the bench table
	ratio pfsbench dd "$1"
	stats "$work/col" 1 | awk -v op="$1" '{ printf "%s %.2f [%.2f-%.2f]%s", op, $1, $2, $3, ($1 < 0.95 ? " SLOWER" : ($1 > 1.05 ? " FASTER" : "")) }'
}
echo "bench: stream on one file, pfsbench/dd: $(verdict write), $(verdict read)"
echo "every round's rates (MiB/s), in order:"
for s in pfsbench dd late; do
	for op in write read; do
		col "$s" "$op" rate
		[ -s "$work/col" ] && printf '  %-8s %-5s %s\n' "$s" "$op" "$(awk '{ printf "%.0f ", $1 }' "$work/col")"
	done
done
