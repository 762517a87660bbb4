#!/bin/bash
# test-slurm.sh - smoke test of slurm.sh: bring up the one-node cluster,
# sbatch --wait jobs/mpi-hostname.sbatch (mpirun -np 2 in a 2-task
# allocation), check its output, tear down (trap). Exit 77 = skipped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=slurm.sh
. "$here/slurm.sh"
command -v mpirun >/dev/null || need_pkg openmpi-bin
pfs_cluster_lock

tmp=$(mktemp -d /tmp/pfs-slurm-test.XXXXXX)
trap 'pfs_slurm_down; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
pfs_slurm_up

pass=0 fail=0
if (cd "$tmp" && timeout 120 sbatch --wait -o "$tmp/out" "$here/../../jobs/mpi-hostname.sbatch"); then
    pass=$((pass + 1)); echo "ok - sbatch --wait exit 0"
else
    fail=$((fail + 1)); echo "not ok - sbatch --wait failed"
fi
cat "$tmp/out" 2>/dev/null || true
n=$(grep -cx "$(hostname -s)" "$tmp/out" 2>/dev/null || true)
if [ "$n" = 2 ]; then pass=$((pass + 1)); echo "ok - mpirun -np 2 printed 2 host names"
else fail=$((fail + 1)); echo "not ok - expected 2 host-name lines, got ${n:-0}"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
