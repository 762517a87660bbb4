#!/bin/bash
# The run directory in a directory the attacker can write, not sticky
# (issue 26, attack 3): the attacker renames the run directory away and
# puts a symbolic link to a directory of theirs in its place: in odd tries
# once it holds its first worker's directory, with node1.1 and node1.2 of
# their own waiting in theirs; in even tries as soon as it appears, theirs
# empty. Before, worker directories were opened by path without
# O_NOFOLLOW: 1 run in 5 created its files in the attacker's directory and
# said Done. Now every rank opens the run directory rank 0 made, by
# descriptor, without following a link, and works from it: in every try
# nothing appears in the attacker's directory, and the run either
# completes in its own directory (wherever it was moved to) or fails with
# a message naming the path (and the node and worker, when a worker
# found it swapped).
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/lib.sh"

TRIES=${TRIES:-40}
D=$SCRATCH/m
TARGET=$SCRATCH/theirs
mkdir "$D" "$TARGET"
chmod 777 "$D"
chown "$ATTACKER" "$TARGET"

# every entry of the attacker's directory but what they made
theirs() {
	find "$TARGET" -mindepth 1 ! -user "$ATTACKER" | wc -l
}

created=0 swapped=0 strays=0
for ((i = 1; i <= TRIES; i++)); do
	rm -f "$SCRATCH/stop"
	when=made
	if ((i % 2)); then
		when=worker
		runuser -u "$ATTACKER" -- mkdir "$TARGET/node1.1" "$TARGET/node1.2"
	fi
	as_attacker "$SWAP" rundir "$D" "$TARGET" "$SCRATCH/stop" "$when"
	pfs_nodes 1 2 create-unlink -m "$D" -f 1500 -F 2 -s 4k -t se --no-drop-caches \
		--progress=never --results "$SCRATCH/r$i.h5"
	stop_attacker "$SCRATCH/stop"
	[ "$(theirs)" -eq 0 ] || created=$((created + 1))
	ls -d "$D"/away.* >/dev/null 2>&1 && swapped=$((swapped + 1))
	# what the run made stays only where it failed: never a stranger
	for away in "$D"/away.*; do
		[ -d "$away" ] || continue
		n=$(find "$away" -mindepth 1 ! -name .pfsbench-run ! -name 'node1.[12]' | wc -l)
		[ "$RC" -ne 0 ] || [ "$n" -eq 0 ] || strays=$((strays + 1))
	done
	# rank 0 making the directory, or a worker opening it
	judge_end "$i" "^pfsbench: (node node1 worker [12]: )?cannot [a-z]+ '$D/"
	rm -rf "${TARGET:?}"/*
	rm -rf "${D:?}"/*
done
echo "# $TRIES tries, the run directory swapped in $swapped: $completed completed, $failed failed with a message; files made in the attacker's directory in $created"

check "nothing was created in the attacker's directory ($created of $TRIES tries)" [ "$created" -eq 0 ]
check "the attacker swapped the run directory in some tries ($swapped of $TRIES)" [ "$swapped" -gt 0 ]
check "a completed run left nothing in the directory it made ($strays)" [ "$strays" -eq 0 ]
check "every run completed or failed with a message naming the path ($bad_end did not)" \
	[ "$bad_end" -eq 0 ]
finish
