#!/bin/bash
# slurm.sh - throw-away one-node Slurm cluster (munged + slurmctld + slurmd).
#
# Owns: $PFS_SLURM_DIR (default /run/pfsbench-slurm) holding a generated
# munge key, slurm.conf, state, spool, logs, sockets and pid files, and the
# three daemons it starts there (stopped by pid). It uses its own munge socket
# and non-default ports ($PFS_SLURM_PORT, $PFS_SLURM_PORT+1), so a system
# munge/Slurm, if any, is left alone. No systemd, no cgroups; runs as root.
#
# With PFS_SLURM_HOSTS=N (N >= 1; netns-hosts.sh up N first) the cluster is
# the namespace hosts instead: slurmctld runs in pfsh1, one slurmd in each
# host (NodeName=pfsh<i>, NodeAddr=its address), munged stays outside (its
# socket is a file); clients must then run inside a host: pfs_slurm_run.
#
# CLI:
#   slurm.sh up      install slurm-wlm+munge if missing, start, wait for idle
#   slurm.sh down    stop the daemons, remove $PFS_SLURM_DIR (idempotent)
#   slurm.sh env     print "export SLURM_CONF=..." (eval it for sbatch etc.)
#   slurm.sh with CMD...  up, run CMD with SLURM_CONF set, always down
# Library: `. slurm.sh` gives pfs_slurm_up (exports SLURM_CONF), pfs_slurm_down,
# pfs_slurm_run CMD... (a client command, inside pfsh1 when on the hosts).
# Exits 77 with "SKIP: reason" when the machine can't run it.
set -euo pipefail

