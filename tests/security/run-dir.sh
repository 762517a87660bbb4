#!/bin/bash
# The run directory in a directory the attacker can write, not sticky
# (issue 26, attack 3): the attacker (tests/security/rundir_race.c, run by
# a real unprivileged user) watches the directory with inotify and swaps a
# symbolic link to a directory of theirs into the run directory's place
# in one step, then moves the run directory away: by turns as soon as it
# appears, once it holds its marker, once it holds its first worker's
# directory (with node1.1 and node1.2 of their own waiting in theirs), and
# once that holds its first item; it also counts what others create in
# their directory while the run goes on. Runs of 2 nodes of 4 workers: 8
# ranks on a few cores reach their mkdir one after another, a wide window.
# Before, worker directories were made and opened by path without
# O_NOFOLLOW: root made its files in the attacker's directory, and removed
# them through the link at the end (5cdb329: see docs/security.md). Now
# every rank opens the run directory rank 0 made, by descriptor, without
# following a link, and works from it: in every try nothing appears in the
# attacker's directory, and the run either completes in its own directory
# (wherever it was moved to) or fails with a message naming the path (and
# the node and worker, when a worker found it swapped).
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/lib.sh"

: "${RUNDIR_RACE:?RUNDIR_RACE must point at the built tests/security/rundir_race}"
TRIES=${TRIES:-32}
D=$SCRATCH/m
TARGET=$SCRATCH/theirs
mkdir "$D" "$TARGET"
chmod 777 "$D"
chown "$ATTACKER" "$TARGET"
# where the attacker can run it from
RACE=$SCRATCH/rundir_race
cp "$RUNDIR_RACE" "$RACE"
chmod 755 "$RACE"
WHENS=(made marked worker item)

# every entry of the attacker's directory but what they made
theirs() {
	find "$TARGET" -mindepth 1 ! -user "$ATTACKER" | wc -l
}

# attacker_ready FILE: waits until the attacker says it watches D (at most
# 10 s: a setup that failed must not hang the test).
attacker_ready() {
	local t
	for ((t = 0; t < 1000; t++)); do
		grep -qx ready "$1" && return 0
		kill -0 "$ATTACK_PID" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}

created=0 swapped=0 strays=0 unready=0
for ((i = 1; i <= TRIES; i++)); do
	rm -f "$SCRATCH/stop"
	when=${WHENS[i % ${#WHENS[@]}]}
	[ "$when" = worker ] && runuser -u "$ATTACKER" -- mkdir "$TARGET/node1.1" "$TARGET/node1.2"
	as_attacker "$RACE" "$D" "$TARGET" "$SCRATCH/stop" "$when" >"$SCRATCH/race.out"
	attacker_ready "$SCRATCH/race.out" || unready=$((unready + 1))
	pfs_nodes 2 4 create-unlink -m "$D" -f 1500 -F 2 -s 4k -t se --no-drop-caches \
		--progress=never --results "$SCRATCH/r$i.h5"
	stop_attacker "$SCRATCH/stop"
	# what is there now, and what was made there during the run: the old
	# code removed at its end, through the link, what it had made
	n=$(theirs)
	seen=$(sed -n 's/^outside //p' "$SCRATCH/race.out")
	if [ "$n" -ne 0 ] || [ "${seen:-0}" -ne 0 ]; then
		created=$((created + 1))
		echo "# try $i ($when): exit $RC; made in the attacker's directory during the run:" \
			"${seen:-?} ($(sed -n 's/^outside: //p' "$SCRATCH/race.out" | tr '\n' ' ')...), left: $n"
	fi
	ls -d "$D"/away.* >/dev/null 2>&1 && swapped=$((swapped + 1))
	# what the run made stays only where it failed: never a stranger
	for away in "$D"/away.*; do
		[ -d "$away" ] || continue
		n=$(find "$away" -mindepth 1 ! -name .pfsbench-run ! -name 'node1.[12]' | wc -l)
		[ "$RC" -ne 0 ] || [ "$n" -eq 0 ] || strays=$((strays + 1))
	done
	# rank 0 making the directory, or a worker opening it
	judge_end "$i" "^pfsbench: (node node[12] worker [1-4]: )?cannot [a-z]+ '$D/"
	rm -rf "${TARGET:?}"/*
	rm -rf "${D:?}"/*
done
echo "# $TRIES tries, the run directory swapped in $swapped: $completed completed, $failed failed with a message; files made in the attacker's directory in $created"

check "the attacker watched the directory before every run ($unready tries it did not)" \
	[ "$unready" -eq 0 ]
check "nothing was created in the attacker's directory ($created of $TRIES tries)" [ "$created" -eq 0 ]
check "the attacker swapped the run directory in some tries ($swapped of $TRIES)" [ "$swapped" -gt 0 ]
check "a completed run left nothing in the directory it made ($strays)" [ "$strays" -eq 0 ]
check "every run completed or failed with a message naming the path ($bad_end did not)" \
	[ "$bad_end" -eq 0 ]
finish
