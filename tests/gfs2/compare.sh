#!/bin/bash
# compare.sh - GFS2 next to ext3 and GlusterFS under like conditions, and
# unlinking another node's files against unlinking one's own. Run by hand
# (`make compare-gfs2`), not by `make check`: it takes 30-60 minutes of an
# emulated machine's time.
#
# Every filesystem runs in the same kind of virtual machine as the GFS2
# tests (tests/gfs2/lib.sh: QEMU's emulator, Debian's kernel, the host's
# root over 9p), on raw images attached the same way (virtio, cache=none),
# with the same options, create-unlink `-f 200 -F 5 -s 64k` and tree
# `-l 2 -d 3 -f 4 -s 2` on 2 nodes of 1 rank, each run of -i $ITER
# (COMPARE_ITERATIONS, default 3) iterations:
#   gfs2       two VMs (1 CPU, 1 GiB each), one lock_dlm GFS2 on an image
#              both attach, corosync and dlm_controld (as two-vms.sh)
#   glusterfs  one VM with as many CPUs and as much memory as the two
#              together (2, 2 GiB), a glusterd, a distribute volume of two
#              bricks (ext3 on two images of its own), mounted through FUSE,
#              2 ranks named n1 and n2 (PFSBENCH_NODENAME). Across two VMs
#              glusterd's peer probe hung for minutes under the emulator.
#   ext3       one VM with as many CPUs and as much memory as the two
#              together (2, 2 GiB), ext3 on its own image, 2 ranks named n1
#              and n2 (PFSBENCH_NODENAME): a local filesystem, the floor
# Then `pfsbench compare` of each workload's three results files.
#
# Cross-node unlink, on gfs2, two ways, COMPARE_ROUNDS rounds
# (default 2) of each kind in turn, the order swapped every round:
# - tree: tree -C on both nodes leaves a tree of `-l 1 -d 3 -f 50 -s 1`
#   (4 directories, 200 files) a node; tree -R removes them, either each
#   node its own ("own"), or with the node names swapped, so that each node
#   removes the tree the other one made ("cross"). Caches dropped before
#   each phase (COMPARE_CACHES "drop keep" adds runs with --no-drop-caches).
# - shift: create-unlink `-t se,ub -f 200 -F 5 -s 64k`, without ("own")
#   and with `--shift 1` ("shift": each node reads and unlinks the files
#   the other one created), when the pfsbench run has --shift; otherwise
#   left out, saying so.
# Then `pfsbench compare` of each kind's runs, and on GFS2 each machine's
# DLM requests in each run (sbstats snapshots around it) and, where the
# results files have them, in each step.
#
# COMPARE_FS (default "ext3 gfs2 glusterfs") picks the filesystems.
# COMPARE_TIMEOUT (default 1500 s) bounds each create-unlink run of the
# comparison; a GlusterFS in the emulator, at about 5 files/s, needs about
# 4000 s for -i 3 when the host is busy. A VM's whole job is given twice
# that and 30 minutes more.
# Checks only that the runs ran: exit 0, complete results files, the
# filesystem the report names, nothing left, the swap of names. Keeps the
# results files, reports, comparisons and statistics in
# $GFS2_KEEP/compare/<the filesystems run> (default
# /tmp/pfsbench-gfs2/compare/ext3-gfs2-glusterfs), so that a run of one
# filesystem does not replace another's. TCG emulation: the times say
# nothing about real hardware; only ratios between filesystems run here
# in the same emulator mean anything. Root only; exit 77 = skipped.
# shellcheck source-path=SCRIPTDIR disable=SC2317 # run_FS and the jobs are called by name
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
ITER=${COMPARE_ITERATIONS:-3}
CU_TIMEOUT=${COMPARE_TIMEOUT:-1500}
[[ $CU_TIMEOUT =~ ^[1-9][0-9]*$ ]] || { echo "COMPARE_TIMEOUT: a number of seconds, not '$CU_TIMEOUT'" >&2; exit 2; }
VM_TIMEOUT=$((2 * CU_TIMEOUT + 1800))
ROUNDS=${COMPARE_ROUNDS:-2}
CACHES=${COMPARE_CACHES:-drop}
FSES=${COMPARE_FS:-ext3 gfs2 glusterfs}
gfs2_begin 2
if [[ " $FSES " = *" glusterfs "* ]]; then
	command -v glusterd >/dev/null || need_pkg glusterfs-server
	command -v mount.glusterfs >/dev/null || need_pkg glusterfs-client
