#!/bin/bash
# two-vms.sh - pfsbench across a two-node GFS2 cluster of virtual machines
# (tests/gfs2/lib.sh): one raw image shared by both, lock_dlm through
# corosync and dlm_controld, mpirun on n1 starting a rank on each node over
# ssh. create-unlink (2 nodes x 1 worker, all five tests), then a small
# tree. Checks: the report lists both nodes with their addresses, se rows
# come in node order, every row is there, nothing is left (seen from both
# nodes), the results file says lock_dlm and pfsbench:gfs, and each node's
# kernel logged exactly one cache drop by pfsbench per step of each run.
# Prints the se and ua rows and what each run cost each node in DLM
# requests and queued glock holders (sbstats). Keeps the results files,
# reports, lock statistics and kernel logs in $GFS2_KEEP/two-vms (default
# /tmp/pfsbench-gfs2/two-vms). Root only; exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
gfs2_begin 2
M=/mnt/gfs2
cat >"$SHARE/n1.job" <<JOB
cluster_up
wait_for $SHARE/n2.ready 180
echo keep >$M/foreign
stats_snap before-cu
MPIRUN_OPTS="$MPIRUN_2NODES"
pfs_run cu $M create-unlink -m $M -f 200 -F 5 -s 64k --results $SHARE/cu.h5
stats_snap after-cu
touch $SHARE/n1.cu-done
wait_for $SHARE/n2.cu-done 60
pfs_run tree $M tree -o $M -l 2 -d 3 -f 4 -s 2 --results $SHARE/tree.h5
stats_snap after-tree
touch $SHARE/n1.done
wait_for $SHARE/n2.unmounted 60
umount $M
dmesg >$SHARE/n1.dmesg
JOB
cat >"$SHARE/n2.job" <<JOB
cluster_up
stats_snap before-cu
touch $SHARE/n2.ready
wait_for $SHARE/n1.cu-done 400
stats_snap after-cu
touch $SHARE/n2.cu-done
wait_for $SHARE/n1.done 300
stats_snap after-tree
(cd $M && find . | sort) >$SHARE/n2.after
umount $M
dmesg >$SHARE/n2.dmesg
# n1 powers off next: the link goes first, so that n2 does not go on talking to it
ip link set eth0 down
touch $SHARE/n2.unmounted
JOB
start=$SECONDS
vm_cluster_start
check "n1 ran its job and powered off within 540 s" vm_wait n1 540
check "n2 powered off" vm_wait n2 120
echo "# the VMs ran $((SECONDS - start)) s"
for n in n1 n2; do
	check "$n's job succeeded" test "$(cat "$SHARE/$n.status" 2>/dev/null)" = 0
done
[ "$T_FAILED" -eq 0 ] || { vm_console n1; vm_console n2; }

vm_result cu
echo "# $(head -1 "$OUT")"
check_create_unlink GFS2 $M "$SHARE/cu.h5"
check "the report lists n1 and n2 with their addresses" \
	test "$(sed -n '3,4p' "$OUT")" = "$(printf ' n1 10.99.0.1\n n2 10.99.0.2')"
check "2 nodes of 1 worker each" grep -qx "Testing with 2 nodes, 1 workers per node: " "$OUT"
check "se rows in node order: n1 then n2 for every op" test "$(rows | awk '$1 == "se" {printf "%s ", $3}')" = \
	"n1 n2 n1 n2 n1 n2 n1 n2 "
check "results file: lockproto lock_dlm" test "$(prov "$SHARE/cu.h5" lockproto)" = lock_dlm
check "results file: locktable pfsbench:gfs" test "$(prov "$SHARE/cu.h5" locktable)" = pfsbench:gfs
check "results file: caches dropped" test "$(prov "$SHARE/cu.h5" caches_dropped)" = True
check "n2 sees nothing left either" diff "$SHARE/n2.after" "$SHARE/cu.before"
echo "# se and ua rows (TCG emulation: these times say nothing about real hardware):"
rows | awk '$1 == "se" || $1 == "ua"' | sed 's/^/#   /'
[ "$T_FAILED" -eq 0 ] || show_run

vm_result tree
check_tree GFS2 $M "$SHARE/tree.h5"
[ "$T_FAILED" -eq 0 ] || show_run

# Each step of a run begins with its node leaders dropping caches, then a
# barrier; the kernel logs every drop with the writer's name and pid. So
# each node must log, for each run (one pfsbench pid a run), as many drops
# as the results file has steps.
steps() {
	"$PFSBENCH" export "$1" --csv | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
		{s[$c["test"] " " $c["iteration"] " " $c["step"]] = 1} END {print length(s)}'
}
for n in n1 n2; do
	drops=$(sed -n 's/.* pfsbench (\([0-9]*\)): drop_caches: 3$/\1/p' "$SHARE/$n.dmesg" | uniq -c | awk '{printf "%s ", $1}')
	check "$n dropped its caches once a step: create-unlink $(steps "$SHARE/cu.h5") times, tree $(steps "$SHARE/tree.h5")" \
		test "$drops" = "$(steps "$SHARE/cu.h5") $(steps "$SHARE/tree.h5") "
done

echo "# what each run cost each node, from sbstats (glock type, DLM requests, queued holders):"
for n in n1 n2; do
	echo "#   $n create-unlink: $(sb_deltas "$SHARE/stats/before-cu-$n.sbstats" "$SHARE/stats/after-cu-$n.sbstats")"
	echo "#   $n tree: $(sb_deltas "$SHARE/stats/after-cu-$n.sbstats" "$SHARE/stats/after-tree-$n.sbstats")"
done
vm_keep two-vms "$SHARE"/cu.* "$SHARE"/tree.* "$SHARE/stats" "$SHARE"/n?.dmesg
echo "# two-vms.sh took $((SECONDS - t0)) s"
finish
