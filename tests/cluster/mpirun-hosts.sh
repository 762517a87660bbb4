#!/bin/bash
# mpirun-hosts.sh - run an MPI job across the netns-hosts.sh hosts.
#
# Usage: mpirun-hosts.sh NPERHOST CMD...
#    or: mpirun-hosts.sh NPERHOST -mpirun-opts... -- CMD...
# Needs `netns-hosts.sh up N` first. Writes a hostfile (slots=NPERHOST per
# host) to $PFS_HOSTS_STATE/hostfile and runs mpirun inside host 1
# (pfsh1), which starts the other daemons through rsh-agent.sh ($MPIRUN:
# Open MPI's mpirun or MPICH's mpiexec.mpich, Hydra). TCP only,
# restricted to ${PFS_NET}.0/24. -np defaults to NPERHOST x hosts. If the
# word after NPERHOST starts with "-", the words up to "--" go to mpirun
# (e.g. -x VAR, --map-by node, -np 3).
# Owns: the hostfile; nothing else.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=netns-hosts.sh
. "$here/netns-hosts.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # harness runs as root
# $MPIRUN (make check's, from configure) picks the MPI: Open MPI's mpirun or
# MPICH's Hydra (mpiexec.mpich), whose options differ (see below).
MPIRUN=${MPIRUN:-mpirun}
command -v "$MPIRUN" >/dev/null || need_pkg openmpi-bin
if [ -z "${MPI_IMPL:-}" ]; then
    case $("$MPIRUN" --version 2>&1) in
        *HYDRA*) MPI_IMPL=mpich ;;
        *) MPI_IMPL=openmpi ;;
    esac
fi

nper=${1:?usage: mpirun-hosts.sh NPERHOST [MPIRUN-OPTS --] CMD...}
shift
opts=()
if [[ ${1:-} == -* ]]; then          # mpirun options, up to "--"
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    [ $# -gt 0 ] && shift
fi
[ $# -ge 1 ] || { echo "mpirun-hosts.sh: no command" >&2; exit 2; }

mapfile -t hosts < <(pfs_hosts_list)
[ "${#hosts[@]}" -ge 1 ] || { echo "mpirun-hosts.sh: no hosts; run netns-hosts.sh up N" >&2; exit 2; }
hostfile="$PFS_HOSTS_STATE/hostfile"
np=()
[[ " ${opts[*]} " == *" -np "* || " ${opts[*]} " == *" -n "* ]] || np=(-np $((nper * ${#hosts[@]})))

if [ "$MPI_IMPL" = mpich ]; then
    # Hydra: hostfile lines HOST:SLOTS; its ssh launcher runs
    # "AGENT -x HOST CMD" (rsh-agent.sh skips -x); -iface eth0 makes the
    # proxies call mpiexec back at host 1's address on the test network,
    # as the host names resolve nowhere; UCX (Debian's MPICH is ch4:ucx)
    # keeps to TCP on that interface too. Hydra hands mpiexec's whole
    # environment to every rank, so no -x is needed.
    for h in "${hosts[@]}"; do echo "$h:$nper"; done >"$hostfile"
    export UCX_NET_DEVICES=${UCX_NET_DEVICES:-eth0}
    pfs_hosts_run "${hosts[0]}" "$MPIRUN" \
        -f "$hostfile" "${np[@]}" \
        -launcher ssh -launcher-exec "$here/rsh-agent.sh" \
        -iface eth0 \
        "${opts[@]}" "$@"
    exit
fi

for h in "${hosts[@]}"; do echo "$h slots=$nper"; done >"$hostfile"
pfs_hosts_run "${hosts[0]}" "$MPIRUN" \
    --hostfile "$hostfile" "${np[@]}" \
    --mca plm_rsh_agent "$here/rsh-agent.sh" \
    --mca btl tcp,self \
    --mca btl_tcp_if_include "$PFS_NET.0/24" \
    --mca oob_tcp_if_include "$PFS_NET.0/24" \
    "${opts[@]}" "$@"
