#!/bin/bash
# Every worker's directory exists before any worker's file is made
# (src/engine/run.c): on 2 simulated nodes of 1 worker, node2's mkdirat
# slowed by 300 ms (the fault injector), stream, which makes its files in
# setup (as matrix does), must still make both files after both
# directories. Left to the race, node1's file came first and took the
# inode number between the two directories', which on ext4 decided where
# the files' blocks went (docs/benchmarks.md, "Two ranks' files on
# ext4"). Judged by birth times (statx's btime, to the nanosecond on a
# tmpfs), on a tmpfs in /dev/shm.
. "$(dirname "$0")/../mpi/lib.sh"

D=$(mktemp -d /dev/shm/pfsbench-dirs-first.XXXXXX) || skip "no /dev/shm"
T_CLEANUP+=("rm -rf '$D'")
[ "$(stat -f -c %T "$D")" = tmpfs ] || skip "/dev/shm is not tmpfs"
[ "$(stat -c %W "$D")" != 0 ] || skip "this tmpfs keeps no birth times"
SLOW=$(faulty "delay mkdirat 300ms node=node2")

# born WHAT RUNDIR: the birth times of the worker directories (what=d) or
# of the files in them (what=f), one a line, in a form that sorts as time.
born() {
	local depth=$([ "$1" = d ] && echo 1 || echo 2)
	find "$2" -mindepth "$depth" -maxdepth "$depth" -type "$1" -exec stat -c '%w' {} + | sort
}
# order WL: no file born before a directory, in WL's run directory (a
# tmpfs's clock may give a directory and a file the same time).
order() {
	local run dirs files
	run=$(find "$D/$1" -mindepth 1 -maxdepth 1 -type d -name 'pfsbench.*')
	dirs=$(born d "$run") files=$(born f "$run")
	echo "# $1: directories born $(echo "$dirs" | xargs); files $(echo "$files" | xargs)"
	[ "$(echo "$dirs" | wc -l)" -eq 2 ] && [ "$(echo "$files" | wc -l)" -eq 2 ] &&
		! [[ "$(echo "$files" | head -1)" < "$(echo "$dirs" | tail -1)" ]]
}

mkdir "$D/stream"
PFSBENCH=$SLOW pfs_nodes 2 1 stream -o "$D/stream" -b 64k -s 64k --keep --no-drop-caches \
	--results "$SCRATCH/s.h5"
check "stream: exit status 0" test "$RC" -eq 0
check "stream: both files made after both workers' directories" order stream

finish
