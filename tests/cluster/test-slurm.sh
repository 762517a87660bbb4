#!/bin/bash
# test-slurm.sh - jobs/slurm/pfsbench.sbatch (create-unlink) under a real Slurm.
# With PFS_SLURM_HOSTS=N (test-slurm-hosts.sh: 3) the cluster is N
# namespace hosts, slurmctld in pfsh1 and one slurmd in each, so mpirun
# starts its daemons on the other nodes through srun; without it, slurm.sh's
# one-node cluster on this machine. The job is submitted with sbatch --wait
# as N nodes x 2 tasks with small counts from the environment; then its
# output, the report (nodes, addresses, workers, rows) and the HDF5 file,
# all next to the job's output and named by the job id, are checked. Every
# daemon (and host) is stopped at exit (trap). Exit 77 = skipped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PFSBENCH:=$here/../../src/pfsbench}"
export PFSBENCH
nhosts=${PFS_SLURM_HOSTS:-0}
# shellcheck source=netns-hosts.sh
[ "$nhosts" -eq 0 ] || . "$here/netns-hosts.sh"
# shellcheck source=slurm.sh
. "$here/slurm.sh"
# shellcheck source=../mpi/lib.sh
. "$here/../mpi/lib.sh"
set -euo pipefail              # mpi/lib.sh only sets -u
[ -x "$PFSBENCH" ] || skip "no pfsbench binary at '$PFSBENCH' (run make first)"
command -v mpirun >/dev/null || need_pkg openmpi-bin
pfs_cluster_lock
T_CLEANUP+=("pfs_slurm_down")
trap 'exit 130' INT TERM
start=$SECONDS
if [ "$nhosts" -gt 0 ]; then
    T_CLEANUP+=("pfs_hosts_down")  # runs first: cleanups run last-in first-out
    pfs_hosts_up "$nhosts"
    # the namespaces have only lo and eth0; keep MPI on the hosts' /24
    export PFSBENCH_MPIRUN_ARGS="--mca btl tcp,self --mca btl_tcp_if_include $PFS_NET.0/24
        --mca oob_tcp_if_include $PFS_NET.0/24"
fi
pfs_slurm_up
echo "# slurm up in $((SECONDS - start)) s"

# The job's parameters, as a user would set them; the Slurm daemons run
# as root, so the job does too, and Open MPI must be told that is fine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PFSBENCH_WORKLOAD=create-unlink PFSBENCH_DIR=$SCRATCH/target PFSBENCH_ITERATIONS=2 \
    PFSBENCH_OPTS="-f 200 -F 5 -s 64k -t se,ua --no-drop-caches"
mkdir "$PFSBENCH_DIR" "$SCRATCH/jobs"
nodes=$((nhosts > 0 ? nhosts : 1))
start=$SECONDS
RC=0
job=$(cd "$SCRATCH" && pfs_slurm_run timeout 180 sbatch --parsable --wait -N "$nodes" \
    --ntasks-per-node=2 -o "$SCRATCH/jobs/pfsbench-create-unlink.%j.out" \
    "$here/../../jobs/slurm/pfsbench.sbatch") || RC=$?
echo "# job $job took $((SECONDS - start)) s"
base=$SCRATCH/jobs/pfsbench-create-unlink.$job
OUT=$base.txt ERR=$base.out
if [ "$RC" -eq 0 ]; then ok "sbatch --wait: the job exited 0"; else not_ok "sbatch --wait: status $RC"; show_run || true; fi
check "the job's output names the report" grep -qF "report $base.txt" "$base.out"
check "the report is next to the job's output, named by the job id" test -s "$OUT"
check "the report: $nodes nodes, 2 workers each" \
    grep -qx "Testing with $nodes nodes, 2 workers per node: " "$OUT"
if [ "$nhosts" -gt 0 ]; then
    check "the report: the nodes in Slurm's order, with their addresses" test \
        "$(sed -n "3,$((2 + nhosts))p" "$OUT" | xargs)" = \
        "$(for h in $(pfs_hosts_list); do echo "$h $(pfs_host_ip "$h")"; done | xargs)"
fi
check "the report: se $((16 * nodes)) and ua $((8 * nodes)) rows, then Done." test \
    "$(rows | awk '{n[$1]++} END {print n["se"], n["ua"]}') $(tail -n 1 "$OUT")" = \
    "$((16 * nodes)) $((8 * nodes)) Done."
check "the report: iterations 1 and 2" test "$(rows | awk '{print $2}' | sort -u | xargs)" = "1 2"
check "nothing left in the target" test -z "$(ls -A "$PFSBENCH_DIR")"
check "the results file is next to them and gives the same report" \
    diff -q <("$PFSBENCH" show "$base.h5" 2>&1) "$OUT"

# The same script, another workload: stream, every rank its own file.
RC=0
job=$(cd "$SCRATCH" && PFSBENCH_WORKLOAD=stream PFSBENCH_ITERATIONS= PFSBENCH_OPTS="-b 64k -s 256k" \
    pfs_slurm_run timeout 180 sbatch --parsable --wait -N "$nodes" --ntasks-per-node=2 \
    -o "$SCRATCH/jobs/pfsbench.%j.out" "$here/../../jobs/slurm/pfsbench.sbatch") || RC=$?
base=$SCRATCH/jobs/pfsbench-stream.$job
OUT=$base.txt ERR=$SCRATCH/jobs/pfsbench.$job.out
if [ "$RC" -eq 0 ]; then ok "stream job: exited 0"; else not_ok "stream job: status $RC"; show_run || true; fi
check "stream job: a Write row per worker, $((2 * nodes))" \
    test "$(grep -cE '^ seq +1 .* Write +[0-9]+ +4 +262144 ' "$OUT")" -eq $((2 * nodes))
check "stream job: nothing left in the target" test -z "$(ls -A "$PFSBENCH_DIR")"
check "stream job: its results file gives the same report" \
    diff -q <("$PFSBENCH" show "$base.h5" 2>&1) "$OUT"
finish
