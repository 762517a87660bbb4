#!/bin/bash
# test-hosts-launcher.sh - create_unlink_perf through the namespace hosts:
# the launcher runs inside pfsh1 with the rsh agent and the /24 injected by
# PFSBENCH_MPIRUN_ARGS, hosts given as pfsh3 pfsh1 pfsh2 with -w 2. The
# report must list the nodes in that order (so Open MPI's placement puts
# the first host's ranks first even when mpirun runs on another), 2
# workers each, and se rows in that order. Under MPICH ($MPI_IMPL, with
# MPIRUN=mpiexec.mpich) the launcher gives Hydra a -hosts list instead, and
# the agent goes in Hydra's options. Exit 77 = skipped.
. "$(dirname "$0")/hosts-test-lib.sh"
cup=${CREATE_UNLINK_PERF:-$here/../../src/launchers/create_unlink_perf}
[ -x "$cup" ] || skip "no launcher at '$cup' (run make first)"
hosts_begin 3

D=$SCRATCH/target
mkdir "$D"
if [ "${MPI_IMPL:-}" = mpich ]; then
    export PFSBENCH_MPIRUN_ARGS="-launcher ssh -launcher-exec $here/rsh-agent.sh -iface eth0"
    export UCX_NET_DEVICES=${UCX_NET_DEVICES:-eth0}
else
    export PFSBENCH_MPIRUN_ARGS="--mca plm_rsh_agent $here/rsh-agent.sh --mca btl tcp,self
    --mca btl_tcp_if_include $PFS_NET.0/24 --mca oob_tcp_if_include $PFS_NET.0/24"
fi
OUT=$SCRATCH/out ERR=$SCRATCH/err RC=0
start=$SECONDS
(cd "$SCRATCH" && timeout -k 5 120 "$here/netns-hosts.sh" run pfsh1 "$cup" -i2 -w 2 -m "$D" \
    pfsh3 pfsh1 pfsh2 -- -f 100 -F 3 -s 16k -t se,ua --no-drop-caches --results "$SCRATCH/l.h5") \
    >"$OUT" 2>"$ERR" || RC=$?
echo "# the launcher's run took $((SECONDS - start)) s"
ran_ok 3 2
check "nodes in the order given, with their addresses" test \
    "$(sed -n '3,5p' "$OUT")" = "$(printf ' pfsh3 10.231.77.13\n pfsh1 10.231.77.11\n pfsh2 10.231.77.12')"
check "se Creates of iteration 1: pfsh3, pfsh1, pfsh2, workers 1 and 2" test \
    "$(rows | awk '$1 == "se" && $2 == 1 && $5 == "Create" {print $3 ":" $4}' | xargs)" = \
    "pfsh3:1 pfsh3:2 pfsh1:1 pfsh1:2 pfsh2:1 pfsh2:2"
check "two iterations of se (48 rows) and ua (24 rows)" test \
    "$(rows | awk '{n[$1]++} END {print n["se"], n["ua"]}')" = "48 24"
check "ua starts with pfsh3's creates" test \
    "$(rows | awk '$1 == "ua" && $2 == 1 {print $3 ":" $5}' | sed -n '1,2p' | xargs)" = "pfsh3:Create pfsh3:Create"
check "nothing left in the target" test -z "$(ls -A "$D")"
check "the results file records the nodes in that order" test \
    "$(h5_nodes "$SCRATCH/l.h5" 2>&1 | awk '{print $1}' | xargs)" = "pfsh3 pfsh1 pfsh2"
[ "$T_FAILED" -eq 0 ] || show_run
finish
