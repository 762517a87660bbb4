#!/bin/bash
# test-slurm.sh - jobs/slurm/create-unlink.sbatch under a real Slurm: bring
# up slurm.sh's one-node cluster (munged, slurmctld, slurmd), submit the
# job with sbatch --wait as 1 node x 2 tasks with small counts from the
# environment, and check its output, the report and the HDF5 file, all
# next to the job's output and named by the job id. Every daemon is
# stopped at exit (trap). Exit 77 = skipped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PFSBENCH:=$here/../../src/pfsbench}"
export PFSBENCH
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
pfs_slurm_up
echo "# slurm up in $((SECONDS - start)) s"

# The job's parameters, as a user would set them; the Slurm daemons run
# as root, so the job does too, and Open MPI must be told that is fine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PFSBENCH_DIR=$SCRATCH/target PFSBENCH_ITERATIONS=2 PFSBENCH_FILES=200 \
    PFSBENCH_WRITE_FILES=5 PFSBENCH_SIZE=64k PFSBENCH_TESTS=se,ua PFSBENCH_OPTS=--no-drop-caches
mkdir "$PFSBENCH_DIR" "$SCRATCH/jobs"
start=$SECONDS
RC=0
job=$(cd "$SCRATCH" && timeout 180 sbatch --parsable --wait -N 1 --ntasks-per-node=2 \
    -o "$SCRATCH/jobs/pfsbench-create-unlink.%j.out" "$here/../../jobs/slurm/create-unlink.sbatch") || RC=$?
echo "# job $job took $((SECONDS - start)) s"
base=$SCRATCH/jobs/pfsbench-create-unlink.$job
OUT=$base.txt ERR=$base.out
if [ "$RC" -eq 0 ]; then ok "sbatch --wait: the job exited 0"; else not_ok "sbatch --wait: status $RC"; show_run; fi
check "the job's output names the report" grep -qF "report $base.txt" "$base.out"
check "the report is next to the job's output, named by the job id" test -s "$OUT"
check "the report: 1 node, 2 workers" grep -qx "Testing with 1 nodes, 2 workers per node: " "$OUT"
check "the report: 24 rows (se 16, ua 8), then Done." test \
    "$(rows | awk '{n[$1]++} END {print n["se"], n["ua"]}') $(tail -n 1 "$OUT")" = "16 8 Done."
check "the report: iterations 1 and 2" test "$(rows | awk '{print $2}' | sort -u | xargs)" = "1 2"
check "nothing left in the target" test -z "$(ls -A "$PFSBENCH_DIR")"
check "the results file is next to them and gives the same report" \
    diff -q <("$PFSBENCH" show "$base.h5" 2>&1) "$OUT"
finish
