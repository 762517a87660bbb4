#!/bin/bash
# hosts-test-lib.sh - common start of the tests that run pfsbench on the
# namespace hosts (sourced): the check helpers of tests/mpi/lib.sh (ok,
# not_ok, check, finish, rows, $SCRATCH removed at exit), the machine-wide
# cluster lock, N hosts brought up now and torn down at exit, and
#   hosts_run NPERHOST [MPIRUN-OPTS --] ARGS...   pfsbench ARGS on the hosts
#   hosts_pfsbench_pids HOST                      pfsbench processes in HOST
#   h5_nodes FILE                                 "name addr workers" per node
# Usage: . hosts-test-lib.sh; hosts_begin N
# PFSBENCH defaults to the binary of this source tree.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PFSBENCH:=$here/../../src/pfsbench}"
export PFSBENCH
# shellcheck source=netns-hosts.sh
. "$here/netns-hosts.sh"
# shellcheck source=../mpi/lib.sh
. "$here/../mpi/lib.sh"
set -euo pipefail              # mpi/lib.sh only sets -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # harness runs as root

hosts_begin() {
    [ -x "$PFSBENCH" ] || skip "no pfsbench binary at '$PFSBENCH' (run make first)"
    pfs_need_root "running hosts as network namespaces"
    command -v mpirun >/dev/null || need_pkg openmpi-bin
    pfs_cluster_lock
    T_CLEANUP+=("pfs_hosts_down")
    trap 'exit 130' INT TERM
    pfs_hosts_up "$1"
}

# hosts_run NPERHOST [MPIRUN-OPTS --] ARGS...: pfsbench ARGS on every host
# with NPERHOST ranks each, within 120 s; stdout in $OUT, stderr in $ERR,
# exit status in $RC (as tests/mpi/lib.sh's pfs does).
hosts_run() {
    local nper=$1 opts=()
    shift
    if [[ ${1:-} == -* ]]; then
        while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
        shift
    fi
    OUT=$SCRATCH/out ERR=$SCRATCH/err RC=0
    # in SCRATCH: the default results file lands in rank 0's current directory
    (cd "$SCRATCH" && timeout -k 5 120 "$here/mpirun-hosts.sh" "$nper" "${opts[@]}" -- \
        "$PFSBENCH" "$@") >"$OUT" 2>"$ERR" || RC=$?
}

hosts_pfsbench_pids() {
    local p
    for p in $(ip netns pids "$1" 2>/dev/null); do
        [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pfsbench ] &&
            [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ] && echo "$p"
    done
    return 0
}

# ran_ok NODES WORKERS: the run in $OUT/$RC ended with status 0 and its
# header counts NODES nodes of WORKERS workers.
ran_ok() {
    if [ "$RC" -eq 0 ]; then ok "exit status 0"; else not_ok "exit status $RC"; show_run; fi
    check "$1 nodes of $2 workers" grep -qx "Testing with $1 nodes, $2 workers per node: " "$OUT"
}

# h5_nodes FILE: the /nodes dataset of a results file, one "name address
# workers" line per node, in node order.
h5_nodes() {
    h5dump -y -d /nodes "$1" | tr -d ' \n' | grep -o '{"[^"]*","[^"]*",[0-9]*' | tr -d '{"' | tr ',' ' '
}
