#!/bin/bash
# rsh-agent.sh - ssh stand-in for Open MPI's rsh launcher on netns-hosts.sh.
#
# Usage (by mpirun: --mca plm_rsh_agent /path/rsh-agent.sh):
#   rsh-agent.sh [ssh-style options] HOST CMD...
# HOST is a host name (pfsh3) or its address (10.231.77.13). Like ssh, the
# words of CMD are joined with spaces and run by `sh -c` - Open MPI quotes
# them for a remote shell - inside HOST's network and UTS namespaces.
# Like ssh, the command gets a fresh environment: only PATH, HOME, USER,
# LOGNAME, LANG, LD_LIBRARY_PATH, TMPDIR, OMPI_ALLOW_RUN_AS_ROOT* and the
# variables named in $PFS_RSH_PASS_ENV (space separated) are passed on.
# Owns nothing; it reads the state written by netns-hosts.sh.
set -euo pipefail

PFS_HOST_PREFIX=${PFS_HOST_PREFIX:-pfsh}
PFS_NET=${PFS_NET:-10.231.77}
PFS_HOSTS_STATE=${PFS_HOSTS_STATE:-/run/pfsbench-hosts}

# Skip ssh-style options; mpirun passes none to a custom agent, but be lenient.
while [ $# -gt 0 ]; do
    case $1 in
        -[lpoiFEbcDeIJLmOQRSwW]) shift 2 ;;
        --) shift; break ;;
        -*) shift ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: $0 [opts] HOST CMD..." >&2; exit 255; }
host=$1
shift
if [[ $host == "$PFS_NET".* ]]; then   # address 10.231.77.1X -> pfshX
    host="$PFS_HOST_PREFIX$((${host##*.} - 10))"
fi
host=${host%%.*}                      # drop any domain part
uts="$PFS_HOSTS_STATE/uts/$host"
if ! [ -e "$uts" ] || ! [ -e "/run/netns/$host" ]; then
    echo "rsh-agent.sh: $host: no such namespace host (netns-hosts.sh up?)" >&2
    exit 255
fi

envs=(PATH HOME USER LOGNAME LANG LD_LIBRARY_PATH TMPDIR
      OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM)
read -r -a extra <<<"${PFS_RSH_PASS_ENV:-}"
keep=()
for v in "${envs[@]}" "${extra[@]}"; do
    [ -n "${!v+x}" ] && keep+=("$v=${!v}")
done
exec nsenter --net="/run/netns/$host" --uts="$uts" -- \
    env -i "${keep[@]}" /bin/sh -c "$*"
