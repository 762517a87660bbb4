#!/bin/bash
# run-bench.sh: pfsbench's Create and Unlink phases against the least a C
# program can do (bench/baseline_create_unlink.c), 1 rank, on tmpfs.
# Prints files/sec of each and their ratio (median of ROUNDS runs), and
# user-space instructions per file from valgrind --tool=callgrind, counted
# inside the op loops only (start-up and MPI_Init are not the work).
# Targets: pfsbench >= 0.95x the loop's rate, <= 1.25x its instructions.
set -euo pipefail
: "${PFSBENCH:?}" "${BASELINE:?}" "${MPIRUN:=mpirun}"
FILES=${FILES:-50000}
ROUNDS=${ROUNDS:-5}
IR_FILES=${IR_FILES:-20000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

work=$(mktemp -d /tmp/pfsbench-bench.XXXXXX)
cleanup() { umount "$work/fs" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/fs"
if ! mount -t tmpfs -o size=512m pfsbench-bench "$work/fs" 2>/dev/null; then
	echo "bench: cannot mount a tmpfs; using /dev/shm" >&2
	rmdir "$work/fs"
	mkdir -p /dev/shm/pfsbench-bench.$$
	ln -s /dev/shm/pfsbench-bench.$$ "$work/fs"
fi
fs=$work/fs/
cd "$work" # the default results files land here, and go with it

pfs_times() { "$MPIRUN" -np 1 "$PFSBENCH" create-unlink -m "$fs" -f "$1" -F 1 -s 1 -t ua \
	--no-drop-caches | awk '$1 == "ua" && $5 == "Create" {c = $6} $1 == "ua" && $5 == "Unlink" {u = $6} END {print c, u}'; }
base_times() { mkdir "$fs/b" && "$BASELINE" "$fs/b" "$1" && rmdir "$fs/b"; }

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

: >"$work/pfs" && : >"$work/base"
for ((r = 0; r < ROUNDS; r++)); do # interleaved, so drift hits both alike
	base_times "$FILES" >>"$work/base"
	pfs_times "$FILES" >>"$work/pfs"
done
bc=$(cut -d' ' -f1 "$work/base" | median) bu=$(cut -d' ' -f2 "$work/base" | median)
pc=$(cut -d' ' -f1 "$work/pfs" | median) pu=$(cut -d' ' -f2 "$work/pfs" | median)

# Instructions inside the loops: callgrind, collecting only within them.
mkdir "$fs/b"
valgrind --tool=callgrind --callgrind-out-file="$work/cg.base" \
	--toggle-collect=create_all --toggle-collect=unlink_all \
	"$BASELINE" "$fs/b" "$IR_FILES" >/dev/null 2>"$work/vg.base"
rmdir "$fs/b"
"$MPIRUN" -np 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.pfs" \
	--toggle-collect=cu_run_op "$PFSBENCH" create-unlink -m "$fs" -f "$IR_FILES" -F 1 -s 1 \
	-t ua --no-drop-caches >/dev/null 2>"$work/vg.pfs"
ir() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}'; }
ib=$(ir "$work/cg.base") ip=$(ir "$work/cg.pfs")

awk -v n="$FILES" -v irn="$IR_FILES" -v rounds="$ROUNDS" -v bc="$bc" -v bu="$bu" -v pc="$pc" -v pu="$pu" \
	-v ib="$ib" -v ip="$ip" 'BEGIN {
	printf "create-unlink benchmark: 1 rank, tmpfs, %d files, median of %d rounds\n", n, rounds
	printf "%-10s %14s %14s %16s\n", "", "creates/sec", "unlinks/sec", "instr/file (C+U)"
	printf "%-10s %14.0f %14.0f %16.1f\n", "C loop", n * 1e6 / bc, n * 1e6 / bu, ib / (2 * irn)
	printf "%-10s %14.0f %14.0f %16.1f\n", "pfsbench", n * 1e6 / pc, n * 1e6 / pu, ip / (2 * irn)
	rc = bc / pc; ru = bu / pu; ri = ip / ib
	printf "%-10s %13.2fx %13.2fx %15.2fx\n", "ratio", rc, ru, ri
	printf "%-10s %14s %14s %16s\n", "target", ">= 0.95x", ">= 0.95x", "<= 1.25x"
	ok = rc >= 0.95 && ru >= 0.95 && ri <= 1.25
	print ok ? "bench: within target" : "bench: OUTSIDE TARGET"
}'
