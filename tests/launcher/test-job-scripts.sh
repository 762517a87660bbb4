#!/bin/bash
# test-job-scripts.sh - the batch job scripts in jobs/ outside a batch
# system: each is run with the variables its scheduler would set and an
# mpirun that only records its command line. Checks the pfsbench command
# each builds for every workload from the PFSBENCH_* variables (one meaning
# per name in every script), and that a job without PFSBENCH_DIR, with an
# unknown workload, without a pfsbench binary or as root without Open MPI's
# permission stops with exit 2 and one clear line before it writes a
# report. tests/cluster/test-slurm.sh runs the Slurm script for real. Runs
# no MPI job.
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

# job SCRIPT [VAR=VALUE...]: runs it in a scheduler's environment (job id
# 42, 4 tasks) with those variables; stdout+stderr in $scratch/out, the
# recorded mpirun arguments in $scratch/args, status in $RC.
job() {
    local script=$1
    shift
    rm -f "$scratch/args" "$scratch/args.quiet" "$scratch"/pfsbench-*
    RC=0
    env -i PATH="$PATH" HOME="$scratch" MPIRUN="$scratch/mpirun" MPIRUN_LOG="$scratch/args" \
        PFSBENCH="$scratch/pfsbench" PFSBENCH_OUTDIR="$scratch" \
        SLURM_JOB_ID=42 SLURM_NTASKS=4 SLURM_JOB_NODELIST='n[1-2]' SLURM_SUBMIT_DIR="$scratch" \
        PBS_JOBID=42.server PBS_NODEFILE="$scratch/nodefile" PBS_O_WORKDIR="$scratch" \
        LSB_JOBID=42 LSB_DJOB_HOSTFILE="$scratch/nodefile" LS_SUBCWD="$scratch" \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        "$@" bash "$script" >"$scratch/out" 2>&1 || RC=$?
}

# The pfsbench part of the recorded command line, one word a line.
pfsbench_args() {
    sed -n "\\|^$scratch/pfsbench\$|,\$p" "$scratch/args" | sed 1d
}

