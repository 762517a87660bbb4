#!/bin/bash
# netns-hosts.sh - fake multi-host cluster out of Linux network namespaces.
#
# Owns: network namespaces ${PFS_HOST_PREFIX}1..N (default pfsh1..pfshN) plus
# a switch namespace ${PFS_HOST_PREFIX}-sw holding bridge "br0", one veth pair
# per host, and a persisted UTS namespace per host (bind-mounted file under
# $PFS_HOSTS_STATE, default /run/pfsbench-hosts). Nothing is added to the
# root network namespace. Host i is ${PFS_NET}.$((10+i))/24 on its eth0,
# hostname pfsh<i>. All hosts share the root filesystem (/tmp is "shared").
#
# CLI:
#   netns-hosts.sh up N            create N hosts (tears down old ones first)
#   netns-hosts.sh down            end processes left in the hosts, remove
#                                  everything (safe to call twice)
#   netns-hosts.sh run HOST CMD... run CMD inside HOST's net+uts namespaces
#   netns-hosts.sh with N CMD...   up N, run CMD in the root ns, always down
#   netns-hosts.sh hosts           print the host names that are up
# Library: `. netns-hosts.sh` gives pfs_hosts_up/down/run/list, pfs_host_ip.
# Exits 77 with "SKIP: reason" when namespaces cannot be created.
set -euo pipefail

PFS_HOST_PREFIX=${PFS_HOST_PREFIX:-pfsh}
PFS_NET=${PFS_NET:-10.231.77}            # /24 used only inside our namespaces
PFS_HOSTS_STATE=${PFS_HOSTS_STATE:-/run/pfsbench-hosts}
export PFS_HOST_PREFIX PFS_NET PFS_HOSTS_STATE

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pfs_host_ip() { echo "${PFS_NET}.$((10 + ${1#"$PFS_HOST_PREFIX"}))"; }

pfs_hosts_list() {
    local n=0 i
    [ -r "$PFS_HOSTS_STATE/count" ] && n=$(cat "$PFS_HOSTS_STATE/count")
    for ((i = 1; i <= n; i++)); do echo "$PFS_HOST_PREFIX$i"; done
}

pfs_hosts_check() {
    pfs_need_root "creating network namespaces"
    command -v ip >/dev/null || need_pkg iproute2
    local c
    for c in ip nsenter unshare hostname; do
        command -v "$c" >/dev/null || skip "missing command: $c"
    done
    local probe="${PFS_HOST_PREFIX}-probe$$" err
    if ! err=$(ip netns add "$probe" 2>&1); then
        skip "cannot create network namespace: $err"
    fi
    if ! err=$(ip -n "$probe" link add br0 type bridge 2>&1); then
        ip netns del "$probe" 2>/dev/null || true
        skip "cannot create bridge: $err"
    fi
    ip netns del "$probe"
}

# pfs_hosts_kill: ends every process still inside one of our hosts (an
# mpirun a timeout orphaned, a rank on a host whose link was cut): TERM,
# then KILL after 2 s. Only our namespaces are looked at.
pfs_hosts_kill() {
    local ns pids=() i
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
        case $ns in
            "$PFS_HOST_PREFIX"-sw | "$PFS_HOST_PREFIX"[0-9]*)
                mapfile -t -O "${#pids[@]}" pids < <(ip netns pids "$ns" 2>/dev/null) ;;
        esac
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill "${pids[@]}" 2>/dev/null || true
    for ((i = 0; i < 20; i++)); do
        kill -0 "${pids[@]}" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
}

pfs_hosts_down() {
    local f ns
    pfs_hosts_kill
    for f in "$PFS_HOSTS_STATE"/uts/*; do
        [ -e "$f" ] || continue
        umount "$f" 2>/dev/null || true
        rm -f "$f"
    done
    # Deleting a namespace also destroys the veth ends inside it.
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
        case $ns in
            "$PFS_HOST_PREFIX"-sw | "$PFS_HOST_PREFIX"[0-9]*) ip netns del "$ns" || true ;;
        esac
    done
    rm -rf "$PFS_HOSTS_STATE"
}

pfs_hosts_up() {
    local n=${1:?usage: up N} i h sw="${PFS_HOST_PREFIX}-sw"
    [[ $n =~ ^[0-9]+$ && $n -ge 1 && $n -le 200 ]] || { echo "bad host count: $n" >&2; return 2; }
    pfs_hosts_check
    pfs_hosts_down
    mkdir -p "$PFS_HOSTS_STATE/uts"
    ip netns add "$sw"
    ip -n "$sw" link add br0 type bridge
    ip -n "$sw" link set br0 up
    for ((i = 1; i <= n; i++)); do
        h="$PFS_HOST_PREFIX$i"
        ip netns add "$h"
        ip -n "$h" link set lo up
        ip link add "v$i" netns "$sw" type veth peer name eth0 netns "$h"
        ip -n "$sw" link set "v$i" master br0 up
        ip -n "$h" addr add "$(pfs_host_ip "$h")/24" dev eth0
        ip -n "$h" link set eth0 up
        touch "$PFS_HOSTS_STATE/uts/$h"
        unshare --uts="$PFS_HOSTS_STATE/uts/$h" hostname "$h"
    done
    echo "$n" >"$PFS_HOSTS_STATE/count"
}

# pfs_hosts_run HOST CMD...: CMD runs with the caller's env, mount ns and cwd.
pfs_hosts_run() {
    local h=${1:?usage: run HOST CMD...}
    shift
    [ -e "$PFS_HOSTS_STATE/uts/$h" ] || { echo "no such host: $h" >&2; return 2; }
    nsenter --net="/run/netns/$h" --uts="$PFS_HOSTS_STATE/uts/$h" -- "$@"
}

# EXIT trap for "up": undo a half-done up, but not after success or a skip.
pfs_down_on_error() {
    local rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || pfs_hosts_down
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    cmd=${1:-}
    shift || true
    case $cmd in
        up)
            trap pfs_down_on_error EXIT
            pfs_hosts_up "$@"
            ;;
        down) pfs_hosts_down ;;
        run) pfs_hosts_run "$@" ;;
        hosts) pfs_hosts_list ;;
        with)
            trap pfs_hosts_down EXIT
            trap 'exit 130' INT TERM
            pfs_hosts_up "${1:?usage: with N CMD...}"
            shift
            "$@"
            ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
fi
