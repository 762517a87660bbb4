#!/bin/bash
# lvm.sh - perf_matrix (the seed cmirror-perf_matrix.txt) on LVM in one
# virtual machine (tests/blockdev/lib.sh) with two disks, /dev/vda and
# /dev/vdb: one volume group on both, and three logical volumes of the same
# size, the seed's comparison on LVM 2.03 (Debian 12), which has no
# cmirrord:
#   linear   on /dev/vda
#   mirror   --type mirror, a leg on each disk, its log in memory
#            (--mirrorlog core: a log on disk wants a third device)
#   raid1    --type raid1 (dm-raid over md's raid1), a leg on each disk
# each measured, once its legs are in sync (copy_percent 100), by the
# perf_matrix launcher with the seed's operands, of= then if=, iter=3, on a
# small matrix (requests 4k, 64k, 1m; transfers 1m, 4m) so that the
# emulator gets through it; then `perf_matrix diff` (pfsbench compare) of
# mirror against linear and raid1 against linear, writes and reads.
# Checks: every run exits 0 and prints perf_matrix's lines (a line a
# transfer size, a cell a request size, every cell measured), its results
# file is complete and names the LV; the LVs are what they say (segment
# type, legs on both disks, device-mapper's mirror and raid targets); the
# diff of the two results files has the same cells as perf_matrix's diff of
# their text outputs. No rate is judged: under TCG the figures are the
# emulator's (docs/blockdev.md). Prints each results file's `show
# --fs-stats` and provenance, and keeps them in $GFS2_KEEP/lvm (default
# /tmp/pfsbench-blockdev/lvm). Root only; exit 77 = skipped, with the
# reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
blockdev_begin "booting a virtual machine with LVM" lvm2
LVS=(linear mirror raid1)
# the matrix: perf_matrix's operands and a small size list
# shellcheck disable=SC2054 # the size lists' commas
MATRIX=(iter=3 --force --req 4k,64k,1m --xfer 1m,4m)
cat >"$SHARE/vm.job" <<JOB
set -e
PS4='+ \${SECONDS}s '
. $GFS2_HERE/../blockdev/guest.sh
lvm_setup
pvcreate -q /dev/vda /dev/vdb
vgcreate -q pfs /dev/vda /dev/vdb
lvcreate -q -y -n linear -L 16M pfs /dev/vda
lvcreate -q -y --type mirror -m 1 --mirrorlog core -n mirror -L 16M pfs /dev/vda /dev/vdb
lvcreate -q -y --type raid1 -m 1 -n raid1 -L 16M pfs /dev/vda /dev/vdb
start=\$SECONDS
lvm_wait_sync pfs/mirror 600
lvm_wait_sync pfs/raid1 600
echo "in sync after \$((SECONDS - start)) s" >$SHARE/sync-time
lvs -a --noheadings --separator '|' -o lv_name,segtype,copy_percent,devices pfs >$SHARE/lvs.txt
dmsetup table >$SHARE/dmtable.txt
MPIRUN_OPTS="-np 1" PFS_PROG=\$PERF_MATRIX
for lv in ${LVS[*]}; do
	pfs_run \$lv-write - of=/dev/pfs/\$lv ${MATRIX[*]} --results $SHARE/\$lv-write.h5
done
for lv in ${LVS[*]}; do
	pfs_run \$lv-read - if=/dev/pfs/\$lv ${MATRIX[*]} --results $SHARE/\$lv-read.h5
done
vgchange -q -an pfs
JOB
vm_blank "$SCRATCH/a.img" 128M d0
disks=("${VM_DISK[@]}")
vm_blank "$SCRATCH/b.img" 128M d1
start=$SECONDS
vm_start vm "${disks[@]}" "${VM_DISK[@]}"
check "the VM ran its job and powered off within 1800 s" vm_wait vm 1800
check "the job succeeded" test "$(cat "$SHARE/vm.status" 2>/dev/null)" = 0
echo "# the VM ran $((SECONDS - start)) s; mirror and raid1 $(cat "$SHARE/sync-time" 2>/dev/null)"
[ "$T_FAILED" -eq 0 ] || vm_console vm

