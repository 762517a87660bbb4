#!/bin/bash
# pfsbench bonnie makes bonnie++'s system calls on the same bytes (issue
# 33: a format-compatible tool faster than the original must show it does
# the same work, or its column is not comparable). Debian's bonnie++ and
# pfsbench on 1 rank, each twice under strace -ff on the same scratch
# directory (512 and 1024 blocks of 8 KiB, 20000 and 40000 seeks by 5
# seekers, no per-char or file tests), split by column with
# bench/bonnie-calls.py (pfsbench's calls by its tests' threads, so MPI's
# are left out); per item = the bigger run's calls less the smaller's,
# over the items between them. put_block, rewrite, get_block and seeks:
# the same calls per item and the same bytes (seeks: an lseek and a read
# of the block, a read of its ticket from the seekers' pipe, and for 1 in
# 10 an lseek and a write back, drawn at random by each tool). Counts,
# never times. Skips without bonnie++ or strace.
. "$(dirname "$0")/lib.sh"

BONNIE=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
[ -x "$BONNIE" ] || skip "no bonnie++ (apt-get install bonnie++)"
command -v strace >/dev/null || skip "no strace (apt-get install strace)"
strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not allowed)"
CALLS_PY=$(cd "$(dirname "$0")/../../bench" && pwd)/bonnie-calls.py
D=$SCRATCH/target
mkdir "$D"
AS_ROOT=()
[ "$(id -u)" -eq 0 ] && AS_ROOT=(-u root)

# traced TOOL SIZE ARGS...: TOOL (b or p) under strace -ff, counted into
# $SCRATCH/TOOL-SIZE.counts
traced() {
	local tool=$1 size=$2 d=$SCRATCH/st-$1-$2
	shift 2
	mkdir "$d"
	if [ "$tool" = b ]; then
		(cd "$SCRATCH" && timeout 300 strace -ff -ttt -s 128 -o "$d/t" "$BONNIE" -d "$D" "$@" \
			"${AS_ROOT[@]}" -m t) >/dev/null 2>"$d.err"
	else
		# LeakSanitizer cannot work under ptrace (it stops the process
		# with "fatal error" and a report): in the sanitizer build the
		# traced run checks no leaks; its calls are what is counted.
		(cd "$SCRATCH" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 strace -ff -ttt -s 128 \
			-o "$d/t" "$PFSBENCH" bonnie -d "$D" "$@" -q --progress=never \
			--results "$SCRATCH/$size.h5") >/dev/null 2>"$d.err"
	fi || { cat "$d.err"; return 1; }
	python3 "$CALLS_PY" count "$tool" "$d" >"$SCRATCH/$tool-$size.counts"
}

SMALL="-s 4:8k:20000:5 -r 1 -n 0 -f"
BIG="-s 8:8k:40000:5 -r 1 -n 0 -f"
for tool in b p; do
	# shellcheck disable=SC2086
	if ! traced "$tool" small $SMALL || ! traced "$tool" big $BIG; then
		fail "$tool: a run under strace failed"
	fi
done
python3 "$CALLS_PY" compare "$SCRATCH/b-small.counts" "$SCRATCH/b-big.counts" "$SCRATCH/p-small.counts" \
	"$SCRATCH/p-big.counts" put_block=512,rewrite=512,get_block=512,seeks=20000 \
	put_block=1024,rewrite=1024,get_block=1024,seeks=40000 >"$SCRATCH/table"
RC=$?
cat "$SCRATCH/table"

# row COLUMN CALL: "bonnie++ pfsbench" calls per item of that row
row() {
	awk -v c="$1" -v k="$2" '$1 == c && $2 == k { print $3, $4 }' "$SCRATCH/table"
}
# near "B P" WANT TOL: both within TOL of WANT
near() {
	awk -v w="$2" -v t="$3" '{ exit !(($1 - w) ^ 2 <= t ^ 2 && ($2 - w) ^ 2 <= t ^ 2) }' <<<"$1"
}
check "every call of put_block, rewrite, get_block and seeks: the same per item, the same bytes" \
	test "$RC" -eq 0
check "put_block: one write of a block per block" test "$(row put_block write)" = "1.000 1.000"
check "rewrite: a read, an lseek and a write per block" \
	test "$(row rewrite read) $(row rewrite lseek) $(row rewrite write)" = \
	"1.000 1.000 1.000 1.000 1.000 1.000"
check "get_block: one read per block" test "$(row get_block read)" = "1.000 1.000"
check "seeks: two reads per seek (its ticket, its block)" test "$(row seeks read)" = "2.000 2.000"
check "seeks: 1 lseek, and a tenth more for the rewrites" near "$(row seeks lseek)" 1.1 0.03
check "seeks: a write for 1 in 10" near "$(row seeks write)" 0.1 0.03
check "no other call made once per 100 items or more" test "$(awk \
	'$1 ~ /^(put_block|rewrite|get_block|seeks)$/' "$SCRATCH/table" | wc -l)" -eq 8
finish
