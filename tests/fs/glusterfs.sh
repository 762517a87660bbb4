#!/bin/bash
# glusterfs.sh - pfsbench on a real GlusterFS volume the test makes
# (tests/fs/gluster-lib.sh: its own glusterd, state, pid files and sockets
# under $SCRATCH, listening on the host name's loopback address only, in a
# private mount namespace; a 2-brick distribute volume with its bricks in
# $SCRATCH, mounted through FUSE). create-unlink on 2 simulated nodes and a
# small tree: the report's first line says FUSE.GLUSTERFS, every row is
# there, nothing is left on the volume, and the results file records
# HOST:/VOLUME as mount source; pfsbench stream; pfsbench matrix and bonnie
# on 1 rank, 2 ranks and 2 nodes x 2. Teardown leaves no mount, volume or daemon,
# and gluster's system directories as they were. Root only; exit 77 =
# skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gluster-lib.sh"

t0=$SECONDS
gluster_isolate "$0"
gluster_up pfsbench 2 profile || finish
echo keep >"$M/foreign"
snapshot "$M"
echo "# volume mounted after $((SECONDS - t0)) s"

start=$SECONDS
pfs_nodes 2 1 create-unlink -m "$M" -f 200 -F 5 -s 64k --results "$SCRATCH/glusterfs.h5"
echo "# create-unlink took $((SECONDS - start)) s; $(head -1 "$OUT")"
check_create_unlink FUSE.GLUSTERFS "$M" "$SCRATCH/glusterfs.h5"
check "results file: mount source $HOST:/$V" test "$(prov "$SCRATCH/glusterfs.h5" mount_source)" = "$HOST:/$V"
check "2 nodes of 1 worker each" test "$(rows | awk '{print $3, $4}' | sort -u | tr '\n' ' ')" = "node1 1 node2 1 "
# The filesystem's own counters: node 1 reads the volume's profile around
# every step (once for the whole volume), and the bricks' CREATE calls of a
# Create step are the files that step created.
"$PFSBENCH" export "$SCRATCH/glusterfs.h5" --json --provenance >"$SCRATCH/gprov.json"
fsdesc() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["nodes"][int(sys.argv[2])]["fsstats"])' "$SCRATCH/gprov.json" "$1"; }
check "results file: node1 reads the volume's profile" test "$(fsdesc 0)" = "gluster profile of volume $V"
check "results file: node2 leaves it to node 1" test "$(fsdesc 1)" = "the volume's profile, read on node 0 only"
"$PFSBENCH" export "$SCRATCH/glusterfs.h5" --csv --fs-stats | tr -d '\r' >"$SCRATCH/fss.csv"
creates() { # TEST STEP: the bricks' CREATE calls in that step
	awk -F, -v t="$1" -v s="$2" '$1 == t && $2 == 1 && $3 == s && $5 ~ /^b[0-9]+\.CREATE\.calls$/ {n += $6} END {print n + 0}' "$SCRATCH/fss.csv"
}
echo "# bricks' CREATE calls: se steps 0 and 1: $(creates se 0), $(creates se 1); pa step 0: $(creates pa 0)"
check "fs-stats: se's Create steps made 200 files each on the bricks" test "$(creates se 0) $(creates se 1)" = "200 200"
check "fs-stats: pa's Create step made 400" test "$(creates pa 0)" -eq 400
"$PFSBENCH" show "$SCRATCH/glusterfs.h5" --fs-stats >"$SCRATCH/fss.txt"
check "show --fs-stats prints the counters" grep -q "b1.CREATE.calls" "$SCRATCH/fss.txt"
check "show --fs-stats heads se's step 1 with what ran in it" \
	grep -qx " se   1 step  1 (Create on node2), node1's counters:" "$SCRATCH/fss.txt"
[ "$T_FAILED" -eq 0 ] || show_run

# The tree run meets a glusterd that stops answering mid-run: its gluster
# CLI answers the probe's first call (node 1's, which finds the profile;
# no other node asks), then fails.
# The run goes on, and says once that steps lack their counters.
mkdir "$SCRATCH/mute"
cat >"$SCRATCH/mute/gluster" <<MUTE
#!/bin/sh
[ -e "$SCRATCH/mute/answered" ] && exit 1
: >"$SCRATCH/mute/answered"
exec $(command -v gluster) "\$@"
MUTE
chmod +x "$SCRATCH/mute/gluster"
start=$SECONDS
PATH=$SCRATCH/mute:$PATH pfs_nodes 2 1 tree -o "$M" -l 2 -d 3 -f 4 -s 2 --results "$SCRATCH/glusterfs-tree.h5"
echo "# tree took $((SECONDS - start)) s"
check_tree FUSE.GLUSTERFS "$M" "$SCRATCH/glusterfs-tree.h5"
check "a glusterd that stops answering: said once, by node1" \
	test "$(grep -c "node node1: the filesystem's counters of a step could not be read (gluster profile of volume $V)" "$ERR")" -eq 1
