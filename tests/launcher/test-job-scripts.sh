#!/bin/bash
# test-job-scripts.sh - the batch job scripts in jobs/ outside a batch
# system: each is run with the variables its scheduler would set and an
# mpirun that only records its command line. Checks the pfsbench command
# each builds from the PFSBENCH_* variables (one meaning per name in every
# script), and that a root job without Open MPI's permission, or without a
# pfsbench binary, stops with exit 2 and one clear line before it writes a
# report. test-slurm.sh runs the Slurm scripts for real. Runs no MPI job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jobs=${SRCDIR:-$here/../..}/jobs
passed=0 failed=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# An mpirun that writes its arguments, one a line, and Open MPI's quiet
# setting, and exits $MPIRUN_STATUS (default 0).
cat >"$scratch/mpirun" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$MPIRUN_LOG"
printf '%s\n' "${OMPI_MCA_orte_execute_quiet-unset}" >"$MPIRUN_LOG.quiet"
exit "${MPIRUN_STATUS:-0}"
EOF
chmod +x "$scratch/mpirun"
printf 'n1\nn1\nn2\nn2\n' >"$scratch/nodefile"
touch "$scratch/pfsbench"
chmod +x "$scratch/pfsbench"

# job SCRIPT: runs it in a scheduler's environment (job id 42, 4 tasks),
# with the extra VAR=VALUE words in $JOB_ENV; stdout+stderr in $scratch/out,
# the recorded mpirun arguments in $scratch/args, status in $RC.
job() {
    local -a env_words=()
    read -r -a env_words <<<"${JOB_ENV:-}"
    rm -f "$scratch/args" "$scratch/args.quiet" "$scratch"/pfsbench-*
    RC=0
    env -i PATH="$PATH" HOME="$scratch" MPIRUN="$scratch/mpirun" MPIRUN_LOG="$scratch/args" \
        PFSBENCH="$scratch/pfsbench" PFSBENCH_OUTDIR="$scratch" \
        SLURM_JOB_ID=42 SLURM_NTASKS=4 SLURM_JOB_NODELIST='n[1-2]' SLURM_SUBMIT_DIR="$scratch" \
        PBS_JOBID=42.server PBS_NODEFILE="$scratch/nodefile" PBS_O_WORKDIR="$scratch" \
        LSB_JOBID=42 LSB_DJOB_HOSTFILE="$scratch/nodefile" LS_SUBCWD="$scratch" \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        "${env_words[@]}" bash "$1" >"$scratch/out" 2>&1 || RC=$?
}

# The pfsbench part of the recorded command line, one word a line.
pfsbench_args() {
    sed -n "\\|^$scratch/pfsbench\$|,\$p" "$scratch/args" | sed 1d
}

cu_scripts=(slurm/create-unlink.sbatch pbs/create-unlink.pbs lsf/create-unlink.lsf)
for s in "${cu_scripts[@]}"; do
    JOB_ENV="PFSBENCH_DIR=/mnt/x PFSBENCH_ITERATIONS=3 PFSBENCH_FILES=100 PFSBENCH_WRITE_FILES=10 PFSBENCH_SIZE=1m PFSBENCH_TESTS=se,pa PFSBENCH_OPTS=--no-fsync" \
        job "$jobs/$s"
    check "$s: exit 0" test "$RC" -eq 0
    want="create-unlink -m /mnt/x -i 3 -f 100 -F 10 -s 1m -t se,pa --results $scratch/pfsbench-create-unlink.42.h5 --no-fsync"
    check "$s: the PFSBENCH_* variables make the command line" test "$(pfsbench_args | xargs)" = "$want"
    check "$s: the report lands beside the results file" test -f "$scratch/pfsbench-create-unlink.42.txt"
done

