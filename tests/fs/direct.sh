#!/bin/bash
# direct.sh - --direct (O_DIRECT) on real filesystems the test mounts: on an
# ext4 loop device create-unlink's Write/Read and stream run with O_DIRECT to
# the end, and their results files say so (parameter direct, the run note);
# on ramfs, which has no O_DIRECT, and with sizes that are no multiple of
# ext4's block, the run is refused with one message naming the filesystem,
# exit 2, and nothing is created. Root only; exit 77 = skipped, with the
# reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

pfs_need_root "making filesystems on loop devices"
command -v losetup >/dev/null || need_pkg mount
command -v mkfs.ext4 >/dev/null || need_pkg e2fsprogs
loop_fs ext4 ext4 64M "" mkfs.ext4 -q -F || finish

param() {
	"$PFSBENCH" export "$1" --json |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["parameters"][sys.argv[1]])' "$2"
}

# refused WHAT: the last run was refused as --direct refuses: exit 2, one
# line of pfsbench's on stderr (mpirun's own may follow), naming WHAT.
refused() {
	test "$RC" -eq 2 && test "$(grep -c '^pfsbench' "$ERR")" -eq 1 &&
		grep -q "^pfsbench: --direct.*$1" "$ERR"
}

# ext4 takes O_DIRECT: every row there, and the run says direct.
pfs 2 create-unlink -m "$M" -f 200 -F 5 -s 64k --direct --results "$SCRATCH/cu.h5"
check_create_unlink EXT4 "$M" "$SCRATCH/cu.h5"
check "ext4: create-unlink's results file: parameter direct is True" \
	test "$(param "$SCRATCH/cu.h5" direct)" = True
check "ext4: create-unlink's run note says O_DIRECT" \
	test "$(prov "$SCRATCH/cu.h5" run_note)" = "Direct: Write and Read use O_DIRECT"
check "ext4: the report's header says O_DIRECT" grep -q "Direct: Write and Read use O_DIRECT" "$OUT"
pfs 2 create-unlink -m "$M" -f 20 -F 2 -s 64k -t se --results "$SCRATCH/buffered.h5"
check "ext4: without --direct, parameter direct is False" \
	test "$RC" -eq 0 -a "$(param "$SCRATCH/buffered.h5" direct)" = False

pfs 2 stream -o "$M" -s 4m -b 64k --direct --results "$SCRATCH/st.h5"
check "ext4: stream --direct exits 0" test "$RC" -eq 0
check "ext4: stream --direct: two rows of 4 MiB" test "$("$PFSBENCH" export "$SCRATCH/st.h5" --csv |
	awk -F, 'NR > 1 && $7 == "Write" && $14 == 4194304' | wc -l)" -eq 2
check "ext4: stream's results file: parameters direct and o_direct are True" \
	test "$(param "$SCRATCH/st.h5" direct) $(param "$SCRATCH/st.h5" o_direct)" = "True True"
check "ext4: stream --direct never fell back (no dm message)" test "$(grep -c 'NOT using' "$ERR")" -eq 0
check "ext4: the --direct runs left nothing" dir_unchanged "$M"

# Sizes that are no multiple of the block: refused before anything is made.
pfs 1 create-unlink -m "$M" -f 20 -F 2 -s 1000 --direct --results "$SCRATCH/no1.h5"
check "ext4: create-unlink --direct -s 1000 refused, naming EXT4 and -s" refused "(EXT4): -s 1000 is no multiple"
pfs 1 stream -o "$M" -s 4m -b 1000 --direct --results "$SCRATCH/no2.h5"
check "ext4: stream --direct -b 1000 refused, naming EXT4 and -b" refused "(EXT4): -b 1000 is no multiple"
check "ext4: the refused runs made no results file" test ! -e "$SCRATCH/no1.h5" -a ! -e "$SCRATCH/no2.h5"
check "ext4: the refused runs created nothing" dir_unchanged "$M"

