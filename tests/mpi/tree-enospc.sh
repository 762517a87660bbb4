#!/bin/sh
# tree-enospc.sh: a tree run that fails half way (a small tmpfs runs out of
# inodes, then of space) exits 1 naming the node, worker, path and error, and
# removes all it created; a failed -C leaves no tree behind. Needs root and
# permission to mount a tmpfs; skipped otherwise.
. "${SRCDIR:-.}/tests/mpi/tree-lib.sh"

mnt=$scratch/mnt
mkdir "$mnt" || exit 99
if ! mount -t tmpfs -o size=1m,nr_inodes=100 pfsbench-test "$mnt" 2>/dev/null; then
	echo "SKIP: cannot mount a tmpfs here"
	exit 77
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$scratch" "$out" "$err"' EXIT

# failed LAYOUT PATTERN ARGS...: the run exits 1, says PATTERN, leaves nothing.
failed() {
	layout=$1 pattern=$2
	shift 2
	run "$layout" tree -o "$mnt" --no-drop-caches --force "$@"
	rc=$?
	[ $rc -eq 1 ] || fail "'tree $*' exited $rc, not 1"
	grep -qE "$pattern" "$err" || fail "'tree $*' did not say '$pattern'"
	expect_empty "$mnt" "'tree $*'"
}

# 2 x (13 directories + 52 files) > 100 inodes: the files run out.
failed 2 "node .* worker [12]: cannot create '$mnt/pfsbench\..*/LEVEL0/.*': No space left on device" \
	-l 2 -d 3 -f 4 -s 1
failed 2x1 "node n[AB] worker 1: cannot create '.*': No space left on device" -l 2 -d 3 -f 4 -s 1 -C
# 13 files of 100 KiB > 1 MiB: a write runs out.
failed 1 "node .* worker 1: cannot write '.*/LEVEL0/.*/f0': No space left on device" \
	-l 1 -d 12 -f 1 -s 25
echo "PASS: failed tree runs exit 1 and leave nothing"