JOB_ENV="PFSBENCH_DIR=/mnt/x PFSBENCH_TREE_LEVELS=2 PFSBENCH_TREE_DIRS=3 PFSBENCH_TREE_FILES=4 PFSBENCH_TREE_BLOCKS=5" \
    job "$jobs/slurm/tree.sbatch"
check "tree.sbatch: exit 0" test "$RC" -eq 0
check "tree.sbatch: 3 iterations by default, PFSBENCH_TREE_* for the tree's own options" \
    test "$(pfsbench_args | xargs)" = "tree -o /mnt/x -i 3 -l 2 -d 3 -f 4 -s 5 --results $scratch/pfsbench-tree.42.h5"
# PFSBENCH_FILES and PFSBENCH_SIZE are create-unlink's (files per worker,
# bytes per file): the tree script leaves them alone.
JOB_ENV="PFSBENCH_FILES=100 PFSBENCH_SIZE=4m PFSBENCH_ITERATIONS=1" job "$jobs/slurm/tree.sbatch"
check "tree.sbatch: PFSBENCH_FILES and PFSBENCH_SIZE do not change the tree, PFSBENCH_ITERATIONS does" \
    test "$(pfsbench_args | xargs)" = "tree -o /mnt/gfs2 -i 1 -l 3 -d 5 -f 10 -s 1 --results $scratch/pfsbench-tree.42.h5"

# After a refusal (exit 2) mpirun's 8-11 lines of boilerplate buried
# pfsbench's one line: the scripts run it quiet, and say themselves when
# the status is mpirun's (a rank or node died), since quiet mpirun does not.
for s in "${cu_scripts[@]}" slurm/tree.sbatch; do
    JOB_ENV="MPIRUN_STATUS=2" job "$jobs/$s"
    check "$s: mpirun runs quiet" test "$(cat "$scratch/args.quiet")" = 1
    check "$s: pfsbench's exit 2 is the job's, with no line of the script's but the status" \
        test "$RC" -eq 2 -a "$(grep -c 'mpirun ended the run' "$scratch/out")" -eq 0
    JOB_ENV="MPIRUN_STATUS=139" job "$jobs/$s"
    check "$s: status 139 is the job's, and its last line says mpirun ended the run" \
        test "$RC" -eq 139 -a "$(tail -1 "$scratch/out" | sed 's/^job 42[.a-z]*: //' | cut -c1-22)" = "mpirun ended the run: "
    JOB_ENV="OMPI_MCA_orte_execute_quiet=0" job "$jobs/$s"
    check "$s: OMPI_MCA_orte_execute_quiet=0 brings mpirun's messages back" \
        test "$(cat "$scratch/args.quiet")" = 0
done

for s in "${cu_scripts[@]}" slurm/tree.sbatch; do
    JOB_ENV="PFSBENCH=$scratch/nonexistent" job "$jobs/$s"
    check "$s: no pfsbench binary: exit 2" test "$RC" -eq 2
    check "$s: no pfsbench binary: one line naming PFSBENCH" \
        test "$(cat "$scratch/out")" = "job: no pfsbench at '$scratch/nonexistent': set PFSBENCH to its path (the same on every node)"
    check "$s: no pfsbench binary: mpirun never ran, no report written" \
        test ! -e "$scratch/args" -a -z "$(ls "$scratch" | grep '^pfsbench-' || true)"
    if [ "$(id -u)" -eq 0 ]; then
        JOB_ENV="OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=" job "$jobs/$s"
        check "$s: root without Open MPI's permission: exit 2" test "$RC" -eq 2
        check "$s: root without Open MPI's permission: the reason" grep -q \
            "^job: running as root: Open MPI refuses root unless OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set" \
            "$scratch/out"
        check "$s: root without permission: mpirun never ran, no report written" \
            test ! -e "$scratch/args" -a -z "$(ls "$scratch" | grep '^pfsbench-' || true)"
    fi
done
[ "$(id -u)" -eq 0 ] || echo "# not root: the scripts' root check is not exercised"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