# Two nodes, one path, two filesystems: node2's ranks run in a mount
# namespace of their own where a ramfs covers the ext4 at $M, as a node
# that mounts something else (or nothing) at the target path would. Rank 0
# is on node1, whose ext4 takes O_DIRECT; node2's refusal must stop the run
# all the same, before anything is made on either node.
NS_BIN=$SCRATCH/pfsbench-ramfs-node
printf '#!/bin/bash\nif [ -z "${PFS_RAMFS_NS:-}" ]; then\n\tPFS_RAMFS_NS=1 exec unshare --mount --propagation private -- "$0" "$@"\nfi\nmount -t ramfs none %q || exit 99\nexec %q "$@"\n' \
	"$M" "$PFSBENCH" >"$NS_BIN"
chmod +x "$NS_BIN"
# ramfs_node2 NP ARGS...: node1 (NP ranks, rank 0 among them) sees the ext4,
# node2 (NP ranks) a ramfs at the same path; $OUT, $ERR, $RC as pfs sets them.
ramfs_node2() {
	local np=$1 node1 node2
	shift
	mpi_env PFSBENCH_NODENAME=node1
	node1=(-np "$np" "${MPI_ENV[@]}" "$PFSBENCH" "$@")
	mpi_env PFSBENCH_NODENAME=node2
	node2=(-np "$np" "${MPI_ENV[@]}" "$NS_BIN" "$@")
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${node1[@]}" : "${node2[@]}") >"$OUT" 2>"$ERR"
	RC=$?
}
if unshare --mount --propagation private true 2>/dev/null; then
	ramfs_node2 2 create-unlink -m "$M" -f 20 -F 2 -s 64k --direct --results "$SCRATCH/n1.h5"
	check "two nodes: create-unlink --direct refused, naming node2 and RAMFS" \
		refused "node node2: the filesystem of '$M' (RAMFS) refuses O_DIRECT"
	ramfs_node2 1 stream -o "$M" -s 1m --direct --results "$SCRATCH/n2.h5"
	check "two nodes: stream --direct refused, naming node2 and RAMFS" \
		refused "node node2: the filesystem of '$M' (RAMFS) refuses O_DIRECT"
	check "two nodes: no results file" test ! -e "$SCRATCH/n1.h5" -a ! -e "$SCRATCH/n2.h5"
	check "two nodes: nothing created on node1's ext4" dir_unchanged "$M"
	# Both nodes on the ext4: probed on each, and run.
	pfs_nodes 2 1 stream -o "$M" -s 1m -b 64k --direct --results "$SCRATCH/n4.h5"
	check "two nodes, both ext4: stream --direct exits 0" test "$RC" -eq 0
	check "two nodes, both ext4: left nothing" dir_unchanged "$M"
else
	echo "# no private mount namespace (unshare --mount): two nodes' filesystems are not tested"
fi

# ramfs has no O_DIRECT (tmpfs has had it since Linux 6.6).
R=$SCRATCH/ramfs
mkdir "$R"
if mount -t ramfs none "$R"; then
	T_CLEANUP+=("umount '$R' || umount -l '$R'")
	snapshot "$R"
	pfs 2 create-unlink -m "$R" -f 20 -F 2 -s 64k --direct --results "$SCRATCH/r1.h5"
	check "ramfs: create-unlink --direct refused, naming RAMFS" refused "(RAMFS) refuses O_DIRECT"
	pfs 2 stream -o "$R" -s 1m --direct --results "$SCRATCH/r2.h5"
	check "ramfs: stream --direct refused, naming RAMFS" refused "(RAMFS) refuses O_DIRECT"
	check "ramfs: no results file" test ! -e "$SCRATCH/r1.h5" -a ! -e "$SCRATCH/r2.h5"
	check "ramfs: nothing created (not even the probe's file)" dir_unchanged "$R"
	# ramfs says 0 bytes free: --force
	pfs 1 stream -o "$R" -s 1m -x --force --results "$SCRATCH/r3.h5"
	check "ramfs: stream -x still falls back as dm does" \
		test "$RC" -eq 0 -a "$(grep -c 'NOT using O_DIRECT' "$ERR")" -eq 1
else
	echo "# ramfs could not be mounted: its refusal is not tested"
fi
finish