fi
command -v mkfs.ext3 >/dev/null || need_pkg e2fsprogs
command -v h5repack >/dev/null || need_pkg hdf5-tools
SHIFT=0
"$PFSBENCH" create-unlink --help 2>&1 | grep -q -- --shift && SHIFT=1
[ $SHIFT = 1 ] || echo "# $PFSBENCH has no create-unlink --shift: the shift runs are left out"
echo "# pfsbench: $PFSBENCH; load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
LOAD=("before: $(cut -d' ' -f1-3 /proc/loadavg)")
export NO_COLOR=1

# What the guests' jobs share: the runs every filesystem gets, and the
# cross-node rounds.
{
	echo "ITER=$ITER ROUNDS=$ROUNDS SHIFT=$SHIFT CACHES='$CACHES' CU_TIMEOUT=$CU_TIMEOUT"
	printf 'MPIRUN_2NODES=%q MPIRUN_HOSTS=%q\n' "$MPIRUN_2NODES" "$MPIRUN_HOSTS"
} >"$SHARE/compare.lib"
cat >>"$SHARE/compare.lib" <<'LIB'
XTREE="-l 1 -d 3 -f 50 -s 1"
# compare_runs FS DIR
compare_runs() {
	PFS_TIMEOUT=$CU_TIMEOUT pfs_run "$1-cu" "$2" create-unlink -m "$2" -f 200 -F 5 -s 64k -i "$ITER" \
		--results "$SHARE/$1-cu.h5"
	PFS_TIMEOUT=900 pfs_run "$1-tree" "$2" tree -o "$2" -l 2 -d 3 -f 4 -s 2 -i "$ITER" \
		--results "$SHARE/$1-tree.h5"
}
# snap NAME: on GFS2, both machines' sbstats
snap() {
	[ "$FS" = gfs2 ] && stats_snap_pair "$FS-$1"
	return 0
}
# cross_rounds FS DIR (on n1 of a pair): tree runs x/FS-KIND-CACHES-ROUND-C
# and -R, then create-unlink runs s/FS-KIND-ROUND
cross_rounds() {
	local dir=$2 r caches kind kinds flag x
	FS=$1
	mkdir -p "$SHARE/x" "$SHARE/s"
	for ((r = 1; r <= ROUNDS; r++)); do
		kinds="own cross"
		[ $((r % 2)) = 0 ] && kinds="cross own"
		for caches in $CACHES; do
			flag=
			[ $caches = keep ] && flag=--no-drop-caches
			for kind in $kinds; do
				x=$FS-$kind-$caches-$r
				# shellcheck disable=SC2086 # XTREE and flag are lists of words
				MPIRUN_OPTS="$MPIRUN_2NODES" PFS_NAMES="" pfs_run "x/$x-C" "$dir" tree -C -o "$dir" $XTREE $flag \
					--results "$SHARE/x/$x-C.h5"
				snap "$kind-$caches-$r-before"
				if [ $kind = cross ]; then
					# rank 0 on n1 named n2 removes n2's tree, rank 1 on n2 n1's
					# shellcheck disable=SC2086
					MPIRUN_OPTS="$MPIRUN_HOSTS" PFS_NAMES="n2 n1" pfs_run "x/$x-R" "$dir" tree -R -o "$dir" $XTREE $flag \
						--results "$SHARE/x/$x-R.h5"
				else
					# shellcheck disable=SC2086
					MPIRUN_OPTS="$MPIRUN_2NODES" PFS_NAMES="" pfs_run "x/$x-R" "$dir" tree -R -o "$dir" $XTREE $flag \
						--results "$SHARE/x/$x-R.h5"
				fi
				snap "$kind-$caches-$r-after"
			done
		done
		[ "$SHIFT" = 1 ] || continue
		kinds="own shift"
		[ $((r % 2)) = 0 ] && kinds="shift own"
		for kind in $kinds; do
			flag=
			[ $kind = shift ] && flag="--shift 1"
			x=$FS-$kind-$r
			snap "s-$kind-$r-before"
			# shellcheck disable=SC2086
			MPIRUN_OPTS="$MPIRUN_2NODES" PFS_NAMES="" PFS_TIMEOUT=900 pfs_run "s/$x" "$dir" create-unlink -m "$dir" \
				-t se,ub -f 200 -F 5 -s 64k $flag --results "$SHARE/s/$x.h5"
			snap "s-$kind-$r-after"
		done
	done
}
LIB

