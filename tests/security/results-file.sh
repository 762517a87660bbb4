#!/bin/bash
# The results file in a directory the attacker owns (issue 26, attack 2):
# once the run has created D/rN.h5, the attacker keeps renaming an empty
# file, a symbolic link to a root-owned victim and a link to a new name in
# a directory of theirs onto it. Before, 1 run in 12 turned the victim into
# the results file (the name was checked with lstat, then H5Fcreate opened
# it again by name). Now the file is created once relative to D's
# descriptor and HDF5 writes through that file: in every try the victim
# keeps its content, time and inode, nothing appears in the attacker's
# directory, and the run ends with exit 0 or with one message.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/lib.sh"

TRIES=${TRIES:-40}
D=$SCRATCH/results
TARGET=$SCRATCH/theirs
mkdir "$D" "$TARGET" "$SCRATCH/m"
chown "$ATTACKER" "$D" "$TARGET"
VICTIM=$SCRATCH/victim
head -c 4096 /dev/urandom >"$VICTIM"
chmod 644 "$VICTIM"
before=$(fingerprint "$VICTIM")

victim_hit=0 created=0
for ((i = 1; i <= TRIES; i++)); do
	rm -f "$SCRATCH/stop"
	as_attacker "$SWAP" results "$D" "r$i.h5" "$VICTIM" "$TARGET" "$SCRATCH/stop"
	pfs 1 create-unlink -m "$SCRATCH/m" -f 20 -F 2 -s 4k -t se --no-drop-caches \
		--progress=never --results "$D/r$i.h5"
	stop_attacker "$SCRATCH/stop"
	[ "$(fingerprint "$VICTIM")" = "$before" ] || victim_hit=$((victim_hit + 1))
	[ -z "$(ls -A "$TARGET")" ] || created=$((created + 1))
	judge_end "$i" "^pfsbench.*r$i\.h5"
	# each try leaves nothing in the scratch target
	rm -rf "$TARGET"/* "$SCRATCH"/m/*
done
echo "# $TRIES tries: $completed completed, $failed failed with a message; victim written $victim_hit times, files made in the attacker's directory $created times"

check "the victim was never written ($victim_hit of $TRIES tries)" [ "$victim_hit" -eq 0 ]
check "nothing was created in the attacker's directory ($created of $TRIES tries)" [ "$created" -eq 0 ]
check "every run completed or failed with a message naming the file ($bad_end did not)" \
	[ "$bad_end" -eq 0 ]

# A second run into the same results file is still refused, and the
# first stays as it was.
pfs 1 create-unlink -m "$SCRATCH/m" -f 20 -F 2 -s 4k -t se --no-drop-caches --results \
	"$SCRATCH/once.h5"
first=$(fingerprint "$SCRATCH/once.h5")
pfs 1 create-unlink -m "$SCRATCH/m" -f 20 -F 2 -s 4k -t se --no-drop-caches --results \
	"$SCRATCH/once.h5"
check "a second run into the same results file is refused (exit $RC)" [ "$RC" -eq 2 ]
check "and the first run's file is untouched" [ "$(fingerprint "$SCRATCH/once.h5")" = "$first" ]
"$PFSBENCH" show "$SCRATCH/once.h5" >"$SCRATCH/show.out" 2>&1
check "the results file written through the descriptor reads back complete" \
	grep -q "^Done\." "$SCRATCH/show.out"
finish
