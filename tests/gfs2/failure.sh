#!/bin/bash
# failure.sh - a node of the two-node GFS2 cluster dies mid-run
# (tests/gfs2/lib.sh): create-unlink across n1 and n2, many iterations;
# once both nodes have done their first se steps, n2's virtual machine is
# killed (kill -9 of its QEMU: no shutdown, no unmount). mpirun on n1 must
# end within a bounded time with a non-zero status and a message naming
# n2; the results file keeps the rows so far and says the run was aborted;
# n1 recovers n2's journal and can remove what the run left on the GFS2.
# Prints the time from the kill to mpirun's end. Keeps the partial results
# file and the report in $GFS2_KEEP/failure (default
# /tmp/pfsbench-gfs2/failure). Root only; exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
gfs2_begin 2
M=/mnt/gfs2
# Open MPI notices a silent host by TCP keepalive on its daemons' links:
# after 5 s idle, 3 probes 2 s apart (as tests/cluster/test-hosts-failures.sh).
KEEPALIVE="--mca oob_tcp_keepalive_time 5 --mca oob_tcp_keepalive_intvl 2 --mca oob_tcp_keepalive_probes 3"
LIMIT=90 # seconds from the kill to mpirun's end
# corosync's token: 10 s, not its default 3 s, which split the emulated
# pair at a load of 19 (two-vms.sh); n2's death is still known to n1's
# DLM well inside LIMIT.
cat >"$SHARE/n1.job" <<JOB
COROSYNC_TOKEN=10000 cluster_up
wait_for $SHARE/n2.ready 540
MPIRUN_OPTS="$MPIRUN_2NODES $KEEPALIVE"
PFS_TIMEOUT=300
pfs_run fail $M create-unlink -m $M -f 50 -F 2 -s 64k -i 500 --results $SHARE/fail.h5
"\$PFSBENCH" show $SHARE/fail.h5 >$SHARE/fail.show 2>&1
ls $M >$SHARE/left
rm -rf $M/pfsbench.* && touch $SHARE/removed
ls -A $M >$SHARE/left-after
umount $M
dmesg >$SHARE/n1.dmesg
JOB
cat >"$SHARE/n2.job" <<JOB
COROSYNC_TOKEN=10000 cluster_up
touch $SHARE/n2.ready
sleep 600
JOB
vm_cluster_start
# Both nodes have done a step once n2's se Create row is out.
for ((i = 0; i < 1500; i++)); do
	grep -q '^ se .* n2 .* Create ' "$SHARE/fail.out" 2>/dev/null && break
	kill -0 "${VM_PID[n1]}" 2>/dev/null || break
	sleep 0.2
done
check "the run got going: n2's se Create row is out" grep -q '^ se .* n2 .* Create ' "$SHARE/fail.out"
[ "$T_FAILED" -eq 0 ] || { vm_console n1; vm_console n2; finish; }
echo "# killing n2 $((SECONDS - t0)) s after the start"
T0=$(date +%s%N)
vm_kill n2
for ((i = 0; i < 1500; i++)); do
	[ -s "$SHARE/fail.rc" ] && break
	sleep 0.2
done
TOOK=$(((($(date +%s%N) - T0) / 1000000 + 500) / 1000))
RC=$(cat "$SHARE/fail.rc" 2>/dev/null || echo none)
echo "# mpirun on n1 ended $TOOK s after n2 was killed, status $RC; it said:"
grep -v '^ *$' "$SHARE/fail.err" | sed 's/^/#   /'
if [ "$RC" != none ] && [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ] && [ "$TOOK" -le "$LIMIT" ]; then
	ok "mpirun ended within $LIMIT s ($TOOK s), status $RC"
else
	not_ok "mpirun: status $RC after $TOOK s (124: killed by the guest's 300 s timeout)"
fi
check "the message names n2" grep -q "n2" "$SHARE/fail.err"
check "n1 finished its job and powered off" vm_wait n1 600
check "n1's job succeeded" test "$(cat "$SHARE/n1.status" 2>/dev/null)" = 0
check "the results file keeps the rows so far, n2's too" grep -q '^ se .* n2 ' "$SHARE/fail.show"
check "the results file says the run was aborted" test "$(tail -n 1 "$SHARE/fail.show" | cut -c1-15)" = "Status: aborted"
check "n1's DLM removed n2 from the lockspace" grep -q "dlm: gfs: remove member 2$" "$SHARE/n1.dmesg"
# n1's own journal is the one of its fsid (pfsbench:gfs.<jid>); the other is n2's.
own=$(sed -n 's/.*gfs2: fsid=pfsbench:gfs\.\([01]\): .*/\1/p' "$SHARE/n1.dmesg" | head -1)
check "n1 replayed n2's journal (jid $((1 - ${own:-1})))" \
	grep -q "gfs2: fsid=pfsbench:gfs.$own: recover jid $((1 - ${own:-1})) result success" "$SHARE/n1.dmesg"
echo "# n1's kernel on the recovery:"
grep -E "remove member|recover jid|Journal replayed" "$SHARE/n1.dmesg" | sed 's/^/#   /'
check "the run left one directory, and n1 could remove it" \
	test "$(grep -c '^pfsbench\.' "$SHARE/left") $(test -e "$SHARE/removed" && echo removed)" = "1 removed"
check "nothing is left on the GFS2 but it" test "$(cat "$SHARE/left-after")" = ""
[ "$T_FAILED" -eq 0 ] || { vm_console n1; tail -20 "$SHARE/fail.show"; }
vm_keep failure "$SHARE"/fail.* "$SHARE/n1.dmesg"
echo "# failure.sh took $((SECONDS - t0)) s (TCG emulation: no figure here says anything about real hardware)"
finish