# pair_jobs FS DIR UP: the jobs of n1 and n2: UP (cluster_up, gluster_up
# VOLUME), then on n1 the runs and the rounds, while n2 waits.
pair_jobs() {
	local fs=$1 dir=$2 up=$3
	rm -f "$SHARE"/n?.{ready,done,unmounted,status}
	cat >"$SHARE/n1.job" <<-JOB
	. $SHARE/compare.lib
	$up
	wait_for $SHARE/n2.ready 600
	echo keep >$dir/foreign
	(cd $dir && find . | sort) >$SHARE/$fs.before
	MPIRUN_OPTS="\$MPIRUN_2NODES"
	compare_runs $fs $dir
	cross_rounds $fs $dir
	(cd $dir && find . | sort) >$SHARE/$fs.after
	touch $SHARE/n1.done
	wait_for $SHARE/n2.unmounted 120
	umount $dir
	JOB
	cat >"$SHARE/n2.job" <<-JOB
	$up
	touch $SHARE/n2.ready
	wait_for $SHARE/n1.done $VM_TIMEOUT
	umount $dir
	ip link set eth0 down
	touch $SHARE/n2.unmounted
	JOB
}

# phase_end FS VM...: waits for the VMs, keeps their logs.
phase_end() {
	local fs=$1 vm
	shift
	for vm in "$@"; do
		check "$fs: $vm ran its job and powered off" vm_wait "$vm" "$VM_TIMEOUT"
		check "$fs: $vm's job succeeded" test "$(cat "$SHARE/$vm.status" 2>/dev/null)" = 0
		cp "$SHARE/$vm.log" "$SHARE/$fs-$vm.log" 2>/dev/null
		cp "$SCRATCH/$vm.console" "$SHARE/$fs-$vm.console" 2>/dev/null
		[ "$T_FAILED" -eq 0 ] || vm_console "$vm"
	done
	LOAD+=("after $fs: $(cut -d' ' -f1-3 /proc/loadavg)")
	echo "# $fs done after $((SECONDS - t0)) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# ran NAME FSTYPE: run NAME (pfs_run's files) exited 0, its results file
# says FSTYPE and is complete.
ran() {
	vm_result "$1"
	check "$1: exit 0" test "$RC" -eq 0
	check "$1: results file: fstype $2" test "$(prov "$SHARE/$1.h5" fstype)" = "$2"
	check "$1: results file complete" test "$(prov "$SHARE/$1.h5" status)" = complete
	[ "$RC" -eq 0 ] || show_run
}

run_gfs2() {
	# A 3 s token timeout (corosync's default) split the pair when the
	# host was loaded (13 on 2 CPUs) and the lockspace was abandoned:
	# the measurement runs 10 times more patient.
	pair_jobs gfs2 /mnt/gfs2 "COROSYNC_TOKEN=30000 cluster_up"
	vm_cluster_start
	phase_end gfs2 n1 n2
}

# single_vm FS DIR UP QEMU-ARGS...: one VM of the pair's size (2 CPUs,
# 2 GiB) that runs UP (which mounts DIR), then the runs as 2 ranks named
# n1 and n2.
single_vm() {
	local fs=$1 dir=$2 up=$3
	shift 3
	cat >"$SHARE/$fs.job" <<-JOB
	. $SHARE/compare.lib
	$up
	echo keep >$dir/foreign
	(cd $dir && find . | sort) >$SHARE/$fs.before
	PFS_NAMES="n1 n2"
	compare_runs $fs $dir
	(cd $dir && find . | sort) >$SHARE/$fs.after
	umount $dir
	JOB
	VM_CPUS=2 VM_MEM=2048 vm_start "$fs" "$@"
	phase_end "$fs" "$fs"
}

run_glusterfs() {
	local b1 b2
	vm_disk_ext3 "$SCRATCH/brick1.img" 1G
	b1=("${VM_DISK[@]}")
	vm_disk_ext3 "$SCRATCH/brick2.img" 1G
	# the second disk's QEMU names differ from the first's
	b2=("${VM_DISK[@]/,id=d0,/,id=d1,}")
	b2=("${b2[@]/drive=d0/drive=d1}")
	# a network device that reaches nothing, for glusterd's address
	single_vm glusterfs /mnt/gluster "gluster_up pfsbench" "${b1[@]}" "${b2[@]}" \
		-netdev hubport,id=n0,hubid=0 -device virtio-net-pci,netdev=n0,mac=52:54:00:99:00:01
}

run_ext3() {
	vm_disk_ext3 "$SCRATCH/ext3.img" 1G
	single_vm ext3 /mnt/ext3 "mkdir -p /mnt/ext3 && mount -t ext3 /dev/vda /mnt/ext3" "${VM_DISK[@]}"
}

declare -A FSTYPE=([gfs2]=GFS2 [glusterfs]=FUSE.GLUSTERFS [ext3]=EXT3)
for fs in $FSES; do
	[ -n "${FSTYPE[$fs]:-}" ] || { not_ok "COMPARE_FS: no filesystem '$fs' (ext3, gfs2, glusterfs)"; finish; }
	start=$SECONDS
	"run_$fs"
	echo "# $fs took $((SECONDS - start)) s"
	ran "$fs-cu" "${FSTYPE[$fs]}"
	ran "$fs-tree" "${FSTYPE[$fs]}"
	check "$fs: nothing of the runs is left" diff "$SHARE/$fs.before" "$SHARE/$fs.after"
done
if [[ " $FSES " = *" ext3 "* ]]; then
	check "ext3: 2 nodes named n1 and n2, one rank each" \
		test "$(sed -n '/^Testing with/,/^$/p' "$SHARE/ext3-cu.out" | sed -n '2,3s/^ \([^ ]*\) .*/\1/p' | tr '\n' ' ')" = "n1 n2 "
fi

files() { local f; for f in $FSES; do echo "$SHARE/$f-$1.h5"; done; }
{
	echo "# pfsbench compare, create-unlink -f 200 -F 5 -s 64k -i $ITER, 2 nodes x 1 worker: $FSES"
	# shellcheck disable=SC2046 # a list of files
	"$PFSBENCH" compare $(files cu)
	echo
	echo "# pfsbench compare, tree -l 2 -d 3 -f 4 -s 2 -i $ITER, 2 nodes x 1 worker: $FSES"
	# shellcheck disable=SC2046
	"$PFSBENCH" compare $(files tree)
} >"$SHARE/compare.txt"
cat "$SHARE/compare.txt"

# sb_run NAME MACHINE: MACHINE's DLM requests between snapshots NAME-before
# and NAME-after.
sb_run() {
	sb_sum "$SHARE/stats/gfs2-$1-before-$2.sbstats" "$SHARE/stats/gfs2-$1-after-$2.sbstats" dlm
}

# Cross-node unlink.
fs=gfs2
if [[ " $FSES " = *" $fs "* ]]; then
	for f in "$SHARE"/x/"$fs"-*-C.h5; do
		x=$(basename "$f" -C.h5)
		ran "x/$x-C" "${FSTYPE[$fs]}"
		ran "x/$x-R" "${FSTYPE[$fs]}"
	done
	# (tree's report, fdtree's, lists no nodes: the results file does)
	check "$fs cross: the node named n2 ran on n1 (10.99.0.1), n1 on n2" \
		test "$("$PFSBENCH" export "$SHARE/x/$fs-cross-drop-1-R.h5" --json | python3 -c '
import json, sys
print(" ".join(n["name"] + "@" + n["addr"] for n in json.load(sys.stdin)["nodes"]))')" = "n2@10.99.0.1 n1@10.99.0.2"
	if [ $SHIFT = 1 ]; then
		for f in "$SHARE"/s/"$fs"-*.h5; do
			ran "s/$(basename "$f" .h5)" "${FSTYPE[$fs]}"
		done
		check "$fs shift: the report says n1 reads and unlinks n2's files" \
			grep -q "^Shift 1: .*node k reads and unlinks the files of node (k+1) mod 2" "$SHARE/s/$fs-shift-1.out"
	fi
	{
		for caches in $CACHES; do
			echo "# $fs, tree -R of the trees tree -C made, caches: $caches; own: each node removes its own tree; cross: each the other's"
			list=()
			for ((r = 1; r <= ROUNDS; r++)); do list+=("$SHARE/x/$fs-own-$caches-$r-R.h5"); done
			for ((r = 1; r <= ROUNDS; r++)); do list+=("$SHARE/x/$fs-cross-$caches-$r-R.h5"); done
			"$PFSBENCH" compare "${list[@]}"
			echo
		done
		if [ $SHIFT = 1 ]; then
			echo "# $fs, create-unlink -t se,ub -f 200 -F 5 -s 64k; own: each node reads and unlinks its own files; shift: with --shift 1, the other node's"
			list=()
			for ((r = 1; r <= ROUNDS; r++)); do list+=("$SHARE/s/$fs-own-$r.h5"); done
			for ((r = 1; r <= ROUNDS; r++)); do list+=("$SHARE/s/$fs-shift-$r.h5"); done
			"$PFSBENCH" compare "${list[@]}"
			echo
			echo "# $fs, create-unlink us a file of Read and Unlink, each row (kind, round, test, node, op, us/fil)"
			for f in "${list[@]}"; do
				k=$(basename "$f" .h5)
				"$PFSBENCH" show "$f" | awk -v k="${k#"$fs"-}" '($1 == "se" || $1 == "ub") && ($5 == "Read" || $5 == "Unlink") {printf "#   %-8s %s %s %-6s %8d\n", k, $1, $3, $5, $8}'
			done
			echo
		fi
	} >"$SHARE/cross-$fs.txt"
	cat "$SHARE/cross-$fs.txt"
fi

# GFS2's DLM requests in the cross-node runs: each machine, each run, and
# each step where the results file has the counters.
if [[ " $FSES " = *" gfs2 "* ]]; then
	{
		echo "# gfs2 tree -R: DLM requests (sbstats, all glock types) of each machine over the whole run, and in each step when recorded"
		printf '# %-5s %-6s %5s  %-6s  %12s %12s\n' kind caches round step "machine n1" "machine n2"
		for caches in $CACHES; do
			for kind in own cross; do
				for ((r = 1; r <= ROUNDS; r++)); do
					x=$kind-$caches-$r
					printf '# %-5s %-6s %5d  %-6s  %12d %12d\n' "$kind" "$caches" "$r" run "$(sb_run "$x" n1)" "$(sb_run "$x" n2)"
					fs_steps "$SHARE/x/gfs2-$x-R.h5" >"$SHARE/x/gfs2-$x-R.steps"
					# the node named n2 is machine n1 in a cross run
					m1=n1 m2=n2
					[ "$kind" = cross ] && m1=n2 m2=n1
					awk -F'\t' -v m1="$m1" -v m2="$m2" -v k="$kind" -v c="$caches" -v r="$r" '
						{for (i = 5; i <= NF; i += 5) d[$i] = $(i + 3)
						 if (d[m1] + d[m2]) printf "# %-5s %-6s %5d  %-6s  %12d %12d\n", k, c, r, "step " $3, d[m1], d[m2]}' \
						"$SHARE/x/gfs2-$x-R.steps"
				done
			done
		done
		if [ $SHIFT = 1 ]; then
			echo "# gfs2 create-unlink -t se,ub: DLM requests of each machine over the whole run, and in each step when recorded"
			printf '# %-5s %5s  %-36s %12s %12s\n' kind round step "machine n1" "machine n2"
			for kind in own shift; do
				for ((r = 1; r <= ROUNDS; r++)); do
					x=$kind-$r
					printf '# %-5s %5d  %-36s %12d %12d\n' "$kind" "$r" run "$(sb_run "s-$x" n1)" "$(sb_run "s-$x" n2)"
					fs_steps "$SHARE/s/gfs2-$x.h5" >"$SHARE/s/gfs2-$x.steps"
					awk -F'\t' -v k="$kind" -v r="$r" '
						{for (i = 5; i <= NF; i += 5) d[$i] = $(i + 3)
						 if (d["n1"] + d["n2"]) printf "# %-5s %5d  %-36s %12d %12d\n", k, r, $1 " " $3 ": " $4, d["n1"], d["n2"]}' \
						"$SHARE/s/gfs2-$x.steps"
				done
			done
		fi
	} >"$SHARE/cross-gfs2-dlm.txt"
	cat "$SHARE/cross-gfs2-dlm.txt"
fi

LOAD+=("end: $(cut -d' ' -f1-3 /proc/loadavg)")
printf '%s\n' "${LOAD[@]}" >"$SHARE/load.txt"
echo "# load: ${LOAD[*]}"
# The results files, repacked with gzip (a run's file shrinks from about
# 1.8 MB to 40 kB): small enough to keep next to the docs.
mkdir -p "$SHARE/small"
for f in "$SHARE"/*.h5 "$SHARE"/x/*-R.h5 "$SHARE"/s/*.h5; do
	[ -e "$f" ] && h5repack -f GZIP=9 "$f" "$SHARE/small/$(basename "$f")"
done
vm_keep "compare/${FSES// /-}" "$SHARE"/*.h5 "$SHARE"/*.out "$SHARE"/*.txt "$SHARE"/*.log "$SHARE"/*.console \
	"$SHARE/x" "$SHARE/s" "$SHARE/stats" "$SHARE/small"
echo "# compare.sh took $((SECONDS - t0)) s (TCG emulation: no figure here says anything about real hardware)"
finish