PFS_SLURM_DIR=${PFS_SLURM_DIR:-/run/pfsbench-slurm}
PFS_SLURM_PORT=${PFS_SLURM_PORT:-16817}

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pfs_slurm_down() {
    local f d pid i pids=()
    for f in "$PFS_SLURM_DIR"/slurmd*.pid "$PFS_SLURM_DIR"/slurmctld.pid "$PFS_SLURM_DIR"/munged.pid; do
        [ -r "$f" ] || continue
        d=${f##*/} d=${d%%.*} pid=$(cat "$f")
        # only if that pid still is our daemon (pid files can go stale)
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$d" ] || continue
        kill "$pid" 2>/dev/null && pids+=("$pid")
    done
    # all at once: each takes 1.5-2 s to exit on SIGTERM
    for pid in "${pids[@]}"; do
        for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$PFS_SLURM_DIR"
}

pfs_slurm_fail() {
    echo "slurm.sh: $*" >&2
    tail -n 20 "$PFS_SLURM_DIR"/*.log >&2 2>/dev/null || true
    pfs_slurm_down
    exit 1
}

# pfs_slurm_wait_pid NAME: wait for the daemon's pid file (daemons fork).
pfs_slurm_wait_pid() {
    local i
    for ((i = 0; i < 100; i++)); do
        [ -s "$PFS_SLURM_DIR/$1.pid" ] && return 0
        sleep 0.1
    done
    pfs_slurm_fail "$1 did not start"
}

# pfs_slurm_run CMD...: a Slurm client command, where it reaches slurmctld.
pfs_slurm_run() {
    if [ "${PFS_SLURM_HOSTS:-0}" -gt 0 ]; then
        pfs_hosts_run "${PFS_HOST_PREFIX}1" "$@"
    else
        "$@"
    fi
}

# pfs_slurm_conf CTLHOST CTLADDR NODE-LINE
pfs_slurm_conf() {
    local d=$PFS_SLURM_DIR
    cat <<EOF
ClusterName=pfsbench
SlurmctldHost=$1($2)
SlurmctldPort=$PFS_SLURM_PORT
SlurmdPort=$((PFS_SLURM_PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SwitchType=switch/none
$3 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

pfs_slurm_up() {
    local d=$PFS_SLURM_DIR i node nhosts=${PFS_SLURM_HOSTS:-0} pre=${PFS_HOST_PREFIX:-pfsh}
    pfs_need_root "slurm.sh (daemons run as root)"
    if [ "$nhosts" -gt 0 ]; then
        declare -F pfs_hosts_run >/dev/null || pfs_slurm_fail "PFS_SLURM_HOSTS: source netns-hosts.sh first"
        [ "$(pfs_hosts_list | wc -l)" -ge "$nhosts" ] ||
            pfs_slurm_fail "PFS_SLURM_HOSTS=$nhosts: only $(pfs_hosts_list | wc -l) namespace hosts are up"
    fi
    need_pkg slurm-wlm munge
    # "NodeName=<host> CPUs=2 Boards=1 ... RealMemory=N" describing this machine
    node=$(slurmd -C 2>&1 | head -n 1) || true
    [[ $node == NodeName=* ]] || skip "slurmd -C does not work here: $node"
    pfs_slurm_down
    mkdir -p "$d/state" "$d/spool"
    chmod 755 "$d"  # munged: socket dir must be o+x, not group/other-writable
    dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 status=none
    chmod 400 "$d/munge.key"
    munged --socket="$d/munge.sock" --key-file="$d/munge.key" \
        --pid-file="$d/munged.pid" --log-file="$d/munged.log" \
        --seed-file="$d/munged.seed" || pfs_slurm_fail "munged failed"
    pfs_slurm_wait_pid munged
    export SLURM_CONF="$d/slurm.conf"
    if [ "$nhosts" -eq 0 ]; then
        pfs_slurm_conf "$(hostname -s)" 127.0.0.1 "$node NodeAddr=127.0.0.1" >"$SLURM_CONF"
        slurmctld -c || pfs_slurm_fail "slurmctld failed"
        pfs_slurm_wait_pid slurmctld
        slurmd || pfs_slurm_fail "slurmd failed"
        node=${node#NodeName=}
        pfs_slurm_wait_pid "slurmd.${node%% *}"
    else
        # the hosts share this machine's CPUs and memory; say 2 CPUs each
        node=$(sed -E 's/^NodeName=[^ ]+//; s/ (CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+//g' <<<"$node")
        pfs_slurm_conf "${pre}1" "$(pfs_host_ip "${pre}1")" \
            "NodeName=${pre}[1-$nhosts] NodeAddr=$PFS_NET.[11-$((10 + nhosts))] CPUs=2$node" >"$SLURM_CONF"
        pfs_hosts_run "${pre}1" slurmctld -c || pfs_slurm_fail "slurmctld failed"
        pfs_slurm_wait_pid slurmctld
        for ((i = 1; i <= nhosts; i++)); do
            pfs_hosts_run "$pre$i" slurmd -N "$pre$i" || pfs_slurm_fail "slurmd on $pre$i failed"
            pfs_slurm_wait_pid "slurmd.$pre$i"
        done
    fi
    for ((i = 0; i < 150; i++)); do
        [ "$(pfs_slurm_run sinfo -h -o %T 2>/dev/null | sort -u)" = idle ] && return 0
        sleep 0.2
    done
    pfs_slurm_fail "nodes not idle after 30s: $(pfs_slurm_run sinfo -h -N -o '%N %T %E' 2>&1)"
}

# EXIT trap for "up": undo a half-done up, but not after success or a skip.
pfs_down_on_error() {
    local rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || pfs_slurm_down
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    cmd=${1:-}
    shift || true
    case $cmd in
        up)
            trap pfs_down_on_error EXIT
            pfs_slurm_up
            echo "export SLURM_CONF=$SLURM_CONF"
            ;;
        down) pfs_slurm_down ;;
        env) echo "export SLURM_CONF=$PFS_SLURM_DIR/slurm.conf" ;;
        with)
            trap pfs_slurm_down EXIT
            trap 'exit 130' INT TERM
            pfs_slurm_up
            "$@"
            ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
fi