# lv FIELD LV: a field of lvs.txt (lv_name segtype copy_percent devices)
lv() {
	awk -F'|' -v lv="$2" -v f="$1" '{gsub(/^ +| +$/, "", $1)} $1 == lv {print $f}' "$SHARE/lvs.txt"
}
check "linear: segment type linear, on /dev/vda" test "$(lv 2 linear) $(lv 4 linear)" = "linear /dev/vda(0)"
check "mirror: segment type mirror, in sync" test "$(lv 2 mirror) $(lv 3 mirror)" = "mirror 100.00"
check "mirror: a leg on each disk" test "$(lv 4 '[mirror_mimage_0]' | cut -d'(' -f1) $(lv 4 '[mirror_mimage_1]' | cut -d'(' -f1)" = "/dev/vda /dev/vdb"
check "raid1: segment type raid1, in sync" test "$(lv 2 raid1) $(lv 3 raid1)" = "raid1 100.00"
check "raid1: a leg on each disk" test "$(lv 4 '[raid1_rimage_0]' | cut -d'(' -f1) $(lv 4 '[raid1_rimage_1]' | cut -d'(' -f1)" = "/dev/vda /dev/vdb"
check "device-mapper: pfs-mirror is a mirror target, 2 legs, core log" \
	grep -Eq '^pfs-mirror: 0 32768 mirror core [0-9 ]+2 ' "$SHARE/dmtable.txt"
check "device-mapper: pfs-raid1 is a raid target, raid1" grep -Eq '^pfs-raid1: 0 32768 raid raid1 ' "$SHARE/dmtable.txt"

# matrix_checks NAME LV: run NAME's output and results file
matrix_checks() {
	local name=$1 lv=$2
	vm_result "$name"
	check "$name: perf_matrix exits 0" test "$RC" -eq 0
	check "$name: perf_matrix's lines, 2 transfer sizes x 3 request sizes, every cell measured" \
		test "$(sed -n '/^$/q;p' "$OUT" | grep -Ec '^( [1-9][0-9]*\.[0-9]{2}| 0\.0[1-9]| 0\.[1-9][0-9]){3}$')" = 2
	check "$name: results file complete" test "$(prov "$SHARE/$name.h5" status)" = complete
	check "$name: results file names /dev/pfs/$lv" \
		grep -q "=/dev/pfs/$lv " <<<"$(prov "$SHARE/$name.h5" command_line)"
}
for lv in "${LVS[@]}"; do
	for op in write read; do
		matrix_checks "$lv-$op" "$lv"
	done
done
[ "$T_FAILED" -eq 0 ] || for lv in "${LVS[@]}"; do vm_result "$lv-write"; show_run; vm_result "$lv-read"; show_run; done

# diff_cells FILE: the percentages of a diff, a line a row, from
# perf_matrix's lines or from the table under compare's header
diff_cells() {
	grep -E '^ *[0-9]+[KMG]iB .*%$|^ -?[0-9.]+%' "$1" | sed -E 's/^ *[0-9]+[KMG]iB//; s/ +/ /g; s/^ //'
}
for lv in mirror raid1; do
	for op in write read; do
		"$PERF_MATRIX" diff "$SHARE/linear-$op.h5" "$SHARE/$lv-$op.h5" >"$SHARE/$lv-$op.diff" 2>&1
		check "$lv against linear, ${op}s: perf_matrix diff of the results files exits 0" test $? -eq 0
		"$PERF_MATRIX" diff "$SHARE/linear-$op.out" "$SHARE/$lv-$op.out" >"$SHARE/$lv-$op.textdiff" 2>&1
		check "$lv against linear, ${op}s: perf_matrix diff of the text outputs exits 0" test $? -eq 0
		check "$lv against linear, ${op}s: the same 2 x 3 cells either way" \
			test "$(diff_cells "$SHARE/$lv-$op.diff")" = "$(diff_cells "$SHARE/$lv-$op.textdiff")" -a \
			"$(diff_cells "$SHARE/$lv-$op.textdiff" | wc -w)" = 6
		echo "# $lv against linear, ${op}s (TCG emulation: only the ratios mean something):"
		sed 's/^/#   /' "$SHARE/$lv-$op.diff"
	done
done
echo "# the matrices, MiB/s (rows 1m, 4m; columns 4k, 64k, 1m):"
for lv in "${LVS[@]}"; do
	for op in write read; do
		echo "#   $lv $op: $(sed -n '/^$/q;p' "$SHARE/$lv-$op.out" | tr '\n' '/')"
	done
done
h5s=()
for lv in "${LVS[@]}"; do h5s+=("$SHARE/$lv-write.h5" "$SHARE/$lv-read.h5"); done
results_info "${h5s[@]}"
vm_keep lvm "$SHARE"/*.h5 "$SHARE"/*.out "$SHARE"/*diff "$SHARE/lvs.txt" "$SHARE/dmtable.txt" "$SHARE/vm.log"
echo "# lvm.sh took $((SECONDS - t0)) s"
finish