scripts=(slurm/pfsbench.sbatch pbs/pfsbench.pbs lsf/pfsbench.lsf)
# The file names each scheduler's job id gives: 42, 42.server -> 42.
for s in "${scripts[@]}"; do
    # Every workload, with the option that names its directory.
    for case in "create-unlink:-m" "tree:-o" "bonnie:-d" "stream:-o" "matrix:--write"; do
        w=${case%%:*} opt=${case#*:}
        job "$jobs/$s" "PFSBENCH_WORKLOAD=$w" PFSBENCH_DIR=/mnt/x
        check "$s $w: exit 0" test "$RC" -eq 0
        check "$s $w: the workload, its directory, the results file" \
            test "$(pfsbench_args | xargs)" = "$w $opt /mnt/x --results $scratch/pfsbench-$w.42.h5"
        check "$s $w: the report lands beside the results file" test -f "$scratch/pfsbench-$w.42.txt"
    done
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x PFSBENCH_ITERATIONS=3 PFSBENCH_OPTS="-f 100 -s 1m --no-fsync"
    check "$s: create-unlink by default; PFSBENCH_ITERATIONS and PFSBENCH_OPTS" \
        test "$(pfsbench_args | xargs)" = "create-unlink -m /mnt/x --iterations 3 --results $scratch/pfsbench-create-unlink.42.h5 -f 100 -s 1m --no-fsync"
    job "$jobs/$s" PFSBENCH_WORKLOAD=stream PFSBENCH_MODE=read PFSBENCH_DIR=/mnt/x
    check "$s: stream, PFSBENCH_MODE=read: reads what it writes first" \
        test "$(pfsbench_args | xargs)" = "stream -i /mnt/x --prepare --results $scratch/pfsbench-stream.42.h5"
    job "$jobs/$s" PFSBENCH_WORKLOAD=matrix PFSBENCH_MODE=read PFSBENCH_DIR=/mnt/x
    check "$s: matrix, PFSBENCH_MODE=read" \
        test "$(pfsbench_args | xargs)" = "matrix --read /mnt/x --results $scratch/pfsbench-matrix.42.h5"
    job "$jobs/$s" PFSBENCH_MPIRUN_ARGS="--mca btl tcp,self" PFSBENCH_DIR=/mnt/x
    check "$s: PFSBENCH_MPIRUN_ARGS go to mpirun, before pfsbench" \
        test "$(sed "\\|^$scratch/pfsbench\$|,\$d" "$scratch/args" | grep -A2 -- --mca | xargs)" = "--mca btl tcp,self"

    # Refusals: exit 2, one line, mpirun never ran, no report.
    refused() { # WHAT LINE
        check "$s: $1: exit 2" test "$RC" -eq 2
        check "$s: $1: one line: $2" test "$(cat "$scratch/out")" = "job: $2"
        check "$s: $1: mpirun never ran, no report written" \
            test ! -e "$scratch/args" -a -z "$(ls "$scratch" | grep '^pfsbench-' || true)"
    }
    job "$jobs/$s"
    case $s in
    slurm/*) hint="PFSBENCH_DIR=/mnt/gfs2 sbatch ..." ;;
    pbs/*) hint="qsub -v PFSBENCH_DIR=/mnt/gfs2 ..." ;;
    lsf/*) hint="PFSBENCH_DIR=/mnt/gfs2 bsub < ..." ;;
    esac
    refused "no PFSBENCH_DIR (no default directory)" \
        "PFSBENCH_DIR is not set: name the directory to test in, on the filesystem under test ($hint)"
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x PFSBENCH_WORKLOAD=fdtree
    refused "an unknown workload" "PFSBENCH_WORKLOAD='fdtree' is not one of create-unlink, tree, stream, matrix, bonnie"
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x PFSBENCH_WORKLOAD=stream PFSBENCH_MODE=copy
    refused "an unknown mode" "PFSBENCH_MODE='copy' is neither write nor read"
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x PFSBENCH_ITERATIONS=0
    refused "PFSBENCH_ITERATIONS=0" "PFSBENCH_ITERATIONS='0' is not a whole number from 1"
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x "PFSBENCH=$scratch/nonexistent"
    refused "no pfsbench binary" "no pfsbench at '$scratch/nonexistent': set PFSBENCH to its path (the same on every $( [ "$s" = lsf/pfsbench.lsf ] && echo host || echo node))"
    if [ "$(id -u)" -eq 0 ]; then
        job "$jobs/$s" PFSBENCH_DIR=/mnt/x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=
        refused "root without Open MPI's permission" "running as root: Open MPI refuses root unless OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set; set both in the job's environment, or submit as a user"
    fi

    # mpirun is not made quiet: quiet, it would keep to itself a rank that
    # could not start on another node. Its status is the job's; above 2
    # the last line says mpirun ended the run.
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x MPIRUN_STATUS=2
    check "$s: mpirun is not made quiet" test "$(cat "$scratch/args.quiet")" = unset
    check "$s: pfsbench's exit 2 is the job's, with no line of the script's but the status" \
        test "$RC" -eq 2 -a "$(grep -c 'mpirun ended the run' "$scratch/out")" -eq 0
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x MPIRUN_STATUS=139
    check "$s: status 139 is the job's, and its last line says mpirun ended the run" \
        test "$RC" -eq 139 -a "$(tail -1 "$scratch/out" | sed 's/^job 42[.a-z]*: //' | cut -c1-22)" = "mpirun ended the run: "
    job "$jobs/$s" PFSBENCH_DIR=/mnt/x OMPI_MCA_orte_execute_quiet=1
    check "$s: a user's OMPI_MCA_orte_execute_quiet reaches mpirun" test "$(cat "$scratch/args.quiet")" = 1
done
[ "$(id -u)" -eq 0 ] || echo "# not root: the scripts' root check is not exercised"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