[ "$T_FAILED" -eq 0 ] || show_run
# pfsbench stream on the volume (tests/stream/checks.sh): 2 simulated nodes,
# a file per rank and one shared file, every byte read back and checked.
# shellcheck source=../stream/checks.sh
. "$(dirname "$0")/../stream/checks.sh"
RUNNER=(pfs_nodes 2 1)
start=$SECONDS
stream_cycle "$M" glusterfs-file 2 file
stream_cycle "$M" glusterfs-shared 2 shared
echo "# stream took $((SECONDS - start)) s"
check "stream: results file: fstype FUSE.GLUSTERFS" \
	test "$(prov "$SCRATCH/glusterfs-file-w.h5" fstype)" = FUSE.GLUSTERFS
[ "$T_FAILED" -eq 0 ] || show_run

# pfsbench matrix on the volume (tests/matrix/checks.sh): 2 simulated
# nodes x 2 ranks, then 1 rank and 2 ranks: writes (of= with caches
# dropped too) and reads of small lists, every cell's bytes, the marks and
# the report from the rows, nothing left; the slowest node against the
# median. 4 cells on 2 x 2 and 2 on 1 and 2 ranks, not checks.sh's 12: a
# step costs 1 to 3 s here whatever its size (barriers, fsyncs through
# FUSE, the of= run's machine-wide cache drops); 12 cells took 155 s.
# Then perf_matrix's 13 request sizes on 1 rank, one transfer of 1 MiB:
# a line of 13 numbers (2 and 4 MiB 0.00).
# shellcheck source=../matrix/checks.sh
. "$(dirname "$0")/../matrix/checks.sh"
RUNNER=(pfs_nodes 2 2)
start=$SECONDS
matrix_cycle "$M" glusterfs-matrix 4 4k,64k 64k,256k
echo "# matrix 2 x 2 took $((SECONDS - start)) s"
check "matrix: results file: fstype FUSE.GLUSTERFS" \
	test "$(prov "$SCRATCH/glusterfs-matrix-w.h5" fstype)" = FUSE.GLUSTERFS
check "matrix: the slowest node per cell, against the median node" \
	grep -qE "^Slowest node: node[12] in [0-9]+ cells?" "$OUT"
for n in 1 2; do
	start=$SECONDS
	RUNNER=(pfs "$n")
	matrix_cycle "$M" "glusterfs-matrix-$n" "$n" 64k 64k,256k
	echo "# matrix on $n rank(s) took $((SECONDS - start)) s"
done
RUNNER=(pfs 1)
matrix_columns "$M" glusterfs-matrix-13 1 1m
[ "$T_FAILED" -eq 0 ] || show_run

check "the bricks hold no pfsbench file" \
	test -z "$(find "$G/brick1" "$G/brick2" -path '*/.glusterfs' -prune -o -name 'pfsbench.*' -print)"

# pfsbench bonnie on the volume, bonnie++'s small sizes: 1 rank, 2 ranks,
# 2 nodes x 2 (tests/mpi/bonnie-lib.sh); the bricks keep nothing of it.
# A 1-byte write through FUSE takes about 140 us here (7 kB/s), so 3 MiB a
# byte at a time would take 7 minutes a rank: the per-char tests do 64 KiB.
. "$here/../mpi/bonnie-lib.sh"
start=$SECONDS
bonnie_run glusterfs 1 "$M" --char-size 64k
bonnie_run glusterfs 2 "$M" --char-size 64k --bonnie-version 1.98
bonnie_run glusterfs 2x2 "$M" --char-size 64k --bonnie-version 1.98 -q
check "bonnie: results file: fstype FUSE.GLUSTERFS" \
	test "$(prov "$SCRATCH/glusterfs-2x2.h5" fstype)" = FUSE.GLUSTERFS
check "bonnie: the bricks hold nothing of it" \
	test -z "$(find "$G/brick1" "$G/brick2" -path '*/.glusterfs' -prune -o \( -name 'pfsbench.*' -o -name 'Bonnie.*' \) -print)"
echo "# bonnie took $((SECONDS - start)) s"

gluster_down
check "teardown: the volume is unmounted" test -z "$(grep -F " $G/mnt " /proc/self/mountinfo)"
check "teardown: glusterd and both bricks were found by pid" test "${#G_PIDS[@]}" -eq 3
check "teardown: glusterd and the bricks are gone" \
	test -z "$(for pid in "${G_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done)"
check "teardown: no gluster process of this test's volume or state is left" test -z "$(pgrep -f "$G")"
finish
