#!/bin/bash
# single-vm.sh - pfsbench on GFS2 in one virtual machine (tests/gfs2/lib.sh):
# a lock_nolock GFS2 made on a raw image, create-unlink on 2 ranks and a
# small tree. The report's first line says GFS2, every row is there, nothing
# is left on the filesystem, and the results file records the type, the
# mount source and options, and GFS2's lock protocol and table. Root only;
# exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
gfs2_begin 1
vm_disk "$SCRATCH/gfs2.img" 512M -p lock_nolock -j 1 -J 16 -t pfsbench:single
M=/mnt/gfs2
cat >"$SHARE/vm.job" <<JOB
mkdir -p $M
mount -t gfs2 /dev/vda $M
echo keep >$M/foreign
pfs_run cu $M create-unlink -m $M -f 200 -F 5 -s 64k --results $SHARE/cu.h5
pfs_run tree $M tree -o $M -l 2 -d 3 -f 4 -s 2 --results $SHARE/tree.h5
umount $M
JOB
start=$SECONDS
vm_start vm "${VM_DISK[@]}"
check "the VM ran its job and powered off within 900 s" vm_wait vm 900
check "the job succeeded" test "$(cat "$SHARE/vm.status" 2>/dev/null)" = 0
echo "# the VM ran $((SECONDS - start)) s"

vm_result cu
echo "# $(head -1 "$OUT")"
check_create_unlink GFS2 $M "$SHARE/cu.h5"
check "GFS2: results file: mount source /dev/vda" test "$(prov "$SHARE/cu.h5" mount_source)" = /dev/vda
opts=$(prov "$SHARE/cu.h5" mount_options)
echo "# mount options recorded: $opts"
check "GFS2: results file: mount options are GFS2's (localflocks, as lock_nolock implies)" \
	grep -qx localflocks <<<"$(tr , '\n' <<<"$opts")"
check "GFS2: results file: lockproto lock_nolock" test "$(prov "$SHARE/cu.h5" lockproto)" = lock_nolock
check "GFS2: results file: locktable pfsbench:single" test "$(prov "$SHARE/cu.h5" locktable)" = pfsbench:single
[ "$T_FAILED" -eq 0 ] || { show_run; vm_console vm; }

vm_result tree
check_tree GFS2 $M "$SHARE/tree.h5"
check "GFS2: tree results file: lockproto lock_nolock" test "$(prov "$SHARE/tree.h5" lockproto)" = lock_nolock
[ "$T_FAILED" -eq 0 ] || { show_run; vm_console vm; }
echo "# single-vm.sh took $((SECONDS - t0)) s (TCG emulation: no figure here says anything about real hardware)"
finish
