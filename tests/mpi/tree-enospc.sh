#!/bin/bash
# A tree run that fails half way, on a small tmpfs mounted by the test:
# out of inodes, then out of space. The run exits 1, names node, worker, op,
# path and error, removes all it created and nothing else; a failed -C
# leaves no tree behind.
. "$(dirname "$0")/lib.sh"

small_fs size=1m,nr_inodes=100

# failed NP|2x1 PATTERN ARGS...: exit 1, PATTERN (extended regex) on
# stderr, the target as it was.
failed() {
	local np=$1 pattern=$2
	shift 2
	if [ "$np" = 2x1 ]; then pfs_nodes 2 1 tree "$@"; else pfs "$np" tree "$@"; fi
	check "'$*': exit 1" test "$RC" -eq 1
	check "'$*': says what failed" grep -qE "$pattern" "$ERR"
	check "'$*': all it created is gone, the foreign file kept" dir_unchanged "$M"
}

S=(-o "$M" --no-drop-caches --force)
# 2 x (13 directories + 52 files) > 100 inodes: file create runs out.
failed 2 "^pfsbench: node $(hostname) worker [12]: cannot create '$M/pfsbench\.[^/]+/$(hostname)\.[12]/LEVEL0/[df0-9/]+': No space left on device$" \
	"${S[@]}" -l 2 -d 3 -f 4 -s 1
failed 2x1 "node node[12] worker 1: cannot create '.*': No space left on device" "${S[@]}" -l 2 -d 3 -f 4 -s 1 -C
check "the report of a failed -C does not claim its trees stay" test "$(grep -c "trees stay" "$OUT")" -eq 0
# 13 files of 100 KiB > 1 MiB: a write runs out.
failed 1 "worker 1: cannot write '.*/LEVEL0/d[0-9]+/f0': No space left on device" "${S[@]}" -l 1 -d 12 -f 1 -s 25
[ "$T_FAILED" -eq 0 ] || show_run
finish
